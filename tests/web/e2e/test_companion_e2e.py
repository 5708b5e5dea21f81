"""The table companion (/companion) in a real browser: Debian's Chromium, a real
``ono99 serve``. Whole real games (random legal moves of the engine) are entered card by
card through the page's hooks (CONTRACTS.md "Companion"), and after every tap the page's
``<main data-state>`` must hold the real game's public state. Screenshots of the page in
Tamil and Burmese, phone-sized, land in ``tests/web/e2e/artifacts/``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest
from server_helpers import Server

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from ono99.i18n import translator
from tracking_helpers import Move, feed, real_game

PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2,
         "is_mobile": True, "has_touch": True}  # fmt: skip
#: the fields checked after every tap (R-REC meanings)
KEYS = ("total", "direction", "to_move", "owes_two", "out", "tokens", "round", "winner")


def state(page: Any) -> dict[str, Any]:
    return dict(json.loads(page.get_attribute("main", "data-state") or "{}"))


def settle(page: Any, steps_before: int | None = None, timeout: float = 20_000) -> dict[str, Any]:
    """Wait until no request is in flight (and the step count moved on, when given)."""
    page.wait_for_function(
        """(prev) => { const m = document.querySelector('main');
            if (!m || m.dataset.busy === '1') return false;
            const s = JSON.parse(m.dataset.state || '{}');
            return s.steps !== undefined && (prev === null || s.steps !== prev); }""",
        arg=steps_before,
        timeout=timeout,
    )
    return state(page)


def open_game(
    chromium: Any, server: Server, rules: str, names: list[str], first: int,
    options: dict[str, Any] | None = None, lang: str = "en", errors: list[str] | None = None,
    **context: Any,
) -> Any:  # fmt: skip
    q: dict[str, str] = {"rules": rules, "players": ",".join(names), "first": str(first)}
    for k, v in (options or {}).items():
        q[k] = json.dumps(v) if not isinstance(v, str) else v
    q["lang"] = lang
    page = chromium.new_context(**context).new_page()
    if errors is not None:
        page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{server.url}/companion?{urlencode(q)}")
    settle(page)
    return page


def tap(page: Any, code: str) -> dict[str, Any]:
    before = state(page)["steps"]
    sel = '[data-action="bust"]' if code == "bust" else f'#pad [data-card="{code}"]'
    page.click(sel)
    if code == "bust" and page.is_visible("#pad.entering"):
        # R-END-3: the page asks which card was given up; this player gave up none
        assert "give up" in page.inner_text("#mode")
        page.click(sel)
    return settle(page, before)


def enter_hands(page: Any, hands: list[list[str]]) -> None:
    """R-END-3: the cards left in each hand, typed on the page's own pad (it types hand
    cards while a round waits for them: the pad never moves)."""
    page.wait_for_selector("#hands-entry:not([hidden])")
    need = state(page)["hands_needed"]
    for seat, size in enumerate(need["sizes"]):
        if not size:
            continue
        assert len(hands[seat]) == size
        for code in hands[seat]:
            page.click(f'#pad [data-card="{code}"]')
    page.click("#hands-save")
    page.wait_for_function(
        """() => { const m = document.querySelector('main');
            return m.dataset.busy === '0' && JSON.parse(m.dataset.state).hands_needed === null; }"""
    )


def play_through(page: Any, moves: list[Move], check: tuple[str, ...] = KEYS) -> int:
    taps = 0
    for i, mv in enumerate(moves):
        taps += feed(
            mv, lambda code: tap(page, code), lambda: state(page), lambda h: enter_hands(page, h)
        )
        if mv.hands is not None:
            check = (*check, "scores") if "scores" not in check else check
        got = state(page)
        for k in check:
            assert got[k] == mv.state[k], (i, mv.code, k, got[k], mv.state[k])
    return taps


GAMES = [
    ("mattel2022", None, 3, 11),
    ("classic1980", None, 3, 2),
    ("gamerules", None, 2, 5),
    ("classic1980", {"scoring": "points", "target": 60}, 3, 4),
]


@pytest.mark.slow
@pytest.mark.parametrize(("rules", "options", "players", "seed"), GAMES)
def test_a_whole_game_card_by_card(
    chromium: Any, server: Server, rules: str, options: dict[str, Any] | None, players: int,
    seed: int,
) -> None:  # fmt: skip
    """R-TURN-1, R-P2-6, R-END-1, R-END-2, R-END-3: a real game entered tap by tap through
    the page; the page's data-state equals the real game's state after every tap."""
    errors: list[str] = []
    names = [f"P{i}" for i in range(players)]
    first = seed % players
    moves = list(real_game(rules, players, seed, options, first))
    page = open_game(chromium, server, rules, names, first, options, errors=errors)
    start = state(page)
    assert start["total"] == 0 and start["to_move"] == first and start["steps"] == 0
    play_through(page, moves)
    final = state(page)
    assert final["winner"] == moves[-1].state["winner"] and final["to_move"] is None
    assert errors == []
    page.context.close()


@pytest.mark.slow
def test_undo_back_to_the_start_and_forward_again(chromium: Any, server: Server) -> None:
    """Undo every tap, back to the start, and redo every one: the states come back."""
    moves = list(real_game("classic1980", 3, 7, None, 0))[:40]
    page = open_game(chromium, server, "classic1980", ["Ana", "Bo", "Cy"], 0)
    seen = [state(page)]
    for mv in moves:
        feed(mv, lambda code: tap(page, code) and None, lambda: state(page))
        seen.append(state(page))
    steps = state(page)["steps"]
    history = {s["steps"]: s for s in seen}
    for k in range(steps, 0, -1):
        before = state(page)["steps"]
        page.click('[data-action="undo"]')
        got = settle(page, before)
        assert got["steps"] == k - 1
        if got["steps"] in history:
            assert {x: got[x] for x in KEYS} == {x: history[got["steps"]][x] for x in KEYS}
    assert state(page)["total"] == 0 and page.is_disabled('[data-action="undo"]')
    for _ in range(steps):
        before = state(page)["steps"]
        page.click('[data-action="redo"]')
        got = settle(page, before)
        if got["steps"] in history:
            assert {x: got[x] for x in KEYS} == {x: history[got["steps"]][x] for x in KEYS}
    assert state(page)["steps"] == steps and page.is_disabled('[data-action="redo"]')
    page.context.close()


def _plain(moves: list[Move], start: int, count: int) -> int:
    """The first index from ``start`` of ``count`` moves in a row that are card taps with
    no bust (what a person taps blind, without looking at the screen)."""
    k = start
    while not all(m.code and not m.busts and not m.hands for m in moves[k : k + count]):
        k += 1
    return k


@pytest.mark.slow
def test_reload_and_server_restart_lose_nothing(chromium: Any, fresh_server: Server) -> None:
    """R-TURN-1: the game lives on the server (its id in the URL): a reload mid-game comes
    back to the same state. Taps made while the server is killed are queued (the page says
    how many wait), not lost: when it is back they are counted in order; the game plays on."""
    moves = list(real_game("mattel2022", 4, 3, None, 1))
    page = open_game(chromium, fresh_server, "mattel2022", ["Ana", "Bo", "Cy", "Di"], 1)
    play_through(page, moves[:15])
    mid = state(page)
    url = page.url
    assert "#g=" in url
    page.reload()
    assert {k: settle(page)[k] for k in KEYS} == {k: mid[k] for k in KEYS}
    k = _plain(moves, 15, 3)
    play_through(page, moves[15:k])
    mid = state(page)
    fresh_server.stop(kill=True)
    old = url.split("/companion")[0]
    for mv in moves[k : k + 3]:  # the server is gone: three taps, queued
        page.click(f'#pad [data-card="{mv.code}"]')
    page.wait_for_selector("#error:not([hidden])")
    page.wait_for_function("() => document.querySelector('#queue-note').textContent.includes('3')")
    assert state(page)["steps"] == mid["steps"]
    fresh_server.start()  # on a new port: the page's requests are passed on to it

    def forward(route: Any) -> None:
        route.fulfill(response=route.fetch(url=fresh_server.url + route.request.url[len(old) :]))

    page.route(old + "/api/**", forward)
    got = settle(page, None, timeout=30_000)
    page.wait_for_function(
        "(n) => JSON.parse(document.querySelector('main').dataset.state).steps === n",
        arg=mid["steps"] + 3,
        timeout=30_000,
    )
    got = settle(page)
    assert {x: got[x] for x in KEYS} == {x: moves[k + 2].state[x] for x in KEYS}
    assert page.inner_text("#queue-note") == ""
    play_through(page, moves[k + 3 :])
    assert state(page)["winner"] == moves[-1].state["winner"]
    page.context.close()


_CLICK_ALL = """(codes) => { for (const c of codes)
    document.querySelector(`#pad [data-card="${c}"]`).click(); }"""


def test_taps_made_while_one_is_in_flight_are_all_counted(chromium: Any, server: Server) -> None:
    """R-TURN-1, R-LIM-1, R-99-1: six cards tapped as fast as a hand can, none waiting
    for the server: all counted, in order. A refused one is said plainly ("Not counted"),
    and only it: the tap made after it still applies and is counted."""
    moves = list(real_game("classic1980", 3, 2, None, 0))
    k = _plain(moves, 0, 6)
    page = open_game(chromium, server, "classic1980", ["Ana", "Bo", "Cy"], 0)
    play_through(page, moves[:k])
    before = state(page)["steps"]
    codes = [mv.code for mv in moves[k : k + 6]]
    # all six in one go: each click lands while the first is still on its way
    page.evaluate(_CLICK_ALL, codes)
    page.wait_for_function(
        "(n) => JSON.parse(document.querySelector('main').dataset.state).steps === n",
        arg=before + 6,
    )
    got = settle(page)
    assert {x: got[x] for x in KEYS} == {x: moves[k + 5].state[x] for x in KEYS}
    page.evaluate(_CLICK_ALL, ["99", "2"])  # R-99-1: a 99 is never playable in classic1980
    page.wait_for_selector("#error:not([hidden])")
    settle(page)
    assert "Not counted" in page.inner_text("#error")
    page.wait_for_function(
        "(n) => JSON.parse(document.querySelector('main').dataset.state).steps === n",
        arg=got["steps"] + 1,
    )
    page.context.close()


@pytest.mark.parametrize("lang", ["ta", "my"])
def test_phone_page_in_tamil_and_burmese(
    chromium: Any, server: Server, artifacts: Path, lang: str
) -> None:
    """The page on a phone in Tamil and Burmese: words from the catalogs, nothing wider
    than the screen; screenshots of the setup and of a game in progress to look at."""
    tr = translator(lang).gettext
    page = chromium.new_context(**PHONE).new_page()
    page.goto(f"{server.url}/companion?lang={lang}")
    page.wait_for_selector("#setup:not([hidden])")
    assert page.get_attribute("html", "lang") == lang
    assert page.inner_text("#setup-form label span") == tr("Rules")
    legend = page.inner_text("#setup-names-legend")
    assert legend == tr("Names in seat order, clockwise") != "Names in seat order, clockwise"
    page.screenshot(path=str(artifacts / f"companion-setup-{lang}.png"), full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.context.close()
    names = ["அருண்", "Bo", "Cy"] if lang == "ta" else ["မောင်မောင်", "Bo", "Cy"]
    page = open_game(chromium, server, "mattel2022", names, 0, lang=lang, **PHONE)
    for code in ["7", "P2", "R", "10"]:
        tap(page, code)
    s = state(page)
    assert s["total"] == 17 and s["owes_two"] == 1 and s["to_move"] == 1
    turn = page.inner_text("#turn")
    assert tr("{name} to play").replace("{name}", names[1]) in turn
    page.screenshot(path=str(artifacts / f"companion-{lang}.png"), full_page=True)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, width
    page.context.close()


def test_bad_links_and_taps_change_nothing(chromium: Any, server: Server) -> None:
    """A 99 in mattel2022 is refused with the engine's reason (R-99-1); the state stays."""
    page = open_game(chromium, server, "mattel2022", ["Ana", "Bo"], 0)
    page.click('#pad [data-card="99"]')
    page.wait_for_selector("#error:not([hidden])")
    assert "R-99-1" in page.inner_text("#error") and state(page)["steps"] == 0
    page.goto(f"{server.url}/companion?rules=mattel2022&players=A")
    page.wait_for_selector("#error:not([hidden])")
    assert "R-SET-5" in page.inner_text("#error")
    page.context.close()


