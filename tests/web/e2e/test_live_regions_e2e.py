"""What a screen reader hears at the web table: each announcement reaches a live region
once. A reconnect (here: the server restarted under the page) brings a catch-up that
must not be read out again, nor "Your turn" said twice for the same turn."""

from __future__ import annotations

import json
from typing import Any

import httpx
from server_helpers import Server

#: records every node added to a live region that was already in the page (what a screen
#: reader reads out), as [region id, text]
WATCH_LIVE = """() => {
  window.__heard = [];
  const live = '[aria-live]:not([aria-live=off]),[role=status],[role=alert],[role=log]';
  new MutationObserver((records) => {
    for (const r of records) {
      const target = r.target.nodeType === 1 ? r.target : r.target.parentElement;
      const region = target && target.closest(live);
      if (!region) continue;
      for (const n of r.addedNodes) {
        const text = (n.textContent || '').trim();
        if (text) window.__heard.push([region.id, text]);
      }
    }
  }).observe(document.body, { subtree: true, childList: true, characterData: true });
}"""


def _state(page: Any) -> dict[str, Any]:
    return dict(json.loads(page.get_attribute("#main", "data-state")))


def test_a_reconnect_says_nothing_again(fresh_server: Server, chromium: Any) -> None:
    """R-TURN-1: Ana's turn is announced once; the server restarts, the page reconnects
    and gets the catch-up: neither the announcements nor "Your turn" are heard again."""
    srv = fresh_server
    r = httpx.post(
        srv.url + "/api/tables", json={"players": 2, "bots": "easy", "seed": 5, "bot_delay": 0}
    )
    code = r.json()["code"]
    errors: list[str] = []
    page = chromium.new_context().new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{srv.url}/t/{code}?lang=ta")
    page.wait_for_selector("#wait-join:not([hidden])")
    page.fill("#wait-name", "Ana")
    page.click("#wait-join button")
    page.wait_for_selector("#start-button:not([hidden])")
    page.click("#start-button")
    page.wait_for_selector("#log li")
    page.wait_for_function("() => document.querySelector('#live').textContent.trim() !== ''")
    st = _state(page)
    assert st["to_move"] == st["seat"] == 0  # seat 0 starts (R-SET-3): Ana waits to move
    lines = page.locator("#log li").all_text_contents()
    assert lines
    page.evaluate(WATCH_LIVE)
    port = srv.port
    srv.stop()
    page.wait_for_selector("#conn:not([hidden])", timeout=15_000)
    srv.start(port=port)
    page.wait_for_selector("#conn", state="hidden", timeout=20_000)
    page.wait_for_timeout(500)
    assert _state(page)["version"] == st["version"]
    assert page.locator("#log li").all_text_contents() == lines  # the catch-up is shown
    heard = page.evaluate("window.__heard")
    said_again = [h for h in heard if h[0] != "conn"]
    assert said_again == [], said_again
    assert errors == []


def test_a_new_language_rewords_the_log_and_says_nothing(server: Server, chromium: Any) -> None:
    """The language picker at the table: the announcements shown come again in Kannada
    (a catch-up from the server), and nothing is read out again."""
    from ono99.i18n import translator

    r = httpx.post(
        server.url + "/api/tables",
        json={"players": 2, "bots": "easy", "seed": 5, "bot_delay": 0, "name": "Ana"},
    )
    made = r.json()
    page = chromium.new_context().new_page()
    page.goto(f"{server.url}/t/{made['code']}?lang=ta")
    page.wait_for_selector("#wait-join:not([hidden])")
    page.fill("#wait-name", "Bo")
    page.click("#wait-join button")
    page.wait_for_selector("#start-button:not([hidden])")
    page.click("#start-button")
    page.wait_for_selector("#log li")
    page.evaluate(WATCH_LIVE)
    page.select_option("#lang-select", "kn")
    first = translator("kn").gettext("Round {round}: {name} starts").format(round=1, name="Ana")
    page.wait_for_function("t => document.querySelector('#log li').textContent === t", arg=first)
    heard = [h for h in page.evaluate("window.__heard") if h[0] != "conn"]
    assert heard == [], heard
