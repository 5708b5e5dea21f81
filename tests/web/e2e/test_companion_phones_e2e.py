"""Two phones on one companion game (docs/companion.md "Several phones on one game"), in
Debian's Chromium: two browser contexts open the same address and tap in turn; each
follows the other's taps live (no reload), a reload shows the server's game, and taps
made offline are merged in order when the phone is back, or refused visibly there.
After every tap both pages' ``<main data-state>`` equal what ``ono99.tracking.Tracker``
(the rules) says for the same taps, and the real game's public state."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest
from server_helpers import Server
from test_companion_e2e import KEYS, PHONE, open_game, settle, state, tap
from test_companion_offline_e2e import LOCAL, SYNCED, first_visit, link, new_game

from ono99.tracking import Tracker
from tracking_helpers import feed, real_game

pytestmark = pytest.mark.slow

#: data-state's fields compared with the Tracker's (docs/companion.md "Deep link")
HOOKS = ("total", "direction", "to_move", "owes_two", "out", "tokens", "scores", "round",
         "winner", "plays_left", "pending_draw", "round_out", "steps", "busted")  # fmt: skip


def _hooks(s: dict[str, Any]) -> dict[str, Any]:
    return {k: s.get(k) for k in HOOKS}


def _rules(twin: Tracker) -> dict[str, Any]:
    return _hooks(json.loads(json.dumps(twin.state())))


def _shows(page: Any, twin: Tracker, timeout: float = 10_000) -> None:
    """Wait (a state, never a time) until ``page`` shows the game as the rules say it is."""
    want = _rules(twin)
    page.wait_for_function(
        """([want, keys]) => { const m = document.querySelector('main');
            const s = JSON.parse(m.dataset.state || '{}');
            return m.dataset.busy !== '1' && keys.every((k) => JSON.stringify(s[k] === undefined ? null : s[k]) === JSON.stringify(want[k])); }""",
        arg=[want, list(HOOKS)],
        timeout=timeout,
    )  # fmt: skip
    assert _hooks(state(page)) == want


def test_two_phones_tap_in_turn_reload_and_go_offline(chromium: Any, server: Server) -> None:
    """R-TURN-1, R-P2-6, R-REV-1, R-LIM-2, R-END-1: phone A starts a mattel2022 game,
    phone B opens its address. They tap a real game in turn; after every tap both show
    the rules' state, B with no reload. B reloads mid-game: the server's game. B goes
    offline while A taps on; B's own taps wait ("Waiting to send: 2"; after a reload
    offline it counts on: 3), and when B is back they are merged after A's, in order; an Undo B made offline would take back A's tap:
    refused, said on B ("Not counted"), nothing lost. The game goes on to its winner."""
    names = ["Ana", "Bo", "Cy"]
    moves = list(real_game("mattel2022", 3, 11, None, 0))
    errors: list[str] = []
    a = open_game(chromium, server, "mattel2022", names, 0, errors=errors, **PHONE)
    b = chromium.new_context(**PHONE).new_page()
    b.on("pageerror", lambda e: errors.append(str(e)))
    b.goto(a.url)
    settle(b)
    twin = Tracker("mattel2022", names, 0)
    _shows(b, twin)
    phones = [a, b]
    turn = 0

    def both(code: str) -> None:
        nonlocal turn
        page = phones[turn % 2]
        twin.tap(code)
        tap(page, code)
        for p in phones:  # the other one live, without a reload
            _shows(p, twin)
        turn += 1

    def play(upto: int, start: int) -> None:
        for mv in moves[start:upto]:
            feed(mv, both, lambda: state(phones[turn % 2]))
            got = state(a)
            assert {k: got[k] for k in KEYS} == {k: mv.state[k] for k in KEYS}

    play(12, 0)
    b.reload()  # the server's game, as it stands
    settle(b)
    _shows(b, twin)
    play(20, 12)
    # B offline; A taps two more; B taps the next two (made on the game before A's)
    k = 20
    while not all(m.code and not m.busts for m in moves[k : k + 6]):
        k += 1
    play(k, 20)
    b.wait_for_function("() => navigator.serviceWorker.controller !== null")  # opens offline
    b.context.set_offline(True)
    b.wait_for_function("() => navigator.onLine === false")
    for mv in moves[k : k + 2]:
        twin.tap(mv.code)
        tap(a, mv.code)
    _shows(a, twin)
    seen = state(b)["steps"]
    for mv in moves[k + 2 : k + 4]:
        b.click(f'#pad [data-card="{mv.code}"]')
    b.wait_for_function("() => document.querySelector('#queue-note').textContent.includes('2')")
    assert state(b)["steps"] == seen  # not counted yet, and said so
    b.reload()  # offline: the page kept by its service worker, the taps kept too
    b.wait_for_function("() => document.querySelector('#queue-note').textContent.includes('2')")
    b.click(f'#pad [data-card="{moves[k + 4].code}"]')  # and it goes on counting
    b.wait_for_function("() => document.querySelector('#queue-note').textContent.includes('3')")
    b.context.set_offline(False)
    for mv in moves[k + 2 : k + 5]:
        twin.tap(mv.code)
    for p in phones:
        _shows(p, twin, timeout=20_000)
    assert b.inner_text("#queue-note") == ""
    got = state(a)
    assert {x: got[x] for x in KEYS} == {x: moves[k + 4].state[x] for x in KEYS}
    # an Undo made offline on B would take back A's tap: refused, visibly, on B
    b.context.set_offline(True)
    b.wait_for_function("() => navigator.onLine === false")
    twin.tap(moves[k + 5].code)
    tap(a, moves[k + 5].code)
    b.click('[data-action="undo"]')
    b.wait_for_function("() => document.querySelector('#queue-note').textContent !== ''")
    b.context.set_offline(False)
    b.wait_for_function(
        "() => document.querySelector('#error').textContent.includes('Not counted')",
        timeout=20_000,
    )
    assert "Not counted" in b.inner_text("#error") and "Undo" in b.inner_text("#error")
    for p in phones:
        _shows(p, twin, timeout=20_000)
    total = str(twin.state()["total"])
    assert b.inner_text("#total") == a.inner_text("#total") == total
    assert total in b.inner_text("#announce")  # one total on the screen, not an older one
    turn = 0
    play(len(moves), k + 6)
    assert state(a)["winner"] == state(b)["winner"] == moves[-1].state["winner"] is not None
    assert errors == []
    a.context.close()
    b.context.close()


def test_two_phones_that_follow_the_game_themselves_merge_offline_taps(
    chromium: Any, py_server: Server
) -> None:
    """R-TURN-1, R-REV-1, R-END-1 (Pyodide: each phone follows the game itself and sends
    it whole): A starts a game, B opens its address; they tap in turn and each follows the
    other live. Both go offline and tap: A the next two cards, B the one after (made on
    the game without A's). A comes back, then B: B's tap is merged after A's (the same
    Python as the server's), and both show the rules' state. An Undo B made offline would
    take back A's tap: refused, said on B. With its socket refused, B reloads after A's
    tap: the server's game, not B's kept copy. The game goes on to its winner."""
    names = ["Ana", "Bo", "Cy"]
    moves = list(real_game("mattel2022", 3, 4, None, 1))
    errors: list[str] = []
    pages = []
    for _ in range(2):
        page = chromium.new_context(**PHONE).new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        first_visit(page, f"{py_server.url}/companion")
        pages.append(page)
    a, b = pages
    new_game(a, link(f"{py_server.url}/companion", "mattel2022", names, 1, None))
    a.wait_for_function(SYNCED, timeout=30_000)
    b.goto(a.url)
    b.wait_for_function(LOCAL, timeout=120_000)
    twin = Tracker("mattel2022", names, 1)
    _shows(b, twin)
    turn = 0

    def both(code: str) -> None:
        nonlocal turn
        twin.tap(code)
        tap(pages[turn % 2], code)
        for p in pages:
            _shows(p, twin, timeout=20_000)
        turn += 1

    k = 10
    while not all(m.code and not m.busts for m in moves[k : k + 5]):
        k += 1
    for mv in moves[:k]:
        feed(mv, both, lambda: state(pages[turn % 2]))
    for p in pages:
        p.context.set_offline(True)
        p.wait_for_function("() => navigator.onLine === false")
    for mv in moves[k : k + 2]:
        tap(a, mv.code)
    tap(b, moves[k + 2].code)
    b.wait_for_function("() => document.querySelector('#queue-note').textContent.includes('1')")
    a.context.set_offline(False)
    a.wait_for_function(SYNCED, timeout=30_000)
    b.context.set_offline(False)
    for mv in moves[k : k + 3]:
        twin.tap(mv.code)
    for p in pages:
        p.wait_for_function(SYNCED, timeout=30_000)
        _shows(p, twin, timeout=30_000)
    # B's Undo made offline would take back A's tap: refused, said on B
    b.context.set_offline(True)
    b.wait_for_function("() => navigator.onLine === false")
    b.click('[data-action="undo"]')
    twin.tap(moves[k + 3].code)
    tap(a, moves[k + 3].code)
    a.wait_for_function(SYNCED, timeout=30_000)
    b.context.set_offline(False)
    b.wait_for_function(
        "() => document.querySelector('#error').textContent.includes('Not counted')",
        timeout=30_000,
    )
    for p in pages:
        p.wait_for_function(SYNCED, timeout=30_000)
        _shows(p, twin, timeout=30_000)
    # B hears nothing live (its socket refused) while A taps: a reload of B shows the
    # server's game, not the copy B keeps
    deaf = [True]

    def socket(ws: Any) -> None:
        if deaf[0]:
            ws.close()
        else:
            ws.connect_to_server()

    b.route_web_socket("**/ws/companion/**", socket)
    b.reload()
    b.wait_for_function(LOCAL, timeout=120_000)
    twin.tap(moves[k + 4].code)
    tap(a, moves[k + 4].code)
    a.wait_for_function(SYNCED, timeout=30_000)
    b.reload()
    b.wait_for_function(LOCAL, timeout=120_000)
    _shows(b, twin, timeout=30_000)
    deaf[0] = False  # B follows live again (its socket's next try)
    turn = 0
    for mv in moves[k + 5 :]:
        feed(mv, both, lambda: state(pages[turn % 2]))
    assert state(a)["winner"] == state(b)["winner"] == moves[-1].state["winner"] is not None
    assert httpx.get(f"{py_server.url}/api/companion/{a.url.split('#g=')[1]}/record").json() == twin.record()  # fmt: skip
    assert errors == []
    for p in pages:
        p.context.close()
