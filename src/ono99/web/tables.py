"""The authority of each web table: one lock per table, commands in order, a gap-free
version, every change stored before it is broadcast, each connection told only what its
seat may know (docs/protocol.md).

Everything a client receives is built here from ``game.view(seat).to_json()`` (or the
public view for a spectator), ``game.events_for(seat)`` and the table's public facts.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import json
import logging
import os
import secrets
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any, TypeVar

from ono99 import names
from ono99.bots import Bot, make_bot
from ono99.cards import DRAW, action_code, parse_action
from ono99.errors import Ono99Error
from ono99.events import Event
from ono99.game import Game, new_seed
from ono99.i18n import N_
from ono99.records import to_record
from ono99.web.announce import catalog, event_json, speaking, translate
from ono99.web.protocol import CreateTable, MoveMsg
from ono99.web.store import (
    CodeTaken,
    Conflict,
    MoveRow,
    Store,
    StoredSeat,
    StoredTable,
    token_hash,
)

if TYPE_CHECKING:
    from ono99.web.shared import Shared

__all__ = ["Hub", "Table", "Conn", "Settings", "WebError", "encode"]

log = logging.getLogger("ono99.web")

T = TypeVar("T")

CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 6
#: announcements sent to a connection that has just (re)connected
CATCHUP_EVENTS = 30
#: messages waiting for one slow connection before it is dropped
QUEUE_LIMIT = 1000
#: the most moves stored in one transaction
WRITE_BATCH = 500
INLINE_SQLITE = os.environ.get("ONO99_INLINE_SQLITE", "1") == "1"


class WebError(Exception):
    """A request the table refuses: HTTP ``status`` and a message template (``N_``)."""

    def __init__(self, status: int, message: str, **params: Any) -> None:
        super().__init__(message.format(**params) if params else message)
        self.status = status
        self.template = message
        self.params = params

    def text(self, lang: str) -> str:
        msg = catalog(lang).gettext(self.template)
        try:
            return msg.format(**self.params) if self.params else msg
        except (KeyError, IndexError, ValueError):
            return str(self)


NO_TABLE = N_("no such table")


def no_table() -> WebError:
    """The answer to an unknown table and to a wrong token alike."""
    return WebError(404, NO_TABLE)


def clean_name(name: str) -> str:
    """A player name by the one rule of :mod:`ono99.names`; WebError 400 with its reason."""
    try:
        return names.clean_name(name)
    except Ono99Error as e:
        raise WebError(400, e.template, **e.params) from None


@dataclass(frozen=True)
class Settings:
    rules: str
    options: dict[str, Any]
    players: int
    bots: str
    turn_seconds: float
    takeover: bool
    away_seconds: float
    draw_window: float
    bot_delay: float

    @classmethod
    def from_request(cls, req: CreateTable) -> Settings:
        if 0 < req.turn_seconds < 1:
            raise WebError(400, N_("turn_seconds must be 0 (no timer) or at least 1"))
        settings = cls(
            rules=req.rules, options=dict(req.options), players=req.players, bots=req.bots,
            turn_seconds=req.turn_seconds, takeover=req.takeover,
            away_seconds=req.away_seconds, draw_window=req.draw_window,
            bot_delay=req.bot_delay,
        )  # fmt: skip
        # The engine checks the preset, its options and the player count (R-SET-5, R-SET-6).
        Game(settings.rules, settings.players, options=settings.options, seed=0, events=False)
        return settings

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Settings:
        return cls(**data)


try:
    import orjson as _orjson
except ImportError:  # pragma: no cover - orjson comes with the web extra
    _orjson = None  # type: ignore[assignment]


def encode(msg: dict[str, Any]) -> str:
    """A message as JSON text (orjson when installed: the server encodes one state per
    connection and move; json for what orjson refuses, such as a 256-bit seed)."""
    if _orjson is not None:
        try:
            return _orjson.dumps(msg).decode()
        except TypeError:
            pass
    return json.dumps(msg, ensure_ascii=False)


def _bot_seed(seed: int, seat: int) -> int:
    digest = hashlib.sha256(f"ono99-web-bot:{seed}:{seat}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


class Conn:
    """One websocket: its seat (None: a spectator), language and outgoing queue."""

    def __init__(self, seat: int | None, lang: str) -> None:
        self.seat = seat
        self.lang = lang
        self.cursor = 0  # events already sent
        self.queue: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()
        self.fresh = True

    def send(self, msg: dict[str, Any]) -> None:
        if self.queue.qsize() >= QUEUE_LIMIT:
            # A connection that does not read: drop it (the client reconnects and resyncs).
            self.queue.put_nowait(None)
            return
        self.queue.put_nowait(msg)


class Table:
    """One table and its game; every method that changes it runs under ``self.lock``."""

    def __init__(self, hub: Hub, st: StoredTable) -> None:
        self.hub = hub
        self.id = st.id
        self.code = st.code
        self.created = st.created
        self.settings = Settings.from_json(st.settings)
        self.seed = st.seed
        self.seed_fixed = st.seed_fixed
        #: the game's version: moves, seats, the start and the rematch move it on, and it
        #: is stored with them, so a reconnect or a restart leaves it where it was
        self.version = st.version
        #: presence (connect, disconnect, away) has its own counter, never stored: a phone
        #: dropping off must not make another player's move stale
        self.presence = 0
        #: indices of the events of moves a bot made for a human seat (away, out of time)
        self._by_bot: set[int] = set()
        self.next_table = st.next_table
        self.humans: dict[int, StoredSeat] = {s.seat: s for s in st.seats}
        self.bot_seats: set[int] = set(st.bot_seats or [])
        self.game: Game | None = None
        self.lock = asyncio.Lock()
        self.conns: set[Conn] = set()
        self.away: set[int] = set()
        self.bots: dict[int, Bot] = {}
        self.bot_lock = threading.Lock()
        self.deadline: float | None = st.deadline  # the turn timer survives a restart
        self.changed_at = time.monotonic()
        self._auto: asyncio.Task[None] | None = None
        self._away_tasks: dict[int, asyncio.Task[None]] = {}
        #: seat -> (seat, token) at the rematch table, for a player who asks twice
        self.rematch_seats: dict[int, tuple[int, str]] = {}
        #: this process runs the table's bots and timers (always, unless processes share
        #: the database: then only the table's owner, web/shared.py)
        self.owned = hub.shared is None
        self._sync_task: asyncio.Task[None] | None = None
        self._sync_again = False
        if st.started:
            assert st.names is not None
            game = self._new_game(st.names)
            # the engine replays a seeded game exactly
            self._replay(game, [(m, st.by_bot.get(i)) for i, m in enumerate(st.moves)])
            self.game = game

    # ------------------------------------------------------------------ facts

    @property
    def phase(self) -> str:
        if self.game is None:
            return "lobby"
        return "over" if self.game.is_over else "playing"

    def _new_game(self, names: list[str]) -> Game:
        s = self.settings
        return Game(s.rules, names, options=s.options, seed=self.seed, events=True)

    def seat_for(self, token: str) -> int | None:
        """The seat of ``token`` (constant-time comparison of the hashes), or None."""
        h = token_hash(token)
        found = None
        for seat, info in self.humans.items():
            if hmac.compare_digest(h, info.token_hash):
                found = seat
        return found

    def connected(self) -> list[bool]:
        seats = {c.seat for c in self.conns}
        return [s in seats for s in range(self.settings.players)]

    def botlike(self, seat: int) -> bool:
        return seat in self.bot_seats or seat in self.away

    def info(self, base_url: str = "/") -> dict[str, Any]:
        """The table's public facts (``TableInfo`` of docs/protocol.md)."""
        s = self.settings
        conn = self.connected()
        seats = []
        for seat in range(s.players):
            human = self.humans.get(seat)
            kind = "human" if human else "bot" if seat in self.bot_seats else "open"
            name = human.name if human else None
            if self.game is not None:
                name = self.game.names[seat]
            seats.append(
                {"seat": seat, "name": name, "kind": kind, "connected": conn[seat],
                 "away": seat in self.away}
            )  # fmt: skip
        over = self.phase == "over"
        return {
            "table": self.id,
            "code": self.code,
            "url": base_url.rstrip("/") + "/t/" + self.code,
            **asdict(s),
            "phase": self.phase,
            "seed_fixed": self.seed_fixed,
            "seed": self.seed if over else None,
            "version": self.version,
            "presence": self.presence,
            "moves": 0 if self.game is None else len(self.game.moves),
            "seats": seats,
            "deadline": self.deadline,
            "next_table": self.next_table,
        }

    def _lobby_view(self, seat: int | None) -> dict[str, Any]:
        n = self.settings.players
        names = [h.name if (h := self.humans.get(i)) else "" for i in range(n)]
        return {
            "seat": seat, "rules": self.settings.rules, "options": dict(self.settings.options),
            "names": names, "hand": [], "hand_sizes": [0] * n, "total": 0, "direction": 1,
            "to_move": None, "owes_two": None, "plays_left": 1, "legal": [], "bust_mode": False,
            "discard": [], "draw_pile": 0, "laid_down": [[] for _ in range(n)], "out": [],
            "round_out": [], "tokens": None, "scores": None, "round": 0, "winner": None,
            "pending_draw": None,
        }  # fmt: skip

    def view_for(self, seat: int | None) -> dict[str, Any]:
        """VIEW: the seat's own view (or the public one) and the table's public facts."""
        g = self.game
        if g is None:
            view = self._lobby_view(seat)
        elif seat is None:
            view = g.public_view().to_json()
        else:
            view = g.view(seat).to_json()
        view["phase"] = self.phase
        view["connected"] = self.connected()
        view["bots"] = [self.botlike(s) for s in range(self.settings.players)]
        view["away"] = [s in self.away for s in range(self.settings.players)]
        view["deadline"] = self.deadline
        view["moves"] = 0 if g is None else len(g.moves)
        return view

    def record(self) -> dict[str, Any]:
        if self.game is None or not self.game.is_over:
            raise WebError(409, N_("the record is served once the game is over"))
        return to_record(self.game)

    # ------------------------------------------------------------------ broadcast

    def _message(
        self, conn: Conn, ack: Any = None, info: dict[str, Any] | None = None
    ) -> dict[str, Any]:
        g = self.game
        events: list[dict[str, Any]] = []
        catchup = conn.fresh
        if g is not None:
            start = conn.cursor
            total = len(g.events or [])
            if conn.fresh:
                start = max(0, total - CATCHUP_EVENTS)
            todo = g.events_for(conn.seat, start)
            if todo:
                with speaking(conn.lang):
                    events = [self._event(i, e, g, conn.seat) for i, e in enumerate(todo, start)]
            conn.cursor = total
        conn.fresh = False
        msg: dict[str, Any] = {
            "type": "state",
            "version": self.version,
            "presence": self.presence,
            "view": self.view_for(conn.seat),
            "table": self.info(self.hub.base_url) if info is None else info,
            "events": events,
            "catchup": catchup,
        }
        if ack is not None:
            msg["ack"] = ack
        return msg

    def _broadcast(self, acker: Conn | None = None, ack: Any = None) -> None:
        if not self.conns:
            return
        info = self.info(self.hub.base_url)  # the same for every connection
        for c in list(self.conns):
            c.send(self._message(c, ack if c is acker else None, info))

    def _deadline_after(self, g: Game | None) -> float | None:
        """The turn timer's deadline once ``g`` is the table's game (None: no timer)."""
        s = self.settings
        human_to_move = g is not None and g.to_move is not None and not self.botlike(g.to_move)
        if human_to_move and s.turn_seconds > 0 and s.takeover:
            return time.time() + s.turn_seconds
        return None

    def _game_changed(self, version: int | None = None) -> None:
        """The game changed (a move, a seat, the start, the rematch): the version moves on,
        to ``version`` where it was stored as that."""
        self.version = self.version + 1 if version is None else version
        self.changed_at = time.monotonic()

    def _presence_changed(self) -> None:
        """Someone connected, disconnected or went away: not a change of the game."""
        self.presence += 1

    # ------------------------------------------------------------------ commands

    async def join(self, name: str) -> tuple[int, str]:
        name = clean_name(name)
        async with self.lock:
            for _attempt in range(2 * self.settings.players + 2):
                if self.game is not None:
                    raise WebError(409, N_("the game has already started"))
                free = [s for s in range(self.settings.players) if s not in self.humans]
                if not free:
                    raise WebError(409, N_("the table is full"))
                seat = free[0]
                token = secrets.token_urlsafe(32)
                info = StoredSeat(seat, name, token_hash(token))
                try:
                    await self.hub.db(self.hub.store.add_seat, self.id, info, self.version + 1)
                except Conflict:  # another process seated someone there, or started
                    await self._sync()
                    continue
                self.humans[seat] = info
                self._game_changed()
                self._broadcast()
                return seat, token
            raise WebError(409, N_("the table is full"))  # pragma: no cover

    async def start(self, token: str) -> int:
        async with self.lock:
            if self.hub.shared is not None:
                await self._sync()  # seats taken through the other processes
            seat = self.seat_for(token)
            if seat is None:
                raise no_table()
            if self.game is not None:
                raise WebError(409, N_("the game has already started"))
            n = self.settings.players
            bots = [s for s in range(n) if s not in self.humans]
            names = [self.humans[s].name if s in self.humans else f"Bot {s + 1}" for s in range(n)]
            game = self._new_game(names)
            was_bots = self.bot_seats
            self.bot_seats = set(bots)  # for the deadline: whether a bot moves first
            deadline = self._deadline_after(game)
            self.bot_seats = was_bots
            try:
                await self.hub.db(
                    self.hub.store.start, self.id, names, bots, self.version + 1, deadline
                )
            except Conflict:  # started through another process meanwhile
                await self._sync()
                raise WebError(409, N_("the game has already started")) from None
            if self.hub.shared is not None:
                self.owned = self.id in await self.hub.shared.claim([self.id])
            self.bot_seats = set(bots)
            self.game = game
            self.deadline = deadline
            self._game_changed()
            for s in self.humans:
                if not any(c.seat == s for c in self.conns):
                    self._start_away_timer(s)
            self._broadcast()
            self._reschedule()
            return self.version

    async def connect(self, conn: Conn) -> None:
        async with self.lock:
            seat = conn.seat
            was = seat is not None and any(c.seat == seat for c in self.conns)
            self.conns.add(conn)
            if seat is not None:
                task = self._away_tasks.pop(seat, None)
                if task is not None:
                    task.cancel()
            if seat is not None and (not was or seat in self.away):
                self.away.discard(seat)  # the player takes the seat back
                self._presence_changed()
                self._broadcast()
                self._reschedule()
            else:
                conn.send(self._message(conn))

    async def disconnect(self, conn: Conn) -> None:
        async with self.lock:
            self.conns.discard(conn)
            seat = conn.seat
            if seat is None or any(c.seat == seat for c in self.conns):
                return
            self._presence_changed()
            self._broadcast()
            if self.phase == "playing":
                self._start_away_timer(seat)

    async def hello(self, conn: Conn, lang: str | None) -> None:
        async with self.lock:
            if lang is not None:
                conn.lang = lang
            conn.send(self._message(conn))

    async def move(self, conn: Conn, msg: MoveMsg) -> None:
        """A client's move: applied and stored, or an error and nothing changes."""
        async with self.lock:
            try:
                action = self._check_move(conn, msg)
                await self._apply(conn.seat, action, conn, msg.id)
            except WebError as e:
                conn.send(self._error(e.text(conn.lang), msg.id))
            except Ono99Error as e:
                conn.send(self._error(translate(e, conn.lang), msg.id))

    def _error(self, text: str, msg_id: Any = None) -> dict[str, Any]:
        out: dict[str, Any] = {"type": "error", "error": text, "version": self.version}
        if msg_id is not None:
            out["id"] = msg_id
        return out

    def _check_move(self, conn: Conn, msg: MoveMsg) -> int:
        seat = conn.seat
        if seat is None:
            raise WebError(403, N_("spectators cannot play"))
        if self.game is None:
            raise WebError(409, N_("the game has not started"))
        if msg.version != self.version:
            raise WebError(
                409,
                N_("stale version {version}: the table is at version {current}"),
                version=msg.version,
                current=self.version,
            )
        action = parse_action(msg.move)
        if self.game.is_over:
            raise WebError(409, N_("the game is over"))
        if seat in self.away:
            raise WebError(409, N_("a bot is playing for you; reconnect to take your seat back"))
        acting = self.game.acting()
        if seat not in acting:
            raise WebError(409, N_("it is not your turn"))
        return action

    def _replay(self, game: Game, moves: list[tuple[str, int | None]]) -> None:
        """Apply stored ``moves`` to ``game``, each with the seat a bot played it for."""
        for move, for_seat in moves:
            first = len(game.events or [])
            game.apply(move)
            if for_seat is not None:
                self._mark_by_bot(game, first, for_seat)

    def _mark_by_bot(self, game: Game, first: int, seat: int) -> None:
        """The events of ``game`` from ``first`` on that ``seat`` made were a bot's doing."""
        made = game.events or []
        self._by_bot.update(i for i in range(first, len(made)) if made[i].seat == seat)

    def _event(self, index: int, e: Event, g: Game, seat: int | None) -> dict[str, Any]:
        """Event ``index`` as ``seat`` hears it; a card a bot played for a human seat (away,
        or out of time) is told to that seat as the bot's (``info.by_bot``), not "You play"."""
        if index in self._by_bot and e.seat == seat:
            out = event_json(e, g.names, g.rules, None, None)
            out["info"] = {**(out["info"] or {}), "by_bot": True}
            return out
        return event_json(e, g.names, g.rules, seat, None)

    async def _apply(self, seat: int | None, action: int, conn: Conn | None, ack: Any) -> None:
        """Apply ``action`` for ``seat`` (lock held): checked on a copy, stored, then made
        the table's state and broadcast."""
        g = self.game
        assert g is not None and seat is not None
        if action not in g.acting().get(seat, ()):
            if seat not in g.acting():
                raise WebError(409, N_("it is not your turn"))
            # The reason comes from what this seat may see: a seat whose draw is pending
            # asking for a card is told it is not its turn, never what the mover holds.
            g.verify(action, seat)
            raise WebError(409, N_("that move is not allowed now"))  # pragma: no cover
        after = g.copy(events=True)
        after.apply(action, seat)
        version = self.version + 1
        deadline = self._deadline_after(after)
        # a bot played for a human seat (away, or out of time)
        for_seat = seat if conn is None and seat not in self.bot_seats else None
        try:
            await self.hub.write_move(
                (self.id, len(g.moves), action_code(action), version, after.is_over, deadline,
                 for_seat)
            )  # fmt: skip
        except Conflict:  # another process stored a move at this index first
            was = self.version
            await self._sync()
            raise WebError(
                409,
                N_("stale version {version}: the table is at version {current}"),
                version=was,
                current=self.version,
            ) from None
        except Exception:
            log.exception("table %s: storing a move failed", self.id)
            raise WebError(503, N_("the move could not be saved; try again")) from None
        if for_seat is not None:
            self._mark_by_bot(after, len(g.events or []), for_seat)
        self.game = after
        self.deadline = deadline
        self._game_changed(version)
        self._broadcast(conn, ack)
        self._reschedule()

    # ------------------------------------------------------------------ bots and timers

    def _start_away_timer(self, seat: int) -> None:
        if not self.settings.takeover or seat in self.away or seat in self._away_tasks:
            return
        self._away_tasks[seat] = asyncio.create_task(self._away_after(seat))

    async def _away_after(self, seat: int) -> None:
        await asyncio.sleep(self.settings.away_seconds)
        async with self.lock:
            self._away_tasks.pop(seat, None)
            if self.phase != "playing" or any(c.seat == seat for c in self.conns):
                return
            self.away.add(seat)
            self._presence_changed()
            self._broadcast()
            self._reschedule()

    def _bot(self, seat: int) -> Bot:
        bot = self.bots.get(seat)
        if bot is None:
            bot = make_bot(self.settings.bots, _bot_seed(self.seed, seat))
            self.bots[seat] = bot
        return bot

    def _next_auto(self) -> tuple[float, int] | None:
        """(delay in seconds, seat) of the next move a bot makes, or None."""
        g = self.game
        if g is None or g.is_over or not self.owned:
            return None
        s = self.settings
        now = time.monotonic()
        best: tuple[float, int] | None = None
        acting = g.acting()
        human_pending = g.pending_draw is not None and not self.botlike(g.pending_draw)
        for seat, legal in acting.items():
            if self.botlike(seat):
                if DRAW in legal:
                    delay = 0.0  # bots draw at once (R-DRAW-1)
                else:
                    delay = s.bot_delay - (now - self.changed_at)
                    if human_pending and g.pending_draw != seat:
                        delay = max(delay, s.draw_window - (now - self.changed_at))
            elif seat == g.to_move and self.deadline is not None:
                delay = self.deadline - time.time()  # the turn timer runs out
            else:
                continue
            if best is None or delay < best[0]:
                best = (max(0.0, delay), seat)
        return best

    def _reschedule(self) -> None:
        current = asyncio.current_task()
        if self._auto is not None and self._auto is not current:
            self._auto.cancel()
        self._auto = None
        nxt = self._next_auto()
        if nxt is not None:
            self._auto = asyncio.create_task(self._auto_move(*nxt, self.version))

    async def _auto_move(self, delay: float, seat: int, version: int) -> None:
        """A bot moves for ``seat`` after ``delay`` if nothing changed meanwhile."""
        try:
            if delay > 0:
                await asyncio.sleep(delay)
            async with self.lock:
                g = self.game
                if self.version != version or g is None:
                    return
                legal = g.acting().get(seat, ())
                if not legal:
                    return
                view = g.view(seat) if len(legal) > 1 and DRAW not in legal else None
                bot = self._bot(seat)
            if view is None:
                action = DRAW if DRAW in legal else legal[0]
            else:
                action = await self.hub.think(self.bot_lock, bot.act, view)
            async with self.lock:
                if self.version != version or not self._may_auto(seat):
                    return  # something changed while the bot thought: rescheduled already
                await self._apply(seat, action, None, None)
        except asyncio.CancelledError:
            raise
        except WebError:
            pass  # another process moved first: the table is reloaded and rescheduled
        except Exception:
            log.exception("table %s: a bot move failed", self.id)

    def _may_auto(self, seat: int) -> bool:
        """Whether a bot may move for ``seat`` now: it is a bot's or an away player's seat,
        or the turn timer of the player to move has run out."""
        if self.botlike(seat):
            return True
        g = self.game
        return (
            g is not None
            and seat == g.to_move
            and self.deadline is not None
            and time.time() >= self.deadline - 0.05
        )

    # ------------------------------------------------------------------ other processes

    async def find_seat(self, token: str) -> int | None:
        """``seat_for``; when processes share the database, a token it does not know yet
        (joined through another process a moment ago) is looked up there."""
        seat = self.seat_for(token)
        if seat is None and self.hub.shared is not None:
            async with self.lock:
                await self._sync()
            seat = self.seat_for(token)
        return seat

    def request_sync(self) -> None:
        """Another process changed this table: reload it soon (once for many notices)."""
        if self._sync_task is not None and not self._sync_task.done():
            self._sync_again = True
            return
        self._sync_task = asyncio.create_task(self._sync_loop())

    async def _sync_loop(self) -> None:
        try:
            while True:
                self._sync_again = False
                async with self.lock:
                    await self._sync()
                if not self._sync_again:
                    return
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("table %s: reloading it from the database failed", self.id)

    async def _sync(self) -> None:
        """Take in what other processes stored (lock held): seats, the start, new moves,
        the rematch; one new state to every connection if anything changed."""
        g = self.game
        if g is not None and not g.is_over:
            # playing: only moves can have come (one small query)
            new = await self.hub.db(self.hub.store.moves_since, self.id, len(g.moves))
            if new:
                after = g.copy(events=True)
                self._replay(after, new)
                self.game = after
                self.deadline = self._deadline_after(after)
                self._game_changed(self.version + len(new))  # each stored move is one version
                self._broadcast()
                self._reschedule()
            return
        st = await self.hub.db(self.hub.store.load, self.id)
        if st is None:
            return
        changed = game_changed = False
        for seat in st.seats:
            if seat.seat not in self.humans:
                self.humans[seat.seat] = seat
                changed = True
        if st.started and self.game is None:
            assert st.names is not None
            self.game = self._new_game(st.names)
            self.bot_seats = set(st.bot_seats or [])
            changed = game_changed = True
            for s in self.humans:
                if not any(c.seat == s for c in self.conns):
                    self._start_away_timer(s)
        g = self.game
        if g is not None and len(st.moves) > len(g.moves):
            after = g.copy(events=True)
            done = len(g.moves)
            self._replay(after, [(m, st.by_bot.get(i)) for i, m in enumerate(st.moves)][done:])
            self.game = after
            changed = game_changed = True
        if st.next_table is not None and self.next_table is None:
            self.next_table = st.next_table
            changed = True
        if changed:
            self.version = max(self.version, st.version)  # as stored: the same in every process
            if game_changed:
                self.changed_at = time.monotonic()
                self.deadline = st.deadline
            self._broadcast()
            self._reschedule()

    async def close(self) -> None:
        if self._sync_task is not None:
            self._sync_task.cancel()
        tasks = [t for t in (self._auto, *self._away_tasks.values()) if t is not None]
        for t in tasks:
            t.cancel()
        for t in tasks:
            with contextlib.suppress(BaseException):
                await t


