"""The web table's holes of issue 35: a lone surrogate anywhere a client sends text is a
4xx (never a 500, never a traceback in the log), the lobby cap holds under concurrency,
a rematch's seed is fresh and secret, ``HEAD`` of the pages, and a slow body's
connection is closed after its 408, with a cap on the requests one address has in
progress (docs/deploy.md "Limits").

In-process servers (uvicorn in a thread, every log record kept) where a test looks at the
log; ``ono99 serve`` in a subprocess where the HTTP layer itself is the subject."""

from __future__ import annotations

import asyncio
import json
import random
import socket
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from hostile_helpers import served
from server_helpers import Client, Server, arun, env_server, play_to_end
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from ono99.web.announce import catalog
from ono99.web.limits import TOO_MANY_LOBBIES, TOO_MANY_OPEN, Limits

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

LONE = "\\ud800"  # as JSON text: a lone UTF-16 surrogate, valid JSON, no text


def _post(url: str, raw: str) -> httpx.Response:
    return httpx.post(url, content=raw.encode(), timeout=20,
                      headers={"content-type": "application/json"})  # fmt: skip


# ---------------------------------------------------------------------- lone surrogates


def test_a_lone_surrogate_anywhere_is_a_4xx(tmp_path: Path) -> None:
    """``POST /api/replay`` with a lone surrogate in a player name answered 500 and logged
    two tracebacks. Every JSON body and websocket message that carries text is tried."""
    with served(tmp_path, Limits.off()) as (srv, records):
        u = srv.url
        table = httpx.post(u + "/api/tables", json={"players": 2, "name": "Ana"}).json()
        tid, token = table["table"], table["token"]
        bodies = [
            (u + "/api/replay", f'{{"players": ["A{LONE}", "B"], "seed": 1, "moves": []}}'),
            (u + "/api/replay", f'{{"players": 2, "seed": 1, "moves": ["{LONE}"]}}'),
            (u + "/api/replay", f'{{"players": 2, "rules": "x{LONE}"}}'),
            (u + "/api/replay", f'{{"players": 2, "options": {{"{LONE}": 1}}}}'),
            (u + "/api/replay", f'{{"players": 2, "seed": "{LONE}"}}'),
            (u + "/api/tables", f'{{"players": 2, "name": "A{LONE}"}}'),
            (u + "/api/tables", f'{{"players": 2, "rules": "{LONE}"}}'),
            (u + "/api/tables", f'{{"rules": "classic1980", "options": {{"scoring": "{LONE}"}}}}'),
            (u + "/api/tables", f'{{"players": 2, "bots": "{LONE}"}}'),
            (u + f"/api/tables/{tid}/join", f'{{"name": "{LONE}"}}'),
            (u + f"/api/tables/{tid}/start", f'{{"token": "{LONE}"}}'),
            (u + f"/api/tables/{tid}/rematch", f'{{"token": "{LONE}"}}'),
            (u + "/api/companion", f'{{"players": ["A{LONE}", "B"]}}'),
            (u + "/api/companion", f'{{"rules": "{LONE}", "players": 2}}'),
        ]
        for url, raw in bodies:
            r = _post(url, raw)
            assert 400 <= r.status_code < 500, (url, raw, r.status_code, r.text)
            assert "\n" not in r.json()["error"]
        r = httpx.put(u + "/api/companion/abcdefghijklmnop", timeout=20,
                      content=f'{{"record": {{"tracking": true, "players": ["{LONE}"]}}}}'.encode(),
                      headers={"content-type": "application/json"})  # fmt: skip
        assert 400 <= r.status_code < 500, r.text

        async def sockets() -> None:
            async with connect(f"{srv.ws_url}/ws/{tid}?token={token}") as ws:
                json.loads(await ws.recv())
                for raw in (
                    f'{{"type": "move", "move": "{LONE}", "version": 1}}',
                    f'{{"type": "hello", "lang": "{LONE}"}}',
                    f'{{"type": "ping", "id": "{LONE}"}}',
                    f'{{"type": "{LONE}"}}',
                    f'{{"type": "move", "move": "5", "version": 1, "id": "x{LONE}"}}',
                ):
                    await ws.send(raw)
                    answer = json.loads(await asyncio.wait_for(ws.recv(), 20))
                    assert answer["type"] in ("error", "state", "pong"), (raw, answer)
                await ws.send('{"type": "ping", "id": 7}')
                while (answer := json.loads(await asyncio.wait_for(ws.recv(), 20)))[
                    "type"
                ] != "pong":
                    pass  # the socket is still served

        arun(sockets())
        assert not records.problems(), records.problems()


