"""Helpers of the hostile-input tests: the web app served by uvicorn in a thread of the test
process (so a test can look at the live tables and at every log record), and a log
handler that keeps what the server logged."""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import uvicorn

from ono99.cards import action_code
from ono99.web.app import create_app
from ono99.web.hub import Hub
from ono99.web.limits import FRAME_LIMIT, Limits
from ono99.web.tables import Table

CLIENT_LOGGERS = ("websockets.client", "httpx", "httpcore")


class Records(logging.Handler):
    """Every log record of level ``level`` or above, from any logger."""

    def __init__(self, level: int = logging.DEBUG) -> None:
        super().__init__(level)
        self.records: list[logging.LogRecord] = []
        self.lock_ = threading.Lock()

    def emit(self, record: logging.LogRecord) -> None:
        with self.lock_:
            self.records.append(record)

    def text(self) -> str:
        fmt = logging.Formatter("%(levelname)s %(name)s %(message)s")
        with self.lock_:
            return "\n".join(fmt.format(r) for r in self.records)

    def problems(self) -> list[str]:
        """Errors, warnings and tracebacks the server logged.

        The test's own clients log too, in the same process: ``websockets.client`` logs a
        reset (with its traceback, at DEBUG) when the server drops a hostile connection,
        which is the server doing its job. Only the server's side counts."""
        with self.lock_:
            return [
                f"{r.levelname} {r.name}: {r.getMessage()}"
                for r in self.records
                if (r.levelno >= logging.WARNING or r.exc_info)
                and not r.name.startswith(CLIENT_LOGGERS)
            ]


class InProcess:
    """``create_app(db, limits=limits)`` served on a free loopback port by uvicorn in a
    thread (uvicorn as ``ono99 serve`` runs it: same frame limit, no access log)."""

    def __init__(self, db: str, limits: Limits | None = None) -> None:
        self.app = create_app(db, limits=limits)
        config = uvicorn.Config(
            self.app, host="127.0.0.1", port=0, ws_max_size=FRAME_LIMIT, log_config=None,
            log_level="info", access_log=False, lifespan="on",
        )  # fmt: skip
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.port = 0

    def start(self, timeout: float = 30.0) -> InProcess:
        self.thread.start()
        deadline = time.monotonic() + timeout
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the in-process server did not start")
            time.sleep(0.02)
        sock = self.server.servers[0].sockets[0]
        self.port = int(sock.getsockname()[1])
        return self

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(15)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    @property
    def hub(self) -> Hub:
        hub: Hub = self.app.state.hub
        return hub

    def table(self, table_id: str) -> Table:
        return self.hub.tables[table_id]


@contextlib.contextmanager
def served(folder: Path, limits: Limits | None = None) -> Iterator[tuple[InProcess, Records]]:
    """An in-process server on its own SQLite file, and every record logged meanwhile."""
    records = Records()
    root = logging.getLogger()
    old_level = root.level
    root.addHandler(records)
    root.setLevel(logging.DEBUG)
    srv = InProcess(f"sqlite:///{folder / 'web.db'}", limits).start()
    try:
        yield srv, records
    finally:
        srv.stop()
        root.removeHandler(records)
        root.setLevel(old_level)


def snapshot(table: Table) -> Any:
    """Everything a rejected message must leave as it was: version, every seat's view
    (connection flags aside), the public facts and the moves."""
    views = []
    for seat in [None, *range(table.settings.players)]:
        view = table.view_for(seat)
        view.pop("connected", None)
        views.append(view)
    info = table.info()
    for s in info["seats"]:
        s.pop("connected", None)
    moves = [] if table.game is None else list(table.game.moves)
    return table.version, views, info, moves


def truth_now(table: Table) -> dict[int, dict[str, Any]]:
    """The true state now, keyed by the number of moves (test_web_leaks' ``_check``)."""
    g = table.game
    if g is None:
        return {}
    return {
        len(g.moves): {
            "hands": [[action_code(c) for c in h] for h in g.hands],
            "discard": [action_code(c) for c in g.discard],
            "draw": [action_code(c) for c in reversed(g.draw_pile)],
            "out": list(g.out),
        }
    }
