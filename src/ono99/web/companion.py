"""The table companion of ``ono99 serve``: ``/companion`` and ``/api/companion/...``.

People playing with a real deck tap each card as it is played; the server follows the
game on the engine (:mod:`ono99.tracking`) and answers with the public state and the
announcements in the page's language. Every game is stored (table ``ono99_companion`` in
the server's database, keyed by an unguessable id the page keeps in its URL), so a
reload, a dropped connection or a server restart loses nothing. See docs/companion.md.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
import threading
import time
import unicodedata
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from fastapi import APIRouter, FastAPI, Request, WebSocket
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response
from sqlalchemy import (
    Column,
    Engine,
    Float,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    select,
    update,
)
from sqlalchemy import text as sql_text

from ono99.errors import Ono99Error
from ono99.i18n import N_
from ono99.tracking import Tracker
from ono99.web.announce import catalog, request_language
from ono99.web.companion_core import (
    CHANGES,
    STALE,
    CompanionError,
    apply_change,
    error_text,
    game_data,
    new_tracker,
    payload,
    tracker_from,
)
from ono99.web.companion_live import Screens
from ono99.web.companion_site import (
    PYODIDE_FILES,
    PYODIDE_VERSION,
    pyodide_source,
    python_archive,
    site_config,
)
from ono99.web.conn import Conn
from ono99.web.hub import Hub
from ono99.web.limits import SocketGuard, is_json
from ono99.web.store import CHANNEL, create_schema, open_engine
from ono99.web.voice import MAX_TEXT, VOICES, available, synthesize

__all__ = ["make_router", "CompanionStore", "Admit"]

#: lets a websocket in (same origin, under the limits: ``ono99.web.app``): its guard, or
#: None where it was refused (and closed)
Admit = Callable[[WebSocket, str], contextlib.AbstractAsyncContextManager[SocketGuard | None]]
#: a change to a companion game as announced on CHANNEL: "PROC:c/ID" (web.hub.Hub.watchers)
_KIND = "c"
#: games kept in memory at most besides those a page is open on (the least recently used
#: others are forgotten and loaded again from the database when asked for)
KEPT_GAMES = 2000

STATIC = Path(__file__).parent / "static"
#: Pyodide's files as a browser must get them (a module script needs a JavaScript type)
_PYODIDE_TYPES = {".mjs": "text/javascript", ".wasm": "application/wasm",
                  ".zip": "application/zip", ".json": "application/json"}  # fmt: skip

_meta = MetaData()
companion_t = Table(
    "ono99_companion",
    _meta,
    Column("id", String(40), primary_key=True),
    Column("created", Float, nullable=False),
    Column("updated", Float, nullable=False),
    Column("version", Integer, nullable=False),
    Column("data", Text, nullable=False),  # JSON: Tracker.record() + "redo"
)


class Stale(Exception):
    """Another process stored a newer version of the game first: load it and decide again."""


class CompanionStore:
    """The companion's games in the server's database (its own table)."""

    def __init__(self, url: str) -> None:
        self.engine: Engine = open_engine(url)  # the tables' database, set up alike
        create_schema(self.engine, _meta)  # one process at a time (PostgreSQL)

    def save(
        self, game_id: str, version: int, data: dict[str, Any], new: bool, notify: str | None
    ) -> None:
        """Store version ``version`` of the game; :class:`Stale` unless the stored one is
        the version before it (several processes: each change is taken once, in order).
        ``notify``: the payload to announce it with on CHANNEL, on commit (PostgreSQL)."""
        now = time.time()
        doc = json.dumps(data, ensure_ascii=False)
        with self.engine.begin() as c:
            if new:
                c.execute(
                    companion_t.insert().values(
                        id=game_id, created=now, updated=now, version=version, data=doc
                    )
                )
            else:
                done = c.execute(
                    update(companion_t)
                    .where(companion_t.c.id == game_id, companion_t.c.version == version - 1)
                    .values(updated=now, version=version, data=doc)
                )
                if done.rowcount != 1:
                    raise Stale(game_id)
            if notify is not None:
                c.execute(sql_text("select pg_notify(:ch, :p)"), {"ch": CHANNEL, "p": notify})

    def load(self, game_id: str) -> tuple[int, dict[str, Any]] | None:
        with self.engine.connect() as c:
            row = c.execute(
                select(companion_t.c.version, companion_t.c.data).where(companion_t.c.id == game_id)
            ).first()
        if row is None:
            return None
        return int(row[0]), json.loads(row[1])

    def close(self) -> None:
        self.engine.dispose()


class _Game:
    def __init__(
        self, game_id: str, tracker: Tracker, version: int, req: str | None = None
    ) -> None:
        self.id = game_id
        self.tracker = tracker
        self.version = version
        self.lock = asyncio.Lock()
        #: the id of the last change counted: the page sends a change again when its
        #: answer was lost, and it must not count twice
        self.req = req

    def data(self) -> dict[str, Any]:
        return {**game_data(self.tracker), "req": self.req}


class CompanionRouter(APIRouter):
    """The companion's routes, and the games this process keeps in memory (``games``,
    least recently used first)."""

    games: OrderedDict[str, _Game]


_Error = CompanionError


def _good_id(game_id: str) -> bool:
    # a page that follows a game itself names it (as the server does: 24 URL-safe characters)
    return 8 <= len(game_id) <= 40 and all(
        ch.isascii() and (ch.isalnum() or ch in "-_") for ch in game_id
    )


def _has_control(text: str) -> bool:
    # control characters only: Kannada, Tamil and Burmese text holds joiners (ZWNJ) too
    return any(unicodedata.category(ch) == "Cc" for ch in text)


def _payload(
    g: _Game, lang: str, events: Any = None, tap: str | None = None, loser: int | None = None
) -> dict[str, Any]:
    return {"id": g.id, "version": g.version, **payload(g.tracker, lang, events, tap, loser)}


def make_router(
    db_url: str, pyodide: Path | str | bool | None = True, admit: Admit | None = None
) -> CompanionRouter:
    """The companion's page and API on the database at ``db_url``; the page runs the
    games itself with Pyodide from ``pyodide`` (a folder, a URL, None: not at all;
    True: as ``ONO99_PYODIDE`` says, :func:`ono99.web.companion_site.pyodide_source`).
    With ``admit``, every page open on a game follows it live (``/ws/companion/{id}``)."""
    router = CompanionRouter()
    source = pyodide_source() if pyodide is True else pyodide or None
    # the page's own files only, as every page (web.guards.PAGE_HEADERS); and WebAssembly
    # compiled from them (Pyodide), from the CDN where Pyodide comes from there
    cdn = f" {source}" if isinstance(source, str) else ""
    csp = (
        f"default-src 'self'; script-src 'self' 'wasm-unsafe-eval'{cdn}; style-src 'self'; "
        f"img-src 'self' data:; connect-src 'self'{cdn}; object-src 'none'; base-uri 'none'; "
        "form-action 'self'; frame-ancestors 'none'"
    )
    games: OrderedDict[str, _Game] = OrderedDict()
    router.games = games
    holder: dict[str, CompanionStore] = {}
    init_lock = threading.Lock()
    load_lock = asyncio.Lock()
    screens = Screens()
    hubs: list[Hub] = []  # the server's hub, once known: other processes (PostgreSQL)
    refreshing: set[asyncio.Task[None]] = set()

    def store() -> CompanionStore:
        with init_lock:
            if "s" not in holder:
                holder["s"] = CompanionStore(db_url)
            return holder["s"]

    def err(request: Request, e: Exception, status: int = 400, **extra: Any) -> JSONResponse:
        if isinstance(e, _Error):
            status = e.status
        text = error_text(e, request_language(request))
        return JSONResponse({"error": text, **extra}, status_code=status)

    async def body(request: Request) -> dict[str, Any]:
        if not is_json(request):
            raise _Error(415, N_("the request body must be application/json"))
        raw = await request.body()
        try:
            data = json.loads(raw) if raw.strip() else {}
        except (ValueError, RecursionError):
            raise _Error(400, N_("the request body is not JSON")) from None
        if not isinstance(data, dict):
            raise _Error(400, N_("the request body is not JSON"))
        return data

    def keep(g: _Game) -> None:
        """Keep ``g`` in memory, the most recently used; forget the least recently used
        games over ``KEPT_GAMES`` that no page is open on and no change holds."""
        games[g.id] = g
        games.move_to_end(g.id)
        for gid in list(games)[: max(0, len(games) - KEPT_GAMES)]:
            old = games[gid]
            if not screens.watching(gid) and not old.lock.locked():
                del games[gid]

    async def get_game(game_id: str) -> _Game:
        g = games.get(game_id)
        if g is not None:
            games.move_to_end(game_id)
            return g
        if not _good_id(game_id):
            raise _Error(404, N_("there is no such game"))
        async with load_lock:
            g = games.get(game_id)
            if g is not None:
                return g
            row = await asyncio.to_thread(store().load, game_id)
            if row is None:
                raise _Error(404, N_("there is no such game"))
            version, data = row
            tracker = await asyncio.to_thread(tracker_from, data)
            req = data.get("req")
            g = _Game(game_id, tracker, version, req if isinstance(req, str) else None)
            keep(g)
            return g

    async def game_or_error(game_id: str, request: Request) -> _Game | Response:
        """The game, or the one-line error to answer with (a read that changes nothing)."""
        try:
            return await get_game(game_id)
        except _Error as e:
            return err(request, e)

    def hub_of(app: FastAPI) -> Hub | None:
        """The hub of the app (its other processes); the companion hears of their changes
        to its games through it (Hub.watchers)."""
        hub = getattr(app.state, "hub", None)
        if isinstance(hub, Hub) and not hubs:
            hubs.append(hub)
            hub.watchers[_KIND] = heard
        return hub if isinstance(hub, Hub) else None

    async def save(g: _Game, app: FastAPI, new: bool = False) -> None:
        """Store the game's new version (Stale: another process stored one first) and
        tell the other processes (PostgreSQL)."""
        hub = hub_of(app)
        shared = hub.shared if hub is not None else None
        notify = None if shared is None else f"{shared.proc}:{_KIND}/{g.id}"
        if shared is not None and shared.peers.linked():  # told over the links once stored
            await asyncio.to_thread(store().save, g.id, g.version, g.data(), new, None)
            shared.peers.push([f"{shared.proc}:{_KIND}/{g.id}"])
            return
        await asyncio.to_thread(store().save, g.id, g.version, g.data(), new, notify)

    async def stored(g: _Game, req: str | None, app: FastAPI) -> bool:
        """The change made to ``g`` stored as its next version; False where another
        process stored one first: ``g`` is then the stored game, to decide again on."""
        g.version += 1
        g.req = req
        try:
            await save(g, app)
        except Stale:
            await reload(g, force=True)
            return False
        return True

    async def reload(g: _Game, force: bool = False) -> bool:
        """The game as stored now (another process changed it); whether it changed."""
        row = await asyncio.to_thread(store().load, g.id)
        if row is None or (row[0] == g.version and not force):
            return False
        version, data = row
        g.tracker = await asyncio.to_thread(tracker_from, data)
        g.version = version
        req = data.get("req")
        g.req = req if isinstance(req, str) else None
        return True

    def tell(g: _Game, events: Any = None, tap: str | None = None, loser: int | None = None,
             req: str | None = None) -> None:  # fmt: skip
        """Send every page open on the game (this process) the game as it stands, with
        what the change did (``events``) where known."""
        record = game_data(g.tracker)
        screens.send(
            g.id,
            lambda lang: {
                "type": "game",
                **_payload(g, lang, events, tap, loser),
                "record": record,
                "req": req,
            },
        )

    def heard(game_id: str | None) -> None:
        """Another process changed ``game_id`` (None: maybe any game): the pages open on
        it here are sent it; a game nobody watches here is just forgotten (loaded again
        when asked for)."""
        ids = list(games) if game_id is None else [game_id]
        for gid in ids:
            if gid in games and not screens.watching(gid):
                del games[gid]
            elif gid in games:
                task = asyncio.create_task(refresh(games[gid]))
                refreshing.add(task)
                task.add_done_callback(refreshing.discard)

    async def refresh(g: _Game) -> None:
        async with g.lock:
            with contextlib.suppress(Exception):  # the database away a moment: next change
                if await reload(g):
                    tell(g)

    @router.api_route("/companion", methods=["GET", "HEAD"], include_in_schema=False)
    async def page() -> Response:
        f = STATIC / "companion.html"
        if f.is_file():
            return FileResponse(f, media_type="text/html", headers={"Content-Security-Policy": csp})
        return HTMLResponse("<!doctype html><title>ONO 99</title><main>companion missing</main>")

    @router.get("/companion-sw.js", include_in_schema=False)
    async def service_worker() -> Response:
        # at the root so that its scope may be /companion (the page and its links)
        return FileResponse(
            STATIC / "js" / "companion-sw.js",
            media_type="text/javascript",
            headers={"Cache-Control": "no-cache"},
        )

    @router.get("/companion-site.json", include_in_schema=False)
    async def site() -> Response:
        # what the page and its service worker load (docs/companion.md "Without a server")
        config = await asyncio.to_thread(site_config, True, source)
        return JSONResponse(config, headers={"Cache-Control": "no-cache"})

    @router.get("/companion-python.zip", include_in_schema=False)
    async def python_zip() -> Response:
        # the installed ono99 modules the page runs in Pyodide: the server's own code
        data = await asyncio.to_thread(python_archive)
        return Response(data, media_type="application/zip", headers={"Cache-Control": "no-cache"})

    @router.get("/companion-pyodide/{version}/{name}", include_in_schema=False)
    async def pyodide_file(version: str, name: str) -> Response:
        if not isinstance(source, Path) or version != PYODIDE_VERSION or name not in PYODIDE_FILES:
            return JSONResponse({"error": "not found"}, status_code=404)
        return FileResponse(
            source / name,
            media_type=_PYODIDE_TYPES[Path(name).suffix],
            # one release's files never change: the address names the release
            headers={"Cache-Control": "public, max-age=31536000, immutable"},
        )

    @router.get("/api/companion-voice")
    async def voice(request: Request) -> Response:
        """The server's voice (espeak-ng): without ``text``, the languages it speaks;
        with ``text`` and ``lang``, that text spoken (audio/wav)."""
        text = request.query_params.get("text")
        if text is None:
            return JSONResponse({"languages": available()})
        lang = request.query_params.get("lang") or ""
        if lang not in VOICES or not 0 < len(text) <= MAX_TEXT or _has_control(text):
            return err(request, _Error(400, N_("the server cannot speak that")))
        wav = await asyncio.to_thread(synthesize, text, lang)
        if wav is None:
            return err(request, _Error(404, N_("the server has no voice")))
        return Response(wav, media_type="audio/wav", headers={"Cache-Control": "max-age=86400"})

    @router.post("/api/companion", status_code=201)
    async def create(request: Request) -> Response:
        try:
            tracker = new_tracker(await body(request))
        except (_Error, Ono99Error) as e:
            return err(request, e)
        g = _Game(secrets.token_urlsafe(18), tracker, 1)
        keep(g)
        await save(g, request.app, new=True)
        data = _payload(g, request_language(request), tracker.last_events)
        return JSONResponse(data, status_code=201)

    @router.get("/api/companion/{game_id}")
    async def get(game_id: str, request: Request) -> Response:
        g = await game_or_error(game_id, request)
        if isinstance(g, Response):
            return g
        # with the record: a page that follows games itself takes the game from here
        data = {**_payload(g, request_language(request)), "record": game_data(g.tracker)}
        return JSONResponse(data)

    @router.put("/api/companion/{game_id}")
    async def push(game_id: str, request: Request) -> Response:
        """The game as a page followed it itself (docs/companion.md "Without a server"):
        stored as it is where the server's game is still the one the page started from
        (``base``, its version; null for a game the server has not seen), else refused
        (409) with the server's game, which stands."""
        try:
            data = await body(request)
            rec, base = data.get("record"), data.get("base")
            if not isinstance(rec, dict):
                raise _Error(400, N_("not a tracked game's record"))
            if base is not None and (not isinstance(base, int) or isinstance(base, bool)):
                raise _Error(400, N_("the version must be a whole number"))
        except _Error as e:
            return err(request, e)
        req = data.get("req")
        req = req if isinstance(req, str) and 8 <= len(req) <= 64 else None
        lang = request_language(request)
        try:
            g = await get_game(game_id)
        except _Error as e:
            if not (e.status == 404 and base is None and _good_id(game_id)):
                return err(request, e)
            return await push_new(game_id, rec, req, lang, request)
        async with g.lock:
            while True:
                if (req is not None and req == g.req) or rec == game_data(g.tracker):
                    # counted before (its answer was lost), or nothing new: the game as it is
                    return JSONResponse({**_payload(g, lang), "record": game_data(g.tracker)})
                if base != g.version:
                    # another screen changed it: the page merges its changes on this one
                    return JSONResponse(
                        {"error": catalog(lang).gettext(STALE), **_payload(g, lang),
                         "record": game_data(g.tracker)},
                        status_code=409,
                    )  # fmt: skip
                try:
                    g.tracker = await asyncio.to_thread(tracker_from, rec, strict=True)
                except (_Error, Ono99Error) as e:
                    return err(request, e, **_payload(g, lang))
                if not await stored(g, req, request.app):
                    continue
                tell(g, g.tracker.last_events, req=req)
                return JSONResponse({**_payload(g, lang), "record": game_data(g.tracker)})

    async def push_new(
        game_id: str, rec: dict[str, Any], req: str | None, lang: str, request: Request
    ) -> Response:
        try:
            tracker = await asyncio.to_thread(tracker_from, rec, strict=True)
        except (_Error, Ono99Error) as e:
            return err(request, e)
        async with load_lock:
            if game_id in games or (await asyncio.to_thread(store().load, game_id)) is not None:
                return err(request, _Error(409, STALE))
            g = _Game(game_id, tracker, 1, req)
            keep(g)
            await save(g, request.app, new=True)
        return JSONResponse({**_payload(g, lang), "record": game_data(g.tracker)}, status_code=201)

    @router.get("/api/companion/{game_id}/record")
    async def record(game_id: str, request: Request) -> Response:
        g = await game_or_error(game_id, request)
        if isinstance(g, Response):
            return g
        return JSONResponse(
            g.tracker.record(),
            headers={"Content-Disposition": 'attachment; filename="ono99-companion.json"'},
        )

    async def change(game_id: str, request: Request, what: str) -> Response:
        try:
            g = await get_game(game_id)
            data = await body(request)
        except _Error as e:
            return err(request, e)
        lang = request_language(request)
        req = data.get("req")
        if not isinstance(req, str) or not 8 <= len(req) <= 64:
            req = None
        version = data.get("version")
        if version is not None and (not isinstance(version, int) or isinstance(version, bool)):
            return err(request, _Error(400, N_("the version must be a whole number")))
        async with g.lock:
            while True:
                if req is not None and req == g.req:
                    # this change was counted; its answer was lost on the way: the state now
                    return JSONResponse({**_payload(g, lang), "announce": [], "repeat": True})
                # made on another version (another screen changed the game since): merged
                stale = version is not None and version != g.version
                try:
                    events, tap, loser = await asyncio.to_thread(
                        apply_change, g.tracker, what, data, stale=stale
                    )
                except (_Error, Ono99Error) as e:
                    return err(request, e, **_payload(g, lang))
                if not await stored(g, req, request.app):
                    continue
                tell(g, events, tap, loser, req)
                out = _payload(g, lang, events, tap, loser)
                return JSONResponse({**out, "merged": True} if stale else out)

    if admit is not None:
        live = admit

        @router.websocket("/ws/companion/{game_id}")
        async def socket(websocket: WebSocket, game_id: str) -> None:
            """The game live: as it stands at once, then after every change."""
            lang = request_language(websocket)
            async with live(websocket, lang) as sock:
                if sock is None:
                    return
                hub_of(websocket.app)
                try:
                    g = await get_game(game_id)
                except _Error as e:
                    with contextlib.suppress(Exception):  # the page may be gone already
                        await websocket.send_text(
                            json.dumps({"type": "error", "error": error_text(e, lang)})
                        )
                        await websocket.close(code=4404)
                    return
                conn = Conn(None, lang)
                conn.send({"type": "game", **_payload(g, lang), "record": game_data(g.tracker)})
                await screens.serve(websocket, game_id, conn, sock)

    def change_endpoint(what: str) -> Callable[[str, Request], Awaitable[Response]]:
        async def endpoint(game_id: str, request: Request) -> Response:
            return await change(game_id, request, what)

        return endpoint

    for what in CHANGES:  # POST /api/companion/{game_id}/tap, /undo, ...: named as the change
        router.add_api_route(
            f"/api/companion/{{game_id}}/{what}", change_endpoint(what), methods=["POST"], name=what
        )

    return router
