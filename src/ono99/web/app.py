"""The FastAPI application of ``ono99 serve`` (docs/protocol.md, CONTRACTS.md "Web").

Every answer to bad input is a 4xx with ``{"error": "one line"}``; no client input
gives a 5xx or a traceback.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import logging
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import urlsplit

from fastapi import FastAPI, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ValidationError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from starlette.websockets import WebSocketDisconnect, WebSocketState

from ono99.errors import Ono99Error
from ono99.i18n import LANGUAGES, N_
from ono99.web.announce import catalog, pick_language, translate
from ono99.web.companion import make_router as make_companion_router
from ono99.web.conn import Conn, encode
from ono99.web.errors import WebError, clean_name, no_table
from ono99.web.hub import Hub
from ono99.web.limits import (
    FLOODING,
    TOO_LARGE,
    TOO_MANY_LOBBIES,
    TOO_MANY_MESSAGES,
    Guard,
    Limits,
    RateLimit,
    SocketGuard,
    Verdict,
    client_ip,
    hide_tokens,
    is_json,
)
from ono99.web.protocol import (
    CreateTable,
    HelloMsg,
    JoinTable,
    MoveMsg,
    PingMsg,
    TokenBody,
    client_message,
)
from ono99.web.protocol import schemas as protocol_schemas
from ono99.web.replay_api import make_router as make_replay_router
from ono99.web.settings import Settings
from ono99.web.store import Store
from ono99.web.tables import Table
from ono99.web.words_api import make_router as make_words_router

__all__ = [
    "create_app",
    "http_protocol",
    "public_origin",
    "STATIC_DIR",
    "BODY_LIMIT",
    "BODY_SECONDS",
    "HEADER_SECONDS",
]

log = logging.getLogger("ono99.web")

M = TypeVar("M", bound=BaseModel)

STATIC_DIR = Path(__file__).parent / "static"
#: the largest request body or websocket message, in bytes
BODY_LIMIT = 64 * 1024
#: the largest game record ``POST /api/replay`` takes
RECORD_LIMIT = 1_000_000
#: seconds a client has to send a request's whole body (a slow one gets 408), and its
#: request line and headers (then it is closed): ``Limits.body_seconds``/``header_seconds``
BODY_SECONDS = Limits.body_seconds
HEADER_SECONDS = Limits.header_seconds
#: seconds between two sweeps of the tables (Hub.sweep: finished and expired ones)
SWEEP_SECONDS = 30.0

PLACEHOLDER = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>ONO 99</title></head>
<body><main><h1>ONO 99</h1><p>The web table's page is not installed.</p></main></body></html>
"""


def _lang(request: Request) -> str:
    return pick_language(request.query_params.get("lang") or request.headers.get("accept-language"))


def _error(request: Request, status: int, text: str) -> JSONResponse:
    return JSONResponse({"error": _one_line(text)}, status_code=status)


def _one_line(text: str) -> str:
    """``text`` on one line, as valid UTF-8 (a client's lone surrogate becomes "?")."""
    return " ".join(text.split()).encode("utf-8", "replace").decode("utf-8")


#: the page runs only its own files: nothing a name or a message holds can run as script
PAGE_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
        "frame-ancestors 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}