def test_a_hand_laid_face_up_is_typed_in_or_skipped(chromium: Any, server: Server) -> None:
    """R-END-1: a mattel2022 player who is out lays their hand face up; the page offers to
    type it in (optional). Typed in, those cards can no longer be tapped for anyone else
    (the refusal says why); cards that hold a safe card are refused (R-LIM-2); skipped,
    the page stops asking."""
    page = open_game(chromium, server, "mattel2022", ["Ana", "Bo", "Cy", "Di"], 0)
    assert page.is_hidden("#laid-entry")
    for _ in range(9):
        tap(page, "10")
    s = tap(page, "9")  # 90 + 9 = 99: Bo is out
    assert s["out"] == [1] and s["laid_open"] == {"seat": 1, "size": 4}
    page.wait_for_selector("#laid-entry:not([hidden])")
    assert "Bo" in page.inner_text("#laid-title")
    page.click("#laid-type")  # the pad now types Bo's cards
    for code in ["-10", "9", "9", "9"]:  # a -10 is safe at 90: Bo was not out with it
        page.click(f'#pad [data-card="{code}"]')
    page.click("#laid-save")
    page.wait_for_selector("#error:not([hidden])")
    assert "R-LIM-2" in page.inner_text("#error") and state(page)["laid"] == {}
    page.click("#laid-clear")
    for _ in range(4):
        page.click('#pad [data-card="9"]')
    page.click("#laid-save")
    page.wait_for_function(
        "() => JSON.parse(document.querySelector('main').dataset.state).laid['1'] !== undefined"
    )
    assert state(page)["laid"] == {"1": ["9", "9", "9", "9"]}
    page.wait_for_selector("#laid-entry", state="hidden")
    for code in ["-10", "9", "9"]:  # the last two of the six 9s: 98, Cy to play
        tap(page, code)
    before = state(page)
    page.click('#pad [data-card="9"]')
    page.wait_for_selector("#error:not([hidden])")
    assert "face up" in page.inner_text("#error")
    assert state(page)["steps"] == before["steps"] and state(page)["total"] == 98
    # Cy goes out too; this time the players skip typing the cards in
    s = tap(page, "10")
    assert s["out"] == [1, 2] and s["laid_open"] == {"seat": 2, "size": 4}
    page.click("#laid-skip")
    page.wait_for_function(
        "() => JSON.parse(document.querySelector('main').dataset.state).laid['2'] === null"
    )
    assert page.is_hidden("#laid-entry")
    page.context.close()


