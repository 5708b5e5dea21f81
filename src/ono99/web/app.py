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

from fastapi import FastAPI, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ValidationError
from starlette.exceptions import HTTPException as StarletteHTTPException

from ono99.errors import Ono99Error
from ono99.i18n import N_
from ono99.web.announce import catalog, request_language, translate
from ono99.web.companion import make_router as make_companion_router
from ono99.web.errors import WebError, clean_name, no_table, one_line
from ono99.web.guards import (
    BODY_LIMIT,
    PAGE_HEADERS,
    BodyLimit,
    SecurityHeaders,
    public_origin,
    same_origin,
)
from ono99.web.hub import Hub
from ono99.web.limits import (
    TOO_MANY_LOBBIES,
    Guard,
    Limits,
    RateLimit,
    SocketGuard,
    client_ip,
    hide_tokens,
    is_json,
)
from ono99.web.protocol import (
    CreateTable,
    JoinTable,
    RematchBody,
    TokenBody,
)
from ono99.web.protocol import schemas as protocol_schemas
from ono99.web.replay_api import make_router as make_replay_router
from ono99.web.review_api import make_router as make_review_router
from ono99.web.settings import Settings
from ono99.web.store import Store
from ono99.web.tables import Table
from ono99.web.words_api import make_router as make_words_router
from ono99.web.ws import serve_socket

__all__ = ["create_app", "STATIC_DIR"]

log = logging.getLogger("ono99.web")

M = TypeVar("M", bound=BaseModel)

STATIC_DIR = Path(__file__).parent / "static"
#: seconds between two sweeps of the tables (Hub.sweep: finished and expired ones)
SWEEP_SECONDS = 30.0

PLACEHOLDER = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>ONO 99</title></head>
<body><main><h1>ONO 99</h1><p>The web table's page is not installed.</p></main></body></html>
"""


def _error(request: Request, status: int, text: str) -> JSONResponse:
    return JSONResponse({"error": one_line(text)}, status_code=status)


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


def _validation_text(request: Request, errors: Any) -> str:
    tr = catalog(request_language(request))
    try:
        first = errors[0]
        where = ".".join(str(p) for p in first.get("loc", ()) if p != "body")
        detail = f"{where}: {first.get('msg', '')}" if where else str(first.get("msg", ""))
    except (IndexError, TypeError, AttributeError, KeyError):
        detail = ""
    detail = detail[:200]
    return tr.gettext(N_("bad request: {detail}")).format(detail=detail)


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
    #: client address -> the lobby tables it is making now (created, not yet in ``lobbies``)
    making: dict[str, int] = {}
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
        tr = catalog(request_language(request))
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
        return _error(request, exc.status, exc.text(request_language(request)))

    @app.exception_handler(Ono99Error)
    async def _engine_error(request: Request, exc: Ono99Error) -> JSONResponse:
        return _error(request, 400, translate(exc, request_language(request)))

    @app.exception_handler(Exception)
    async def _internal(request: Request, exc: Exception) -> JSONResponse:
        log.exception("ono99: unexpected error on %s", request.url.path)
        return _error(
            request, 500, catalog(request_language(request)).gettext(N_("internal error"))
        )

    # ------------------------------------------------------------------ pages

    def _index() -> Response:
        index = STATIC_DIR / "index.html"
        if index.is_file():
            return FileResponse(index, media_type="text/html", headers=PAGE_HEADERS)
        return HTMLResponse(PLACEHOLDER, headers=PAGE_HEADERS)

    # HEAD as GET (a link checker, a monitor): the headers without the page
    @app.api_route("/", methods=["GET", "HEAD"], include_in_schema=False)
    async def index() -> Response:
        return _index()

    @app.api_route("/t/{code}", methods=["GET", "HEAD"], include_in_schema=False)
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
        # checked and reserved with no await in between: concurrent creates from one
        # address each see the others' reservations (200 at once made 224 tables of 20)
        live = hub().tables
        mine = {t for t in lobbies.get(ip, ()) if (x := live.get(t)) and x.phase == "lobby"}
        lobbies[ip] = mine
        if lim.lobby_tables and len(mine) + making.get(ip, 0) >= lim.lobby_tables:
            raise WebError(429, TOO_MANY_LOBBIES)
        making[ip] = making.get(ip, 0) + 1
        try:
            table = await hub().create(settings, body.seed)
            lobbies.setdefault(ip, set()).add(table.id)
        finally:
            making[ip] -= 1
            if not making[ip]:
                del making[ip]
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
        "/api/tables/{table_id}/rematch", status_code=201, openapi_extra=_documented(RematchBody)
    )
    async def rematch(table_id: str, request: Request) -> dict[str, Any]:
        body = await _body(request, RematchBody)
        nxt, seat, token = await hub().rematch(await _table(table_id), body.token, body.seed)
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
    app.include_router(make_review_router())  # /api/review: the replay viewer's review

    @contextlib.asynccontextmanager
    async def admitted(websocket: WebSocket, lang: str) -> AsyncIterator[SocketGuard | None]:
        """A websocket let in (this server's origin, under the limits): its guard while
        it is open; None where it was refused (and closed, told why)."""
        ip = client_ip(websocket.scope)
        origin = websocket.headers.get("origin")
        if origin is not None and not same_origin(origin, websocket.headers.get("host"), public):
            # a page of another site: refused at the handshake (HTTP 403); a client that
            # is not a browser sends no Origin and is let in
            await websocket.close(code=1008)
            yield None
            return
        refused = guard.open_socket(ip)
        await websocket.accept()
        if refused is not None:
            text = catalog(lang).gettext(refused[0])
            with contextlib.suppress(Exception):
                await websocket.send_text(json.dumps({"type": "error", "error": text}))
                await websocket.close(code=refused[1])
            yield None
            return
        try:
            yield guard.socket(ip)
        finally:
            guard.close_socket(ip)

    # /companion (docs/companion.md), its pages following their games live
    app.include_router(make_companion_router(db_url, admit=admitted))

    @app.get("/api/schema")
    async def schema() -> dict[str, Any]:
        return protocol_schemas()

    # ------------------------------------------------------------------ websocket

    @app.websocket("/ws/{table_id}")
    async def ws(websocket: WebSocket, table_id: str) -> None:
        lang = request_language(websocket)
        token = websocket.query_params.get("token")
        async with admitted(websocket, lang) as sock:
            if sock is not None:
                await serve_socket(websocket, hub(), table_id, token, lang, sock)

    return app
