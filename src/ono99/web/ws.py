"""One websocket of a web table: the connection's reader and writer, each message
checked (size, rate, JSON, the protocol's types) before the table sees it
(docs/protocol.md)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from typing import Any

from pydantic import ValidationError
from starlette.websockets import WebSocket, WebSocketState

from ono99.i18n import LANGUAGES, N_
from ono99.web.announce import catalog
from ono99.web.conn import Conn, encode
from ono99.web.errors import no_table, one_line
from ono99.web.hub import Hub
from ono99.web.limits import (
    CLOSE_FLOOD,
    CLOSE_SILENT,
    SocketGuard,
    Verdict,
    frame_size,
)
from ono99.web.protocol import HelloMsg, HintMsg, MoveMsg, PingMsg, client_message
from ono99.web.tables import Table

__all__ = ["serve_socket"]

log = logging.getLogger("ono99.web")
#: hints being valued (a task a hint; kept here so that none is collected while it runs)
_HINTS: set[asyncio.Task[None]] = set()


async def serve_socket(
    websocket: WebSocket, hub: Hub, table_id: str, token: str | None, lang: str, sock: SocketGuard
) -> None:
    """One websocket of table ``table_id`` (``token``: a seat's, else a spectator), from
    the handshake's acceptance until it goes."""
    table = await hub.get(table_id)
    seat = None
    if table is not None and token is not None:
        seat = await table.find_seat(token)
        if seat is None:
            table = None
    if table is None:
        err = no_table()
        with contextlib.suppress(Exception):  # the client may be gone already
            await websocket.send_text(json.dumps({"type": "error", "error": err.text(lang)}))
            await websocket.close(code=4404)
        return
    conn = Conn(seat, lang)
    close_code = [1000]
    writer = asyncio.create_task(_writer(websocket, conn, close_code))
    await table.connect(conn)
    try:
        close_code[0] = await _reader(websocket, table, conn, sock)
    finally:
        await table.disconnect(conn)
        conn.queue.put_nowait(None)
        with contextlib.suppress(BaseException):
            await asyncio.wait_for(writer, 5)


def _message_id(value: Any) -> int | str | None:
    """A client's message ``id`` as it may be echoed (docs/protocol.md), else None."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int) and -(2**53) < value < 2**53:
        return value
    if isinstance(value, str) and len(value) <= 64:
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            return None
        return value
    return None


async def _writer(websocket: WebSocket, conn: Conn, close_code: list[int]) -> None:
    try:
        while True:
            msg = await conn.queue.get()
            if msg is None:
                break
            await websocket.send_text(encode(msg))
    except Exception:  # the socket went away: the reader notices and cleans up
        pass
    finally:
        if websocket.application_state == WebSocketState.CONNECTED:
            with contextlib.suppress(Exception):
                await websocket.close(code=close_code[0])


async def _reader(websocket: WebSocket, table: Table, conn: Conn, sock: SocketGuard) -> int:
    """Read the client's messages until it goes (1000), keeps flooding (the close code,
    after an error that says so) or falls silent (1001): a client that has sent a
    heartbeat (``ping``, every 3 s from the page) and then sends nothing for
    ``silent_seconds`` is a phone that dropped off. Its seat is then disconnected at once,
    so the away clock starts now, not after the websocket layer's ping timeout. A client
    that never sends ``ping`` (a script) is judged by its socket alone."""
    beating = False
    while True:
        frame = await sock.receive(websocket, beating)
        if isinstance(frame, int):
            if frame == CLOSE_SILENT:
                log.info("ono99: table %s: a silent connection is closed", table.id)
            return frame
        text = frame.get("text")
        verdict = sock.admit(frame_size(frame))
        if verdict is not Verdict.OK:
            if verdict.error is not None:
                _reply_error(table, conn, verdict.error)
            if verdict is Verdict.CLOSE:
                return CLOSE_FLOOD
            continue
        if text is None:
            _reply_error(table, conn, N_("messages must be JSON text"))
            continue
        try:
            data = json.loads(text)
        except (ValueError, RecursionError):
            _reply_error(table, conn, N_("the message is not JSON"))
            continue
        msg_id = _message_id(data.get("id") if isinstance(data, dict) else None)
        try:
            msg = client_message(data)
        except ValidationError as e:
            errs = e.errors()
            where = ".".join(str(p) for p in errs[0]["loc"]) if errs else ""
            detail = f"{where}: {errs[0]['msg']}" if errs else ""
            tr = catalog(conn.lang)
            conn.send(
                {
                    "type": "error",
                    "error": tr.gettext(N_("malformed message: {detail}")).format(
                        detail=one_line(detail)[:200]
                    ),
                    "version": table.version,
                    **({"id": msg_id} if msg_id is not None else {}),
                }
            )
            continue
        beating = beating or isinstance(msg, PingMsg)
        try:
            await _dispatch(table, conn, msg)
        except Exception:
            log.exception("ono99: a websocket message failed on table %s", table.id)
            _reply_error(table, conn, N_("internal error"), msg.id)


async def _dispatch(table: Table, conn: Conn, msg: MoveMsg | HelloMsg | PingMsg | HintMsg) -> None:
    if isinstance(msg, MoveMsg):
        await table.move(conn, msg)
    elif isinstance(msg, HintMsg):
        # valued in a worker thread for up to seconds: the connection's loop goes on
        # meanwhile (its heartbeats, its move), the answer comes when it is ready
        task = asyncio.create_task(table.hint(conn, msg))
        _HINTS.add(task)
        task.add_done_callback(_HINTS.discard)
    elif isinstance(msg, HelloMsg):
        if msg.lang is not None and msg.lang not in LANGUAGES:
            _reply_error(table, conn, N_("unknown language"), msg.id)
            return
        await table.hello(conn, msg.lang)
    else:
        out: dict[str, Any] = {"type": "pong"}
        if msg.id is not None:
            out["id"] = msg.id
        conn.send(out)


def _reply_error(table: Table, conn: Conn, template: str, msg_id: Any = None) -> None:
    out: dict[str, Any] = {
        "type": "error",
        "error": catalog(conn.lang).gettext(template),
        "version": table.version,
    }
    if msg_id is not None:
        out["id"] = msg_id
    conn.send(out)
