"""Limits on what one client may send (issue 13, docs/protocol.md "Limits"): message size,
message and request rates per connection and per address, open websockets per address
and overall; a flood from one client does not slow a game at another table.

Real ``ono99 serve`` processes on loopback, each with the limit under test set low by its
``ONO99_...`` variable; clients from other loopback addresses (127.0.0.2, ...) stand for
other people.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from server_helpers import Server, arun, create, join, start
from server_helpers import env_server as limited_server
from websockets.asyncio.client import connect as aconnect
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from ono99.web.limits import LimitError, Limits

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

FLOODER = Path(__file__).with_name("flooder.py")


def _ws(srv: Server, path: str, source: str = "127.0.0.1") -> ClientConnection:
    return connect(srv.ws_url + path, source_address=(source, 0), open_timeout=10)


def _recv(ws: ClientConnection, timeout: float = 10.0) -> dict[str, Any]:
    return dict(json.loads(ws.recv(timeout=timeout)))


def _until(ws: ClientConnection, kind: str) -> dict[str, Any]:
    while True:
        msg = _recv(ws)
        if msg["type"] == kind:
            return msg


def _closed_code(ws: ClientConnection) -> int | None:
    """Read until the server closes; its close code."""
    with contextlib.suppress(TimeoutError):
        for _ in range(10_000):
            try:
                ws.recv(timeout=10)
            except ConnectionClosed as e:
                return e.rcvd.code if e.rcvd is not None else None
    return None


def test_env_values(tmp_path: Path) -> None:
    """Defaults, ONO99_LIMITS=off, every variable, bad values (a one-line error and exit
    status 2 from ``ono99 serve``)."""
    assert Limits.from_env({}) == Limits()
    assert Limits.from_env({"ONO99_LIMITS": "off"}).ws_rate == 0
    lim = Limits.from_env({"ONO99_WS_RATE": "2.5", "ONO99_IP_SOCKETS": "7"})
    assert (lim.ws_rate, lim.ip_sockets) == (2.5, 7)
    for bad in (
        {"ONO99_WS_RATE": "fast"}, {"ONO99_WS_RATE": "-1"}, {"ONO99_WS_RATE": "nan"},
        {"ONO99_IP_SOCKETS": "1.5"}, {"ONO99_MAX_MESSAGE": "0"},
        {"ONO99_MAX_MESSAGE": "100000"}, {"ONO99_LIMITS": "maybe"},
    ):  # fmt: skip
        with pytest.raises(LimitError):
            Limits.from_env(bad)
    env = {**os.environ, "ONO99_WS_BURST": "lots"}
    r = subprocess.run(
        [sys.executable, "-m", "ono99", "serve", "--db", f"sqlite:///{tmp_path / 'x.db'}"],
        capture_output=True, text=True, env=env, timeout=60,
    )  # fmt: skip
    assert r.returncode == 2
    assert r.stderr.count("\n") == 1 and "ONO99_WS_BURST" in r.stderr
    assert "Traceback" not in r.stderr


def test_message_rate_and_size_per_connection(tmp_path: Path) -> None:
    """Over the rate: one error, then silence; still flooding: an error that says so and
    close 1008. A message over the size limit: an error, the connection stays."""
    env = {"ONO99_WS_RATE": "5", "ONO99_WS_BURST": "10", "ONO99_FLOOD_STRIKES": "40",
           "ONO99_MAX_MESSAGE": "512"}  # fmt: skip
    with limited_server(tmp_path, **env) as srv:
        t = create(srv, players=2)
        seat = join(srv, t["table"], "Ana")
        ws = _ws(srv, f"/ws/{t['table']}?token={seat['token']}")
        _until(ws, "state")
        ws.send(json.dumps({"type": "ping", "id": "x" * 20, "pad": "p" * 600}))
        big = _recv(ws)
        assert big["type"] == "error" and "\n" not in big["error"]
        ws.send(json.dumps({"type": "ping", "id": 1, "pad": "p" * 300}))
        assert _recv(ws) == {"type": "pong", "id": 1}
        for i in range(20):
            ws.send(json.dumps({"type": "ping", "id": i}))
        replies = []
        with contextlib.suppress(TimeoutError):
            while True:
                replies.append(_recv(ws, timeout=0.5))
        pongs = [r for r in replies if r["type"] == "pong"]
        errors = [r for r in replies if r["type"] == "error"]
        assert 7 <= len(pongs) <= 12, replies  # the burst (10, less the two above, + refill)
        assert len(errors) == 1 and errors[0]["error"], replies
        # A pause refills the bucket: served again.
        time.sleep(1.0)
        ws.send(json.dumps({"type": "ping", "id": "again"}))
        assert _recv(ws) == {"type": "pong", "id": "again"}
        # Keep flooding: told, then closed with 1008.
        with contextlib.suppress(ConnectionClosed):
            for i in range(200):
                ws.send(json.dumps({"type": "ping", "id": i}))
        code = _closed_code(ws)
        assert code == 1008
        # The table is fine and the seat can come back.
        again = _ws(srv, f"/ws/{t['table']}?token={seat['token']}")
        assert _until(again, "state")["view"]["seat"] == 0
        again.close()


def test_connections_per_address_and_overall(tmp_path: Path) -> None:
    env = {"ONO99_IP_SOCKETS": "3", "ONO99_SOCKETS": "5"}
    with limited_server(tmp_path, **env) as srv:
        tid = create(srv, players=2)["table"]
        mine = [_ws(srv, f"/ws/{tid}") for _ in range(3)]
        for ws in mine:
            _until(ws, "state")
        extra = _ws(srv, f"/ws/{tid}")
        err = _recv(extra)
        assert err["type"] == "error" and "\n" not in err["error"]
        assert _closed_code(extra) == 4429
        # Another address is not counted with this one...
        other = [_ws(srv, f"/ws/{tid}", "127.0.0.2") for _ in range(2)]
        for ws in other:
            _until(ws, "state")
        # ... but the server as a whole is full now (5).
        third = _ws(srv, f"/ws/{tid}", "127.0.0.3")
        assert _recv(third)["type"] == "error"
        assert _closed_code(third) == 1013
        # Closing one frees its place.
        mine[0].close()
        time.sleep(0.3)
        back = _ws(srv, f"/ws/{tid}")
        assert _until(back, "state")["type"] == "state"
        for ws in [*mine[1:], *other, back]:
            ws.close()


def test_http_rate_per_address(tmp_path: Path) -> None:
    env = {"ONO99_IP_HTTP_RATE": "2", "ONO99_IP_HTTP_BURST": "8"}
    with limited_server(tmp_path, **env) as srv:
        statuses = []
        with httpx.Client(base_url=srv.url, timeout=10) as http:
            for _ in range(12):
                statuses.append(http.get("/api/tables/NoSuchTable123").status_code)
            refused = http.post("/api/tables", json={}, params={"lang": "ta"})
            assert refused.status_code == 429 and refused.headers["retry-after"]
            err = refused.json()["error"]
            assert err and "\n" not in err and err != "too many requests; slow down"  # Tamil
            assert http.get("/healthz").status_code == 200  # never limited
            # A websocket handshake counts too.
            ws = connect(srv.ws_url + "/ws/NoSuchTable123", open_timeout=10)
            assert _recv(ws)["type"] == "error"
            assert _closed_code(ws) == 4429
        assert statuses.count(404) >= 8 and 429 in statuses, statuses
        # Somebody else (another address) is served meanwhile.
        transport = httpx.HTTPTransport(local_address="127.0.0.2")
        with httpx.Client(base_url=srv.url, transport=transport, timeout=10) as http:
            assert http.post("/api/tables", json={"players": 2}).status_code == 201


def test_the_pages_files_do_not_use_up_the_request_rate(tmp_path: Path) -> None:
    """Phones behind one router opening the companion together (each fetching the page's
    modules, its service worker Pyodide's files) must not leave their taps refused: the
    pages' own files are outside the address's request rate, the API is not."""
    env = {"ONO99_IP_HTTP_RATE": "0.5", "ONO99_IP_HTTP_BURST": "4"}
    with limited_server(tmp_path, **env) as srv, httpx.Client(base_url=srv.url, timeout=10) as http:
        for _ in range(10):
            for path in ("/static/js/api.js", "/static/style.css", "/companion-sw.js"):
                assert http.get(path).status_code == 200, path
        assert http.head("/static/js/companion.js").status_code == 200
        # the API's budget is untouched: the burst of 4, then refused
        answers = [http.get("/api/tables/NoSuchTable123").status_code for _ in range(6)]
        assert answers[:4] == [404] * 4 and 429 in answers[4:], answers
        # a POST to a file's address is not a file: counted (and refused now)
        assert http.post("/static/js/api.js").status_code == 429


def test_message_rate_per_address(tmp_path: Path) -> None:
    """All websockets of one address share one budget; another address has its own."""
    env = {"ONO99_IP_WS_RATE": "1", "ONO99_IP_WS_BURST": "10", "ONO99_FLOOD_STRIKES": "0"}
    with limited_server(tmp_path, **env) as srv:
        tid = create(srv, players=2)["table"]
        a, b = _ws(srv, f"/ws/{tid}"), _ws(srv, f"/ws/{tid}")
        c = _ws(srv, f"/ws/{tid}", "127.0.0.2")
        for ws in (a, b, c):
            _until(ws, "state")
        for i in range(8):
            a.send(json.dumps({"type": "ping", "id": i}))
        for i in range(8):
            b.send(json.dumps({"type": "ping", "id": i}))
        got: list[str] = []
        for ws in (a, b):
            with contextlib.suppress(TimeoutError):
                while True:
                    got.append(_recv(ws, timeout=0.5)["type"])
        assert 10 <= got.count("pong") <= 12 and "error" in got, got
        c.send(json.dumps({"type": "ping", "id": "c"}))
        assert _until(c, "pong")["id"] == "c"
        for ws in (a, b, c):
            ws.close()


# ---------------------------------------------------------------- the flood


async def _rtts(srv: Server, seconds: float, keep_going: Any) -> list[float]:
    """Move round trips (send a move until the state that acknowledges it) of one person
    playing bots at a table of their own, for ``seconds`` or while ``keep_going()``."""
    out: list[float] = []
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and keep_going():
        t = create(srv, players=2, bots="easy", bot_delay=0, draw_window=0)
        seat = join(srv, t["table"], "Ana")
        async with aconnect(f"{srv.ws_url}/ws/{t['table']}?token={seat['token']}") as ws:
            start(srv, t["table"], seat["token"])
            n = 0
            msg = json.loads(await asyncio.wait_for(ws.recv(), 20))
            while time.monotonic() < deadline and keep_going():
                if msg["type"] == "state" and msg["view"]["phase"] == "over":
                    break
                if msg["type"] == "state" and msg["view"]["legal"]:
                    n += 1
                    sent = time.perf_counter()
                    move = {"type": "move", "move": msg["view"]["legal"][0],
                            "version": msg["version"], "id": n}  # fmt: skip
                    await ws.send(json.dumps(move))
                    while True:
                        reply = json.loads(await asyncio.wait_for(ws.recv(), 20))
                        if reply.get("ack") == n or reply["type"] == "error":
                            break
                    assert reply["type"] == "state", reply
                    out.append(time.perf_counter() - sent)
                    msg = reply
                    continue
                msg = json.loads(await asyncio.wait_for(ws.recv(), 20))
    return out


def _pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, round(q * (len(values) - 1)))]


@pytest.mark.slow
def test_a_flood_does_not_slow_another_table(tmp_path: Path) -> None:
    """One client (127.0.0.2) floods its table with thousands of messages, reconnecting
    whenever it is closed, while a person (127.0.0.1) plays at another table: the move
    round trip stays close to the quiet figure. Default limits."""
    with limited_server(tmp_path) as srv:
        flood_table = create(srv, players=2)["table"]
        quiet = arun(_rtts(srv, 6.0, lambda: True))
        proc = subprocess.Popen(
            [sys.executable, str(FLOODER), f"{srv.ws_url}/ws/{flood_table}", "127.0.0.2",
             "8", "6000"],
            stdout=subprocess.PIPE, text=True,
        )  # fmt: skip
        try:
            assert proc.stdout is not None
            assert proc.stdout.readline().strip() == "ready"
            loud = arun(_rtts(srv, 12.0, lambda: proc.poll() is None))
            out, _ = proc.communicate(timeout=60)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
        flood = json.loads(out.strip().splitlines()[-1])
        figures = {
            "quiet": {"n": len(quiet), "p50_ms": 1000 * statistics.median(quiet),
                      "p99_ms": 1000 * _pct(quiet, 0.99)},
            "flood": {"n": len(loud), "p50_ms": 1000 * statistics.median(loud),
                      "p99_ms": 1000 * _pct(loud, 0.99)},
            "flooder": flood,
        }  # fmt: skip
        print(json.dumps(figures))
        (tmp_path / "flood.json").write_text(json.dumps(figures))
        assert len(quiet) >= 20 and len(loud) >= 20, figures
        assert flood["sent"] >= 2000, figures  # it did flood
        assert flood["closes"].get("1008", 0) >= 1, figures  # and was thrown out
        q, f = figures["quiet"], figures["flood"]
        assert f["p99_ms"] < 250, figures
        assert f["p50_ms"] < max(4 * q["p50_ms"], q["p50_ms"] + 25), figures
        log = srv.log.read_text()
        assert "Traceback" not in log, log[-3000:]


def test_a_bad_lease_stops_the_server(tmp_path: Path) -> None:
    """docs/deploy.md "Settings that matter": ``ONO99_LEASE_SECONDS`` is 0.5–300 (5 by
    default). A value outside that, or no number, is a one-line error and exit status 2
    from ``ono99 serve``, like the limits, not a lease silently clamped or replaced by 5."""
    from ono99.web.shared import lease_seconds

    assert lease_seconds({}) == 5.0
    assert lease_seconds({"ONO99_LEASE_SECONDS": " 1.5 "}) == 1.5
    for bad in ("abc", "0.1", "301", "nan", "-5"):
        with pytest.raises(ValueError):
            lease_seconds({"ONO99_LEASE_SECONDS": bad})
    for bad in ("abc", "0.1"):
        env = {**os.environ, "ONO99_LEASE_SECONDS": bad}
        r = subprocess.run(
            [sys.executable, "-m", "ono99", "serve", "--port", "0",
             "--db", f"sqlite:///{tmp_path / 'x.db'}"],
            capture_output=True, text=True, env=env, timeout=60,
        )  # fmt: skip
        assert r.returncode == 2, r.stdout + r.stderr
        assert r.stderr.count("\n") == 1 and "ONO99_LEASE_SECONDS" in r.stderr, r.stderr
        assert repr(bad) in r.stderr and "Traceback" not in r.stderr
