"""Totals spoken aloud (issue 14), in real headless Chromium: the page's speech goes
through the browser's speechSynthesis, which headless Chromium has no voices for, so a
stand-in (installed before the page's scripts) offers voices and records what is said."""

from __future__ import annotations

import json
from typing import Any

import httpx
from server_helpers import Server
from test_companion_e2e import settle, tap

from ono99.i18n import translator

#: a speechSynthesis with an English and a Tamil voice that records every utterance
FAKE_SPEECH = """
(() => {
  const voices = [{ lang: "en-US", name: "English" }, { lang: "ta-IN", name: "Tamil" }];
  window.__spoken = [];
  class Utterance { constructor(text) { this.text = text; this.lang = ""; this.voice = null; } }
  const synth = {
    getVoices: () => voices,
    speak: (u) => window.__spoken.push({ text: u.text, lang: u.lang }),
    cancel: () => {},
    addEventListener: () => {},
  };
  Object.defineProperty(window, "speechSynthesis", { value: synth, configurable: true });
  Object.defineProperty(window, "SpeechSynthesisUtterance", { value: Utterance, configurable: true });
})();
"""


def spoken(page: Any) -> list[dict[str, str]]:
    return list(page.evaluate("window.__spoken"))


def test_companion_speaks_each_total_in_the_page_language(chromium: Any, server: Server) -> None:
    """R-TURN-1 (the new total is announced): each tap is spoken in Tamil with a Tamil
    voice, the total's digits inside the translated sentence."""
    page = chromium.new_context(viewport={"width": 390, "height": 844}).new_page()
    page.add_init_script(FAKE_SPEECH)
    page.goto(server.url + "/companion?rules=mattel2022&players=Ana,Bo&first=0&lang=ta")
    settle(page)
    tap(page, "7")
    tap(page, "9")
    said = spoken(page)
    assert said and all(s["lang"] == "ta-IN" for s in said)
    assert any("16" in s["text"] for s in said)
    assert translator("ta").gettext("Total {total}") != "Total {total}"


def test_web_table_speaks_announcements_once_turned_on(chromium: Any, server: Server) -> None:
    """R-TURN-1: on the web table speech is off until the player turns it on; then the
    announcements of each move are spoken in the page's language."""
    r = httpx.post(
        server.url + "/api/tables",
        json={"rules": "mattel2022", "players": 2, "bots": "easy", "bot_delay": 0, "seed": 3},
    )
    code = r.json()["code"]
    page = chromium.new_context(viewport={"width": 1000, "height": 800}).new_page()
    page.add_init_script(FAKE_SPEECH)
    page.goto(server.url + "/?lang=en")
    page.wait_for_selector("#lobby:not([hidden])")
    page.fill("#join-code", code)
    page.fill("#join-name", "Ana")
    page.click("#join-button")
    page.wait_for_selector("#waiting:not([hidden])")
    page.click("#start-button")
    page.wait_for_selector("#table:not([hidden])")
    assert page.is_visible("#speech-toggle") and not page.is_checked("#speech-on")
    page.wait_for_function(
        "JSON.parse(document.querySelector('#main').dataset.state).legal.length > 0"
    )
    before = len(spoken(page))
    page.locator('#hand button.card[aria-disabled="false"]').first.click()
    page.wait_for_timeout(500)
    assert len(spoken(page)) == before == 0  # off by default
    page.check("#speech-on")
    assert spoken(page)[-1]["text"].startswith("Total")  # the test line on turning it on
    page.wait_for_function(
        "JSON.parse(document.querySelector('#main').dataset.state).legal.length > 0"
    )
    n = len(spoken(page))
    version = json.loads(page.get_attribute("#main", "data-state") or "{}")["version"]
    page.locator('#hand button.card[aria-disabled="false"]').first.click()
    page.wait_for_function(
        "v => JSON.parse(document.querySelector('#main').dataset.state).version > v", arg=version
    )
    page.wait_for_timeout(300)
    new = spoken(page)[n:]
    assert new and all(s["lang"] == "en-US" for s in new)
    assert any("total" in s["text"] for s in new)


def test_companion_says_the_total_first_and_undo_and_refusals(
    chromium: Any, server: Server
) -> None:
    """R-TURN-1, R-99-1: at a noisy table the total is said first and alone for a plain
    play; Undo is said with the total it leaves; a refusal is said; the mute button on the
    main screen stops speech."""
    ta = translator("ta").gettext
    page = chromium.new_context(viewport={"width": 390, "height": 844}).new_page()
    page.add_init_script(FAKE_SPEECH)
    page.goto(server.url + "/companion?rules=mattel2022&players=Ana,Bo&first=0&lang=ta")
    settle(page)
    assert page.is_hidden("#speech-note")
    tap(page, "7")
    tap(page, "9")
    assert spoken(page)[-1]["text"] == "16"
    before = page.evaluate("JSON.parse(document.querySelector('main').dataset.state).steps")
    page.click('[data-action="undo"]')
    settle(page, before)
    assert spoken(page)[-1]["text"].startswith(ta("Undo")) and "7" in spoken(page)[-1]["text"]
    page.click('#pad [data-card="99"]')  # R-99-1: refused
    page.wait_for_selector("#error:not([hidden])")
    assert "R-99-1" in spoken(page)[-1]["text"]
    n = len(spoken(page))
    page.click("#mute")
    assert page.get_attribute("#mute", "aria-pressed") == "false"
    tap(page, "5")
    assert len(spoken(page)) == n
    page.context.close()


#: records the sounds the page plays (the server's voice)
FAKE_AUDIO = """
window.__played = [];
window.Audio = class { constructor(src) { this.src = src; }
  play() { window.__played.push(this.src); return Promise.resolve(); } pause() {}
  addEventListener() {} };
"""


def test_the_server_speaks_where_the_browser_has_no_voice(chromium: Any, server: Server) -> None:
    """R-TURN-1: the stand-in browser has no Burmese voice: the total is played from the
    server's voice (espeak-ng) instead; where the server has none either, the main screen
    says there is no voice."""
    page = chromium.new_context(viewport={"width": 390, "height": 844}).new_page()
    page.add_init_script(FAKE_SPEECH)
    page.add_init_script(FAKE_AUDIO)
    page.goto(server.url + "/companion?rules=mattel2022&players=Ana,Bo&first=0&lang=my")
    settle(page)
    page.wait_for_function("() => document.querySelector('#speech-note').hidden")
    n = len(spoken(page))
    tap(page, "7")
    assert len(spoken(page)) == n  # no browser voice for Burmese
    played = page.evaluate("window.__played")
    assert played and "lang=my" in played[-1] and "text=7" in played[-1]
    assert httpx.get(server.url + played[-1]).content[:4] == b"RIFF"
    page.context.close()
    page = chromium.new_context(viewport={"width": 390, "height": 844}).new_page()
    page.add_init_script(FAKE_SPEECH)
    page.route("**/api/companion-voice", lambda r: r.fulfill(json={"languages": []}))
    page.goto(server.url + "/companion?rules=mattel2022&players=Ana,Bo&first=0&lang=my")
    settle(page)
    page.wait_for_selector("#speech-note:not([hidden])")
    assert page.is_visible("#speech-note")  # on the main screen, not behind a menu
    page.context.close()
