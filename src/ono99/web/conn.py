"""One websocket connection of a table, and the JSON its messages go out as."""

from __future__ import annotations

import asyncio
import json
from typing import Any

__all__ = ["Conn", "encode"]

#: messages waiting for one slow connection before it is dropped
QUEUE_LIMIT = 1000

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