def test_points_round_end_speaks_no_score_until_told(chromium: Any, server: Server) -> None:
    """R-END-3, R-LIM-1: issue 24's repro: 2 players, points, ten 10s... Bo's 9 goes over.
    Nothing says who is out or who won; the scores show as pending ("0 + ?"); a card tapped
    meanwhile is refused and counts nothing; the points typed in are scored and announced.
    "No safe card" asks which card was given up, offering only the cards that go over."""
    page = open_game(chromium, server, "classic1980", ["Ana", "Bo"], 0, {"scoring": "points"})
    for _ in range(9):
        tap(page, "10")
    s = tap(page, "9")
    said = page.inner_text("#announce")
    assert "wins" not in said and "out of the game" not in said and "Scores:" not in said
    assert s["scores"] == [None, None] and s["out"] == [] and s["winner"] is None
    assert "+ ?" in page.inner_text("#seats")
    page.wait_for_selector("#hands-entry:not([hidden])")
    assert page.is_visible("#pad.entering")  # the pad now types hand cards, not plays
    page.fill('[data-points-seat="0"]', "12")
    page.fill('[data-points-seat="1"]', "30")
    page.click("#points-save")
    page.wait_for_function(
        "() => JSON.parse(document.querySelector('main').dataset.state).hands_needed === null"
    )
    assert state(page)["scores"] == [12, 55]
    assert "Ana 12" in page.inner_text("#announce")
    page.context.close()
    page = open_game(chromium, server, "classic1980", ["Ana", "Bo", "Cy"], 0, {"scoring": "points"})
    for _ in range(9):
        tap(page, "10")  # 90, Ana to play
    page.click('[data-action="bust"]')
    assert "Ana" in page.inner_text("#mode") and "give up" in page.inner_text("#mode")
    enabled = page.eval_on_selector_all(
        "#pad [data-card]", "bs => bs.filter(b => !b.disabled).map(b => b.dataset.card)"
    )
    assert enabled == ["9", "10"]
    s = tap(page, "9")
    assert s["round_out"] == [0] and s["total"] == 90 and s["to_move"] == 1
    page.context.close()


