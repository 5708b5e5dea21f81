"""The companion on a phone alone (docs/companion.md "Without a server"), in Debian's
Chromium: after the first visit the page follows whole games with the network off, with
the project's own Python run by Pyodide; the static site of ``ono99 companion-site`` plays
with no ono99 server at all; a game started with the server away is sent to it when it is
back. After every tap ``<main data-state>`` must equal what ``ono99.tracking.Tracker``,
fed the same taps here in Python, says, and the real game's public state.

Pyodide comes from the folder ``scripts/fetch_pyodide.py`` fills (``.ci/run`` runs it);
without it these tests skip locally and fail in CI. The CDN's address is answered from that
folder too (``ONO99_PYODIDE=cdn``: the tests have no network).
"""

from __future__ import annotations

import functools
import http.server
import json
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import httpx
import pytest
from server_helpers import Server, free_port
from test_companion_e2e import KEYS, PHONE, play_through, settle, state, tap

from ono99.tracking import Tracker
from ono99.web.companion_site import (
    PYODIDE_CDN,
    PYODIDE_FILES,
)
from tracking_helpers import Move, feed, real_game

#: data-state's fields (docs/companion.md "Deep link and page hooks")
HOOK_KEYS = ("total", "direction", "to_move", "owes_two", "out", "tokens", "scores", "round",
             "winner", "plays_left", "pending_draw", "round_out", "steps", "busted",
             "hands_needed", "laid", "laid_open", "can_undo", "can_redo", "scores_known",
             "give_up")  # fmt: skip
LOCAL = "() => document.querySelector('main').dataset.engine === 'local'"
READY = "() => document.querySelector('main').dataset.engineReady === '1'"
SYNCED = "() => document.querySelector('main').dataset.sync === '0'"

pytestmark = pytest.mark.slow


def link(
    base: str, rules: str, names: list[str], first: int, options: dict[str, Any] | None
) -> str:
    q = {"rules": rules, "players": ",".join(names), "first": str(first)}
    q.update({k: json.dumps(v) for k, v in (options or {}).items()})
    return f"{base}?{urlencode(q)}"


def first_visit(page: Any, url: str) -> None:
    """Open ``url`` and wait until the page follows games itself and its service worker
    holds everything (Pyodide included) for the next visit."""
    page.goto(url)
    page.wait_for_function(READY, timeout=180_000)
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")


def hooks(s: dict[str, Any]) -> dict[str, Any]:
    return {k: s.get(k) for k in HOOK_KEYS}


def play(page: Any, rules: str, names: list[str], first: int, moves: list[Move],
         options: dict[str, Any] | None = None) -> Tracker:  # fmt: skip
    """Tap ``moves`` on the page (already open on a new game set up so); after every tap
    its data-state equals the Python Tracker's fed the same taps, and the real game's."""
    twin = Tracker(rules, names, first, options)
    assert hooks(state(page)) == hooks(json.loads(json.dumps(twin.state())))
    play_on(page, twin, moves)
    return twin


def play_on(page: Any, twin: Tracker, moves: list[Move]) -> None:
    def both(code: str) -> dict[str, Any]:
        twin.tap(code)
        got = tap(page, code)
        assert hooks(got) == hooks(json.loads(json.dumps(twin.state()))), (code, len(twin.taps))
        return got

    for i, mv in enumerate(moves):
        feed(mv, both, lambda: state(page))
        got = state(page)
        assert {k: got[k] for k in KEYS} == {k: mv.state[k] for k in KEYS}, (i, mv.code)


def new_game(page: Any, url: str) -> None:
    page.goto(url)
    page.wait_for_function(LOCAL, timeout=120_000)
    settle(page)
    assert state(page)["steps"] == 0