# ---------------------------------------------------------------------- the lobby cap


def test_the_lobby_cap_holds_under_concurrency(tmp_path: Path) -> None:
    """200 concurrent creates from one address made 224 tables against a cap of 20: the
    cap was checked before an ``await`` and the table counted after it. Now exactly 20."""
    limits = Limits(lobby_tables=20, ip_http_rate=0, ip_http_open=0)
    with served(tmp_path, limits) as (srv, records):

        async def burst() -> list[httpx.Response]:
            async with httpx.AsyncClient(timeout=60, limits=httpx.Limits(max_connections=200)) as c:
                return list(await asyncio.gather(*(
                    c.post(srv.url + "/api/tables", json={"players": 2}, headers={"accept-language": "gu"})
                    for _ in range(200)
                )))  # fmt: skip

        answers = arun(burst())
        made = [r for r in answers if r.status_code == 201]
        refused = [r for r in answers if r.status_code == 429]
        assert len(made) == 20 and len(refused) == 180, [r.status_code for r in answers]
        assert {r.json()["error"] for r in refused} == {catalog("gu").gettext(TOO_MANY_LOBBIES)}
        assert sum(t.phase == "lobby" for t in srv.hub.tables.values()) == 20
        assert not records.problems()


# ---------------------------------------------------------------------- the rematch's seed


def test_a_rematch_gets_a_fresh_secret_seed(server: Server) -> None:
    """R-SET-1: a fixed-seed table's rematch used seed + 1, and the finished game's seed is
    shown to everyone: every hand of the rematch could be computed. Now a fresh secret
    seed, unless the rematch's creator fixes one again."""

    async def run() -> None:
        t = httpx.post(server.url + "/api/tables", json={
            "players": 2, "bots": "easy", "seed": 41, "bot_delay": 0, "name": "Ana"}).json()  # fmt: skip
        a = await Client.open(server, t["table"], t["token"], seat=0)
        await a.next_state()
        httpx.post(f"{server.url}/api/tables/{t['table']}/start", json={"token": t["token"]})
        await play_to_end([a], random.Random(3))
        await a.close()
        assert httpx.get(f"{server.url}/api/tables/{t['table']}").json()["seed"] == 41
        new = httpx.post(f"{server.url}/api/tables/{t['table']}/rematch",
                         json={"token": t["token"]}).json()  # fmt: skip
        info = httpx.get(f"{server.url}/api/tables/{new['table']}").json()
        assert info["seed_fixed"] is False and info["seed"] is None
        r = httpx.post(
            f"{server.url}/api/tables/{new['table']}/start", json={"token": new["token"]}
        )
        assert r.status_code == 200
        b = await Client.open(server, new["table"], new["token"], seat=0)
        await b.next_state()
        await play_to_end([b], random.Random(4))
        await b.close()
        record = httpx.get(f"{server.url}/api/tables/{new['table']}/record").json()
        assert record["seed"] not in (41, 42) and record["seed"] >= 2**64
        # its creator may fix the rematch's seed again
        fixed = httpx.post(f"{server.url}/api/tables/{new['table']}/rematch",
                           json={"token": new["token"], "seed": 7}).json()  # fmt: skip
        info = httpx.get(f"{server.url}/api/tables/{fixed['table']}").json()
        assert info["seed_fixed"] is True
        bad = httpx.post(f"{server.url}/api/tables/{new['table']}/rematch",
                         json={"token": new["token"], "seed": -1})  # fmt: skip
        assert bad.status_code == 400

    arun(run())


