"""Helpers of the web tests: a real ``ono99 serve`` process on a free loopback port, and
websocket clients that play through it."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect

PG_URL = os.environ.get("ONO99_TEST_PG", "postgresql://postgres@127.0.0.1:5432/test")


def pg_engine(**kwargs: Any) -> Any:
    """A SQLAlchemy engine on the test PostgreSQL (``PG_URL``, ``kwargs`` to
    ``create_engine``), checked with one query: with ``CI`` set a missing PostgreSQL fails
    the test, elsewhere it is skipped, saying why."""
    import pytest

    try:
        import sqlalchemy as sa

        engine = sa.create_engine(
            PG_URL.replace("postgresql://", "postgresql+psycopg://", 1), **kwargs
        )
        with engine.connect() as c:
            c.execute(sa.text("select 1"))
    except Exception as e:
        if os.environ.get("CI"):
            pytest.fail(f"PostgreSQL at {PG_URL} is needed in CI: {e}")
        pytest.skip(f"no PostgreSQL at {PG_URL}: {e}")
    return engine


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """``python -m ono99 serve`` in a subprocess, on a free port and the database ``db``."""

    def __init__(self, db: str, log: Path, pyodide: str = "off") -> None:
        self.db = db
        self.log = log
        #: ONO99_PYODIDE: "off" (the page follows games on the server only), or a folder
        self.pyodide = pyodide
        self.port = 0
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self, timeout: float = 30.0, port: int | None = None) -> Server:
        """Start on a free port, or on ``port`` (a restart the open pages reconnect to)."""
        for _attempt in range(5):
            self.port = port or free_port()
            env = {**os.environ, "PYTHONUNBUFFERED": "1", "ONO99_PYODIDE": self.pyodide}
            with self.log.open("ab") as out:
                self.proc = subprocess.Popen(
                    [sys.executable, "-m", "ono99", "serve", "--host", "127.0.0.1",
                     "--port", str(self.port), "--db", self.db],
                    stdout=out, stderr=subprocess.STDOUT, env=env,
                )  # fmt: skip
            deadline = time.monotonic() + timeout
            while time.monotonic() < deadline:
                if self.proc.poll() is not None:
                    break  # the port was taken meanwhile, or a real failure: try again
                try:
                    if httpx.get(self.url + "/healthz", timeout=1).status_code == 200:
                        return self
                except httpx.HTTPError:
                    pass
                time.sleep(0.05)
            self.stop()
        raise RuntimeError("the server did not start:\n" + self.log.read_text()[-3000:])

    def stop(self, kill: bool = False) -> None:
        if self.proc is None:
            return
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL if kill else signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.proc = None


@contextlib.contextmanager
def env_server(folder: Path, **env: str) -> Iterator[Server]:
    """``ono99 serve`` in a subprocess of its own, started with the ``ONO99_...``
    variables ``env`` (the test process's environment is left as it was)."""
    old = {k: os.environ.get(k) for k in env}
    os.environ.update(env)
    try:
        srv = Server(f"sqlite:///{folder / 'web.db'}", folder / "server.log").start()
    finally:
        for k, v in old.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
    try:
        yield srv
    finally:
        srv.stop()


def create(server: Server, **body: Any) -> dict[str, Any]:
    body.setdefault("bot_delay", 0)
    body.setdefault("draw_window", 0.2)
    r = httpx.post(server.url + "/api/tables", json=body, timeout=10)
    assert r.status_code == 201, r.text
    return dict(r.json())


def join(server: Server, table: str, name: str) -> dict[str, Any]:
    r = httpx.post(f"{server.url}/api/tables/{table}/join", json={"name": name}, timeout=10)
    assert r.status_code == 200, r.text
    return dict(r.json())


def start(server: Server, table: str, token: str) -> None:
    r = httpx.post(f"{server.url}/api/tables/{table}/start", json={"token": token}, timeout=10)
    assert r.status_code == 200, r.text


def started(server: Server, **body: Any) -> dict[str, Any]:
    """A table made with ``body`` (its creator seated as Ana) and started."""
    created = create(server, name="Ana", **body)
    start(server, created["table"], created["token"])
    return created


def seat_in(context: Any, table: dict[str, Any]) -> None:
    """Put the creator's seat token of ``table`` where the page keeps it, in every page
    ``context`` (a Playwright browser context) opens from now on."""
    creds = json.dumps({"seat": table["seat"], "token": table["token"], "name": "Ana"})
    context.add_init_script(
        f"localStorage.setItem('ono99.seat.{table['table']}', {json.dumps(creds)});"
    )


class Client:
    """One websocket to a table; keeps every message it received."""

    def __init__(self, ws: ClientConnection, seat: int | None) -> None:
        self.ws = ws
        self.seat = seat
        self.messages: list[dict[str, Any]] = []
        self.state: dict[str, Any] | None = None
        self.errors: list[dict[str, Any]] = []

    @classmethod
    async def open(
        cls, server: Server, table: str, token: str | None = None, lang: str | None = None,
        seat: int | None = None,
    ) -> Client:  # fmt: skip
        q = []
        if token is not None:
            q.append(f"token={token}")
        if lang is not None:
            q.append(f"lang={lang}")
        url = f"{server.ws_url}/ws/{table}" + ("?" + "&".join(q) if q else "")
        ws = await connect(url, max_size=2**22)
        return cls(ws, seat)

    async def recv(self, timeout: float = 20.0) -> dict[str, Any]:
        raw = await asyncio.wait_for(self.ws.recv(), timeout)
        msg = json.loads(raw)
        self.messages.append(msg)
        if msg["type"] == "state":
            self.state = msg
        elif msg["type"] == "error":
            self.errors.append(msg)
        return dict(msg)

    async def next_state(self, timeout: float = 20.0) -> dict[str, Any]:
        while True:
            msg = await self.recv(timeout)
            if msg["type"] == "state":
                return msg

    async def next_of(self, kind: str, timeout: float = 20.0) -> dict[str, Any]:
        while True:
            msg = await self.recv(timeout)
            if msg["type"] == kind:
                return msg

    async def drain(self, quiet: float = 0.3) -> None:
        """Read until nothing arrives for ``quiet`` seconds."""
        with contextlib.suppress(TimeoutError):
            while True:
                await self.recv(quiet)

    async def send(self, msg: dict[str, Any]) -> None:
        await self.ws.send(json.dumps(msg))

    async def move(self, code: str, version: int | None = None, **extra: Any) -> None:
        assert self.state is not None
        v = self.state["version"] if version is None else version
        await self.send({"type": "move", "move": code, "version": v, **extra})

    async def close(self) -> None:
        await self.ws.close()


async def play_to_end(
    clients: list[Client], rng: random.Random, timeout: float = 120.0, think: float = 0.0
) -> dict[str, Any]:
    """Every client plays a random legal move whenever its state allows one (after
    ``think`` seconds), until the game is over; returns the final state of the first
    client. Long games want some ``think``: a client that sends more than the server's
    per-connection rate (web/limits.py) has its moves dropped, as a flood's are."""
    done = asyncio.Event()

    async def run(c: Client) -> None:
        tried: set[int] = set()
        while True:
            st = c.state
            if st is not None and st["view"]["phase"] == "over":
                return
            if st is not None and st["view"]["legal"] and st["version"] not in tried:
                tried.add(st["version"])
                if think:
                    await asyncio.sleep(think)
                await c.move(rng.choice(st["view"]["legal"]), st["version"])
            try:
                await c.recv(timeout)
            except TimeoutError:
                raise AssertionError(f"seat {c.seat}: no message for {timeout} s") from None

    tasks = [asyncio.create_task(run(c)) for c in clients]
    try:
        await asyncio.wait_for(asyncio.gather(*tasks), timeout)
    finally:
        done.set()
        for t in tasks:
            t.cancel()
    final = clients[0].state
    assert final is not None
    return final


def arun(coro: Any) -> Any:
    """``asyncio.run(coro)`` in a thread of its own: works even when this thread already
    runs an event loop (Playwright's sync API leaves one behind in the same process)."""
    import threading

    result: dict[str, Any] = {}

    def target() -> None:
        try:
            result["value"] = asyncio.run(coro)
        except BaseException as e:
            result["error"] = e

    t = threading.Thread(target=target)
    t.start()
    t.join()
    if "error" in result:
        raise result["error"]
    return result.get("value")
