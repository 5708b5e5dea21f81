"""Several ``ono99 serve`` processes on one PostgreSQL database (docs/deploy.md).

Every process serves every table: the database holds the state (seats, moves), and each
stored change is announced to the other processes (the payloads: web/notices.py; stored
moves travel in the payload itself): over the direct links between the processes once it
has committed (web/peers.py), or, while some live process is not linked to this one, with
``NOTIFY ono99`` in the transaction that stores it. Every process ``LISTEN``s (on a
connection of its own, in the event loop) and, when another process changed a table it has
loaded, applies the moves of the payload (reading them back only after a gap), or reloads
the seats and the start, and sends the new state to its own connections.

Moves are taken in order by the database: a move is stored at index ``len(moves)`` and
the primary key (table, index) lets only one process store each index; the loser reloads
the table and its client is told its version is stale (store.Conflict).

Bots and the turn timer of a table run in exactly one process, the table's owner
(``ono99_owners``): the process that started the game, or, once that process's lease
(``ono99_procs``, renewed every third of ``ONO99_LEASE_SECONDS``, 5 s by default, in
the transaction that claims the tables without a live owner) has run
out, the first process with the table loaded that notices. A process killed with
``kill -9`` is thus replaced within a lease and a heartbeat; one that stops cleanly gives
its tables up, and the others take them at their next heartbeat.

Per process (not shared): the ``away`` state of a seat and ``connected`` in the views, which
follow that process's own websockets.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import uuid
from collections.abc import Mapping

from ono99.web.hub_api import HubApi
from ono99.web.peers import Peers, peer_host
from ono99.web.store import CHANNEL, libpq_dsn

__all__ = ["Shared", "lease_seconds"]

log = logging.getLogger("ono99.web")


def lease_seconds(env: Mapping[str, str] | None = None) -> float:
    """``ONO99_LEASE_SECONDS`` (0.5 to 300), 5 by default; ValueError for anything else
    (``ono99 serve`` checks it before it starts: docs/deploy.md "Settings that matter")."""
    raw = (os.environ if env is None else env).get("ONO99_LEASE_SECONDS", "").strip()
    if not raw:
        return 5.0
    try:
        value = float(raw)
    except ValueError:
        raise ValueError(raw) from None
    if not 0.5 <= value <= 300.0:  # also refuses nan
        raise ValueError(raw)
    return value


class Shared:
    """This process among the others on the same PostgreSQL database."""

    def __init__(self, hub: HubApi) -> None:
        self.hub = hub
        self.proc = uuid.uuid4().hex
        self.lease = lease_seconds()
        self.ready = asyncio.Event()  # set after the first heartbeat
        self.dsn = libpq_dsn(hub.store.url)
        self.peers = Peers(self.proc, hub.on_notify)
        self._stop = asyncio.Event()
        self._listener: asyncio.Task[None] | None = None
        self._beat: asyncio.Task[None] | None = None

    def start(self) -> None:
        self.hub.store.proc = self.proc
        self.hub.store.fanout = self.peers
        self._listener = asyncio.create_task(self._listen())
        self._beat = asyncio.create_task(self._heartbeat())

    async def stop(self) -> None:
        self._stop.set()
        for task in (self._beat, self._listener):
            if task is not None:
                task.cancel()
                with contextlib.suppress(BaseException):
                    await task
        self.hub.store.fanout = None
        await self.peers.stop()
        with contextlib.suppress(Exception):
            await self.hub.db(self.hub.store.retire, self.proc)

    async def claim(self, table_ids: list[str]) -> set[str]:
        """The tables of ``table_ids`` this process runs now (taking over dead owners')."""
        await self.ready.wait()
        return await self.hub.db(self.hub.store.claim, table_ids, self.proc)

    async def _heartbeat(self) -> None:
        await self.peers.start(peer_host())
        lapsed = True
        while not self._stop.is_set():
            try:
                peers = self.peers
                live = await self.hub.heartbeat(
                    self.proc, self.lease, peers.addr, peers.key, not self.ready.is_set()
                )
                peers.update(live)
                if lapsed:
                    # Until every other process has heard of this one (its hello, or its
                    # own next heartbeat: within a third of a lease), one may announce a
                    # change by the links alone, which this one does not hear yet: once a
                    # lease on, read back every table loaded meanwhile (web/peers.py).
                    lapsed = False
                    asyncio.get_running_loop().call_later(self.lease, self.hub.on_notify, None)
                self.ready.set()
            except asyncio.CancelledError:
                raise
            except Exception as e:
                lapsed = True  # the others may count it gone meanwhile
                log.warning("ono99: heartbeat failed: %s", str(e).splitlines()[0] if str(e) else e)
            await asyncio.sleep(self.lease / 3)

    async def _listen(self) -> None:
        """LISTEN on CHANNEL until stopped, in the event loop itself (no thread to wake per
        notice); reconnect with back-off when the link drops."""
        import psycopg

        backoff = 0.2
        while not self._stop.is_set():
            try:
                async with await psycopg.AsyncConnection.connect(self.dsn, autocommit=True) as conn:
                    await conn.execute(f"LISTEN {CHANNEL}")
                    # Whatever changed while we were not listening: reload what we serve.
                    self.hub.on_notify(None)
                    backoff = 0.2
                    async for n in conn.notifies():
                        self.hub.on_notify(n.payload)
            except asyncio.CancelledError:
                raise
            except Exception as e:
                if self._stop.is_set():
                    break
                log.warning("ono99: LISTEN failed (%s); again in %.1f s", type(e).__name__, backoff)
                await asyncio.sleep(backoff)
                backoff = min(5.0, backoff * 2)