# ---------------------------------------------------------------------- HEAD


def test_head_of_the_pages_is_200(server: Server) -> None:
    """``HEAD /`` answered 405; it answers as GET does, headers only."""
    for path in ("/", "/t/ABCDEF", "/static/style.css", "/companion"):
        head, get = httpx.head(server.url + path), httpx.get(server.url + path)
        assert head.status_code == get.status_code == 200, path
        assert head.content == b"" and get.content
        assert head.headers["content-type"] == get.headers["content-type"]
    assert (
        "frame-ancestors 'none'" in httpx.head(server.url + "/").headers["content-security-policy"]
    )


# ---------------------------------------------------------------------- slow bodies


SLOW_HEAD = (b"POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
             b"Accept-Language: ta\r\nContent-Length: 60000\r\n\r\n{")  # fmt: skip


def _trickle_until_closed(s: socket.socket, limit: float) -> tuple[float, bytes]:
    """Send a byte every 0.2 s on ``s`` until the server closes it: the seconds that took
    (``limit`` if it never did) and what the server sent."""
    t0 = time.monotonic()
    got = b""
    s.settimeout(0.2)
    while time.monotonic() - t0 < limit:
        try:
            data = s.recv(4096)
            if not data:
                break
            got += data
        except TimeoutError:
            pass
        except OSError:
            break
        try:
            s.sendall(b" ")
        except OSError:
            break
    return time.monotonic() - t0, got


def test_a_slow_body_is_closed_after_its_408(tmp_path: Path) -> None:
    """The 408 came, but the connection stayed open as long as the client kept trickling
    bytes (1,500 such connections were held from one address). Now it is closed."""
    with env_server(tmp_path, ONO99_BODY_SECONDS="1") as srv:
        with socket.create_connection(("127.0.0.1", srv.port), timeout=10) as s:
            s.sendall(SLOW_HEAD)
            took, got = _trickle_until_closed(s, 10)
        assert got.startswith(b"HTTP/1.1 408"), got
        assert b"connection: close" in got.lower()
        assert took < 5, took


def test_requests_in_progress_per_address_are_capped(tmp_path: Path) -> None:
    """``ONO99_IP_HTTP_OPEN``: one request more than the cap is refused at once (429, the
    client's language, the connection closed); once the slow ones are answered (408) and
    closed, the address is served again."""
    with env_server(tmp_path, ONO99_BODY_SECONDS="3", ONO99_IP_HTTP_OPEN="3") as srv:
        slow = [socket.create_connection(("127.0.0.1", srv.port), timeout=10) for _ in range(3)]
        try:
            for s in slow:
                s.sendall(SLOW_HEAD)
            # the three are in progress once the server answers a fourth with the refusal
            # (a request that changes nothing: 404 until then)
            deadline = time.monotonic() + 30
            while True:
                r = httpx.get(
                    srv.url + "/api/tables/no-such-table", headers={"accept-language": "ta"}
                )
                if r.status_code != 404 or time.monotonic() > deadline:
                    break
            assert r.status_code == 429, r.text
            assert (
                r.json()
                == {"error": catalog("ta").gettext(TOO_MANY_OPEN)}
                != {"error": TOO_MANY_OPEN}
            )
            assert r.headers.get("connection") == "close"
            for s in slow:
                _took, got = _trickle_until_closed(s, 15)
                assert got.startswith(b"HTTP/1.1 408"), got
        finally:
            for s in slow:
                s.close()
        assert httpx.post(srv.url + "/api/tables", json={"players": 2}).status_code == 201


# ---------------------------------------------------------------------- a dropped phone


