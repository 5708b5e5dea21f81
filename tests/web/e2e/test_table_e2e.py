"""The web table in a real browser: Debian's Chromium, a real ``ono99 serve``.

Two browser contexts (two people) join one table with a bot and play a whole game to
the end by clicking the cards the page offers, one of them reloading the page in the
middle of the game, one in English and one in Tamil. Screenshots land in
``tests/web/e2e/artifacts/``.
"""

from __future__ import annotations

import json
import random
import time
from pathlib import Path
from typing import Any

import httpx
from server_helpers import Server

from ono99 import Game, replay, to_record
from ono99.i18n import translator

EVIL_NAME = "<img src=x onerror=window.__x=1>"
TIME_LIMIT = 150.0


def tr(lang: str, msgid: str) -> str:
    """``msgid`` in ``lang``, from the catalogs the page shares with the terminal game."""
    return translator(lang).gettext(msgid)


def state(page: Any) -> dict[str, Any] | None:
    raw = page.get_attribute("#main", "data-state")
    return json.loads(raw) if raw else None


def new_page(chromium: Any, url: str, errors: list[str], **context: Any) -> Any:
    ctx = chromium.new_context(**context)
    page = ctx.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(url)
    return page


def create_table(server: Server, **body: Any) -> dict[str, Any]:
    settings = {"players": 3, "bots": "easy", "bot_delay": 0, "draw_window": 0.3, **body}
    r = httpx.post(server.url + "/api/tables", json=settings)
    assert r.status_code == 201, r.text
    return dict(r.json())


def join_by_form(page: Any, code: str, name: str) -> None:
    page.wait_for_selector("#lobby:not([hidden])")
    page.fill("#join-code", code)
    page.fill("#join-name", name)
    page.click("#join-button")
    page.wait_for_selector("#waiting:not([hidden]), #table:not([hidden])")


def wait_version_after(page: Any, version: int, timeout: float = 60_000) -> None:
    page.wait_for_function(
        "v => { const s = document.querySelector('#main').dataset.state;"
        " return s && JSON.parse(s).version > v; }",
        arg=version,
        timeout=timeout,
    )


def play_one(page: Any, keyboard: bool = False) -> bool:
    """Make one move on ``page`` if it may: draw first when a draw is pending, else
    the first playable card. Returns whether it moved."""
    st = state(page)
    if not st or st.get("winner") is not None:
        return False
    legal = st.get("legal") or []
    if not legal:
        return False
    version = int(st["version"])
    if "draw" in legal:
        if keyboard:
            page.keyboard.press("d")
        else:
            page.click("#draw-button")
    else:
        cards = page.locator('#hand button.card[aria-disabled="false"]')
        if cards.count() == 0:
            return False
        if keyboard:
            index = int(cards.first.get_attribute("data-index"))
            if index >= 9:
                cards.first.click()
            else:
                page.locator("body").press(str(index + 1))
        else:
            cards.first.click()
    wait_version_after(page, version)
    return True