class Hub:
    """Every table of this server, and the database behind them."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.tables: dict[str, Table] = {}
        self.codes: dict[str, str] = {}
        #: what the links broadcast to every client start with: the configured public URL
        #: (``ono99 serve --public-url``) or "/" (a relative link); set once, never from a
        #: request (a forged Host header would change every client's link)
        self.base_url = "/"
        #: seconds a finished table nobody is connected to stays in memory (``sweep``)
        self.finished_grace = 60.0
        #: seconds after which a lobby table nobody started is deleted (0: never)
        self.lobby_seconds = 0.0
        self._idle_since: dict[str, float] = {}
        self._db_pool = ThreadPoolExecutor(
            max_workers=1 if store.is_sqlite else 4, thread_name_prefix="ono99-db"
        )
        self._bot_pool = ThreadPoolExecutor(max_workers=2, thread_name_prefix="ono99-bot")
        self._loading: dict[str, asyncio.Future[Table | None]] = {}
        self._writes: list[tuple[MoveRow, asyncio.Future[None]]] = []
        self._writer: asyncio.Task[None] | None = None
        #: other processes on the same database (PostgreSQL): web/shared.py
        self.shared: Shared | None = None
        self._claims: set[asyncio.Task[None]] = set()

    def _share(self) -> None:
        """On PostgreSQL, join the other processes (once, from the running loop)."""
        if self.shared is None and not self.store.is_sqlite:
            from ono99.web.shared import Shared

            self.shared = Shared(self)
            self.shared.start()

    def on_notify(self, payload: str | None) -> None:
        """A NOTIFY from the database: PROC:TABLE changed (None: maybe anything did)."""
        if payload is None:
            for t in list(self.tables.values()):
                if t.phase != "over":
                    t.request_sync()
            return
        proc, _, table_id = payload.partition(":")
        if self.shared is not None and proc == self.shared.proc:
            return
        table = self.tables.get(table_id)
        if table is not None:
            table.request_sync()

    async def claim_tables(self, tables: list[Table] | None = None) -> None:
        """Run the bots of the playing tables nobody else runs (shared database)."""
        if self.shared is None:
            return
        if tables is None:
            tables = [t for t in self.tables.values() if t.phase == "playing"]
        owned = await self.shared.claim([t.id for t in tables])
        for t in tables:
            mine = t.id in owned
            if mine != t.owned:
                async with t.lock:
                    t.owned = mine
                    if mine:
                        log.info("ono99: table %s: this process runs it now", t.id)
                        await t._sync()
                    t._reschedule()

    async def write_move(self, row: MoveRow) -> None:
        """Store one move; returns once it is committed. Moves that arrive while a commit
        is running wait for the next one and go in together (group commit): one
        transaction for many tables, and still every move stored before it is told."""
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._writes.append((row, fut))
        if self._writer is None or self._writer.done():
            self._writer = asyncio.create_task(self._write_loop())
        await fut

    async def _write_loop(self) -> None:
        while self._writes:
            batch, self._writes = self._writes[:WRITE_BATCH], self._writes[WRITE_BATCH:]
            rows = [row for row, _ in batch]
            try:
                # SQLite commits a WAL append in microseconds: in the loop itself, without
                # the hop to a thread and back (profiled: that hop cost more), but never
                # waiting there for a lock another process holds: then in the thread
                quick = self.store.try_add_moves(rows) if INLINE_SQLITE else None
                if quick is not None:
                    results = quick
                else:
                    results = await self.db(self.store.add_moves, rows)
            except Exception as e:
                results = [e] * len(batch)
            for (_row, fut), err in zip(batch, results, strict=True):
                if fut.done():
                    continue
                if err is None:
                    fut.set_result(None)
                else:
                    fut.set_exception(err)

    async def db(self, fn: Callable[..., T], *args: Any) -> T:
        return await asyncio.get_running_loop().run_in_executor(self._db_pool, fn, *args)

    async def think(self, lock: threading.Lock, fn: Callable[[Any], int], view: Any) -> int:
        def run() -> int:
            with lock:
                return fn(view)

        return await asyncio.get_running_loop().run_in_executor(self._bot_pool, run)

    async def load_all(self) -> int:
        """Rebuild every unfinished table from the database (at start), once the expired
        lobby tables are deleted."""
        self._share()
        if self.lobby_seconds > 0:
            await self.db(self.store.delete_expired_lobbies, time.time() - self.lobby_seconds)
        ids = await self.db(self.store.unfinished_ids)
        loaded = 0
        for table_id in ids:
            try:
                await self.get(table_id)
                loaded += 1
            except Exception:  # one table that no longer replays must not stop the server
                log.exception("table %s could not be rebuilt from its moves", table_id)
        return loaded

    def _add(self, table: Table) -> Table:
        self.tables[table.id] = table
        self.codes[table.code] = table.id
        if table.phase == "playing":
            for seat in table.humans:
                table._start_away_timer(seat)
            table._reschedule()
            if self.shared is not None and not table.owned:
                # its owner may be gone (the clients came here from a dead process)
                task = asyncio.create_task(self.claim_tables([table]))
                self._claims.add(task)
                task.add_done_callback(self._claims.discard)
        return table

    async def get(self, table_id: str) -> Table | None:
        self._share()
        table = self.tables.get(table_id)
        if table is not None:
            return table
        if not 8 <= len(table_id) <= 32 or not table_id.replace("-", "").replace("_", "").isalnum():
            return None
        loading = self._loading.get(table_id)
        if loading is not None:
            return await loading
        fut: asyncio.Future[Table | None] = asyncio.get_running_loop().create_future()
        self._loading[table_id] = fut
        try:
            st = await self.db(self.store.load, table_id)
            result = None if st is None else self._add(Table(self, st))
            fut.set_result(result)
            return result
        except Exception as e:
            fut.set_exception(e)
            fut.exception()  # retrieved: no "never retrieved" warning
            raise
        finally:
            del self._loading[table_id]

    async def by_code(self, code: str) -> Table | None:
        code = code.strip().upper()
        if len(code) != CODE_LENGTH or any(ch not in CODE_ALPHABET for ch in code):
            return None
        table_id = self.codes.get(code) or await self.db(self.store.id_for_code, code)
        return None if table_id is None else await self.get(table_id)

    async def create(self, settings: Settings, seed: int | None) -> Table:
        self._share()
        fixed = seed is not None
        for _attempt in range(20):
            st = StoredTable(
                id=secrets.token_urlsafe(12),
                code="".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH)),
                created=time.time(),
                settings=asdict(settings),
                seed=new_seed() if seed is None else seed,
                seed_fixed=fixed,
            )
            try:
                await self.db(self.store.create_table, st)
            except CodeTaken:
                continue
            return self._add(Table(self, st))
        raise WebError(503, N_("could not find a free table code; try again"))  # pragma: no cover

    async def rematch(self, table: Table, token: str) -> tuple[Table, int, str]:
        seat = await table.find_seat(token)
        if seat is None:
            raise no_table()
        if table.phase != "over":
            raise WebError(409, N_("a rematch can be asked for once the game is over"))
        name = table.humans[seat].name
        async with table.lock:
            known = table.rematch_seats.get(seat)
            if known is not None and table.next_table is not None:
                nxt = await self.get(table.next_table)
                if nxt is not None:
                    return nxt, *known
            nxt = None if table.next_table is None else await self.get(table.next_table)
            if nxt is None:
                seed = (table.seed + 1) % 2**256 if table.seed_fixed else None
                nxt = await self.create(table.settings, seed)
                try:
                    await self.db(self.store.set_next_table, table.id, nxt.id, table.version + 1)
                    table.next_table = nxt.id
                    table._game_changed()
                    table._broadcast()
                except Conflict:  # asked for through another process meanwhile
                    await table._sync()
                    nxt = None if table.next_table is None else await self.get(table.next_table)
                    if nxt is None:
                        raise no_table() from None
            new_seat, new_token = await nxt.join(name)
            table.rematch_seats[seat] = (new_seat, new_token)
        return nxt, new_seat, new_token

    async def sweep(self) -> None:
        """Forget the finished tables nobody has been connected to for ``finished_grace``
        seconds (``get`` loads them again from the database when asked for), and delete
        the lobby tables older than ``lobby_seconds`` (memory and database)."""
        now = time.monotonic()
        for table_id, t in list(self.tables.items()):
            if t.phase != "over" or t.conns or t.lock.locked():
                self._idle_since.pop(table_id, None)
                continue
            since = self._idle_since.setdefault(table_id, now)
            if now - since >= self.finished_grace:
                await self._forget(t)
        if self.lobby_seconds > 0:
            cutoff = time.time() - self.lobby_seconds
            gone = set(await self.db(self.store.delete_expired_lobbies, cutoff))
            for lobby in list(self.tables.values()):
                # also one another process (same PostgreSQL) deleted already
                expired = lobby.id in gone or lobby.created < cutoff
                if lobby.phase == "lobby" and expired and not lobby.lock.locked():
                    for c in list(lobby.conns):
                        c.queue.put_nowait(None)  # the writer closes the websocket
                    await self._forget(lobby)

    async def _forget(self, t: Table) -> None:
        self._idle_since.pop(t.id, None)
        if self.tables.get(t.id) is t:
            del self.tables[t.id]
        if self.codes.get(t.code) == t.id:
            del self.codes[t.code]
        await t.close()

    async def close(self) -> None:
        for task in list(self._claims):
            task.cancel()
        if self.shared is not None:
            await self.shared.stop()
        for t in list(self.tables.values()):
            await t.close()
        if self._writer is not None:
            with contextlib.suppress(BaseException):
                await self._writer
        self._bot_pool.shutdown(wait=False, cancel_futures=True)
        self._db_pool.shutdown(wait=True)
        self.store.close()
