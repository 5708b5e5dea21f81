"""The web table page in a real evening's play (issue 22, "Real play", the page's part).

Debian's Chromium against a real ``ono99 serve``:

- a real game record with a 128-bit seed keeps every digit in the replay viewer, in
  its download and in an upload of that download;
- the replay and the live log tell events in the server's own words;
- a frozen server (SIGSTOP) is noticed within ~10 s ("Connection lost"), and the
  reconnect's catch-up replaces the log instead of adding to it;
- a page losing its connection while a bot is to move stalls nothing: the other page
  sees the bot's move within its delay, and the page that comes back shows the table's
  version, hand and total, its log replaced by the catch-up;
- the cards a bot played for a seat while its player was away are told to that seat as
  the bot's ("A bot plays 10 for you"), never as "You play 10";
- the live region says "your turn", the turn timer's warning and the time-out, and a
  card the bot played for an out-of-time seat is not told to it as "You play …";
- the last card played is shown next to the total; a round's end is an overlay that
  goes away (Continue, or the next move);
- the 99 card is named as the preset names it; HTTP errors come in the page's language.

Screenshots land in ``tests/web/e2e/artifacts/``.
"""

from __future__ import annotations

import json
import random
import re
import signal
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from server_helpers import Client, Server, arun, create, join, play_to_end, start

from ono99.i18n import translator


def tr(lang: str, msgid: str) -> str:
    return translator(lang).gettext(msgid)


def view_state(page: Any) -> dict[str, Any]:
    raw = page.get_attribute("#main", "data-state")
    return dict(json.loads(raw)) if raw else {}


def seated_page(chromium: Any, server: Server, table: dict[str, Any], errors: list[str],
                lang: str = "en", cut: WsCut | None = None, ready: str = "#table:not([hidden])",
                **context: Any) -> Any:  # fmt: skip
    """The table's page for the seat of ``table`` (its token put where the page keeps it),
    once ``ready`` shows; with ``cut``, its websockets go through ``cut`` (so the test can
    drop them)."""
    ctx = chromium.new_context(**context)
    if cut is not None:
        ctx.route_web_socket(re.compile(r"/ws/"), cut.route)
    creds = json.dumps({"seat": table["seat"], "token": table["token"], "name": "Ana"})
    ctx.add_init_script(
        f"localStorage.setItem('ono99.seat.{table['table']}', {json.dumps(creds)});"
        f"localStorage.setItem('ono99.lang', {json.dumps(lang)});"
    )
    page = ctx.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{server.url}/t/{table['table']}?lang={lang}")
    page.wait_for_selector(ready)
    return page


class WsCut:
    """A page's websockets, passed through Playwright: ``cut()`` drops the connection (the
    server sees the player leave) and refuses new ones until ``mend()``, as a phone losing
    its network would."""

    def __init__(self) -> None:
        self.off = False
        self.live: list[Any] = []

    def route(self, ws: Any) -> None:
        if self.off:
            ws.close()
            return
        ws.connect_to_server()
        self.live.append(ws)

    def cut(self) -> None:
        self.off = True
        for ws in self.live:
            ws.close()  # closes the server's side too
        self.live.clear()

    def mend(self) -> None:
        self.off = False


def log_lines(page: Any) -> list[str]:
    return [str(x) for x in page.locator("#log li").all_inner_texts()]


def my_turn(page: Any, timeout: float = 20_000) -> dict[str, Any]:
    page.wait_for_function(
        "() => { const s = document.querySelector('#main').dataset.state;"
        " if (!s) return false; const v = JSON.parse(s);"
        " return (v.legal || []).length > 0 || v.winner !== null; }",
        timeout=timeout,
    )
    return view_state(page)


def play_first(page: Any, keyboard: bool = False) -> None:
    """Play the first card the page offers (or draw) and wait for the answer."""
    st = view_state(page)
    version = st["version"]
    card = page.locator('#hand button.card[aria-disabled="false"]').first
    if "draw" in (st.get("legal") or []):
        page.keyboard.press("d") if keyboard else page.click("#draw-button")
    elif keyboard and int(card.get_attribute("data-index") or 0) < 9:
        page.keyboard.press(str(int(card.get_attribute("data-index") or 0) + 1))
    else:
        card.click()
    page.wait_for_function(
        "v => JSON.parse(document.querySelector('#main').dataset.state).version > v",
        arg=version,
        timeout=15_000,
    )


