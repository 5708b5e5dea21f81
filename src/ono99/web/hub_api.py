"""What a table and the cross-process listener ask of the hub: :class:`HubApi`.

:mod:`ono99.web.hub` holds every table and the listener (:mod:`ono99.web.shared`) and hands
itself to them; they hold it as this Protocol, so their imports point down only (the
``web-jobs`` contract in ``.importlinter``) and the hub satisfies it (mypy checks where it
hands itself over).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any, Protocol, TypeVar

from ono99.web.store import MoveRow, Store

__all__ = ["Claims", "HubApi"]

T = TypeVar("T")


class Claims(Protocol):
    """The processes sharing one database (:class:`ono99.web.shared.Shared`)."""

    async def claim(self, table_ids: list[str]) -> set[str]:
        """The tables of ``table_ids`` this process runs now."""
        ...


class HubApi(Protocol):
    """The hub as its tables and its listener see it."""

    @property
    def store(self) -> Store:
        """The database behind every table."""
        ...

    @property
    def base_url(self) -> str:
        """What the links broadcast to every client start with."""
        ...

    @property
    def shared(self) -> Claims | None:
        """The other processes on the same database, or None (one process)."""
        ...

    async def db(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` on the database's threads."""
        ...

    async def think(self, lock: threading.Lock, fn: Callable[[Any], int], view: Any) -> int:
        """A bot's ``fn(view)`` on the bots' threads, under ``lock``."""
        ...

    async def write_move(self, row: MoveRow) -> None:
        """Store one move; returns once it is committed."""
        ...

    async def heartbeat(
        self,
        proc: str,
        lease: float,
        addr: str | None = None,
        key: str | None = None,
        hello: bool = False,
    ) -> list[tuple[str, str | None, str | None]]:
        """Renew this process's lease (reached at ``addr`` with ``key``; ``hello``: and
        tell the others it is there) and take over the tables whose owner process has died
        (one transaction): the other live processes, (id, address, key) each."""
        ...

    def on_notify(self, payload: str | None) -> None:
        """Another process changed a table (``payload``), or anything may have changed
        (None: the listener has just connected)."""
        ...
