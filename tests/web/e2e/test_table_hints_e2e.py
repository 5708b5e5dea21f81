"""Hints at a table (issue 36): only where the table's creator allows them, only to the seat
that asks, on its turn; each legal card's chance to win is shown on the card. The values are
the evaluator's, from that seat's own view."""

from __future__ import annotations

import json
from typing import Any

from tests.web.server_helpers import Server, seat_in, started
from websockets.sync.client import connect


def _table(server: Server, hints: bool) -> dict[str, Any]:
    return started(server, rules="mattel2022", players=2, bots="easy", seed=7, hints=hints)


def _open(server: Server, chromium: Any, created: dict[str, Any]) -> Any:
    ctx = chromium.new_context(viewport={"width": 1280, "height": 800})
    seat_in(ctx, created)
    page = ctx.new_page()
    page.goto(f"{server.url}/t/{created['code']}?lang=kn")
    page.wait_for_selector('#hand button.card[aria-disabled="false"]')
    return page


def _my_turn_with_a_choice(page: Any) -> None:
    """Play the first playable card until this seat is to move with two legal cards or more."""
    for _ in range(40):
        st = json.loads(page.get_attribute("#main", "data-state") or "{}")
        if st.get("to_move") == st.get("seat") and len(st.get("legal") or []) > 1:
            return
        version = st["version"]
        page.locator('#hand button.card[aria-disabled="false"]').first.click()
        page.wait_for_function(
            "v => { const s = JSON.parse(document.querySelector('#main').dataset.state);"
            " return s.version > v && (s.to_move === s.seat || s.winner !== null); }",
            arg=version,
        )
    raise AssertionError("never a turn with a choice")


def _ask_hint(ws: Any) -> dict[str, Any]:
    """Ask for a hint on ``ws`` (at the version its first state gave): the answer, past
    any further states."""
    state = json.loads(ws.recv(timeout=10))
    ws.send(json.dumps({"type": "hint", "version": state["version"]}))
    answer = json.loads(ws.recv(timeout=10))
    while answer["type"] == "state":
        answer = json.loads(ws.recv(timeout=10))
    return dict(answer)


def test_a_hint_shows_each_cards_chance_where_the_table_allows_it(
    server: Server, chromium: Any
) -> None:
    page = _open(server, chromium, _table(server, hints=True))
    _my_turn_with_a_choice(page)
    page.wait_for_selector("#hint-button:not([hidden])")
    page.click("#hint-button")
    page.wait_for_selector("#hand .card .chance", timeout=120_000)
    st = json.loads(page.get_attribute("#main", "data-state") or "{}")
    playable = page.locator('#hand button.card[aria-disabled="false"]')
    assert page.locator("#hand .card .chance").count() == len(set(st["legal"]) - {"99x4", "draw"})
    assert playable.first.locator(".chance").text_content().count("%") == 1
    assert page.locator("#move-note").text_content()  # the best card, in words
    page.context.close()


def test_no_hint_where_the_creator_did_not_allow_them(server: Server, chromium: Any) -> None:
    created = _table(server, hints=False)
    page = _open(server, chromium, created)
    assert page.locator("#hint-button").is_hidden()
    page.context.close()
    with connect(f"{server.ws_url}/ws/{created['table']}?token={created['token']}&lang=ta") as ws:
        answer = _ask_hint(ws)
        assert answer["type"] == "error"
        assert answer["error"] != "hints are off at this table"  # in Tamil
    # a spectator may not ask either, even at a table that allows hints
    allowed = _table(server, hints=True)
    with connect(f"{server.ws_url}/ws/{allowed['table']}") as ws:
        answer = _ask_hint(ws)
        assert answer == {"type": "error", "error": "spectators cannot ask for hints",
                          "version": answer["version"]}  # fmt: skip
