"""The event loop's own PostgreSQL connection for storing moves (web/hub.py's group commit).

A batch of moves (one per table: a table stores its next move only once the last one is
committed) goes in as ONE statement on an autocommit connection: the rows of
``ono99_moves``, each table's version, finished flag and turn deadline, and, while the
processes are not all linked directly (web/peers.py: then the hub sends the moves over the
links once this commits), the ``NOTIFY`` that carries the moves to the other processes
(web/notices.py), all in one transaction and one round trip, without a worker thread. The SQLAlchemy path
(``Store.add_moves`` in a thread) is what this one falls back to: a connection that is
down, or an item that fails (a move index another process took first), and it then stores
what it can and tells each item's error.
"""

from __future__ import annotations

import contextlib
import json
from typing import TYPE_CHECKING, Any

from ono99.web.store import CHANNEL, MoveRow, libpq_dsn

if TYPE_CHECKING:
    import psycopg

__all__ = ["QuickMoves"]

# Data-modifying CTEs run once each whether or not the outer query reads them: the
# insert, the update and the notices commit together or not at all. The rows and the
# payloads come as two JSON texts: two parameters cost the client less CPU than an array
# a column (measured: 48 against 90 us a statement, benchmarks on the development machine)
_STORE = f"""
with x as (
    select * from json_to_recordset(%(rows)s::json)
        as r(t text, i int, m text, v int, b int, f bool, d float8)
), stored as (
    insert into ono99_moves (table_id, idx, move, version, by_bot)
    select x.t, x.i, x.m, x.v, x.b from x
), moved as (
    update ono99_tables as t set version = x.v, finished = x.f, deadline = x.d
    from x where t.id = x.t
)
select count(pg_notify('{CHANNEL}', p)) from json_array_elements_text(%(p)s::json) as p
"""


# A process's heartbeat (Store.heartbeat, without its hello) as one statement: renew the
# lease, claim the tables (taking over those of dead processes), read the others alive.
_BEAT = """
with me as (
    insert into ono99_procs (id, expires, addr, key)
    values (%(p)s, extract(epoch from clock_timestamp()) + %(lease)s, %(a)s, %(k)s)
    on conflict (id) do update set expires = excluded.expires
), claimed as (
    insert into ono99_owners (table_id, owner)
    select t, %(p)s from json_array_elements_text(%(ids)s::json) as t
    on conflict (table_id) do update set owner = excluded.owner
    where ono99_owners.owner = excluded.owner or not exists (
        select 1 from ono99_procs p where p.id = ono99_owners.owner
        and p.expires > extract(epoch from clock_timestamp()))
    returning table_id
)
select true, table_id, null, null from claimed
union all
select false, id, addr, key from ono99_procs
where id <> %(p)s and expires > extract(epoch from clock_timestamp())
"""


class QuickMoves:
    """Moves stored (and heartbeats) from the event loop itself, on a connection of its
    own."""

    def __init__(self, url: str) -> None:
        self.dsn = libpq_dsn(url)
        self._conn: psycopg.AsyncConnection[Any] | None = None

    async def add_moves(
        self, items: list[MoveRow], payloads: list[str]
    ) -> list[Exception | None] | None:
        """Store ``items`` and NOTIFY ``payloads`` (web/notices.py; none where the
        processes hear of the moves otherwise) in one transaction: one None per item, or
        None, and nothing stored, when they could not go in this way (the caller then
        stores them through ``Store.add_moves``)."""
        if not items:
            return []
        if len({item[0] for item in items}) != len(items):
            return None  # one table twice: its update would be ambiguous
        rows = [
            {"t": t, "i": i, "m": m, "v": v, "b": b, "f": f, "d": d}
            for t, i, m, v, f, d, b in items
        ]
        params = {"rows": json.dumps(rows), "p": json.dumps(payloads)}
        try:
            conn = await self._connect()
            await conn.execute(_STORE, params)
        except Exception:
            if self._conn is not None and (self._conn.closed or self._conn.broken):
                await self.close()
            return None
        done: list[Exception | None] = [None] * len(items)
        return done

    async def heartbeat(
        self, proc: str, lease: float, table_ids: list[str], addr: str | None, key: str | None
    ) -> tuple[set[str], list[tuple[str, str | None, str | None]]] | None:
        """``Store.heartbeat`` (without its hello) in one statement on this connection, not
        through a thread: None when it could not run (the caller then uses the store)."""
        params = {"p": proc, "lease": lease, "a": addr, "k": key, "ids": json.dumps(table_ids)}
        try:
            conn = await self._connect()
            cur = await conn.execute(_BEAT, params)
            rows = await cur.fetchall()
        except Exception:
            if self._conn is not None and (self._conn.closed or self._conn.broken):
                await self.close()
            return None
        owned = {r[1] for r in rows if r[0]}
        return owned, [(r[1], r[2], r[3]) for r in rows if not r[0]]

    async def _connect(self) -> psycopg.AsyncConnection[Any]:
        conn = self._conn
        if conn is None or conn.closed or conn.broken:
            import psycopg

            conn = self._conn = await psycopg.AsyncConnection.connect(self.dsn, autocommit=True)
        return conn

    async def close(self) -> None:
        conn, self._conn = self._conn, None
        if conn is not None:
            with contextlib.suppress(Exception):
                await conn.close()
