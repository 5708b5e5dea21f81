"""Names that are markup (issue 13): three people join one table in headless Chromium under
the names ``<script>...``, ``<img onerror=...>`` and ``"><svg onload=...>``; the waiting
room, the table, the player list and the announcements show them as text, and nothing in
them runs (each would set ``window.__x``). The page is served with a Content-Security-Policy
that allows only its own scripts."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
from server_helpers import Server
from test_table_e2e import create_table, join_by_form, new_page

NAMES = [
    "<script>window.__x=1</script>",
    '<img src=x onerror="window.__x=2">',
    '"><svg onload=window.__x=3>',
]

# the card faces (js/cards.js, class cf) are the only SVG the page draws itself
INJECTED = (
    "() => ({x: window.__x, scripts: document.querySelectorAll('script').length,"
    " handlers: document.querySelectorAll('[onerror], [onload], svg:not(.cf), img[src=x]').length})"
)


def test_markup_names_run_nothing(server: Server, chromium: Any, artifacts: Path) -> None:
    r = httpx.get(server.url + "/")
    csp = r.headers["content-security-policy"]
    assert "script-src 'self'" in csp and "unsafe-inline" not in csp
    created = create_table(server, players=4, rules="mattel2022", seed=5)
    errors: list[str] = []
    pages = [new_page(chromium, server.url + "/", errors) for _ in NAMES]
    for page, name in zip(pages, NAMES, strict=True):
        join_by_form(page, created["code"], name)
    first = pages[0]
    first.wait_for_function("() => document.querySelectorAll('#wait-seats li').length === 4")
    for name in NAMES:
        assert name in first.text_content("#wait-seats")
    first.click("#start-button")
    for page in pages:
        page.wait_for_selector("#table:not([hidden])")
        page.wait_for_selector("#hand button.card")
    # The bot's turn and the first announcements (with the names in them) come in.
    first.wait_for_function("() => document.querySelectorAll('#log li, #log p').length > 0")
    for page in pages:
        for seat, name in enumerate(NAMES):
            shown = page.locator(f'#players li[data-seat="{seat}"] .name').text_content()
            assert shown == name
        found = page.evaluate(INJECTED)
        assert found == {"x": None, "scripts": 1, "handlers": 0}, found
    first.screenshot(path=str(artifacts / "markup-names.png"), full_page=True)
    # The record carries the names as they were given.
    info = httpx.get(f"{server.url}/api/tables/{created['table']}").json()
    assert [s["name"] for s in info["seats"][:3]] == NAMES
    assert errors == []