# ---------------------------------------------------------------- 1: the 128-bit seed


def finished_table(server: Server) -> tuple[dict[str, Any], dict[str, Any], str]:
    """A real game played to the end over websockets: (table, record, record's raw text)."""
    table = create(server, rules="classic1980", players=2, bots="easy", name="Ana")
    start(server, table["table"], table["token"])

    async def play() -> None:
        c = await Client.open(server, table["table"], table["token"], seat=table["seat"])
        await c.next_state()
        await play_to_end([c], random.Random(22))
        await c.close()

    arun(play())
    r = httpx.get(f"{server.url}/api/tables/{table['table']}/record", timeout=10)
    assert r.status_code == 200, r.text
    return table, r.json(), r.text


def test_replay_viewer_keeps_every_digit_of_a_128_bit_seed(
    server: Server, chromium: Any, artifacts: Path, tmp_path: Path
) -> None:
    table, record, raw = finished_table(server)
    seed = record["seed"]
    assert seed >= 2**64, "the server's seeds are 128-bit: this test needs one that big"
    digits = str(seed)
    assert digits in raw
    errors: list[str] = []
    ctx = chromium.new_context(viewport={"width": 1280, "height": 800}, accept_downloads=True)
    page = ctx.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    # a spectator of the finished table: the game summary offers the replay
    page.goto(f"{server.url}/t/{table['table']}?lang=ta")
    page.wait_for_selector("#summary:not([hidden]) #replay-button:not([hidden])")
    page.click("#replay-button")
    page.wait_for_selector("#replay:not([hidden])")
    step = json.loads(page.get_attribute("#main", "data-replay") or "{}")
    assert step["seed"] == digits
    assert digits in page.inner_text("#replay-seed")
    assert "e+" not in page.inner_text("#replay")
    # the steps are the server's: every move replayed, every line the server's narration
    steps = httpx.post(f"{server.url}/api/replay?lang=ta", content=raw, timeout=30).json()["steps"]
    assert step["steps"] == len(record["moves"]) + 1 == len(steps)
    page.click("#replay-last")
    want = [e["text"] for e in steps[-1]["events"] if e.get("text")]
    assert want and page.locator("#replay-lines li").all_inner_texts() == want
    page.screenshot(path=str(artifacts / "page-replay-seed-ta.png"), full_page=True)
    # the download is the record, every digit kept
    with page.expect_download() as dl:
        page.click("#replay-download")
    saved = tmp_path / "download.json"
    dl.value.save_as(saved)
    text = saved.read_text()
    assert digits in text
    assert json.loads(text) == record
    # ... and the game summary's own link gives the server's record as it is
    page.click("#replay-close")
    # upload the download: the same seed, the same steps
    page.goto(server.url + "/?lang=en")
    page.wait_for_selector("#lobby:not([hidden])")
    page.set_input_files("#record-file", str(saved))
    page.wait_for_selector("#replay:not([hidden])")
    again = json.loads(page.get_attribute("#main", "data-replay") or "{}")
    assert again["seed"] == digits and again["steps"] == len(steps)
    assert not errors, errors


def test_the_server_takes_a_seed_given_as_digits(server: Server) -> None:
    _table, record, _raw = finished_table(server)
    as_text = {**record, "seed": str(record["seed"])}
    r = httpx.post(f"{server.url}/api/replay", json=as_text, timeout=30)
    assert r.status_code == 200, r.text
    exact = httpx.post(f"{server.url}/api/replay", json=record, timeout=30).json()
    assert r.json() == exact


# ---------------------------------------------------------------- 2: a dead connection