def _boxes(page: Any) -> dict[str, Any]:
    return dict(
        page.evaluate(
            """() => { const r = (el) => { const b = el.getBoundingClientRect();
                return [Math.round(b.x), Math.round(b.y), Math.round(b.width), Math.round(b.height)]; };
            return { pad: r(document.querySelector('#pad')), undo: r(document.querySelector('#undo')),
                     bust: r(document.querySelector('#bust')) }; }"""
        )
    )


def _check_screen(page: Any, size: dict[str, int]) -> None:
    """Every target is at least 44x44 px, inside the viewport, and no label overflows
    its button (words are never broken: overflow-wrap stays normal)."""
    bad = page.evaluate(
        """([w, h]) => Array.from(document.querySelectorAll('#pad button, .actions button'))
            .map((b) => { const r = b.getBoundingClientRect(); const cs = getComputedStyle(b);
              const why = [];
              if (r.width < 44 || r.height < 44) why.push(`small ${r.width}x${r.height}`);
              if (r.left < 0 || r.top < 0 || r.right > w || r.bottom > h) why.push('off screen');
              if (b.scrollWidth > b.clientWidth + 1 || b.scrollHeight > b.clientHeight + 1) why.push('overflows');
              if (cs.overflowWrap !== 'normal' || cs.wordBreak !== 'normal') why.push('breaks words');
              return why.length ? `${b.dataset.card || b.id}: ${why.join(', ')}` : null; })
            .filter(Boolean)""",
        [size["width"], size["height"]],
    )
    assert bad == [], bad


