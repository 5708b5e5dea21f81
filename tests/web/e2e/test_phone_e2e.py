"""The web table on a phone (issue 35): a touch screen at 390×844 in Debian's Chromium.

A whole points game (R-END-3) tapped through: the round summary covers nothing (not the
total) and needs no "Continue" (the next tap puts it away); the game's end says the winner
once; a touch screen gets no "number keys" hint; the final standings are drawn in the
server's places (``texts.places``, never seat order)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
from server_helpers import Server

PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}


def _state(page: Any) -> dict[str, Any] | None:
    raw = page.get_attribute("#main", "data-state")
    return json.loads(raw) if raw else None


def _summary_snapshot(page: Any) -> dict[str, Any] | None:
    """The round summary's box with the total's and the hand's, read in one step on the page.

    Any move puts the summary away, a bot's too: read separately, the summary could be
    seen and then gone before its box was read (a bot leading the next round at no delay).
    """
    return page.evaluate(  # type: ignore[no-any-return]
        """() => {
        const box = (sel) => {
            const el = document.querySelector(sel);
            const r = el.getBoundingClientRect();
            return el.hidden || r.width === 0 ? null : {x: r.x, y: r.y, width: r.width, height: r.height};
        };
        const summary = box("#summary");
        if (summary === null) return null;
        const close = document.querySelector("#summary-close");
        return {summary, total: box("#total"), hand: box("#hand"),
                close: !close.hidden && close.getBoundingClientRect().width > 0};
        }"""
    )


def _overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    return not (a["x"] + a["width"] <= b["x"] or b["x"] + b["width"] <= a["x"]
                or a["y"] + a["height"] <= b["y"] or b["y"] + b["height"] <= a["y"])  # fmt: skip


def _tap_a_card(page: Any) -> None:
    """Tap the first card the page offers; wait for the state after it."""
    st = _state(page)
    assert st is not None
    page.locator('#hand button.card[aria-disabled="false"]').first.tap()
    page.wait_for_function(
        "v => JSON.parse(document.querySelector('#main').dataset.state).version > v",
        arg=st["version"], timeout=60_000,
    )  # fmt: skip


def test_a_points_game_on_a_phone(server: Server, chromium: Any, artifacts: Path) -> None:
    r = httpx.post(server.url + "/api/tables", json={
        "players": 2, "bots": "easy", "bot_delay": 0, "seed": 5, "rules": "classic1980",
        "options": {"scoring": "points", "target": 150}})  # fmt: skip
    assert r.status_code == 201, r.text
    code = r.json()["code"]
    errors: list[str] = []
    ctx = chromium.new_context(**PHONE)
    page = ctx.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server.url + "/")
    page.wait_for_selector("#lobby:not([hidden])")
    page.fill("#join-code", code)
    page.fill("#join-name", "Ana")
    page.locator("#join-button").tap()
    page.wait_for_selector("#waiting:not([hidden])")
    page.locator("#start-button").tap()
    page.wait_for_selector("#hand button.card")
    # a touch screen: no number keys to press, so no hint about them
    assert not page.is_visible("#hand-hint")
    assert not page.locator("#hand .card .key").first.is_visible()

    summaries = 0
    for _ in range(2000):  # a bound on taps, not on time: every step waits for a state
        st = _state(page)
        assert st is not None
        if st["winner"] is not None:
            break
        shot = _summary_snapshot(page) if st["round"] > 1 else None
        if shot is not None and summaries < st["round"] - 1:
            # a round's end: shown where it covers nothing, without a Continue to press
            summaries += 1
            assert shot["total"] is not None and shot["hand"] is not None, shot
            assert not _overlap(shot["summary"], shot["total"])
            assert not _overlap(shot["summary"], shot["hand"])
            assert not shot["close"]
            if summaries == 1:
                page.screenshot(path=str(artifacts / "phone-round-summary.png"), full_page=True)
            if st["legal"]:
                _tap_a_card(page)  # the next tap puts it away by itself
                page.wait_for_selector("#summary", state="hidden")
            continue
        if st["legal"]:
            _tap_a_card(page)
        else:  # the bot's turn: wait for the next state
            page.wait_for_function(
                "v => JSON.parse(document.querySelector('#main').dataset.state).version > v",
                arg=st["version"], timeout=60_000,
            )  # fmt: skip
    final = _state(page)
    assert final is not None and final["winner"] is not None
    assert summaries >= 1, "the game ended in its first round"
    page.wait_for_selector("#summary:not([hidden])")
    page.screenshot(path=str(artifacts / "phone-game-over.png"), full_page=True)
    # the winner is said once on the table, not as the last event and as the turn both
    turn = page.text_content("#turn") or ""
    assert "wins the game" in turn or "You win" in turn
    assert page.text_content("#last-event") != turn
    # the standings in the server's places (R-END-3), with the place shown
    record = httpx.get(f"{server.url}/api/tables/{r.json()['table']}/record").json()
    from ono99 import replay
    from ono99.texts import final_places

    places = final_places(replay(record).public_view())
    rows = page.locator("#standings tbody tr")
    assert [int(rows.nth(i).get_attribute("data-seat")) for i in range(rows.count())] == [
        s for _, s in places
    ]
    assert rows.first.locator("td").first.text_content() == "1."
    assert not errors, errors
    ctx.close()


def test_a_desktop_keeps_its_keys_hint(server: Server, chromium: Any) -> None:
    """With a mouse and a keyboard the hint stays (and the round summary's Continue)."""
    r = httpx.post(server.url + "/api/tables", json={"players": 2, "bots": "easy", "seed": 5,
                                                     "name": "Ana"})  # fmt: skip
    ctx = chromium.new_context(viewport={"width": 1200, "height": 900})
    page = ctx.new_page()
    page.goto(server.url + "/")
    page.wait_for_selector("#lobby:not([hidden])")
    page.fill("#join-code", r.json()["code"])
    page.fill("#join-name", "Bo")
    page.click("#join-button")
    page.wait_for_selector("#waiting:not([hidden])")
    httpx.post(f"{server.url}/api/tables/{r.json()['table']}/start",
               json={"token": r.json()["token"]})  # fmt: skip
    page.wait_for_selector("#hand button.card")
    assert page.is_visible("#hand-hint")
    ctx.close()