def test_two_people_and_a_bot_play_a_whole_game(
    server: Server, chromium: Any, artifacts: Path
) -> None:
    """R-TURN-1, R-LIM-2, R-END-1 through the page: two people join by code and by link
    (English and Tamil), start, play every card the page offers until someone wins,
    one reloads mid-game and gets their seat back; a name holding markup stays text;
    the record downloads and replays to the page's winner."""
    created = create_table(server, rules="mattel2022", seed=11)
    errors: list[str] = []
    ana = new_page(chromium, server.url + "/", errors, viewport={"width": 1200, "height": 900})
    bo = new_page(
        chromium, server.url + "/?lang=ta", errors, viewport={"width": 1000, "height": 900}
    )
    # the page sets its language from a catalog it fetches, then shows the lobby
    bo.wait_for_selector("#lobby:not([hidden])")
    assert bo.get_attribute("html", "lang") == "ta"
    assert bo.text_content("#create-title") == tr("ta", "Create a table") != "Create a table"

    join_by_form(ana, created["code"], "Ana")
    join_by_form(bo, created["url"], EVIL_NAME)  # a pasted invitation link works too
    ana.wait_for_selector("#waiting:not([hidden])")
    assert created["code"] in ana.text_content("#wait-code")
    ana.wait_for_function("() => document.querySelectorAll('#wait-seats li').length === 3")
    ana.screenshot(path=str(artifacts / "waiting-en.png"), full_page=True)
    ana.click("#start-button")
    for page in (ana, bo):
        page.wait_for_selector("#table:not([hidden])")
        page.wait_for_selector("#hand button.card")

    # the name with markup is shown as text and ran nothing
    bo_li = ana.locator('#players li[data-seat="1"] .name')
    assert bo_li.text_content() == EVIL_NAME
    assert ana.evaluate("() => window.__x") is None
    assert bo.evaluate("() => window.__x") is None
    # Tamil on Bo's page, the total label and the card count in Tamil words
    assert bo.text_content("#total-label") == tr("ta", "Total") == "மொத்தம்"
    assert "கார்டு" in bo.text_content("#players")

    reasons_seen: set[str] = set()
    moves = 0
    reloaded = False
    deadline = time.monotonic() + TIME_LIMIT
    while True:
        states = [state(p) for p in (ana, bo)]
        if any(s and s.get("winner") is not None for s in states):
            break
        assert time.monotonic() < deadline, f"no winner after {moves} moves"
        acted = False
        for page in (ana, bo):
            # cards that cannot be played show why (R-LIM-2, "would take the total to ...")
            for why in page.locator("#hand .why").all_text_contents():
                reasons_seen.add(why)
            if play_one(page):
                moves += 1
                acted = True
        if moves >= 4 and not reloaded:
            bo.screenshot(path=str(artifacts / "table-ta-desktop.png"), full_page=True)
            ana.screenshot(path=str(artifacts / "table-en-desktop.png"), full_page=True)
            before = state(bo)
            assert before is not None
            bo.reload()
            bo.wait_for_selector("#table:not([hidden])")
            after = state(bo)
            assert after is not None and after["seat"] == before["seat"] == 1
            assert bo.get_attribute("html", "lang") == "ta"
            reloaded = True
        if not acted:
            ana.wait_for_timeout(100)
    assert reloaded, "the game ended before the reload"
    assert moves > 0
    assert reasons_seen, "no reason was shown for a card that cannot be played"

    final = state(ana)
    assert final is not None
    winner = final["winner"]
    for page in (ana, bo):
        page.wait_for_selector("#summary:not([hidden])")
    assert ana.text_content("#summary-title") == "Game over"
    assert bo.text_content("#summary-title") == tr("ta", "Game over") != "Game over"
    # the winner's place in the list of players says so, and is not dimmed as out (R-END-1)
    for page, lang in ((ana, "en"), (bo, "ta")):
        li = page.locator(f'#players li[data-seat="{winner}"]')
        assert tr(lang, "winner") in (li.locator(".facts").text_content() or "")
        assert "out" not in (li.get_attribute("class") or "").split()
    bo.screenshot(path=str(artifacts / "game-over-ta.png"), full_page=True)
    ana.screenshot(path=str(artifacts / "game-over-en.png"), full_page=True)

    # the record: linked from the summary, replays to the same winner
    href = ana.get_attribute("#record-link", "href")
    assert href
    r = httpx.get(server.url + href)
    assert r.status_code == 200
    record = r.json()
    assert record["deals"] and record["moves"]
    assert replay(record).winner == winner
    assert not errors, errors


def test_draw_penalty_with_the_keyboard_alone(
    server: Server, chromium: Any, artifacts: Path
) -> None:
    """R-DRAW-1 in real time: after each card the Draw button lights up and the player
    draws with the D key before the next card lands; cards are played with the number
    keys only (keyboard alone). Gujarati and Uzbek pages.

    Every step waits for the state it needs, never for a fixed time: a pending draw is made
    before anyone plays (so no one's card makes it lost), the test then waits for the hand
    that holds the drawn card, and the bot waits the longest draw window (10 s) before
    playing over a pending draw, which a loaded machine still answers well within."""
    created = create_table(server, rules="gamerules", options={"draw_penalty": True}, seed=3,
                           draw_window=10)  # fmt: skip
    errors: list[str] = []
    a = new_page(
        chromium, server.url + "/?lang=gu", errors, viewport={"width": 1100, "height": 900}
    )
    b = new_page(
        chromium, server.url + "/?lang=uz", errors, viewport={"width": 1100, "height": 900}
    )
    join_by_form(a, created["code"], "Asha")
    join_by_form(b, created["code"], "Botir")
    a.click("#start-button")
    for page in (a, b):
        page.wait_for_selector("#table:not([hidden])")
        page.wait_for_selector("#hand button.card")
    assert a.is_visible("#draw-button")
    draws = 0
    shot = False
    for _step in range(1000):  # a bound on steps, not on time: each step waits for a state
        seen = [(page, state(page)) for page in (a, b)]
        if draws >= 4 or any(st and st.get("winner") is not None for _, st in seen):
            break
        drawer = next(((p, st) for p, st in seen if st and "draw" in (st.get("legal") or [])), None)
        if drawer is not None:
            page, st = drawer
            assert page.get_attribute("#draw-button", "aria-disabled") == "false"
            if not shot:
                lang = page.evaluate("() => document.documentElement.lang")
                page.screenshot(path=str(artifacts / f"draw-pending-{lang}.png"), full_page=True)
                shot = True
            page.keyboard.press("d")
            # the draw landed: the hand holds one card more (or the round ended meanwhile)
            page.wait_for_function(
                "([n, r]) => { const s = document.querySelector('#main').dataset.state;"
                " if (!s) return false; const v = JSON.parse(s);"
                " return v.hand.length === n + 1 || v.round !== r; }",
                arg=[len(st["hand"]), st["round"]],
                timeout=60_000,
            )
            draws += 1
        elif not any(play_one(page, keyboard=True) for page, _ in seen):
            st = seen[0][1]
            assert st is not None
            wait_version_after(a, int(st["version"]), timeout=60_000)  # a bot's turn
    assert draws >= 4
    assert not errors, errors


