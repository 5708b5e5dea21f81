"""The authority of each web table: one lock per table, commands in order, a gap-free
version, every change stored before it is broadcast, each connection told only what its
seat may know (docs/protocol.md).

Everything a client receives is built here from ``game.view(seat).to_json()`` (or the
public view for a spectator), ``game.events_for(seat)`` and the table's public facts.
The server's other jobs have modules of their own: :mod:`ono99.web.hub` (every table of
the process, storing moves), :mod:`ono99.web.conn` (a connection and its queue),
:mod:`ono99.web.settings`, :mod:`ono99.web.errors`, :mod:`ono99.web.store` (the database),
:mod:`ono99.web.shared` (several processes on one database).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import logging
import secrets
import threading
import time
from typing import Any

from starlette.concurrency import run_in_threadpool

from ono99.bots import Bot, make_bot
from ono99.bots.evaluate import evaluate
from ono99.cards import DRAW, action_code, parse_action
from ono99.errors import Ono99Error
from ono99.events import Event
from ono99.game import Game
from ono99.i18n import N_
from ono99.records import to_record
from ono99.rules import make_rules
from ono99.texts import card_names, view_words
from ono99.view import PlayerView, PublicView, lobby_view
from ono99.web.announce import by_bot_text, event_json, speaking, translate
from ono99.web.conn import Conn
from ono99.web.errors import WebError, clean_name, no_table
from ono99.web.hub_api import HubApi
from ono99.web.notices import MovesNotice
from ono99.web.protocol import HintMsg, MoveMsg
from ono99.web.settings import Settings
from ono99.web.store import (
    Conflict,
    StoredSeat,
    StoredTable,
    token_hash,
)

__all__ = ["Table"]

log = logging.getLogger("ono99.web")

#: announcements sent to a connection that has just (re)connected
CATCHUP_EVENTS = 30
#: worlds a hint is valued from (docs/review.md: about a second with Numba)
HINT_SAMPLES = 200


def _bot_seed(seed: int, seat: int) -> int:
    digest = hashlib.sha256(f"ono99-web-bot:{seed}:{seat}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


class Table:
    """One table and its game; every method that changes it runs under ``self.lock``."""

    def __init__(self, hub: HubApi, st: StoredTable) -> None:
        self.hub = hub
        self.id = st.id
        self.code = st.code
        self.created = st.created
        self.settings = Settings.from_json(st.settings)
        self.seed = st.seed
        self.seed_fixed = st.seed_fixed
        self.rng = st.rng  # 1 for a table stored before versions (R-REC): it deals as it did
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
        #: the seats whose hint is being valued (one at a time a seat)
        self._hinting: set[int] = set()
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
        #: what other processes stored that this one has to take in (``request_sync``)
        self._notices: list[MovesNotice] = []
        self._reload = False
        if st.started:
            assert st.names is not None
            game = self._new_game(st.names)
            # the engine replays a seeded game exactly
            self._replay(game, st.marked_moves())
            self.game = game

    # ------------------------------------------------------------------ facts

    @property
    def phase(self) -> str:
        if self.game is None:
            return "lobby"
        return "over" if self.game.is_over else "playing"

    def _new_game(self, names: list[str]) -> Game:
        s = self.settings
        return Game(s.rules, names, options=s.options, seed=self.seed, events=True, rng=self.rng)

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
            **s.to_json(),
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
        """VIEW before the start: the view's keys (``VIEW_JSON``) with the seats joined."""
        names = [h.name if (h := self.humans.get(i)) else "" for i in range(self.settings.players)]
        rules = make_rules(self.settings.rules, self.settings.options)
        return {**lobby_view(rules, names).to_json(), "seat": seat}

    def _seat_view(self, seat: int | None) -> PublicView | None:
        """The seat's own view (a spectator's: the public one); None before the start."""
        g = self.game
        if g is None:
            return None
        return g.public_view() if seat is None else g.view(seat)

    def view_for(self, seat: int | None, seen: PublicView | None = None) -> dict[str, Any]:
        """VIEW: the seat's own view (``seen``, else built here) and the table's public facts."""
        g = self.game
        if seen is None:
            seen = self._seat_view(seat)
        view = self._lobby_view(seat) if seen is None else seen.to_json()
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
        seen = self._seat_view(conn.seat)
        with speaking(conn.lang):
            if g is not None:
                start = conn.cursor
                total = len(g.events or [])
                if conn.fresh:
                    start = max(0, total - CATCHUP_EVENTS)
                todo = g.events_for(conn.seat, start)
                events = [self._event(i, e, g, conn.seat) for i, e in enumerate(todo, start)]
                conn.cursor = total
            texts = self._texts(seen)
        conn.fresh = False
        msg: dict[str, Any] = {
            "type": "state",
            "version": self.version,
            "presence": self.presence,
            "view": self.view_for(conn.seat, seen),
            "texts": texts,
            "table": self.info(self.hub.base_url) if info is None else info,
            "events": events,
            "catchup": catchup,
        }
        if ack is not None:
            msg["ack"] = ack
        return msg

    def _texts(self, seen: PublicView | None) -> dict[str, Any]:
        """TEXTS: what the seat of ``seen`` is told beside its view (in the language of the
        ``speaking`` block around the call); before the start only the card names."""
        if seen is None:
            rules = make_rules(self.settings.rules, self.settings.options)
            return {"cards": card_names(rules), "turn": "", "owes": None, "why_not": {},
                    "places": []}  # fmt: skip
        return view_words(seen)

    def broadcast(self, acker: Conn | None = None, ack: Any = None) -> None:
        """A new state to every connection (``ack`` to ``acker`` only)."""
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

    def game_changed(self, version: int | None = None) -> None:
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
                    await self.sync()
                    continue
                self.humans[seat] = info
                self.game_changed()
                self.broadcast()
                return seat, token
            raise WebError(409, N_("the table is full"))  # pragma: no cover

    async def start(self, token: str) -> int:
        async with self.lock:
            if self.hub.shared is not None:
                await self.sync()  # seats taken through the other processes
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
                await self.sync()
                raise WebError(409, N_("the game has already started")) from None
            if self.hub.shared is not None:
                self.owned = self.id in await self.hub.shared.claim([self.id])
            self.bot_seats = set(bots)
            self.game = game
            self.deadline = deadline
            self.game_changed()
            for s in self.humans:
                if not any(c.seat == s for c in self.conns):
                    self.start_away_timer(s)
            self.broadcast()
            self.reschedule()
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
                self.broadcast()
                self.reschedule()
            else:
                conn.send(self._message(conn))

    async def disconnect(self, conn: Conn) -> None:
        async with self.lock:
            self.conns.discard(conn)
            seat = conn.seat
            if seat is None or any(c.seat == seat for c in self.conns):
                return
            self._presence_changed()
            self.broadcast()
            if self.phase == "playing":
                self.start_away_timer(seat)

    async def hello(self, conn: Conn, lang: str | None) -> None:
        async with self.lock:
            if lang is not None and lang != conn.lang:
                conn.lang = lang
                # a catch-up in the new language: the page replaces its log with it, so
                # the announcements already shown do not stay in the old one
                conn.fresh = True
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

    async def hint(self, conn: Conn, msg: HintMsg) -> None:
        """A seat's hint, where the table's creator allows them: each legal card's chance to
        win (docs/review.md), valued from that seat's own view only, off the event loop, and
        sent to the asking connection alone. One hint at a time a seat."""
        async with self.lock:
            try:
                view = self._check_hint(conn, msg)
            except WebError as e:
                conn.send(self._error(e.text(conn.lang), msg.id))
                return
            version = self.version
            seat = view.seat
            self._hinting.add(seat)
        try:
            values = await run_in_threadpool(evaluate, view, HINT_SAMPLES, secrets.randbits(64))
        finally:
            self._hinting.discard(seat)
        out: dict[str, Any] = {
            "type": "hint",
            "version": version,
            "options": [
                {"move": o.code, "win": round(o.win, 4), "ci95": [round(x, 4) for x in o.ci95]}
                for o in values.options
            ],
        }
        if msg.id is not None:
            out["id"] = msg.id
        conn.send(out)

    def _check_hint(self, conn: Conn, msg: HintMsg) -> PlayerView:
        if not self.settings.hints:
            raise WebError(403, N_("hints are off at this table"))
        seat = conn.seat
        if seat is None:
            raise WebError(403, N_("spectators cannot ask for hints"))
        game = self._started_at(msg.version)
        if game.is_over:
            raise WebError(409, N_("the game is over"))
        if seat not in game.acting() or len(game.legal_actions(seat)) < 2:
            raise WebError(409, N_("a hint is given on your turn, when you have a choice"))
        if seat in self._hinting:
            raise WebError(429, N_("a hint is on its way"))
        return game.view(seat)

    def _started_at(self, version: int) -> Game:
        """The game, for a message sent at table ``version``: a 409 if the game has not
        started or the table has moved on since."""
        if self.game is None:
            raise WebError(409, N_("the game has not started"))
        if version != self.version:
            raise WebError(
                409,
                N_("stale version {version}: the table is at version {current}"),
                version=version,
                current=self.version,
            )
        return self.game

    def _error(self, text: str, msg_id: Any = None) -> dict[str, Any]:
        out: dict[str, Any] = {"type": "error", "error": text, "version": self.version}
        if msg_id is not None:
            out["id"] = msg_id
        return out

    def _check_move(self, conn: Conn, msg: MoveMsg) -> int:
        seat = conn.seat
        if seat is None:
            raise WebError(403, N_("spectators cannot play"))
        game = self._started_at(msg.version)
        action = parse_action(msg.move)
        if game.is_over:
            raise WebError(409, N_("the game is over"))
        if seat in self.away:
            raise WebError(409, N_("a bot is playing for you; reconnect to take your seat back"))
        acting = game.acting()
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
            if e.kind == "play" and e.card is not None:
                out["text"] = by_bot_text(e, g.rules)
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
            await self.sync()
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
        self.game_changed(version)
        self.broadcast(conn, ack)
        self.reschedule()

    # ------------------------------------------------------------------ bots and timers

    def start_away_timer(self, seat: int) -> None:
        """A bot takes over ``seat`` if its player stays away (the table's takeover)."""
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
            self.broadcast()
            self.reschedule()

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

    def reschedule(self) -> None:
        """Cancel the planned bot move and plan the next one, if a bot is to move."""
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
                await self.sync()
            seat = self.seat_for(token)
        return seat

    def request_sync(self, moves: MovesNotice | None = None) -> None:
        """Another process changed this table: apply the ``moves`` it stored, or reload
        the table (None: seats, the start, the rematch; or moves after a gap), soon and in
        the order the notices came."""
        if moves is None:
            self._reload = True
        else:
            self._notices.append(moves)
        if self._sync_task is None or self._sync_task.done():
            self._sync_task = asyncio.create_task(self._sync_loop())

    async def _sync_loop(self) -> None:
        try:
            while self._notices or self._reload:
                async with self.lock:
                    notices, self._notices = self._notices, []
                    reload, self._reload = self._reload, False
                    if reload or not self._take_moves(notices):
                        await self.sync()
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("table %s: reloading it from the database failed", self.id)

    def _take_moves(self, notices: list[MovesNotice]) -> bool:
        """Apply the moves of ``notices`` that this process does not have yet (lock held):
        one new state to every connection. False, and nothing changed, when they do not
        follow on from the moves it has (a gap, or the game not started here yet): then
        the table is read back (``sync``)."""
        g = self.game
        if g is None:
            return False
        have = len(g.moves)
        new: list[tuple[str, int | None]] = []
        version = self.version
        for n in notices:
            if n.first > have + len(new):
                return False
            fresh = n.moves[have + len(new) - n.first :]
            if fresh:
                new += fresh
                version = n.version
        if not new:
            return True
        after = g.copy(events=True)
        try:
            self._replay(after, new)
        except Ono99Error:  # not what this process has: the database says what is
            return False
        self.game = after
        self.deadline = self._deadline_after(after)
        self.game_changed(version)
        self.broadcast()
        self.reschedule()
        return True

    async def sync(self) -> None:
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
                self.game_changed(self.version + len(new))  # each stored move is one version
                self.broadcast()
                self.reschedule()
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
                    self.start_away_timer(s)
        g = self.game
        if g is not None and len(st.moves) > len(g.moves):
            after = g.copy(events=True)
            self._replay(after, st.marked_moves(len(g.moves)))
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
            self.broadcast()
            self.reschedule()

    async def close(self) -> None:
        if self._sync_task is not None:
            self._sync_task.cancel()
        tasks = [t for t in (self._auto, *self._away_tasks.values()) if t is not None]
        for t in tasks:
            t.cancel()
        for t in tasks:
            with contextlib.suppress(BaseException):
                await t