@pytest.mark.slow
def test_a_frozen_server_is_noticed_and_the_catchup_replaces_the_log(
    fresh_server: Server, chromium: Any, artifacts: Path
) -> None:
    table = create(fresh_server, rules="mattel2022", players=2, bots="easy", name="Ana",
                   seed=7)  # fmt: skip
    start(fresh_server, table["table"], table["token"])
    errors: list[str] = []
    page = seated_page(
        chromium, fresh_server, table, errors, viewport={"width": 1280, "height": 800}
    )
    for _ in range(3):
        st = my_turn(page)
        if st.get("winner") is not None:
            break
        play_first(page)
    time.sleep(0.5)  # the bot's answer
    before = log_lines(page)
    assert before and len(before) < 30
    assert fresh_server.proc is not None
    fresh_server.proc.send_signal(signal.SIGSTOP)
    try:
        t0 = time.monotonic()
        page.wait_for_selector("#conn:not([hidden])", timeout=15_000)
        noticed = time.monotonic() - t0
        assert page.inner_text("#conn") == tr("en", "Connection lost. Reconnecting…")
        page.screenshot(path=str(artifacts / "page-connection-lost.png"))
    finally:
        fresh_server.proc.send_signal(signal.SIGCONT)
    assert noticed < 12, f"a dead connection took {noticed:.1f} s to notice"
    page.wait_for_selector("#conn", state="hidden", timeout=20_000)
    page.wait_for_function(
        "n => document.querySelectorAll('#log li').length >= n", arg=len(before), timeout=10_000
    )
    after = log_lines(page)
    assert after == before, "the catch-up must replace the log, not be added to it"
    assert not errors, errors


def synced(*pages: Any, timeout: float = 10_000) -> dict[str, Any]:
    """The state once every page shows the same version (the first page's)."""
    pages[0].wait_for_function(
        "() => document.querySelector('#main').dataset.state", timeout=timeout
    )
    for _ in range(int(timeout / 100)):
        states = [view_state(p) for p in pages]
        if len({s.get("version") for s in states}) == 1:
            return states[0]
        pages[0].wait_for_timeout(100)
    raise AssertionError(f"the pages never agreed: {[view_state(p) for p in pages]}")


def server_view(server: Server, table: str, token: str | None) -> dict[str, Any]:
    """A fresh connection's first state for ``token``'s seat (None: a spectator's)."""

    async def look() -> dict[str, Any]:
        c = await Client.open(server, table, token, lang="en")
        try:
            return await c.next_state()
        finally:
            await c.close()

    return dict(arun(look()))


