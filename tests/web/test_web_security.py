"""The web server's security items of issue 22: links never come from shared state
(a forged ``Host``), no 5xx and no traceback for any input, slow clients time out,
websockets check ``Origin``, state-changing POSTs require ``application/json``, the
page headers, and a SQLite lock held by another process does not freeze the loop.

Real servers on loopback (``ono99 serve`` in a subprocess, or the app served by uvicorn
in a thread of the test process where a test looks at the live tables or the log), real
SQLite files.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn
from hostile_helpers import InProcess, served
from server_helpers import Client, arun, env_server, join, start
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus

from ono99.web.announce import catalog
from ono99.web.app import create_app
from ono99.web.guards import TOO_SLOW
from ono99.web.limits import FRAME_LIMIT, Limits

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

PUBLIC = "https://ono.example.org"


class PublicInProcess(InProcess):
    """``InProcess`` with ``create_app(..., public_url=PUBLIC)``."""

    def __init__(self, db: str, limits: Limits | None = None) -> None:
        self.app = create_app(db, limits=limits, public_url=PUBLIC)
        config = uvicorn.Config(
            self.app, host="127.0.0.1", port=0, ws_max_size=FRAME_LIMIT, log_config=None,
            log_level="info", access_log=False, lifespan="on",
        )  # fmt: skip
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.port = 0


def _create(url: str, **body: Any) -> dict[str, Any]:
    body.setdefault("bot_delay", 0)
    body.setdefault("draw_window", 0.2)
    r = httpx.post(url + "/api/tables", json=body, timeout=10)
    assert r.status_code == 201, r.text
    return dict(r.json())


def _one_line_error(r: httpx.Response) -> str:
    err = r.json()["error"]
    assert isinstance(err, str) and err and "\n" not in err, r.text
    return err


# ---------------------------------------------------------------------- item 1: links


def test_a_forged_host_changes_no_other_clients_link(tmp_path: Path) -> None:
    """Before: any request's Host became every table's broadcast link."""
    with served(tmp_path) as (srv, _records):
        t = _create(srv.url, players=2)
        code = t["code"]

        async def go() -> None:
            watcher = await Client.open(srv, t["table"])  # type: ignore[arg-type]
            first = await watcher.next_state()
            assert first["table"]["url"] == f"/t/{code}"
            for path in ("/healthz", "/", f"/api/tables/{t['table']}"):
                r = httpx.get(srv.url + path, headers={"Host": "evil.example"}, timeout=10)
                assert r.status_code == 200
            # the answer to the forged request may use its own Host: only its asker sees it
            own = httpx.get(
                f"{srv.url}/api/tables/{t['table']}", headers={"Host": "evil.example"}
            ).json()
            assert own["url"] == f"http://evil.example/t/{code}"
            join(srv, t["table"], "Ana")  # type: ignore[arg-type]  # a broadcast to the watcher
            after = await watcher.next_state()
            assert after["table"]["url"] == f"/t/{code}"
            assert "evil" not in json.dumps(after)
            await watcher.close()

        arun(go())


def test_links_from_the_public_url(tmp_path: Path) -> None:
    srv = PublicInProcess(f"sqlite:///{tmp_path / 'web.db'}").start()
    try:
        r = httpx.post(
            srv.url + "/api/tables", json={"players": 2}, headers={"Host": "evil.example"}
        )
        assert r.status_code == 201
        t = r.json()
        assert t["url"] == f"{PUBLIC}/t/{t['code']}"
        got = httpx.get(f"{srv.url}/api/codes/{t['code']}", headers={"Host": "evil.example"})
        assert got.json()["url"] == f"{PUBLIC}/t/{t['code']}"

        async def go() -> None:
            c = await Client.open(srv, t["table"])  # type: ignore[arg-type]
            st = await c.next_state()
            assert st["table"]["url"] == f"{PUBLIC}/t/{t['code']}"
            await c.close()
            # the public URL's origin may open websockets, another may not
            async with connect(f"{srv.ws_url}/ws/{t['table']}", origin=PUBLIC) as ws:  # type: ignore[arg-type]
                assert json.loads(await ws.recv())["type"] == "state"

        arun(go())
    finally:
        srv.stop()


def test_serve_refuses_a_bad_public_url(tmp_path: Path) -> None:
    r = subprocess.run(
        [sys.executable, "-m", "ono99", "serve", "--db", f"sqlite:///{tmp_path / 'x.db'}",
         "--public-url", "javascript:alert(1)"],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert r.returncode == 2
    assert r.stderr.count("\n") == 1 and "http(s) URL" in r.stderr
    assert "Traceback" not in r.stderr


# ---------------------------------------------------------------------- item 3: input


def test_a_lone_surrogate_to_the_companion_is_a_400(tmp_path: Path) -> None:
    with served(tmp_path) as (srv, records):
        for body in (
            b'{"players": ["\\ud800", "Bo"]}',
            b'{"players": ["Ana", "Bo"], "rules": "\\ud800"}',
            b'{"players": ["Ana", "Bo"], "options": {"\\udfff": 1}}',
        ):
            r = httpx.post(
                srv.url + "/api/companion",
                content=body,
                headers={"Content-Type": "application/json"},
                timeout=10,
            )
            assert r.status_code == 400, r.text
            _one_line_error(r)
        assert records.problems() == [], records.text()[-3000:]


def test_an_invalid_utf8_frame_logs_no_traceback(tmp_path: Path) -> None:
    with served(tmp_path) as (srv, records):
        t = _create(srv.url, players=2)

        async def go() -> int | None:
            async with connect(f"{srv.ws_url}/ws/{t['table']}") as ws:
                await ws.recv()
                await ws.send(b"\xff\xfe{", text=True)
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(ws.recv(), 5)
                return ws.close_code

        assert arun(go()) == 1007
        time.sleep(0.3)
        assert records.problems() == [], records.text()[-3000:]
        assert "Traceback" not in records.text()
        assert httpx.get(srv.url + "/healthz").status_code == 200


def test_state_changing_posts_require_json(tmp_path: Path) -> None:
    with served(tmp_path) as (srv, _records):
        t = _create(srv.url, players=2)
        seat = join(srv, t["table"], "Ana")  # type: ignore[arg-type]
        before = len(srv.hub.tables)
        for path, body in (
            ("/api/tables", {"players": 2}),
            (f"/api/tables/{t['table']}/join", {"name": "Bo"}),
            (f"/api/tables/{t['table']}/start", {"token": seat["token"]}),
            ("/api/companion", {"players": ["Ana", "Bo"]}),
        ):
            for kind in ("text/plain", "application/x-www-form-urlencoded", None):
                headers = {} if kind is None else {"Content-Type": kind}
                r = httpx.post(srv.url + path, content=json.dumps(body), headers=headers)
                assert r.status_code == 415, (path, kind, r.text)
                _one_line_error(r)
        assert len(srv.hub.tables) == before
        info = httpx.get(f"{srv.url}/api/tables/{t['table']}").json()
        assert info["phase"] == "lobby" and [s["name"] for s in info["seats"]] == ["Ana", None]
        r = httpx.post(
            f"{srv.url}/api/tables/{t['table']}/join",
            content=json.dumps({"name": "Bo"}),
            headers={"Content-Type": "application/json; charset=utf-8"},
        )
        assert r.status_code == 200


def test_websockets_check_origin(tmp_path: Path) -> None:
    with served(tmp_path) as (srv, _records):
        t = _create(srv.url, players=2)
        url = f"{srv.ws_url}/ws/{t['table']}"

        async def go() -> None:
            for bad in ("http://evil.example", "null", f"http://127.0.0.1:{srv.port + 1}"):
                with pytest.raises(InvalidStatus) as e:
                    async with connect(url, origin=bad):  # type: ignore[arg-type]
                        pass
                assert e.value.response.status_code == 403
            for ok in (f"http://127.0.0.1:{srv.port}", None):
                async with connect(url, origin=ok) as ws:  # type: ignore[arg-type]
                    assert json.loads(await ws.recv())["type"] == "state"

        arun(go())


def test_page_headers(tmp_path: Path) -> None:
    with served(tmp_path) as (srv, _records):
        t = _create(srv.url, players=2)
        for path in (
            "/",
            f"/t/{t['code']}",
            "/companion",
            "/static/index.html",
            "/static/companion.html",
        ):
            r = httpx.get(srv.url + path)
            assert r.status_code == 200 and "text/html" in r.headers["content-type"], path
            csp = r.headers.get("content-security-policy", "")
            assert "frame-ancestors 'none'" in csp and "script-src 'self'" in csp, path
            assert "unsafe-inline" not in csp
            assert r.headers.get("x-content-type-options") == "nosniff", path
        for path in ("/healthz", "/static/js/app.js", "/static/style.css", "/api/schema",
                     "/nowhere", f"/api/tables/{t['table']}"):  # fmt: skip
            r = httpx.get(srv.url + path)
            assert r.headers.get("x-content-type-options") == "nosniff", path
        # an error answer too (415 here)
        bad = httpx.post(srv.url + "/api/tables", content=b"{")
        assert bad.status_code == 415 and bad.headers.get("x-content-type-options") == "nosniff"
        # the pages run under that CSP: no inline script, style or handler in them
        for name in ("index.html", "companion.html"):
            html = (Path(__file__).parents[2] / "src/ono99/web/static" / name).read_text()
            assert "<script>" not in html and "<style" not in html and " style=" not in html
            assert " onclick=" not in html and " onload=" not in html


def _slow_client(port: int, first: bytes, drip: bytes, every: float, limit: float) -> float:
    """Send ``first``, then ``drip`` every ``every`` seconds until the server closes the
    connection; the seconds that took (``limit`` when it did not close)."""
    t0 = time.monotonic()
    with socket.create_connection(("127.0.0.1", port), timeout=limit) as s:
        s.sendall(first)
        s.settimeout(every)
        while time.monotonic() - t0 < limit:
            try:
                data = s.recv(4096)
                if not data:
                    break
                if b"\r\n\r\n" in data:  # an answer (408): read on to the close
                    continue
            except TimeoutError:
                pass
            except OSError:
                break
            try:
                s.sendall(drip)
            except OSError:
                break
    return time.monotonic() - t0


def test_slow_headers_and_slow_bodies_time_out(tmp_path: Path) -> None:
    with env_server(tmp_path, ONO99_HEADER_SECONDS="1", ONO99_BODY_SECONDS="1") as srv:
        took = _slow_client(srv.port, b"GET /healthz HTTP/1.1\r\nHost: x\r\n", b"X", 0.2, 8)
        assert took < 4, took
        took = _slow_client(srv.port, b"", b"G", 0.3, 8)  # not even a request line
        assert took < 4, took
        # a body that does not come: 408 with a one-line JSON error, in the language the
        # request asks for
        with socket.create_connection(("127.0.0.1", srv.port), timeout=8) as s:
            t0 = time.monotonic()
            s.sendall(
                b"POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                b'Accept-Language: uz\r\nContent-Length: 100\r\n\r\n{"players"'
            )
            answer = b""
            with contextlib.suppress(TimeoutError):
                while b"}" not in answer.partition(b"\r\n\r\n")[2]:
                    chunk = s.recv(4096)
                    if not chunk:
                        break
                    answer += chunk
            assert time.monotonic() - t0 < 4
        head, _, body = answer.partition(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 408"), answer
        assert json.loads(body) == {"error": catalog("uz").gettext(TOO_SLOW)} != {"error": TOO_SLOW}
        # normal requests still work
        assert httpx.get(srv.url + "/healthz").status_code == 200
        assert httpx.post(srv.url + "/api/tables", json={"players": 2}).status_code == 201


# ---------------------------------------------------------------------- item 4: SQLite lock

LOCKER = """
import sqlite3, sys, time
c = sqlite3.connect(sys.argv[1], timeout=30, isolation_level=None)
c.execute("BEGIN EXCLUSIVE")
print("locked", flush=True)
time.sleep(float(sys.argv[2]))
c.execute("COMMIT")
"""


def test_a_write_lock_of_another_process_does_not_freeze_the_loop(tmp_path: Path) -> None:
    """Before: a move's commit waited for the lock in the event loop itself (busy timeout
    30 s), and every request of every table waited with it."""
    db = tmp_path / "web.db"
    with env_server(tmp_path) as srv:
        t = _create(srv.url, players=2, takeover=False)
        a = join(srv, t["table"], "Ana")
        b = join(srv, t["table"], "Bo")
        start(srv, t["table"], a["token"])

        async def go() -> None:
            ca = await Client.open(srv, t["table"], a["token"], seat=a["seat"])
            cb = await Client.open(srv, t["table"], b["token"], seat=b["seat"])
            await ca.next_state()
            await cb.next_state()
            await ca.drain()
            await cb.drain()
            assert ca.state is not None and cb.state is not None
            mover = ca if ca.state["view"]["legal"] else cb
            st = mover.state
            assert st is not None and st["view"]["legal"], st
            locker = await asyncio.create_subprocess_exec(
                sys.executable, "-c", LOCKER, str(db), "3", stdout=asyncio.subprocess.PIPE
            )
            assert locker.stdout is not None
            assert (await locker.stdout.readline()).strip() == b"locked"
            t0 = time.monotonic()
            await mover.move(st["view"]["legal"][0])
            await asyncio.sleep(0.3)  # the move is waiting for the lock now
            async with httpx.AsyncClient(base_url=srv.url) as http:
                for _ in range(5):
                    h0 = time.monotonic()
                    r = await http.get("/healthz", timeout=10)
                    assert r.status_code == 200
                    assert time.monotonic() - h0 < 0.5, time.monotonic() - h0
                    r = await http.get(f"/api/tables/{t['table']}", timeout=10)
                    assert r.status_code == 200
                    assert time.monotonic() - h0 < 1.0, time.monotonic() - h0
                    await asyncio.sleep(0.2)
            assert time.monotonic() - t0 < 2.8  # all that while the lock was held
            # once the lock goes, the move is stored and told
            ack = await mover.next_state(timeout=30)
            while ack["version"] == st["version"]:  # presence (the other one connecting)
                ack = await mover.next_state(timeout=30)
            assert ack["version"] == st["version"] + 1, ack
            assert ack["view"]["moves"] == st["view"]["moves"] + 1
            await locker.wait()
            await ca.close()
            await cb.close()

        arun(go())
    row = sqlite3.connect(db).execute("select count(*) from ono99_moves").fetchone()
    assert row[0] >= 1
