"""The table moves as a card game (issue 40): a played card travels to the pile, the total
changes visibly, what happened is shown on the seat where it happened; all of it only where
the user allows motion; short sounds only once the player turns them on."""

from __future__ import annotations

import json
from typing import Any

from tests.web.server_helpers import Server, seat_in, started

# records what the page does with Web Audio and animations, before any of its scripts run
PROBE = """
window.__probe = {contexts: 0, tones: 0, classes: []};
const Real = window.AudioContext;
window.AudioContext = class extends Real {
  constructor(...a) { super(...a); window.__probe.contexts++; }
  createOscillator() {
    const o = super.createOscillator(); const start = o.start.bind(o);
    o.start = (...a) => { window.__probe.tones++; return start(...a); }; return o;
  }
};
new MutationObserver((muts) => { for (const m of muts) {
  const c = m.target.className; if (typeof c === 'string' && c.includes('fx-')) window.__probe.classes.push(c);
}}).observe(document, {attributes: true, attributeFilter: ['class'], subtree: true});
"""


def _open_table(server: Server, chromium: Any, **context: Any) -> Any:
    created = started(server, rules="mattel2022", players=2, bots="easy", seed=21)
    ctx = chromium.new_context(viewport={"width": 1280, "height": 800}, **context)
    ctx.add_init_script(PROBE)
    seat_in(ctx, created)
    page = ctx.new_page()
    page.goto(f"{server.url}/t/{created['code']}")
    return page


def _play_until_my_turn_again(page: Any) -> None:
    """Play the first playable card, then wait until the bot has answered (a new turn)."""
    page.wait_for_selector('#hand button.card[aria-disabled="false"]')
    before = json.loads(page.get_attribute("#main", "data-state") or "{}")["version"]
    page.locator('#hand button.card[aria-disabled="false"]').first.click()
    page.wait_for_function(
        "v => { const s = JSON.parse(document.querySelector('#main').dataset.state);"
        " return s.version > v + 1 || s.winner !== null; }",
        arg=before,
    )


def test_a_card_travels_to_the_pile_and_the_total_changes_visibly(
    server: Server, chromium: Any
) -> None:
    page = _open_table(server, chromium)
    page.evaluate("""() => { window.__anims = [];
      const real = Element.prototype.animate;
      Element.prototype.animate = function (...a) { window.__anims.push(this.className); return real.apply(this, a); }; }""")
    _play_until_my_turn_again(page)
    probe = page.evaluate("() => window.__probe")
    assert any("fx-total" in c for c in probe["classes"])
    assert any(str(c).startswith("pc ") for c in page.evaluate("() => window.__anims"))
    top = page.locator("#pile .discard .pc").last.get_attribute("data-card")
    state = json.loads(page.get_attribute("#main", "data-state") or "{}")
    assert top is not None and state["total"] >= 0
    # the sounds stay off until the player turns them on: no audio at all so far
    assert probe["contexts"] == 0 and probe["tones"] == 0
    assert page.is_checked("#sounds-on") is False


def test_no_motion_where_the_user_asks_for_less(server: Server, chromium: Any) -> None:
    page = _open_table(server, chromium, reduced_motion="reduce")
    page.evaluate("""() => { window.__anims = 0;
      const real = Element.prototype.animate;
      Element.prototype.animate = function (...a) { window.__anims++; return real.apply(this, a); }; }""")
    _play_until_my_turn_again(page)
    assert page.evaluate("() => window.__anims") == 0
    assert page.evaluate("() => document.getAnimations().length") == 0


def test_sounds_play_once_turned_on_and_stay_on_after_a_reload(
    server: Server, chromium: Any
) -> None:
    page = _open_table(server, chromium)
    page.wait_for_selector("#hand .card")
    page.check("#sounds-on")
    page.wait_for_function("() => window.__probe.tones > 0")  # the switch says it is on
    tones = page.evaluate("() => window.__probe.tones")
    _play_until_my_turn_again(page)
    page.wait_for_function("n => window.__probe.tones > n", arg=tones)
    page.reload()
    page.wait_for_selector("#hand .card")
    assert page.is_checked("#sounds-on")