def test_lobby_creates_a_table_and_phone_layout(
    server: Server, chromium: Any, artifacts: Path
) -> None:
    """The lobby form makes a table (classic1980 with points, R-SET-6 options) and the
    creator lands in the waiting room with a code and a link; a spectator on a phone
    watches it in Burmese and Kannada."""
    errors: list[str] = []
    page = new_page(chromium, server.url + "/", errors, viewport={"width": 1200, "height": 900})
    page.wait_for_selector("#lobby:not([hidden])")
    page.fill("#create-name", "Ana")
    page.select_option("#create-rules", "classic1980")
    page.select_option("#create-players", "4")
    page.select_option("#opt-scoring", "points")
    page.fill("#opt-target", "150")
    page.select_option("#create-bots", "hard")
    page.select_option("#create-timer", "60")
    page.screenshot(path=str(artifacts / "lobby-en.png"), full_page=True)
    page.click("#create-form button[type=submit]")
    page.wait_for_selector("#waiting:not([hidden])")
    code = page.text_content("#wait-code")
    assert code and len(code) == 6
    assert page.input_value("#wait-link").endswith("/t/" + code)
    info = httpx.get(f"{server.url}/api/codes/{code}").json()
    assert info["rules"] == "classic1980"
    assert info["options"]["scoring"] == "points" and info["options"]["target"] == 150
    assert info["players"] == 4 and info["bots"] == "hard" and info["turn_seconds"] == 60
    page.click("#start-button")
    page.wait_for_selector("#table:not([hidden])")
    assert "0" in page.text_content("#players")

    # a phone-sized spectator, by the link, in Burmese, then Kannada through the picker
    phone = new_page(
        chromium,
        f"{server.url}/t/{code}?lang=my",
        errors,
        viewport={"width": 390, "height": 844},
        device_scale_factor=2,
        is_mobile=True,
        has_touch=True,
    )
    phone.wait_for_selector("#table:not([hidden])")
    assert phone.is_visible("#watching")
    assert not phone.is_visible("#hand-area")
    assert phone.get_attribute("html", "lang") == "my"
    phone.wait_for_function("() => document.querySelector('#log').children.length > 0")
    phone.screenshot(path=str(artifacts / "phone-spectator-my.png"), full_page=True)
    phone.select_option("#lang-select", "kn")
    phone.wait_for_function("() => document.documentElement.lang === 'kn'")
    assert phone.text_content("#total-label") == tr("kn", "Total") != "Total"
    phone.screenshot(path=str(artifacts / "phone-spectator-kn.png"), full_page=True)
    # no horizontal scrolling on a phone
    assert phone.evaluate("() => document.documentElement.scrollWidth") <= 390
    # the player's own page on a phone
    page.set_viewport_size({"width": 390, "height": 844})
    page.screenshot(path=str(artifacts / "phone-player-en.png"), full_page=True)
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
    assert not errors, errors