@pytest.mark.slow
def test_a_disconnect_during_a_bots_turn_stalls_nothing(
    server: Server, chromium: Any, artifacts: Path
) -> None:
    """Two people and a bot: one page loses its connection while the bot is to move. The
    other page sees the bot's card within the bot's delay (a presence change does not move
    the version, so the bot's scheduled move stands); the page that comes back shows the
    table's version, its hand and the total, its log replaced by the catch-up."""
    delay = 3.0
    table = create(server, rules="mattel2022", players=3, bots="easy", name="Ana", seed=41,
                   bot_delay=delay, away_seconds=60)  # fmt: skip
    ben = {**join(server, table["table"], "Ben"), "table": table["table"]}
    start(server, table["table"], table["token"])
    errors: list[str] = []
    a = seated_page(chromium, server, table, errors, viewport={"width": 1280, "height": 800})
    cut = WsCut()
    b = seated_page(chromium, server, ben, errors, cut=cut, viewport={"width": 390, "height": 844})
    pages = {table["seat"]: a, ben["seat"]: b}
    bot = ({0, 1, 2} - set(pages)).pop()
    # play until a person's card hands the turn to the bot
    for _ in range(60):
        st = synced(a, b)
        assert st.get("winner") is None, "the game ended before the bot's turn came"
        if st["to_move"] == bot:  # the bot was first, or owes a second card: let it play
            a.wait_for_function(
                "v => JSON.parse(document.querySelector('#main').dataset.state).version > v",
                arg=st["version"], timeout=(delay + 5) * 1000,
            )  # fmt: skip
            continue
        play_first(pages[st["to_move"]], keyboard=True)
        st = synced(a, b)
        if st["to_move"] == bot and st.get("winner") is None:
            break
    else:
        raise AssertionError("the bot's turn never came")
    version = st["version"]
    b_before = view_state(b)
    b_log = log_lines(b)
    t0 = time.monotonic()
    cut.cut()
    # Ana's page is told Ben left, with the game's version unchanged: the bot has not moved
    seen = a.wait_for_function(
        """s => { const li = document.querySelector(`#players li[data-seat="${s}"] .facts`);
        if (!li || !li.textContent.includes('disconnected')) return false;
        return JSON.parse(document.querySelector('#main').dataset.state); }""",
        arg=ben["seat"], timeout=delay * 1000,
    ).json_value()  # fmt: skip
    assert seen["version"] == version and seen["to_move"] == bot, seen
    b.wait_for_selector("#conn:not([hidden])", timeout=5_000)
    # the bot plays within its delay, not after the 20 s an away timer would take
    a.wait_for_function(
        "v => JSON.parse(document.querySelector('#main').dataset.state).version > v",
        arg=version, timeout=(delay + 4) * 1000,
    )  # fmt: skip
    took = time.monotonic() - t0
    assert took < delay + 4, f"the bot's move took {took:.1f} s"
    a.wait_for_function(
        "b => JSON.parse(document.querySelector('#main').dataset.state).to_move !== b",
        arg=bot, timeout=(delay + 5) * 1000,
    )  # fmt: skip
    a_after = view_state(a)
    assert view_state(b)["version"] == version, "a page without a connection moved on"
    cut.mend()
    b.wait_for_selector("#conn", state="hidden", timeout=20_000)
    b.wait_for_function(
        "v => JSON.parse(document.querySelector('#main').dataset.state).version === v",
        arg=a_after["version"], timeout=10_000,
    )  # fmt: skip
    b.wait_for_timeout(300)  # anything more the reconnect would (wrongly) bring
    b_after = view_state(b)
    truth = server_view(server, table["table"], ben["token"])
    assert view_state(a)["version"] == a_after["version"], "the reconnect moved the version"
    assert truth["version"] == b_after["version"] == a_after["version"]
    assert b_after["total"] == truth["view"]["total"] == a_after["total"]
    assert b_after["hand"] == truth["view"]["hand"]
    if b_after["round"] == b_before["round"]:  # Ben has not played: the same cards
        assert b_after["hand"] == b_before["hand"]
    # the log is the catch-up (what a fresh connection is told), not the old log plus it
    after = log_lines(b)
    catchup = [e["text"] for e in truth["events"] if e.get("text")]
    assert after == catchup, (b_log, after, catchup)
    assert after[: len(b_log)] == b_log and len(after) > len(b_log)
    b.screenshot(path=str(artifacts / "page-reconnected-after-bot-turn-390.png"))
    assert not errors, errors


def test_cards_a_bot_played_for_an_away_seat_are_told_as_the_bots(
    server: Server, chromium: Any
) -> None:
    """Ana's page loses its connection; once she counts as away a bot plays for her. When
    she comes back, the catch-up tells those cards as "A bot plays … for you", never as
    "You play …", and nothing said in the live region claims them as hers."""
    table = create(server, rules="mattel2022", players=2, bots="easy", name="Ana", seed=43,
                   bot_delay=0.8, away_seconds=0.5)  # fmt: skip
    errors: list[str] = []
    cut = WsCut()
    # seated before the start: Ana is never away before she loses her connection
    page = seated_page(chromium, server, table, errors, cut=cut, ready="#waiting:not([hidden])")
    start(server, table["table"], table["token"])
    page.wait_for_selector("#table:not([hidden])")
    page.evaluate(
        """() => { const live = document.querySelector('#live'); window.__said = [];
        new MutationObserver(() => window.__said.push(live.textContent))
        .observe(live, {childList: true, subtree: true, characterData: true}); }"""
    )
    st = my_turn(page)
    assert st.get("winner") is None
    play_first(page, keyboard=True)
    st = my_turn(page)
    assert st.get("winner") is None
    before = log_lines(page)
    mine_before = sum(1 for line in before if line.startswith("You play"))
    assert mine_before >= 1, before  # Ana's own card is hers
    assert not any(line.startswith("A bot plays ") for line in before), before
    moves = server_view(server, table["table"], None)["view"]["moves"]
    cut.cut()
    # the bot plays for Ana at least twice before she is back
    deadline = time.monotonic() + 30
    while True:
        view = server_view(server, table["table"], None)["view"]
        if view["moves"] >= moves + 3 or view["phase"] == "over":
            break
        assert time.monotonic() < deadline, "no bot played for the away seat"
        page.wait_for_timeout(300)
    cut.mend()
    page.wait_for_selector("#conn", state="hidden", timeout=20_000)
    page.wait_for_function(
        "n => document.querySelectorAll('#log li').length > n", arg=len(before), timeout=10_000
    )
    page.wait_for_timeout(300)
    after = log_lines(page)
    by_bot = [line for line in after if line.startswith("A bot plays ") and "for you" in line]
    assert by_bot, after
    assert sum(1 for line in after if line.startswith("You play")) <= mine_before, after
    said = page.evaluate("() => window.__said")
    assert not any("You play" in s or "A bot plays" in s for s in said), said
    assert not errors, errors