class SecurityHeaders:
    """ASGI middleware: ``nosniff`` on every answer, and the page headers (CSP with
    ``frame-ancestors 'none'``) on every HTML one (``/``, ``/t/CODE``, ``/companion``,
    ``/static/*.html``, an error page)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(msg: Message) -> None:
            if msg["type"] == "http.response.start":
                headers = list(msg.get("headers") or [])
                have = {k.lower() for k, _v in headers}
                kind = next((v for k, v in headers if k.lower() == b"content-type"), b"")
                extra = PAGE_HEADERS if kind.lower().startswith(b"text/html") else NOSNIFF
                for k, v in extra.items():
                    if k.lower().encode() not in have:
                        headers.append((k.lower().encode(), v.encode()))
                msg = {**msg, "headers": headers}
            await send(msg)

        await self.app(scope, receive, with_headers)


NOSNIFF = {"X-Content-Type-Options": "nosniff"}


def public_origin(url: str) -> str:
    """``url`` (``--public-url``) as the links' start: ``scheme://host[:port][/path]``
    without a trailing slash; ValueError, one line, unless it is an http(s) URL."""
    raw = url.strip()
    try:
        parts = urlsplit(raw)
        parts.port  # noqa: B018 - raises ValueError on a bad port
    except ValueError:
        raise ValueError(f"not an http(s) URL: {raw!r}") from None
    if parts.scheme not in ("http", "https") or not parts.hostname or parts.query or parts.fragment:
        raise ValueError(f"not an http(s) URL: {raw!r}")
    if any(ch.isspace() or ord(ch) < 32 for ch in raw):
        raise ValueError(f"not an http(s) URL: {raw!r}")
    return f"{parts.scheme}://{parts.netloc}{parts.path}".rstrip("/")


def _same_origin(origin: str, host: str | None, public: str | None) -> bool:
    """Whether a websocket's ``Origin`` is this server's: the Host it asked for, or the
    configured public URL."""
    try:
        o = urlsplit(origin.strip())
        netloc = o.netloc.lower()
    except ValueError:
        return False
    if o.scheme not in ("http", "https") or not netloc:
        return False
    if public is not None:
        p = urlsplit(public)
        if (o.scheme, netloc) == (p.scheme, p.netloc.lower()):
            return True
    if host is None:
        return False
    default = {"http": ":80", "https": ":443"}[o.scheme]
    host = host.strip().lower()
    return netloc == host or netloc + default == host or netloc == host + default


ERROR_SCHEMA = {
    "type": "object",
    "properties": {"error": {"type": "string"}},
    "required": ["error"],
}


def _documented(model: type[BaseModel]) -> dict[str, Any]:
    """The OpenAPI text of a route whose JSON body ``_body`` reads as ``model``, and of its
    error answers (``/api/openapi.json``: what schemathesis fuzzes)."""
    error = {"content": {"application/json": {"schema": ERROR_SCHEMA}}}
    return {
        "requestBody": {
            "required": True,
            "content": {"application/json": {"schema": model.model_json_schema()}},
        },
        "responses": {
            "400": {"description": "bad body", **error},
            "404": {"description": "unknown table or wrong token", **error},
            "409": {"description": "not in this phase", **error},
            "408": {"description": "the body came too slowly", **error},
            "413": {"description": "body over 64 KiB", **error},
            "415": {"description": "the body is not application/json", **error},
            "429": {"description": "too many requests", **error},
        },
    }


def _message_id(value: Any) -> int | str | None:
    """A client's message ``id`` as it may be echoed (docs/protocol.md), else None."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int) and -(2**53) < value < 2**53:
        return value
    if isinstance(value, str) and len(value) <= 64:
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            return None
        return value
    return None


def _validation_text(request: Request, errors: Any) -> str:
    tr = catalog(_lang(request))
    try:
        first = errors[0]
        where = ".".join(str(p) for p in first.get("loc", ()) if p != "body")
        detail = f"{where}: {first.get('msg', '')}" if where else str(first.get("msg", ""))
    except (IndexError, TypeError, AttributeError, KeyError):
        detail = ""
    detail = detail[:200]
    return tr.gettext(N_("bad request: {detail}")).format(detail=detail)


class BodyLimit:
    """Refuse request bodies over ``limit`` bytes with 413 (Content-Length or counted);
    ``/api/replay`` takes records up to ``RECORD_LIMIT``. A body that has not come in
    whole ``seconds`` after the app asked for it is refused with 408 (a slow client)."""

    def __init__(self, app: ASGIApp, limit: int, seconds: float = BODY_SECONDS) -> None:
        self.app = app
        self.default = limit
        self.seconds = seconds

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = RECORD_LIMIT if scope.get("path") == "/api/replay" else self.default
        headers = dict(scope.get("headers") or [])
        length = headers.get(b"content-length")
        too_big = False
        if length is not None:
            try:
                too_big = int(length) > limit
            except ValueError:
                too_big = True
        if too_big:
            await self._refuse(send)
            return
        seen = 0
        whole = False  # the last part of the body came: later reads wait for the disconnect
        deadline: float | None = None
        started = False

        async def limited() -> Message:
            nonlocal deadline
            if whole:
                return await receive()
            if self.seconds <= 0:
                msg = await receive()
                return _count(msg)
            loop = asyncio.get_running_loop()
            if deadline is None:
                deadline = loop.time() + self.seconds
            try:
                msg = await asyncio.wait_for(receive(), max(0.0, deadline - loop.time()))
            except TimeoutError:
                raise _TooSlow from None
            return _count(msg)

        def _count(msg: Message) -> Message:
            nonlocal seen, whole
            if msg["type"] == "http.request":
                seen += len(msg.get("body", b""))
                if seen > limit:
                    raise _TooBig
                whole = not msg.get("more_body", False)
            return msg

        async def watched(msg: Message) -> None:
            nonlocal started
            if msg["type"] == "http.response.start":
                started = True
            await send(msg)

        try:
            await self.app(scope, limited, watched)
        except _TooBig:
            if not started:
                await self._refuse(send)
        except _TooSlow:
            if not started:
                await self._refuse(send, 408, "the request body came too slowly")

    async def _refuse(
        self, send: Send, status: int = 413, text: str = "the request body is too large"
    ) -> None:
        body = json.dumps({"error": text}).encode()
        await send(
            {"type": "http.response.start", "status": status,
             "headers": [(b"content-type", b"application/json"),
                         (b"content-length", str(len(body)).encode())]}
        )  # fmt: skip
        await send({"type": "http.response.body", "body": body})


