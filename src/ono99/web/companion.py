"""The table companion of ``ono99 serve``: ``/companion`` and ``/api/companion/...``.

People playing with a real deck tap each card as it is played; the server follows the
game on the engine (:mod:`ono99.tracking`) and answers with the public state and the
announcements in the page's language. Every game is stored (table ``ono99_companion`` in
the server's database, keyed by an unguessable id the page keeps in its URL), so a
reload, a dropped connection or a server restart loses nothing. See docs/companion.md.
"""

from __future__ import annotations

import asyncio
import json
import secrets
import threading
import time
import unicodedata
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Request
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
    create_engine,
    select,
    update,
)
from sqlalchemy import event as sa_event
from sqlalchemy.engine import make_url

from ono99.errors import Ono99Error
from ono99.events import Event
from ono99.i18n import N_
from ono99.names import clean_name
from ono99.narrate import narrate
from ono99.tracking import Tracker
from ono99.web.announce import catalog, pick_language, speaking, translate
from ono99.web.limits import is_json
from ono99.web.store import engine_url
from ono99.web.voice import MAX_TEXT, VOICES, available, synthesize

__all__ = ["make_router", "CompanionStore"]

STATIC = Path(__file__).parent / "static"
#: the most taps one game may have (a long 8-player points game stays far below)
TAP_LIMIT = 20_000

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


class CompanionStore:
    """The companion's games in the server's database (its own table)."""

    def __init__(self, url: str) -> None:
        real = engine_url(url)
        kwargs: dict[str, Any] = {}
        if real.startswith("sqlite"):
            path = make_url(real).database
            if path and path != ":memory:":
                Path(path).parent.mkdir(parents=True, exist_ok=True)
            kwargs["connect_args"] = {"check_same_thread": False, "timeout": 30}
        else:
            kwargs["pool_pre_ping"] = True
        self.engine: Engine = create_engine(real, **kwargs)
        if real.startswith("sqlite"):
            sa_event.listen(self.engine, "connect", _sqlite_wal)
        _meta.create_all(self.engine)

    def save(self, game_id: str, version: int, data: dict[str, Any], new: bool) -> None:
        now = time.time()
        text = json.dumps(data, ensure_ascii=False)
        with self.engine.begin() as c:
            if new:
                c.execute(
                    companion_t.insert().values(
                        id=game_id, created=now, updated=now, version=version, data=text
                    )
                )
            else:
                c.execute(
                    update(companion_t)
                    .where(companion_t.c.id == game_id)
                    .values(updated=now, version=version, data=text)
                )

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


def _sqlite_wal(dbapi_conn: Any, _record: Any) -> None:
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.close()


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
        return {**self.tracker.record(), "redo": list(self.tracker.redo_taps), "req": self.req}


class _Error(Exception):
    def __init__(self, status: int, template: str, **params: Any) -> None:
        super().__init__(template)
        self.status = status
        self.template = template
        self.params = params

    def text(self, lang: str) -> str:
        return catalog(lang).gettext(self.template).format(**self.params)


def _check_name(raw: Any) -> str:
    if not isinstance(raw, str):
        raise _Error(400, N_("names are 1 to 40 characters, without control characters"))
    try:  # the one rule of ono99.names (a lone surrogate, JSON "\ud800", is refused too)
        return clean_name(raw)
    except Ono99Error:
        raise _Error(400, N_("names are 1 to 40 characters, without control characters")) from None


def _has_control(text: str) -> bool:
    # control characters only: Kannada, Tamil and Burmese text holds joiners (ZWNJ) too
    return any(unicodedata.category(ch) == "Cc" for ch in text)


def _tracker_from(data: dict[str, Any]) -> Tracker:
    t = Tracker.from_record(data, stop_at_error=True)
    redo = data.get("redo") or []
    # taps the record has past where it stopped (a round waiting for its hands) come
    # next: on top of the redo list
    t.redo_taps = ([str(x) for x in redo] + t.redo_taps)[:TAP_LIMIT]
    return t


def _announce(
    t: Tracker, events: list[Event], lang: str, tap: str | None, loser: int | None = None
) -> list[str]:
    """The engine's announcements of the last tap, in ``lang`` (no hidden card: the
    world's invented draws are never told). ``loser``: the seat whose own card ``tap``
    took the total to the limit (the bust of anyone else is told as the engine tells it)."""
    out: list[str] = []
    with speaking(lang) as tr:
        for e in events:
            e = e.heard_by(None)  # a tracked world's drawn cards are invented: never told
            if e.kind == "round_end" and e.info and e.info.get("waiting"):
                # R-END-3: nothing is scored until the hands are told
                out.append(tr.gettext(N_("Round {round} ends")).format(round=e.info["round"]))
                out.append(tr.gettext(N_("Scores wait for the cards left in each hand")))
                continue
            if e.kind == "round_end" and e.info and "hands" in e.info:
                info = {k: v for k, v in e.info.items() if k != "hands"}
                e = e._replace(info=info)
            if (
                e.kind == "bust"
                and e.card is None
                and tap
                and loser is not None
                and e.seat == loser
            ):
                # the card tapped took the total to the limit: say so first
                out.append(
                    tr.gettext(N_("{card} takes the total over the limit: {name} loses")).format(
                        card=tap, name=t.names[e.seat]
                    )
                )
                loser = None  # said once
            line = narrate(e, t.names, t.rules)
            if line:
                out.append(line)
    return out