@pytest.mark.parametrize("size", [(390, 844), (360, 640)])
def test_the_pad_and_undo_never_move(chromium: Any, server: Server, size: tuple[int, int]) -> None:
    """R-END-3, R-99-1: at phone sizes, in all six languages, with 8 players: the pad's,
    Undo's and "No safe card"'s boxes stay inside the screen and do not move between taps,
    after an error, nor while the hands panel is open; every target is 44x44 px or more."""
    w, h = size
    phone = {**PHONE, "viewport": {"width": w, "height": h}}
    names = ["அருண்", "မောင်မောင်", "Ōzbek", "ગુજરાતી", "ಕನ್ನಡ", "Fi", "Gu", "Ha"]
    for lang in ["en", "ta", "gu", "uz", "my", "kn"]:
        page = open_game(chromium, server, "classic1980", names, 0,
                         {"scoring": "points", "draw_penalty": True}, lang=lang, **phone)  # fmt: skip
        first = _boxes(page)
        _check_screen(page, phone["viewport"])
        for code in ["10", "draw", "7"]:
            tap(page, code)
            assert _boxes(page) == first, (lang, code)
        page.click('#pad [data-card="99"]')  # R-99-1: refused, with an error shown
        page.wait_for_selector("#error:not([hidden])")
        assert _boxes(page) == first, (lang, "error")
        _check_screen(page, phone["viewport"])
        page.context.close()
        # the hands panel of a points round's end (R-END-3)
        page = open_game(chromium, server, "classic1980", names[:2], 0, {"scoring": "points"},
                         lang=lang, **phone)  # fmt: skip
        first = _boxes(page)
        for code in ["10"] * 9 + ["9"]:
            tap(page, code)
        page.wait_for_selector("#hands-entry:not([hidden])")
        assert _boxes(page) == first, (lang, "hands panel")
        page.click('#pad [data-card="5"]')  # a hand card now
        assert _boxes(page) == first, (lang, "hand card")
        _check_screen(page, phone["viewport"])
        page.context.close()


@pytest.mark.parametrize("lang", ["en", "ta", "my"])
def test_the_turn_line_has_room_on_a_phone(chromium: Any, server: Server, lang: str) -> None:
    """R-END-1: at 390 px the turn line ("Bo wins the game!", "Ana to play") and the
    direction beside the total are not squeezed into a sliver by the three tool buttons:
    no word is cut off, and the line has at least a third of the screen's width."""
    page = open_game(chromium, server, "mattel2022", ["Ana", "Bo", "Cy"], 0, lang=lang, **PHONE)
    for code in ["10"] * 9 + ["bust", "bust"]:  # at 90 Ana, then Bo has no safe card: Cy wins
        tap(page, code)
    assert state(page)["winner"] == 2
    bad = page.evaluate(
        """() => ['#turn', '#direction'].map((sel) => { const el = document.querySelector(sel);
              const w = el.getBoundingClientRect().width;
              return el.scrollWidth > el.clientWidth + 1 || w < 130
                ? `${sel}: ${Math.round(w)} px wide, text ${el.scrollWidth} px` : null; })
            .filter(Boolean)"""
    )
    assert bad == [], (lang, bad)
    page.context.close()