def http_protocol(seconds: float = HEADER_SECONDS) -> Any:
    """uvicorn's HTTP protocol (httptools) with a deadline on the request line and
    headers: a connection that has not sent them whole ``seconds`` after it opened, or
    after its request began, is closed (a slow-header client holds nothing for long;
    0: no deadline).
    uvicorn's own ``timeout_keep_alive`` only covers the wait between two requests.
    "auto" (uvicorn's choice, without that deadline) where httptools is not installed."""
    try:
        from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
    except ImportError:  # pragma: no cover - httptools comes with uvicorn[standard]
        return "auto"

    class HeaderDeadline(HttpToolsProtocol):
        _header_timer: asyncio.TimerHandle | None = None

        def _arm(self) -> None:
            self._disarm()
            if seconds > 0:
                self._header_timer = self.loop.call_later(seconds, self._too_slow)

        def _disarm(self) -> None:
            if self._header_timer is not None:
                self._header_timer.cancel()
                self._header_timer = None

        def _too_slow(self) -> None:
            self._header_timer = None
            if not self.transport.is_closing():
                self.transport.close()

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self._arm()

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            super().connection_lost(exc)

        def on_message_begin(self) -> None:
            super().on_message_begin()
            if self._header_timer is None:
                self._arm()

        def on_headers_complete(self) -> None:
            self._disarm()
            super().on_headers_complete()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            # idle until the next request: uvicorn's keep-alive timeout closes it
            self._disarm()

    return HeaderDeadline


class _TooBig(Exception):
    pass


class _TooSlow(Exception):
    pass