def _payload(
    g: _Game,
    lang: str,
    events: list[Event] | None = None,
    tap: str | None = None,
    loser: int | None = None,
) -> dict[str, Any]:
    out: dict[str, Any] = {"id": g.id, "version": g.version, "state": g.tracker.state()}
    if events is not None:
        out["announce"] = _announce(g.tracker, events, lang, tap, loser)
        out["say"] = _say(g.tracker, events, lang, tap, loser)
    return out


#: events a noisy table needs to hear after the total (a play is the total itself)
_QUIET = frozenset({"play", "draw", "owes_two"})


def _say(
    t: Tracker, events: list[Event], lang: str, tap: str | None, loser: int | None
) -> list[str]:
    """What the page speaks: the total first, short, then only what changes the game
    (a reverse, a bust, who is out, a round's end, the winner)."""
    loud = [e for e in events if e.kind not in _QUIET]
    state = t.state()
    first = [] if state["hands_needed"] else [str(state["total"])]
    if not any(e.kind in ("play", "four99", "bust") for e in events):
        first = []  # nothing played: no total to say (the start of the game)
    return first + _announce(t, loud, lang, tap, loser)


def make_router(db_url: str) -> APIRouter:
    """The companion's page and API on the database at ``db_url``."""
    router = APIRouter()
    games: dict[str, _Game] = {}
    holder: dict[str, CompanionStore] = {}
    init_lock = threading.Lock()
    load_lock = asyncio.Lock()

    def store() -> CompanionStore:
        with init_lock:
            if "s" not in holder:
                holder["s"] = CompanionStore(db_url)
            return holder["s"]

    def lang_of(request: Request) -> str:
        return pick_language(
            request.query_params.get("lang") or request.headers.get("accept-language")
        )

    def err(request: Request, e: Exception, status: int = 400, **extra: Any) -> JSONResponse:
        lang = lang_of(request)
        if isinstance(e, _Error):
            text, status = e.text(lang), e.status
        else:
            text = translate(e, lang)
        # one line of valid UTF-8: a client's lone surrogate quoted in a reason becomes "?"
        text = " ".join(text.split()).encode("utf-8", "replace").decode("utf-8")
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

    async def get_game(game_id: str) -> _Game:
        g = games.get(game_id)
        if g is not None:
            return g
        if not (8 <= len(game_id) <= 40) or not all(ch.isalnum() or ch in "-_" for ch in game_id):
            raise _Error(404, N_("there is no such game"))
        async with load_lock:
            g = games.get(game_id)
            if g is not None:
                return g
            row = await asyncio.to_thread(store().load, game_id)
            if row is None:
                raise _Error(404, N_("there is no such game"))
            version, data = row
            tracker = await asyncio.to_thread(_tracker_from, data)
            req = data.get("req")
            g = _Game(game_id, tracker, version, req if isinstance(req, str) else None)
            games[game_id] = g
            return g

    async def save(g: _Game, new: bool = False) -> None:
        await asyncio.to_thread(store().save, g.id, g.version, g.data(), new)

    @router.get("/companion", include_in_schema=False)
    async def page() -> Response:
        f = STATIC / "companion.html"
        if f.is_file():
            return FileResponse(f, media_type="text/html")
        return HTMLResponse("<!doctype html><title>ONO 99</title><main>companion missing</main>")

    @router.get("/companion-sw.js", include_in_schema=False)
    async def service_worker() -> Response:
        # at the root so that its scope may be /companion (the page and its links)
        return FileResponse(
            STATIC / "js" / "companion-sw.js",
            media_type="text/javascript",
            headers={"Cache-Control": "no-cache"},
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
            data = await body(request)
            players = data.get("players")
            if not isinstance(players, list):
                raise _Error(400, N_("players must be a list of names"))
            names = [_check_name(p) for p in players[:9]]
            options = data.get("options") or {}
            if not isinstance(options, dict):
                raise _Error(400, N_("options must be an object"))
            first = data.get("first", 0)
            rules = data.get("rules", "mattel2022")
            tracker = Tracker(str(rules), names, first, options)
        except (_Error, Ono99Error) as e:
            return err(request, e)
        g = _Game(secrets.token_urlsafe(18), tracker, 1)
        games[g.id] = g
        await save(g, new=True)
        return JSONResponse(_payload(g, lang_of(request), tracker.last_events), status_code=201)

    @router.get("/api/companion/{game_id}")
    async def get(game_id: str, request: Request) -> Response:
        try:
            g = await get_game(game_id)
        except _Error as e:
            return err(request, e)
        return JSONResponse(_payload(g, lang_of(request)))

    @router.get("/api/companion/{game_id}/record")
    async def record(game_id: str, request: Request) -> Response:
        try:
            g = await get_game(game_id)
        except _Error as e:
            return err(request, e)
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
        lang = lang_of(request)
        async with g.lock:
            req = data.get("req")
            if not isinstance(req, str) or not 8 <= len(req) <= 64:
                req = None
            if req is not None and req == g.req:
                # this change was counted; its answer was lost on the way: the state now
                return JSONResponse({**_payload(g, lang), "announce": [], "repeat": True})
            version = data.get("version")
            if version is not None and version != g.version:
                return JSONResponse(
                    {
                        "error": catalog(lang).gettext(
                            N_("the game changed on another screen; here it is as it stands")
                        ),
                        **_payload(g, lang),
                    },
                    status_code=409,
                )
            t = g.tracker
            tap: str | None = None
            loser: int | None = None
            try:
                if what == "tap":
                    tap = data.get("tap")
                    if not isinstance(tap, str) or len(tap) > 8:
                        raise _Error(400, N_("a tap is a card code or bust"))
                    if len(t.taps) >= TAP_LIMIT:
                        raise _Error(400, N_("this game has too many moves"))
                    loser = t.loser_of(tap)
                    events = await asyncio.to_thread(t.tap, tap)
                elif what == "undo":
                    events = await asyncio.to_thread(t.undo)
                elif what == "laid":
                    seat, cards = data.get("seat"), data.get("cards")
                    if cards is not None and (not isinstance(cards, list) or len(cards) > 8):
                        raise _Error(400, N_("give the cards as a list of card codes"))
                    await asyncio.to_thread(t.enter_laid, seat, cards)  # type: ignore[arg-type]
                    events = []
                elif what == "insert":
                    tap, at = data.get("tap"), data.get("at")
                    if not isinstance(tap, str) or len(tap) > 8:
                        raise _Error(400, N_("a tap is a card code or bust"))
                    if len(t.taps) >= TAP_LIMIT:
                        raise _Error(400, N_("this game has too many moves"))
                    events = await asyncio.to_thread(t.insert, at, tap)  # type: ignore[arg-type]
                    events, tap = [], None  # told as a fix: the total it leaves
                elif what == "points":
                    points, rnd = data.get("points"), data.get("round")
                    if not isinstance(points, list) or len(points) > 8:
                        raise _Error(
                            400,
                            N_("give the points of {count} hands, one per player"),
                            count=len(t.names),
                        )
                    events = await asyncio.to_thread(t.enter_points, points, rnd)
                elif what == "redo":
                    loser = t.loser_of(t.redo_taps[-1]) if t.redo_taps else None
                    events = await asyncio.to_thread(t.redo)
                    tap = t.taps[-1] if t.taps else None
                else:
                    hands = data.get("hands")
                    if not isinstance(hands, list) or len(hands) > 8:
                        raise _Error(
                            400,
                            N_("give the cards of {count} hands, one per player"),
                            count=len(t.names),
                        )
                    at = data.get("tap")
                    if at is not None and (not isinstance(at, int) or isinstance(at, bool)):
                        raise _Error(
                            400,
                            N_("give the cards of {count} hands, one per player"),
                            count=len(t.names),
                        )
                    events = await asyncio.to_thread(t.enter_hands, hands, at)
            except (_Error, Ono99Error) as e:
                return err(request, e, **_payload(g, lang))
            g.version += 1
            g.req = req
            await save(g)
            return JSONResponse(_payload(g, lang, events, tap, loser))

    @router.post("/api/companion/{game_id}/tap")
    async def tap(game_id: str, request: Request) -> Response:
        return await change(game_id, request, "tap")

    @router.post("/api/companion/{game_id}/undo")
    async def undo(game_id: str, request: Request) -> Response:
        return await change(game_id, request, "undo")

    @router.post("/api/companion/{game_id}/redo")
    async def redo(game_id: str, request: Request) -> Response:
        return await change(game_id, request, "redo")

    @router.post("/api/companion/{game_id}/laid")
    async def laid(game_id: str, request: Request) -> Response:
        return await change(game_id, request, "laid")

    @router.post("/api/companion/{game_id}/insert")
    async def insert(game_id: str, request: Request) -> Response:
        return await change(game_id, request, "insert")

    @router.post("/api/companion/{game_id}/points")
    async def points(game_id: str, request: Request) -> Response:
        return await change(game_id, request, "points")

    @router.post("/api/companion/{game_id}/hands")
    async def hands(game_id: str, request: Request) -> Response:
        return await change(game_id, request, "hands")

    return router