def test_a_phone_that_falls_silent_on_its_turn_frees_the_table(tmp_path: Path) -> None:
    """A phone that dropped on its turn stalled the table about 60 s: the server noticed
    only after the websocket layer's ping (20 s) and its timeout (20 s), and only then
    started the away clock. A connection that has sent heartbeats (the page pings every
    3 s) and then falls silent for ``silent_seconds`` is closed at once: the seat is
    disconnected, away after ``away_seconds``, and a bot plays its turn (R-TURN-1: the
    game goes on). Here both clocks are short; every wait is for a state."""
    with served(tmp_path, Limits(silent_seconds=1.0)) as (srv, records):
        t = httpx.post(srv.url + "/api/tables", json={
            "players": 2, "bots": "easy", "seed": 3, "bot_delay": 0, "away_seconds": 1,
            "name": "Ana"}).json()  # fmt: skip
        tid, token = t["table"], t["token"]

        async def run() -> None:
            phone = await connect(f"{srv.ws_url}/ws/{tid}?token={token}")
            spec = await connect(f"{srv.ws_url}/ws/{tid}")
            await phone.send('{"type": "ping"}')  # the page's heartbeat
            httpx.post(f"{srv.url}/api/tables/{tid}/start", json={"token": token})
            seen: list[dict[str, Any]] = []

            async def spectator_until(check: Any) -> dict[str, Any]:
                """The latest state once it passes ``check`` (these facts persist)."""
                if seen and check(seen[-1]["view"]):
                    return seen[-1]
                while True:
                    msg = json.loads(await asyncio.wait_for(spec.recv(), 30))
                    if msg["type"] == "state":
                        seen.append(msg)
                        if check(msg["view"]):
                            return msg

            await spectator_until(lambda v: v["phase"] == "playing")
            # the phone's seat is to move (seat 0 starts)
            moves = (await spectator_until(lambda v: v["to_move"] == 0))["view"]["moves"]
            # the phone now says nothing at all (its socket still open, as a dropped
            # phone's is until TCP gives up): closed, seat disconnected, away, bot plays
            await spectator_until(lambda v: not v["connected"][0])
            await spectator_until(lambda v: v["away"][0])
            final = await spectator_until(lambda v: v["moves"] > moves or v["phase"] == "over")
            assert final["view"]["moves"] > moves
            with pytest.raises(ConnectionClosed) as closed:
                while True:  # what was sent to it before the close, then the close
                    await asyncio.wait_for(phone.recv(), 30)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1001
            await spec.close()

        arun(run())
        assert not records.problems(), records.problems()


def test_a_companion_page_that_falls_silent_is_closed(tmp_path: Path) -> None:
    """The silence rule on the companion's live socket (``/ws/companion/ID``), as on the
    table's: a page that has pinged (every 3 s) and then says nothing for
    ``silent_seconds`` is a phone that dropped off, and its socket is closed (1001) instead
    of being kept until the websocket layer's own timeout. A socket that never pings (a
    script) is judged by its socket alone and still hears the next tap (R-TURN-1). Every
    wait is for a state."""
    with served(tmp_path, Limits(silent_seconds=1.0)) as (srv, records):
        made = httpx.post(
            srv.url + "/api/companion",
            json={"rules": "mattel2022", "players": ["Ana", "Bo"], "first": 0},
        )
        assert made.status_code == 201, made.text
        gid, version = made.json()["id"], made.json()["version"]

        async def run() -> None:
            phone = await connect(f"{srv.ws_url}/ws/companion/{gid}")
            script = await connect(f"{srv.ws_url}/ws/companion/{gid}")
            for ws in (phone, script):
                assert json.loads(await asyncio.wait_for(ws.recv(), 30))["version"] == version
            await phone.send('{"type": "ping"}')  # the page's heartbeat, then nothing
            assert json.loads(await asyncio.wait_for(phone.recv(), 30)) == {"type": "pong"}
            with pytest.raises(ConnectionClosed) as closed:
                await asyncio.wait_for(phone.recv(), 30)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1001
            tap = httpx.post(
                f"{srv.url}/api/companion/{gid}/tap", json={"tap": "7", "version": version}
            )
            assert tap.status_code == 200, tap.text
            got = json.loads(await asyncio.wait_for(script.recv(), 30))
            assert got["version"] == tap.json()["version"] and got["state"]["total"] == 7
            await script.close()

        arun(run())
        assert not records.problems(), records.problems()