def test_replay_viewer_steps_forward_and_back(
    server: Server, chromium: Any, artifacts: Path, tmp_path: Path
) -> None:
    """R-REC: a finished game's record opened in the replay viewer, stepped forward and
    back with the buttons and the arrow keys; the last step is the record's final state."""
    rng = random.Random(4)
    game = Game("classic1980", ["Ana", "Bo", "Cy"], seed=4)
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
    record = to_record(game)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    errors: list[str] = []
    page = new_page(
        chromium, server.url + "/?lang=kn", errors, viewport={"width": 1100, "height": 900}
    )
    page.wait_for_selector("#lobby:not([hidden])")
    page.set_input_files("#record-file", str(path))
    page.wait_for_selector("#replay:not([hidden])")

    def step() -> dict[str, Any]:
        return dict(json.loads(page.get_attribute("#main", "data-replay") or "{}"))

    assert step()["step"] == 0
    page.click("#replay-forward")
    page.click("#replay-forward")
    assert step()["step"] == 2
    page.click("#replay-back")
    assert step()["step"] == 1
    page.locator("#replay-forward").press("ArrowRight")
    assert step()["step"] == 2
    page.click("#replay-last")
    last = step()
    assert last["step"] == len(record["moves"])
    assert last["total"] == game.total
    page.screenshot(path=str(artifacts / "replay-kn.png"), full_page=True)
    page.click("#replay-first")
    assert step()["step"] == 0
    assert not errors, errors


def test_the_winner_out_with_the_others_is_shown_as_the_winner(
    server: Server, chromium: Any, tmp_path: Path
) -> None:
    """R-END-3 (elimination mode): every score passed the target in the same round, so all
    three are out and the lowest score wins. At the replay's last step the winner's place
    in the list says "winner" and is not dimmed as out; the others are out of the game."""
    opts = {"scoring": "points", "target": 40, "points_mode": "elimination"}
    game = Game("classic1980", ["Ana", "Bo", "Cy"], options=opts, seed=0)
    rng = random.Random(0)
    while not game.is_over:
        acting = game.acting()
        seat = min(acting)
        game.apply(rng.choice(acting[seat]), seat)
    assert isinstance(game.winner, int) and game.out == [0, 1, 2]  # the case at hand
    path = tmp_path / "game.json"
    path.write_text(json.dumps(to_record(game)))
    errors: list[str] = []
    page = new_page(chromium, server.url + "/?lang=gu", errors)
    page.wait_for_selector("#lobby:not([hidden])")
    page.set_input_files("#record-file", str(path))
    page.wait_for_selector("#replay:not([hidden])")
    page.click("#replay-last")
    items = page.locator("#replay-players li")
    assert items.count() == 3
    for seat in range(3):
        li = items.nth(seat)
        facts = li.locator(".facts").text_content() or ""
        dimmed = "out" in (li.get_attribute("class") or "").split()
        if seat == game.winner:
            assert tr("gu", "winner") in facts and not dimmed, facts
            assert tr("gu", "out of the game") not in facts, facts
        else:
            assert tr("gu", "out of the game") in facts and dimmed, facts
    assert not errors, errors


def test_a_record_file_that_is_not_json_is_told_in_the_pages_language(
    server: Server, chromium: Any, tmp_path: Path
) -> None:
    """R-REC: a file that is not JSON, opened in the replay viewer of a Burmese page, is
    one line in Burmese (the server's words, as ``ono99 replay`` has them), never the
    browser's English ("Unexpected token ..."); a record saved with a byte order mark
    (Notepad) opens."""
    errors: list[str] = []
    page = new_page(
        chromium, server.url + "/?lang=my", errors, viewport={"width": 390, "height": 844}
    )
    page.wait_for_selector("#lobby:not([hidden])")
    # the file picker is a button in the page's language, not the browser's "Choose File"
    pick = page.locator("label.file-pick")
    assert pick.inner_text().strip() == tr("my", "Open a game record file…")
    assert pick.bounding_box()["width"] > 0  # type: ignore[index]
    assert page.eval_on_selector("#record-file", "e => getComputedStyle(e).opacity") == "0"
    bad = tmp_path / "notes.json"
    bad.write_text("not json at all")
    page.set_input_files("#record-file", str(bad))
    page.wait_for_selector("#error:not([hidden])")
    want = tr("my", "not valid JSON (line {line}, column {column})").format(line=1, column=1)
    assert page.inner_text("#error") == want
    assert page.get_attribute("#main", "data-view") == "lobby"
    record = {"rules": "mattel2022", "players": ["Ana", "Bo"], "seed": 2**127, "moves": ["5"]}
    bom = tmp_path / "notepad.json"
    bom.write_bytes(b"\xef\xbb\xbf" + json.dumps(record).encode())
    page.set_input_files("#record-file", str(bom))
    page.wait_for_selector("#replay:not([hidden])")
    assert page.is_hidden("#error")
    assert json.loads(page.get_attribute("#main", "data-replay") or "{}")["seed"] == str(2**127)
    assert not errors, errors