#: records the Wake Lock requests the page makes
FAKE_WAKE_LOCK = """
window.__wake = [];
Object.defineProperty(navigator, "wakeLock", { configurable: true, value: {
  request: async (kind) => { window.__wake.push(kind);
    return { release: async () => window.__wake.push("release"), addEventListener: () => {} }; } } });
"""


def test_table_view_and_games_kept(chromium: Any, server: Server) -> None:
    """R-TURN-1, R-REV-1: the table view shows the total huge, who is next with the
    direction, and the last card, also after a reload, and keeps the screen awake. A new
    game asks first and keeps the names; a link that starts a game never loses the last
    one: both are under "Earlier games"."""
    page = open_game(chromium, server, "mattel2022", ["Ana", "Bo", "Cy"], 0, **PHONE)
    page.add_init_script(FAKE_WAKE_LOCK)
    page.reload()
    settle(page)
    for code in ["7", "R"]:
        tap(page, code)
    page.click("#table-view-on")
    page.wait_for_selector("#tableview:not([hidden])")
    assert page.inner_text("#tv-total") == "7"
    assert "↺" in page.inner_text("#tv-next") and "Ana" in page.inner_text("#tv-next")
    assert "Reverse" in page.inner_text("#tv-last")
    assert page.evaluate("window.__wake") == ["screen"]
    first = page.url
    page.reload()
    page.wait_for_selector("#tableview:not([hidden])")
    assert "Reverse" in page.inner_text("#tv-last") and page.inner_text("#tv-total") == "7"
    page.click("#table-view-off")
    assert page.is_hidden("#tableview")
    page.click(".menu summary")
    page.click("#new-game")
    page.click("#new-game-no")  # asked first: nothing happens
    assert state(page)["steps"] == 2
    page.click("#new-game")
    page.click("#new-game-yes")
    page.wait_for_selector("#setup:not([hidden])")
    names = page.eval_on_selector_all("#setup-names input", "xs => xs.map(x => x.value)")
    assert names == ["Ana", "Bo", "Cy"]
    game = first[first.index("#g=") + 3 :]
    assert page.is_visible(f'#recent-games [data-game="{game}"]')
    # a link that starts a game: the last one stays reachable
    page.goto(f"{server.url}/companion?rules=classic1980&players=Di,Ed")
    settle(page)
    page.goto(f"{server.url}/companion")
    page.wait_for_selector("#setup:not([hidden])")
    page.click(f'#recent-games [data-game="{game}"]')
    page.wait_for_function(
        "() => JSON.parse(document.querySelector('main').dataset.state).steps === 2"
    )
    assert state(page)["total"] == 7
    page.context.close()


def test_a_forgotten_card_is_put_in_where_it_was_played(chromium: Any, server: Server) -> None:
    """R-TURN-1, R-TURN-2: the quick fix lists the last taps with who played them and the
    total after; a forgotten card put in before a tap re-tells the rest (the next player
    changes), and the pad stays where it was."""
    page = open_game(chromium, server, "mattel2022", ["Ana", "Bo", "Cy"], 0, **PHONE)
    boxes = _boxes(page)
    for code in ["7", "5", "3"]:
        tap(page, code)
    page.click("#fix-on")
    page.wait_for_selector("#fix:not([hidden])")
    assert "Bo: 5 → 12" in page.inner_text("#fix-rows")
    assert _boxes(page) == boxes
    page.click('#fix-rows [data-fix-at="1"]')  # Bo's 10 was never tapped
    before = state(page)["steps"]
    page.click('#pad [data-card="10"]')
    s = settle(page, before)
    assert s["total"] == 25 and s["to_move"] == 1 and s["steps"] == 4
    assert page.is_hidden("#fix") and _boxes(page) == boxes
    said = page.inner_text("#announce")  # told on screen too: the fix and its total
    assert "Fix" in said and "25" in said, said
    page.context.close()


