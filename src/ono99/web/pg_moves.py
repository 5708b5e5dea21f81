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
        rows = [
            {"t": t, "i": i, "m": m, "v": v, "b": b, "f": f, "d": d}
            for t, i, m, v, f, d, b in items
        ]
        params = {"rows": json.dumps(rows), "p": json.dumps(payloads)}
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