def test_whole_games_tapped_with_the_network_off(chromium: Any, py_server: Server) -> None:
    """R-TURN-1, R-P2-6, R-REV-1, R-LIM-2, R-END-1, R-END-2: first visit online; then the
    network off, a reload, and whole games tapped: mattel2022 with 3 and 2 players to a
    winner, classic1980 with tokens through its round ends to a winner. No request
    reaches the server meanwhile; a reload keeps the game (offline too)."""
    errors: list[str] = []
    ctx = chromium.new_context(**PHONE)
    page = ctx.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    first_visit(page, f"{py_server.url}/companion")
    ctx.set_offline(True)
    page.reload()
    page.wait_for_selector("#setup:not([hidden])")
    base = f"{py_server.url}/companion"
    games = [("mattel2022", 3, 11), ("mattel2022", 2, 5), ("classic1980", 3, 2)]
    for rules, players, seed in games:
        names = [f"P{i}" for i in range(players)]
        first = seed % players
        moves = list(real_game(rules, players, seed, None, first))
        new_game(page, link(base, rules, names, first, None))
        half = len(moves) // 2
        twin = play(page, rules, names, first, moves[:half])
        page.reload()  # offline: the game kept in the browser, followed here again
        page.wait_for_function(LOCAL, timeout=120_000)
        assert hooks(state(page)) == hooks(json.loads(json.dumps(twin.state())))
        play_on(page, twin, moves[half:])
        assert state(page)["winner"] == moves[-1].state["winner"] is not None
        if rules == "classic1980":
            assert state(page)["round"] > 1  # through round ends (R-END-2)
    assert errors == []
    ctx.close()


def test_a_points_game_with_its_hands_typed_in_offline(chromium: Any, py_server: Server) -> None:
    """R-END-3: offline after the first visit, a classic1980 points game to a winner: each
    round's end waits for the hands, typed on the pad; the scores then equal the real
    game's after every tap."""
    ctx = chromium.new_context(**PHONE)
    page = ctx.new_page()
    first_visit(page, f"{py_server.url}/companion")
    ctx.set_offline(True)
    options = {"scoring": "points", "target": 60}
    moves = list(real_game("classic1980", 3, 4, options, 1))
    new_game(
        page, link(f"{py_server.url}/companion", "classic1980", ["P0", "P1", "P2"], 1, options)
    )
    play_through(page, moves, (*KEYS, "scores"))
    assert state(page)["winner"] == moves[-1].state["winner"] is not None
    assert page.get_attribute("main", "data-engine") == "local"
    ctx.close()


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass  # quiet: the test reads the browser, not the log