def test_after_the_first_visit_the_page_opens_without_a_server(
    chromium: Any, fresh_server: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    """R-TURN-1: installable (a manifest); after the first visit the page opens with the
    server down (its service worker keeps the page), on the game as last seen; taps made
    then are queued and counted, in order, when the server is back (same address)."""
    import server_helpers

    moves = list(real_game("mattel2022", 3, 4, None, 0))
    k = _plain(moves, 2, 2)
    page = open_game(chromium, fresh_server, "mattel2022", ["Ana", "Bo", "Cy"], 0, **PHONE)
    assert page.evaluate("document.querySelector('link[rel=manifest]').href").endswith(
        ".webmanifest"
    )
    # the worker takes the page over once installed (clients.claim)
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    play_through(page, moves[:k])
    mid = state(page)
    port = fresh_server.port
    fresh_server.stop(kill=True)
    page.reload()  # no server: the kept page, on the kept game
    page.wait_for_function(
        "(n) => JSON.parse(document.querySelector('main').dataset.state || '{}').steps === n",
        arg=mid["steps"],
    )
    assert {x: state(page)[x] for x in KEYS} == {x: mid[x] for x in KEYS}
    for mv in moves[k : k + 2]:
        page.click(f'#pad [data-card="{mv.code}"]')
    page.wait_for_function("() => document.querySelector('#queue-note').textContent.includes('2')")
    monkeypatch.setattr(server_helpers, "free_port", lambda: port)
    fresh_server.start()
    page.wait_for_function(
        "(n) => JSON.parse(document.querySelector('main').dataset.state).steps === n",
        arg=mid["steps"] + 2,
        timeout=30_000,
    )
    got = settle(page)
    assert {x: got[x] for x in KEYS} == {x: moves[k + 1].state[x] for x in KEYS}
    page.context.close()


_IN_VIEW = """() => { const pad = document.querySelector('#pad').getBoundingClientRect();
    const top = document.querySelector('#top');
    const bad = [];
    const check = (el, what) => { const r = el.getBoundingClientRect();
      if (r.width === 0 || r.top < 0 || r.left < 0 || r.right > innerWidth || r.bottom > pad.top)
        bad.push(`${what}: ${Math.round(r.left)},${Math.round(r.top)}-${Math.round(r.right)},${Math.round(r.bottom)}`); };
    document.querySelectorAll('#seats li').forEach((li, i) => {
      check(li, `seat ${i}`);
      const meta = li.querySelector('.meta');
      if (meta) { check(meta, `seat ${i} tokens or score`);
        if (meta.scrollWidth > meta.clientWidth + 1) bad.push(`seat ${i} tokens or score cut`); } });
    const said = document.querySelector('#announce');
    check(said, 'announcement');
    if (said.scrollHeight > said.clientHeight + 1) bad.push('announcement cut');
    const note = document.querySelector('#speech-note');
    if (!note.hidden) check(note, 'no-voice note');
    if (top.scrollTop !== 0) bad.push('scrolled');
    return bad; }"""


@pytest.mark.parametrize(
    ("lang", "options"), [("en", None), ("ta", {"scoring": "points"}), ("my", None)]
)
def test_every_seat_and_the_announcement_in_view_on_a_small_phone(
    chromium: Any, server: Server, artifacts: Path, lang: str, options: dict[str, Any] | None
) -> None:
    """R-P2-6, R-END-2, R-END-3: at 360x640 with 8 players, once someone owes two: every
    seat's chip, its tokens or score (and the out mark, once a player is out) and the
    whole announcement, total included, are inside the screen above the pad, with no
    scrolling, and so is the no-voice note where it shows; screenshots of each."""
    names = ["அருண்", "မောင်မောင်", "Ōzbek", "ગુજરાતી", "ಕನ್ನಡ", "Fi", "Gu", "Ha"]
    small = {**PHONE, "viewport": {"width": 360, "height": 640}}
    page = open_game(chromium, server, "classic1980", names, 0, options, lang=lang, **small)
    for code in ["7", "P2"]:
        s = tap(page, code)
    assert s["owes_two"] == 2 and s["total"] == 7
    total = page.evaluate("(n) => new Intl.NumberFormat(document.documentElement.lang).format(n)", 7)  # fmt: skip
    assert total in page.inner_text("#announce")
    page.screenshot(path=str(artifacts / f"companion-360-{lang}-{'points' if options else 'tokens'}.png"))  # fmt: skip
    assert page.evaluate(_IN_VIEW) == [], lang
    assert len(page.query_selector_all("#seats li")) == 8
    page.context.close()
