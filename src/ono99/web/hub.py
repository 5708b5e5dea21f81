"""Every table of one server process: finding and loading tables, the group commit of
their moves, the thread pools for the database and the bots, and the sweep of finished and
stale tables."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any, TypeVar

from ono99.game import new_seed
from ono99.i18n import N_
from ono99.web import notices
from ono99.web.errors import WebError, no_table
from ono99.web.peers import Peer
from ono99.web.pg_moves import QuickMoves
from ono99.web.settings import Settings
from ono99.web.store import (
    CodeTaken,
    Conflict,
    MoveRow,
    Store,
    StoredTable,
)
from ono99.web.tables import Table

if TYPE_CHECKING:
    from ono99.web.shared import Shared


__all__ = ["Hub"]

log = logging.getLogger("ono99.web")

T = TypeVar("T")

CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 6
#: the most moves stored in one transaction
WRITE_BATCH = 500
INLINE_SQLITE = os.environ.get("ONO99_INLINE_SQLITE", "1") == "1"
INLINE_PG = os.environ.get("ONO99_INLINE_PG", "1") == "1"


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
        #: PostgreSQL: the event loop's own connection for the group commit of moves
        self._pg_moves = None if store.is_sqlite or not INLINE_PG else QuickMoves(store.url)
        #: other processes on the same database (PostgreSQL): web/shared.py
        self.shared: Shared | None = None
        #: other things stored in the database whose changes are announced on CHANNEL as
        #: "PROC:KIND/ID" (the companion's games, web/companion.py): KIND -> called with
        #: ID, or with None when anything may have changed (the listener reconnected)
        self.watchers: dict[str, Callable[[str | None], None]] = {}
        self._claims: set[asyncio.Task[None]] = set()

    def _share(self) -> None:
        """On PostgreSQL, join the other processes (once, from the running loop)."""
        if self.shared is None and not self.store.is_sqlite:
            from ono99.web.shared import Shared

            self.shared = Shared(self)
            self.shared.start()

    def on_notify(self, payload: str | None) -> None:
        """A NOTIFY from the database (web/notices.py): a table changed, with its new
        moves where they were moves (None: maybe anything did)."""
        if payload is None:
            for t in list(self.tables.values()):
                if t.phase != "over":
                    t.request_sync()
            for watcher in list(self.watchers.values()):
                watcher(None)
            return
        proc, table_id, moves = notices.parse(payload)
        if self.shared is not None and proc == self.shared.proc:
            return
        if not table_id:  # "PROC:": a process has started (web/peers.py)
            if self.shared is not None:
                self.shared.peers.heard_of(proc)
            return
        kind, other, thing = table_id.partition("/")  # table ids never hold a "/"
        if other:
            heard = self.watchers.get(kind)
            if heard is not None:
                heard(thing)
            return
        table = self.tables.get(table_id)
        if table is not None:
            table.request_sync(moves)

    async def heartbeat(
        self,
        proc: str,
        lease: float,
        addr: str | None = None,
        key: str | None = None,
        hello: bool = False,
    ) -> list[Peer]:
        """Renew this process's lease (reached at ``addr`` with ``key``; ``hello``: and
        tell the others it is there) and claim its playing tables, in one transaction: the
        other live processes."""
        tables = [t for t in self.tables.values() if t.phase == "playing"]
        ids = [t.id for t in tables]
        beat = None
        if self._pg_moves is not None and not hello:  # one statement from the loop
            beat = await self._pg_moves.heartbeat(proc, lease, ids, addr, key)
        if beat is None:
            beat = await self.db(self.store.heartbeat, proc, lease, ids, addr, key, hello)
        owned, live = beat
        await self.set_owned(tables, owned)
        return live

    async def claim_tables(self, tables: list[Table]) -> None:
        """Run the bots of these playing tables if nobody else runs them (shared database)."""
        if self.shared is not None:
            await self.set_owned(tables, await self.shared.claim([t.id for t in tables]))

    async def set_owned(self, tables: list[Table], owned: set[str]) -> None:
        """This process runs the bots and timers of the tables in ``owned``, of ``tables``."""
        for t in tables:
            mine = t.id in owned
            if mine != t.owned:
                async with t.lock:
                    t.owned = mine
                    if mine:
                        log.info("ono99: table %s: this process runs it now", t.id)
                        await t.sync()
                    t.reschedule()

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
                # waiting there for a lock another process holds: then in the thread.
                # PostgreSQL: one statement on the loop's own async connection (pg_moves).
                if self._pg_moves is not None:
                    quick = await self._store_quick(rows)
                else:
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

    async def _store_quick(self, rows: list[MoveRow]) -> list[Exception | None] | None:
        """``rows`` through the loop's own connection (pg_moves), announced to the other
        processes: by the direct links after the commit when they all hear them
        (web/peers.py), else by NOTIFY in the transaction itself."""
        assert self._pg_moves is not None
        proc = self.store.proc
        stored = [(t, i, m, v, b) for t, i, m, v, _f, _d, b in rows]
        payloads = [] if proc is None else notices.move_payloads(proc, stored)
        fanout = self.store.fanout
        if fanout is None or not fanout.linked():
            return await self._pg_moves.add_moves(rows, payloads)
        done = await self._pg_moves.add_moves(rows, [])
        if done is not None:
            fanout.push(payloads)
        return done

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
                table.start_away_timer(seat)
            table.reschedule()
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
                settings=settings.to_json(),
                seed=new_seed() if seed is None else seed,
                seed_fixed=fixed,
            )
            try:
                await self.db(self.store.create_table, st)
            except CodeTaken:
                continue
            return self._add(Table(self, st))
        raise WebError(503, N_("could not find a free table code; try again"))  # pragma: no cover

    async def rematch(
        self, table: Table, token: str, seed: int | None = None
    ) -> tuple[Table, int, str]:
        """The finished ``table``'s rematch, ``token``'s player seated at it. Its seed is
        ``seed`` where the asker who makes it fixes one, else a fresh secret one: never
        one derived from the finished game's seed, which is shown once that game is over
        (R-SET-1: anyone could compute every hand of the rematch)."""
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
                nxt = await self.create(table.settings, seed)
                try:
                    await self.db(self.store.set_next_table, table.id, nxt.id, table.version + 1)
                    table.next_table = nxt.id
                    table.game_changed()
                    table.broadcast()
                except Conflict:  # asked for through another process meanwhile
                    await table.sync()
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
        # each part in its own frame: a table forgotten must not stay referenced by a loop
        # variable while the sweep waits on the database
        await self._forget_finished()
        if self.lobby_seconds > 0:
            await self._forget_lobbies()

    async def _forget_finished(self) -> None:
        now = time.monotonic()
        for table_id, t in list(self.tables.items()):
            if t.phase != "over" or t.conns or t.lock.locked():
                self._idle_since.pop(table_id, None)
                continue
            since = self._idle_since.setdefault(table_id, now)
            if now - since >= self.finished_grace:
                await self._forget(t)

    async def _forget_lobbies(self) -> None:
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
        if self._pg_moves is not None:
            await self._pg_moves.close()
        self._bot_pool.shutdown(wait=False, cancel_futures=True)
        self._db_pool.shutdown(wait=True)
        self.store.close()