def test_the_static_site_plays_with_no_ono99_server(
    chromium: Any, pyodide: Path, tmp_path: Path
) -> None:
    """R-TURN-1, R-END-2: ``ono99 companion-site DIR`` served by a plain static file server
    (python -m http.server's handler): a whole classic1980 game, checked after every tap;
    no request asks for a server's API; after that visit it plays on offline too."""
    site = tmp_path / "site"
    out = subprocess.run(
        [sys.executable, "-m", "ono99", "companion-site", str(site), "--pyodide", str(pyodide)],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    handler = functools.partial(_Quiet, directory=str(site))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", free_port()), handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{httpd.server_address[1]}/"
    asked: list[str] = []
    ctx = chromium.new_context(**PHONE)
    ctx.on("request", lambda r: asked.append(r.url))
    page = ctx.new_page()
    try:
        rules, names, first = "classic1980", ["Ana", "Bo", "Cy"], 1
        moves = list(real_game(rules, 3, 8, None, first))
        page.goto(link(base, rules, names, first, None))
        page.wait_for_function(LOCAL, timeout=180_000)
        settle(page)
        twin = play(page, rules, names, first, moves[:30])
        assert not [u for u in asked if "/api/" in u], [u for u in asked if "/api/" in u]
        assert page.get_attribute("main", "data-sync") == "0"  # nothing to send anywhere
        page.wait_for_function("() => navigator.serviceWorker.controller !== null")
        ctx.set_offline(True)
        page.reload()
        page.wait_for_function(LOCAL, timeout=120_000)
        play_on(page, twin, moves[30:])
        assert state(page)["winner"] == moves[-1].state["winner"]
        record = json.loads(page.evaluate("() => decodeURIComponent(document.querySelector('#record-link').href.split(',')[1])"))  # fmt: skip
        assert record == twin.record()
        # a second game, then back to the first one from "Earlier games" (same page)
        gid = page.url.split("#g=")[1]
        new_game(page, link(base, "mattel2022", ["Di", "Ed"], 0, None))
        tap(page, "7")
        page.click("details.menu summary")
        page.click("#new-game")
        page.click("#new-game-yes")
        page.click(f'#recent-games [data-game="{gid}"]')
        page.wait_for_function(f"() => location.hash === '#g={gid}'")
        assert hooks(state(page)) == hooks(json.loads(json.dumps(twin.state())))
        assert page.get_attribute("main", "data-engine") == "local"
        before = state(page)["steps"]
        page.click('[data-action="undo"]')  # followed here: the first game's own Tracker
        twin.undo()
        assert hooks(settle(page, before)) == hooks(json.loads(json.dumps(twin.state())))
    finally:
        ctx.close()
        httpd.shutdown()
        httpd.server_close()


#: what the official CDN answers Pyodide's files with (the types and the CORS header a
#: cross-origin module, fetch and streaming WebAssembly compile need)
_CDN_TYPES = {".mjs": "text/javascript", ".wasm": "application/wasm", ".zip": "application/zip",
              ".json": "application/json"}  # fmt: skip


def test_pyodide_from_the_cdn_plays_and_is_kept_for_offline(
    chromium: Any, pyodide: Path, tmp_path: Path
) -> None:
    """R-TURN-1, R-END-1: ``ONO99_PYODIDE=cdn`` (docs/companion.md: a pip user with no npm)
    loads Pyodide from its official CDN address under the page's CSP. The CDN is played
    here by answering its address with the fetched release's files, as the CDN does
    (content types, CORS); the page must ask for nothing else there. The first visit
    keeps the release in the service worker's cache: with the network and the CDN gone,
    a reload follows a whole game."""
    srv = Server(f"sqlite:///{tmp_path / 'web.db'}", tmp_path / "server.log", "cdn").start()
    asked: list[str] = []

    def cdn(route: Any) -> None:
        name = route.request.url[len(PYODIDE_CDN) :].split("?")[0]
        asked.append(name)
        f = pyodide / name
        if name not in PYODIDE_FILES or not f.is_file():
            route.fulfill(status=404, body="not on this CDN")
            return
        headers = {"content-type": _CDN_TYPES[f.suffix], "access-control-allow-origin": "*"}
        route.fulfill(status=200, body=f.read_bytes(), headers=headers)

    errors: list[str] = []
    ctx = chromium.new_context(**PHONE)
    try:
        ctx.route(f"{PYODIDE_CDN}**", cdn)
        page = ctx.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(f"{srv.url}/companion")
        csp = httpx.get(f"{srv.url}/companion").headers["content-security-policy"]
        assert f"script-src 'self' 'wasm-unsafe-eval' {PYODIDE_CDN};" in csp
        first_visit(page, f"{srv.url}/companion")
        assert set(asked) <= set(PYODIDE_FILES), asked  # nothing the cache would lack
        assert {"pyodide.mjs", "pyodide.asm.wasm", "python_stdlib.zip"} <= set(asked), asked
        ctx.unroute(f"{PYODIDE_CDN}**")
        ctx.set_offline(True)
        before = len(asked)
        page.reload()
        page.wait_for_selector("#setup:not([hidden])")
        rules, names, first = "mattel2022", ["Ana", "Bo", "Cy"], 2
        moves = list(real_game(rules, 3, 4, None, first))
        new_game(page, link(f"{srv.url}/companion", rules, names, first, None))
        twin = play(page, rules, names, first, moves)
        assert state(page)["winner"] == moves[-1].state["winner"] == twin.state()["winner"]
        assert len(asked) == before and not errors, (asked[before:], errors)
    finally:
        ctx.close()
        srv.stop()


def test_a_game_started_offline_is_sent_when_the_server_is_back(
    chromium: Any, py_server: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    """R-REC, R-END-1: first visit online; the server stops; a game is started and
    tapped (the page says what waits to be sent); the server comes back at the same
    address and the game is sent: the server's record is the page's, taps in order, none
    lost or doubled. Taps made online after that reach it too."""
    import server_helpers

    ctx = chromium.new_context(**PHONE)
    page = ctx.new_page()
    first_visit(page, f"{py_server.url}/companion")
    port = py_server.port
    py_server.stop(kill=True)
    rules, names, first = "mattel2022", ["Ana", "Bo", "Cy"], 0
    moves = list(real_game(rules, 3, 4, None, first))
    new_game(page, link(f"{py_server.url}/companion", rules, names, first, None))
    twin = play(page, rules, names, first, moves[:12])
    page.wait_for_function("() => document.querySelector('#queue-note').textContent !== ''")
    assert page.get_attribute("main", "data-sync") == "1"
    gid = page.url.split("#g=")[1]
    monkeypatch.setattr(server_helpers, "free_port", lambda: port)
    py_server.start()
    page.wait_for_function(SYNCED, timeout=60_000)
    got = httpx.get(f"{py_server.url}/api/companion/{gid}/record").json()
    assert got == twin.record() and got["moves"] == twin.taps
    play_on(page, twin, moves[12:20])
    page.wait_for_function(SYNCED, timeout=30_000)
    assert httpx.get(f"{py_server.url}/api/companion/{gid}/record").json() == twin.record()
    assert hooks(httpx.get(f"{py_server.url}/api/companion/{gid}").json()["state"]) == hooks(
        state(page)
    )
    assert page.inner_text("#queue-note") == ""
    ctx.close()


def server_tap(server: Server, gid: str, code: str) -> None:
    """A tap from another screen, through the API."""
    version = httpx.get(f"{server.url}/api/companion/{gid}").json()["version"]
    r = httpx.post(f"{server.url}/api/companion/{gid}/tap", json={"tap": code, "version": version})
    assert r.status_code == 200, r.text


def test_a_game_of_the_server_is_taken_over_and_another_screen_wins(
    chromium: Any, py_server: Server
) -> None:
    """R-REC, R-99-1: on the first visit the server follows the game until Pyodide is
    there, then the page takes it over from the server's record (no tap lost or doubled).
    Another screen's tap reaches the page live; a tap made here on the game before it is
    merged on top of it (it still applies); one that no longer applies is said plainly on
    this page ("Not counted") and the server's game stands."""
    rules, names, first = "mattel2022", ["Ana", "Bo"], 0
    moves = list(real_game(rules, 2, 29, None, first))  # 65 moves: the test taps 42 of them
    ctx = chromium.new_context(**PHONE)
    # Pyodide's files are held back until the first taps are made: however fast this
    # machine loads Pyodide, those taps go to the server (the page's own service worker
    # fetches are routed by the context too)
    held: list[Any] = []
    ctx.route("**/companion-pyodide/**", lambda route: held.append(route))
    page = ctx.new_page()
    page.goto(link(f"{py_server.url}/companion", rules, names, first, None))
    settle(page)
    twin = Tracker(rules, names, first)
    engines = set()
    for i, mv in enumerate(moves[:40]):  # tapped while Pyodide loads, and after it took over
        if i == 6:
            for route in held:
                route.continue_()
            ctx.unroute("**/companion-pyodide/**")
        feed(mv, lambda c: (twin.tap(c), tap(page, c)), lambda: state(page))
        engines.add(page.get_attribute("main", "data-engine"))
    page.wait_for_function(LOCAL, timeout=180_000)
    assert "server" in engines  # the first taps went to the server (Pyodide was loading)
    page.wait_for_function(SYNCED, timeout=30_000)
    gid = page.url.split("#g=")[1]
    assert httpx.get(f"{py_server.url}/api/companion/{gid}/record").json() == twin.record()
    assert hooks(state(page)) == hooks(json.loads(json.dumps(twin.state())))
    # another screen taps a card; this page follows it live, with no reload
    code = moves[40].code
    server_tap(py_server, gid, code)
    twin.tap(code)
    page.wait_for_function(
        "(n) => JSON.parse(document.querySelector('main').dataset.state).steps === n",
        arg=len(twin.taps),
    )
    assert hooks(state(page)) == hooks(json.loads(json.dumps(twin.state())))
    # this page's tap made on the game before another screen's: merged on top of it
    page.route("**/api/companion/*", lambda route: route.abort())  # this page's sync held
    mine = moves[41].code
    page.click(f'#pad [data-card="{mine}"]')
    server_tap(py_server, gid, "0" if mine != "0" else "1")
    page.unroute("**/api/companion/*")
    twin.tap("0" if mine != "0" else "1")
    twin.tap(mine)
    page.wait_for_function(SYNCED, timeout=30_000)
    page.wait_for_function(
        "(n) => JSON.parse(document.querySelector('main').dataset.state).steps === n",
        arg=len(twin.taps),
    )
    assert hooks(state(page)) == hooks(json.loads(json.dumps(twin.state())))
    # this page's Undo made on the game before another screen's tap would take that tap
    # back: refused, and said here; the server's game stands
    page.route("**/api/companion/*", lambda route: route.abort())
    page.click('[data-action="undo"]')
    server_tap(py_server, gid, "1")
    page.unroute("**/api/companion/*")
    twin.tap("1")
    page.wait_for_function(
        "() => document.querySelector('#error').textContent.includes('Not counted')",
        timeout=30_000,
    )
    page.wait_for_function(SYNCED, timeout=30_000)
    assert hooks(state(page)) == hooks(json.loads(json.dumps(twin.state())))
    assert httpx.get(f"{py_server.url}/api/companion/{gid}/record").json() == twin.record()
    ctx.close()