# ---------------------------------------------------------------- 3: live region, total, summary


@pytest.mark.slow
def test_live_region_last_card_and_round_overlay(
    server: Server, chromium: Any, artifacts: Path
) -> None:
    table = create(server, rules="classic1980", players=2, bots="easy", name="Ana", seed=3,
                   bot_delay=0.8)  # fmt: skip
    start(server, table["table"], table["token"])
    errors: list[str] = []
    page = seated_page(chromium, server, table, errors, viewport={"width": 390, "height": 844})
    st = my_turn(page)
    page.wait_for_function(
        "t => document.querySelector('#live').textContent.includes(t)",
        arg=tr("en", "Your turn: play a card"),
        timeout=5_000,
    )
    # every time the summary comes or goes: whether it is hidden, and the version then
    page.evaluate(
        """() => { const box = document.querySelector('#summary'); window.__summary = [];
        new MutationObserver(() => window.__summary.push({hidden: box.hidden,
          version: JSON.parse(document.querySelector('#main').dataset.state).version}))
        .observe(box, {attributes: true, attributeFilter: ['hidden']}); }"""
    )
    continued = False
    for _ in range(300):
        st = my_turn(page)
        if st.get("winner") is not None:
            break
        if not continued and page.locator("#summary.overlay").is_visible():
            # a round is over: an overlay over the table, its end next to the total
            assert page.get_attribute("#last-event", "data-kind") in (
                "bust", "token_lost", "out_of_round", "eliminated", "round_end")  # fmt: skip
            page.screenshot(path=str(artifacts / "page-round-over-390.png"))
            page.set_viewport_size({"width": 1280, "height": 800})
            page.screenshot(path=str(artifacts / "page-round-over-1280.png"))
            page.click("#summary-close")
            assert page.locator("#summary").is_hidden()
            continued = True
            continue
        # keys, not clicks, once the first summary is put away: a click would put the
        # next one away too, and this test wants to see the next move take it away
        play_first(page, keyboard=continued)
        # the last card is told next to the total, in the server's words
        last = page.locator("#last-event")
        assert last.inner_text(), "nothing next to the total after a move"
        board = page.locator("#table .board").bounding_box()
        box = last.bounding_box()
        assert board and box and board["y"] <= box["y"] <= board["y"] + board["height"]
        changes = page.evaluate("() => window.__summary")
        if continued and sum(1 for c in changes if not c["hidden"]) >= 2 and changes[-1]["hidden"]:
            break
    changes = page.evaluate("() => window.__summary")
    shows = [i for i, c in enumerate(changes) if not c["hidden"]]
    assert continued and len(shows) >= 2, changes
    # the second summary was left open: the next move took it away
    i = shows[1]
    assert i + 1 < len(changes) and changes[i + 1]["hidden"], changes
    assert changes[i + 1]["version"] > changes[i]["version"], changes
    assert not errors, errors


