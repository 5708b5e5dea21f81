"""The companion's live screens: every page open on a game keeps a websocket
(``/ws/companion/{id}``), and each change to the game is sent to all of them at once, in
each one's language (docs/companion.md "Several phones on one game"). A page only reads
here: its changes go through ``/api/companion`` (queued, with request ids); the socket
carries the game as it now stands. A page pings every 3 s; one that has pinged and then
falls silent for ``silent_seconds`` (a phone that dropped off, its socket still open) is
closed with 1001, as the table's sockets are (web/ws.py)."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Callable
from typing import Any

from starlette.websockets import WebSocket, WebSocketState

from ono99.i18n import N_
from ono99.web.announce import catalog
from ono99.web.conn import Conn, encode
from ono99.web.limits import (
    SocketGuard,
    Verdict,
    frame_size,
)

__all__ = ["Screens"]

#: the answer to a message that is not ``{"type": "ping"}``
_ONLY_PINGS = N_("this connection only answers pings")


class Screens:
    """The open pages of every game of this process: game id -> their connections."""

    def __init__(self) -> None:
        self.conns: dict[str, set[Conn]] = {}

    def watching(self, game_id: str) -> bool:
        return bool(self.conns.get(game_id))

    def send(self, game_id: str, message: Callable[[str], dict[str, Any]]) -> None:
        """Send every page of ``game_id`` ``message(lang)`` (made once a language)."""
        made: dict[str, dict[str, Any]] = {}
        for conn in list(self.conns.get(game_id, ())):
            if conn.lang not in made:
                made[conn.lang] = message(conn.lang)
            conn.send(made[conn.lang])

    async def serve(
        self, websocket: WebSocket, game_id: str, conn: Conn, sock: SocketGuard
    ) -> None:
        """One page's socket, accepted, its first message queued, until it goes."""
        self.conns.setdefault(game_id, set()).add(conn)
        close_code = [1000]
        writer = asyncio.create_task(_write(websocket, conn, close_code))
        try:
            close_code[0] = await _read(websocket, conn, sock)
        finally:
            mine = self.conns.get(game_id)
            if mine is not None:
                mine.discard(conn)
                if not mine:
                    del self.conns[game_id]
            conn.queue.put_nowait(None)
            with contextlib.suppress(BaseException):
                await asyncio.wait_for(writer, 5)


async def _write(websocket: WebSocket, conn: Conn, close_code: list[int]) -> None:
    try:
        while (msg := await conn.queue.get()) is not None:
            await websocket.send_text(encode(msg))
    except Exception:  # the socket went away: the reader notices and ends
        pass
    finally:
        if websocket.application_state == WebSocketState.CONNECTED:
            with contextlib.suppress(Exception):
                await websocket.close(code=close_code[0])


def _error(conn: Conn, template: str) -> None:
    conn.send({"type": "error", "error": catalog(conn.lang).gettext(template)})


async def _read(websocket: WebSocket, conn: Conn, sock: SocketGuard) -> int:
    """Pings (a page checks its socket is alive) until the page goes (1000), floods (1000,
    after an error that says so) or, once it has pinged, falls silent for
    ``silent_seconds`` (``CLOSE_SILENT``): the close code."""
    beating = False
    while True:
        frame = await sock.receive(websocket, beating)
        if isinstance(frame, int):
            return frame
        text = frame.get("text")
        verdict = sock.admit(frame_size(frame))
        if verdict is not Verdict.OK:
            if verdict.error is not None:
                _error(conn, verdict.error)
            if verdict is Verdict.CLOSE:
                return 1000
            continue
        try:
            data = json.loads(text) if text is not None else None
        except (ValueError, RecursionError):
            data = None
        if isinstance(data, dict) and data.get("type") == "ping":
            beating = True
            conn.send({"type": "pong"})
        else:
            _error(conn, _ONLY_PINGS)
