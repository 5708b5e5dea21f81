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
from typing import TYPE_CHECKING, Any

from ono99.web.store import CHANNEL, MoveRow, libpq_dsn

if TYPE_CHECKING:
    import psycopg

__all__ = ["QuickMoves"]

# Data-modifying CTEs run once each whether or not the outer query reads them: the
# insert, the update and the notices commit together or not at all.
_STORE = f"""
with stored as (
    insert into ono99_moves (table_id, idx, move, version, by_bot)
    select * from unnest(
        %(t)s::text[], %(i)s::int[], %(m)s::text[], %(v)s::int[], %(b)s::int[])
), moved as (
    update ono99_tables as t set version = x.v, finished = x.f, deadline = x.d
    from unnest(%(t)s::text[], %(v)s::int[], %(f)s::bool[], %(d)s::float8[]) as x(id, v, f, d)
    where t.id = x.id
)
select count(pg_notify('{CHANNEL}', p)) from unnest(%(p)s::text[]) as p
"""


class QuickMoves:
    """Moves stored from the event loop itself, on a connection of its own."""

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
        params = {
            "t": [r[0] for r in items],
            "i": [r[1] for r in items],
            "m": [r[2] for r in items],
            "v": [r[3] for r in items],
            "b": [r[6] for r in items],
            "f": [r[4] for r in items],
            "d": [r[5] for r in items],
            "p": payloads,
        }
        try:
            conn = self._conn
            if conn is None or conn.closed or conn.broken:
                import psycopg

                conn = self._conn = await psycopg.AsyncConnection.connect(self.dsn, autocommit=True)
            await conn.execute(_STORE, params)
        except Exception:
            if self._conn is not None and (self._conn.closed or self._conn.broken):
                await self.close()
            return None
        done: list[Exception | None] = [None] * len(items)
        return done

    async def close(self) -> None:
        conn, self._conn = self._conn, None
        if conn is not None:
            with contextlib.suppress(Exception):
                await conn.close()