def serving_gc() -> None:
    """The collector's settings for a serving process (``ono99 serve``), once it has
    started: what exists now (imports, loaded tables) is frozen out of every collection,
    and the youngest generation is collected after 50,000 allocations instead of 700.
    Profiled in benchmarks/load.py: every move allocates a few thousand short-lived
    objects (four state messages), so the default thresholds ran several collections a
    move, and full collections over the server's long-lived objects paused every table
    for tens of milliseconds. Reference cycles are still collected, less often."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(50_000, 20, 20)


def create_app(
    db_url: str,
    *,
    load: bool = True,
    limits: Limits | None = None,
    public_url: str | None = None,
    tune_gc: bool = False,
) -> FastAPI:
    """The web table application on the database at ``db_url``; ``limits`` default to
    the ``ONO99_...`` environment variables (``Limits.from_env``). ``public_url``
    (``ono99 serve --public-url``) is where clients reach the server: the invitation
    links start with it, and websockets from its origin are accepted; without it a link
    a request asks for is built from that request, and the links every client of a table
    is sent are relative (``/t/CODE``). ValueError for a ``public_url`` that is not an
    http(s) URL. ``tune_gc``: the process serves only this app (``serving_gc`` at start;
    left off where the app shares a process, as in tests)."""
    state: dict[str, Hub] = {}
    lim = Limits.from_env() if limits is None else limits
    guard = Guard(lim)
    public = None if public_url is None else public_origin(public_url)
    #: client address -> the lobby tables it made (``Limits.lobby_tables``)
    lobbies: dict[str, set[str]] = {}
    hide_tokens()

    async def sweeper(hub: Hub) -> None:
        every = SWEEP_SECONDS
        if lim.lobby_seconds > 0:
            every = min(every, max(lim.lobby_seconds / 10, 0.05))
        every = min(every, max(hub.finished_grace / 2, 0.05))
        while True:
            await asyncio.sleep(every)
            try:
                await hub.sweep()
            except Exception:  # the database may be away a moment: next time
                log.warning("ono99: sweeping the tables failed", exc_info=True)

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        store = await asyncio.to_thread(Store, db_url)
        hub = Hub(store)
        hub.base_url = public or "/"
        hub.lobby_seconds = lim.lobby_seconds
        hub.finished_grace = lim.finished_seconds
        state["hub"] = hub
        _app.state.hub = hub
        if load:
            n = await hub.load_all()
            log.info("ono99: %d unfinished tables loaded", n)
        if tune_gc:
            serving_gc()
        sweeping = asyncio.create_task(sweeper(hub))
        try:
            yield
        finally:
            sweeping.cancel()
            with contextlib.suppress(BaseException):
                await sweeping
            await hub.close()

    app = FastAPI(
        title="ono99 web table",
        lifespan=lifespan,
        docs_url=None,
        redoc_url=None,
        openapi_url="/api/openapi.json",
    )

    app.add_middleware(BodyLimit, limit=BODY_LIMIT, seconds=lim.body_seconds)
    app.add_middleware(RateLimit, guard=guard)  # before the body is read
    app.add_middleware(SecurityHeaders)  # outermost: on every answer, a 429 too
    app.state.guard = guard
    app.state.public_url = public

    def link_base(request: Request) -> str:
        """The start of a link this request is answered with."""
        return public or str(request.base_url)

    def hub() -> Hub:
        return state["hub"]

    # ------------------------------------------------------------------ errors

    @app.exception_handler(RequestValidationError)
    async def _bad_request(request: Request, exc: RequestValidationError) -> JSONResponse:
        return _error(request, 400, _validation_text(request, exc.errors()))

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        tr = catalog(_lang(request))
        if exc.status_code == 404:
            text = tr.gettext(N_("not found"))
        elif exc.status_code == 405:
            text = tr.gettext(N_("method not allowed"))
        else:
            text = str(exc.detail)
        status = exc.status_code if 400 <= exc.status_code < 500 else 400
        return _error(request, status, text)

    @app.exception_handler(WebError)
    async def _web_error(request: Request, exc: WebError) -> JSONResponse:
        return _error(request, exc.status, exc.text(_lang(request)))

    @app.exception_handler(Ono99Error)
    async def _engine_error(request: Request, exc: Ono99Error) -> JSONResponse:
        return _error(request, 400, translate(exc, _lang(request)))

    @app.exception_handler(Exception)
    async def _internal(request: Request, exc: Exception) -> JSONResponse:
        log.exception("ono99: unexpected error on %s", request.url.path)
        return _error(request, 500, catalog(_lang(request)).gettext(N_("internal error")))

    # ------------------------------------------------------------------ pages

    def _index() -> Response:
        index = STATIC_DIR / "index.html"
        if index.is_file():
            return FileResponse(index, media_type="text/html", headers=PAGE_HEADERS)
        return HTMLResponse(PLACEHOLDER, headers=PAGE_HEADERS)

    @app.get("/", include_in_schema=False)
    async def index() -> Response:
        return _index()

    @app.get("/t/{code}", include_in_schema=False)
    async def table_page(code: str) -> Response:
        return _index()

    app.mount("/static", StaticFiles(directory=STATIC_DIR, check_dir=False), name="static")

    @app.get("/healthz")
    async def healthz() -> dict[str, bool]:
        return {"ok": True}

    # ------------------------------------------------------------------ API

    async def _body(request: Request, model: type[M]) -> M:
        """The JSON body as ``model``; 415 unless the Content-Type is application/json
        (a form a page of another site posts cannot change anything)."""
        if not is_json(request):
            raise WebError(415, N_("the request body must be application/json"))
        raw = await request.body()
        try:
            data = json.loads(raw) if raw.strip() else None
        except (ValueError, RecursionError):
            raise WebError(400, N_("the request body is not JSON")) from None
        try:
            return model.model_validate(data)
        except ValidationError as e:
            raise RequestValidationError(e.errors()) from None

    async def _table(table_id: str) -> Table:
        table = await hub().get(table_id)
        if table is None:
            raise no_table()
        return table

    @app.post("/api/tables", status_code=201, openapi_extra=_documented(CreateTable))
    async def create_table(request: Request) -> dict[str, Any]:
        body = await _body(request, CreateTable)
        settings = Settings.from_request(body)
        name = body.name
        if name is not None:
            clean_name(name)  # a bad name is refused before anything is stored
        ip = client_ip(request.scope)
        mine = lobbies.get(ip, set())
        mine = {t for t in mine if (x := hub().tables.get(t)) is not None and x.phase == "lobby"}
        if lim.lobby_tables and len(mine) >= lim.lobby_tables:
            raise WebError(429, TOO_MANY_LOBBIES)
        table = await hub().create(settings, body.seed)
        mine.add(table.id)
        lobbies[ip] = mine
        out: dict[str, Any] = {
            "table": table.id,
            "code": table.code,
            "url": table.info(link_base(request))["url"],
        }
        if name is not None:
            out["seat"], out["token"] = await table.join(name)
        return out

    @app.get("/api/tables/{table_id}")
    async def table_info(table_id: str, request: Request) -> dict[str, Any]:
        return (await _table(table_id)).info(link_base(request))

    @app.get("/api/codes/{code}")
    async def code_info(code: str, request: Request) -> dict[str, Any]:
        table = await hub().by_code(code)
        if table is None:
            raise no_table()
        return table.info(link_base(request))

    @app.post("/api/tables/{table_id}/join", openapi_extra=_documented(JoinTable))
    async def join(table_id: str, request: Request) -> dict[str, Any]:
        body = await _body(request, JoinTable)
        seat, token = await (await _table(table_id)).join(body.name)
        return {"seat": seat, "token": token}

    @app.post("/api/tables/{table_id}/start", openapi_extra=_documented(TokenBody))
    async def start(table_id: str, request: Request) -> dict[str, Any]:
        body = await _body(request, TokenBody)
        version = await (await _table(table_id)).start(body.token)
        return {"ok": True, "version": version}

    @app.post(
        "/api/tables/{table_id}/rematch", status_code=201, openapi_extra=_documented(TokenBody)
    )
    async def rematch(table_id: str, request: Request) -> dict[str, Any]:
        body = await _body(request, TokenBody)
        nxt, seat, token = await hub().rematch(await _table(table_id), body.token)
        return {
            "table": nxt.id,
            "code": nxt.code,
            "url": nxt.info(link_base(request))["url"],
            "seat": seat,
            "token": token,
        }

    @app.get("/api/tables/{table_id}/record")
    async def record(table_id: str) -> dict[str, Any]:
        return (await _table(table_id)).record()

    app.include_router(make_words_router())  # /api/i18n/{lang}, /api/presets
    app.include_router(make_replay_router())
    app.include_router(make_companion_router(db_url))  # /companion (docs/companion.md)

    @app.get("/api/schema")
    async def schema() -> dict[str, Any]:
        return protocol_schemas()

    # ------------------------------------------------------------------ websocket

    @app.websocket("/ws/{table_id}")
    async def ws(websocket: WebSocket, table_id: str) -> None:
        lang = pick_language(websocket.query_params.get("lang"))
        token = websocket.query_params.get("token")
        ip = client_ip(websocket.scope)
        origin = websocket.headers.get("origin")
        if origin is not None and not _same_origin(origin, websocket.headers.get("host"), public):
            # a page of another site: refused at the handshake (HTTP 403); a client that
            # is not a browser sends no Origin and is let in
            await websocket.close(code=1008)
            return
        refused = guard.open_socket(ip)
        await websocket.accept()
        if refused is not None:
            text = catalog(lang).gettext(refused[0])
            with contextlib.suppress(Exception):
                await websocket.send_text(json.dumps({"type": "error", "error": text}))
                await websocket.close(code=refused[1])
            return
        try:
            await _session(websocket, table_id, token, lang, guard.socket(ip))
        finally:
            guard.close_socket(ip)

    async def _session(
        websocket: WebSocket, table_id: str, token: str | None, lang: str, sock: SocketGuard
    ) -> None:
        table = await hub().get(table_id)
        seat = None
        if table is not None and token is not None:
            seat = await table.find_seat(token)
            if seat is None:
                table = None
        if table is None:
            err = no_table()
            with contextlib.suppress(Exception):  # the client may be gone already
                await websocket.send_text(json.dumps({"type": "error", "error": err.text(lang)}))
                await websocket.close(code=4404)
            return
        conn = Conn(seat, lang)
        close_code = [1000]
        writer = asyncio.create_task(_writer(websocket, conn, close_code))
        await table.connect(conn)
        try:
            close_code[0] = await _reader(websocket, table, conn, sock)
        finally:
            await table.disconnect(conn)
            conn.queue.put_nowait(None)
            with contextlib.suppress(BaseException):
                await asyncio.wait_for(writer, 5)

    return app


async def _writer(websocket: WebSocket, conn: Conn, close_code: list[int]) -> None:
    try:
        while True:
            msg = await conn.queue.get()
            if msg is None:
                break
            await websocket.send_text(encode(msg))
    except Exception:  # the socket went away: the reader notices and cleans up
        pass
    finally:
        if websocket.application_state == WebSocketState.CONNECTED:
            with contextlib.suppress(Exception):
                await websocket.close(code=close_code[0])


async def _reader(websocket: WebSocket, table: Table, conn: Conn, sock: SocketGuard) -> int:
    """Read the client's messages until it goes (1000) or keeps flooding (the close
    code, after an error that says so)."""
    while True:
        try:
            frame = await websocket.receive()
        except (WebSocketDisconnect, RuntimeError):
            return 1000
        if frame["type"] == "websocket.disconnect":
            return 1000
        text = frame.get("text")
        raw = frame.get("bytes")
        if text is not None:
            size = len(text) if text.isascii() else len(text.encode("utf-8", "replace"))
        else:
            size = len(raw or b"")
        verdict = sock.admit(size)
        if verdict is Verdict.DROP:
            continue
        if verdict is Verdict.CLOSE:
            _reply_error(table, conn, FLOODING)
            return 1008
        if verdict is Verdict.SLOW_DOWN:
            _reply_error(table, conn, TOO_MANY_MESSAGES)
            continue
        if verdict is Verdict.TOO_LARGE:
            _reply_error(table, conn, TOO_LARGE)
            continue
        if text is None:
            _reply_error(table, conn, N_("messages must be JSON text"))
            continue
        try:
            data = json.loads(text)
        except (ValueError, RecursionError):
            _reply_error(table, conn, N_("the message is not JSON"))
            continue
        msg_id = _message_id(data.get("id") if isinstance(data, dict) else None)
        try:
            msg = client_message(data)
        except ValidationError as e:
            errs = e.errors()
            where = ".".join(str(p) for p in errs[0]["loc"]) if errs else ""
            detail = f"{where}: {errs[0]['msg']}" if errs else ""
            tr = catalog(conn.lang)
            conn.send(
                {
                    "type": "error",
                    "error": tr.gettext(N_("malformed message: {detail}")).format(
                        detail=_one_line(detail)[:200]
                    ),
                    "version": table.version,
                    **({"id": msg_id} if msg_id is not None else {}),
                }
            )
            continue
        try:
            await _dispatch(table, conn, msg)
        except Exception:
            log.exception("ono99: a websocket message failed on table %s", table.id)
            _reply_error(table, conn, N_("internal error"), msg.id)


async def _dispatch(table: Table, conn: Conn, msg: MoveMsg | HelloMsg | PingMsg) -> None:
    if isinstance(msg, MoveMsg):
        await table.move(conn, msg)
    elif isinstance(msg, HelloMsg):
        if msg.lang is not None and msg.lang not in LANGUAGES:
            _reply_error(table, conn, N_("unknown language"), msg.id)
            return
        await table.hello(conn, msg.lang)
    else:
        out: dict[str, Any] = {"type": "pong"}
        if msg.id is not None:
            out["id"] = msg.id
        conn.send(out)


def _reply_error(table: Table, conn: Conn, template: str, msg_id: Any = None) -> None:
    out: dict[str, Any] = {
        "type": "error",
        "error": catalog(conn.lang).gettext(template),
        "version": table.version,
    }
    if msg_id is not None:
        out["id"] = msg_id
    conn.send(out)