@pytest.mark.slow
def test_timer_warning_and_time_out_in_the_live_region(
    server: Server, chromium: Any, artifacts: Path
) -> None:
    table = create(server, rules="mattel2022", players=2, bots="easy", name="Ana", seed=5,
                   turn_seconds=7)  # fmt: skip
    start(server, table["table"], table["token"])
    errors: list[str] = []
    page = seated_page(chromium, server, table, errors, viewport={"width": 1280, "height": 800})
    st = my_turn(page)
    assert st.get("winner") is None
    lines = len(log_lines(page))
    # the warning: "N seconds left", N at most 5, while the timer still runs
    warnings = [
        translator("en").ngettext("{count} second left", "{count} seconds left", n).format(count=n)
        for n in range(1, 6)
    ]
    page.wait_for_function(
        "ws => ws.some((w) => document.querySelector('#live').textContent.includes(w))",
        arg=warnings,
        timeout=10_000,
    )
    page.wait_for_function(
        "t => document.querySelector('#live').textContent.includes(t)",
        arg=tr("en", "Time is up: a bot plays for you"),
        timeout=10_000,
    )
    page.wait_for_function(
        "n => document.querySelectorAll('#log li').length > n", arg=lines, timeout=10_000
    )
    page.wait_for_timeout(300)
    new = log_lines(page)[lines:]
    assert any(line.startswith("A bot plays ") and "for you" in line for line in new), new
    assert not any(line.startswith("You play") for line in new), new
    assert not errors, errors


# ---------------------------------------------------------------- 4: words


@pytest.mark.parametrize(("rules", "seed", "name"), [("mattel2022", 6, "ONO 99"),
                                                     ("classic1980", 9, "O'NO 99")])  # fmt: skip
def test_the_99_card_is_named_as_the_preset_names_it(
    server: Server, chromium: Any, rules: str, seed: int, name: str
) -> None:
    table = create(server, rules=rules, players=2, bots="easy", name="Ana", seed=seed,
                   bot_delay=3)  # fmt: skip
    start(server, table["table"], table["token"])
    errors: list[str] = []
    page = seated_page(chromium, server, table, errors)
    card = page.locator('#hand button.card[data-card="99"]')
    card.first.wait_for()
    assert card.first.locator(".face").inner_text() == name
    assert "c-n99" in (card.first.get_attribute("class") or "")
    assert not errors, errors


def test_http_errors_come_in_the_pages_language(server: Server, chromium: Any) -> None:
    errors: list[str] = []
    ctx = chromium.new_context()
    ctx.add_init_script("localStorage.setItem('ono99.lang', 'ta');")
    page = ctx.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server.url + "/?lang=ta")
    page.wait_for_selector("#lobby:not([hidden])")
    page.wait_for_function("() => document.documentElement.lang === 'ta'")
    english = httpx.post(f"{server.url}/api/tables/NOSUCH/join", json={"name": "Ana"}).json()
    tamil = httpx.post(f"{server.url}/api/tables/NOSUCH/join?lang=ta", json={"name": "Ana"}).json()
    assert tamil["error"] != english["error"]
    page.fill("#join-code", "NOSUCH")
    page.fill("#join-name", "Ana")
    asked: list[str] = []
    page.on("request", lambda r: asked.append(f"{r.method} {r.url}"))
    page.click("#join-button")
    page.wait_for_selector("#error:not([hidden])")
    assert page.inner_text("#error") == tamil["error"]
    # the code and the id were looked up and neither is a table: no join is tried
    assert [a for a in asked if "/api/" in a and "/join" in a] == [], asked
    assert len([a for a in asked if "/api/" in a]) == 2, asked
    assert not errors, errors


def test_a_language_change_reaches_the_server(server: Server, chromium: Any) -> None:
    """The page tells the server its new language (hello): what the server words from
    then on, announcements and errors alike, comes in it."""
    table = create(server, rules="mattel2022", players=2, bots="easy", name="Ana", seed=11)
    start(server, table["table"], table["token"])
    errors: list[str] = []
    page = seated_page(chromium, server, table, errors)
    st = my_turn(page)
    assert st.get("winner") is None
    page.select_option("#lang-select", "ta")
    page.wait_for_function("() => document.documentElement.lang === 'ta'")
    page.wait_for_timeout(300)  # the hello's answer
    lines = len(log_lines(page))
    play_first(page)
    page.wait_for_function(
        "n => document.querySelectorAll('#log li').length > n", arg=lines, timeout=10_000
    )
    new = log_lines(page)[lines:]
    assert new and not any(line.startswith("You ") for line in new), new
    assert any(any("\u0b80" <= ch <= "\u0bff" for ch in line) for line in new), new  # Tamil
    assert not errors, errors
