"""The companion's voice with the network off (docs/companion.md "Totals spoken aloud"),
in Debian's Chromium: the browser here has no Tamil or Kannada voice (one English voice,
recorded instead of spoken), so the server's voice (espeak-ng) speaks. Offline, the page
says it has no voice (the note) and speaks with what is left: a clip heard before, kept
by the service worker, else the browser's own voice. Nothing fails silently."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from server_helpers import Server
from test_companion_e2e import PHONE, open_game

#: a browser with one English voice, whose utterances are recorded
FAKE_SPEECH = """
window.__spoken = [];
const fakeVoice = { lang: "en-US", name: "Test English", default: true };
Object.defineProperty(window, "speechSynthesis", { configurable: true, value: {
  getVoices: () => [fakeVoice], speak: (u) => window.__spoken.push({ text: u.text, lang: u.lang }),
  cancel: () => {}, addEventListener: () => {} } });
"""
VOICE = "() => document.querySelector('main').dataset.voice"


def _test_voice(page: Any, want: str) -> None:
    page.evaluate("() => { document.querySelector('main').dataset.voice = ''; }")
    page.click("#speech-test")
    page.wait_for_function(f"() => ({VOICE})() === '{want}'")


def test_offline_the_note_shows_and_what_voice_is_left_speaks(
    chromium: Any, server: Server, artifacts: Path
) -> None:
    """R-TURN-1 (the total said aloud): online, the server's voice says the voice test's
    line and the note is hidden. Offline, the note shows at once; the same line comes
    from the clip kept before; a line never heard (in Kannada now) is spoken by the
    browser's own voice, told the language."""
    page = open_game(chromium, server, "mattel2022", ["Ana", "Bo"], 0, lang="ta", **PHONE)
    page.add_init_script(FAKE_SPEECH)
    page.reload()
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    page.wait_for_selector("#speech-note", state="hidden")
    page.click("details.menu summary")
    _test_voice(page, "server")
    page.context.set_offline(True)
    page.wait_for_selector("#speech-note:not([hidden])")
    page.screenshot(path=str(artifacts / "companion-no-voice-offline-ta.png"))
    _test_voice(page, "kept")
    assert page.evaluate("window.__spoken") == []
    page.select_option("#lang-select", "kn")
    page.wait_for_function("() => document.documentElement.lang === 'kn'")
    assert page.is_visible("#speech-note")
    _test_voice(page, "fallback")
    spoken = page.evaluate("window.__spoken")
    assert spoken and spoken[-1]["lang"] == "kn-IN" and spoken[-1]["text"]
    page.context.set_offline(False)
    page.wait_for_selector("#speech-note", state="hidden")
    page.context.close()
