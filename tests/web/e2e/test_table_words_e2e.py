"""The table page draws the server's words (issue 23): in a real browser, in Tamil, the
lobby's player counts, options and rules help, and at the table the card names, the
turn line and why a card cannot be played, are exactly what the server sent; and the
page's scripts hold no rule fact of their own (checked on their source)."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path
from typing import Any

import httpx
from server_helpers import Server

from ono99 import Game
from ono99.cards import ACTION_CODES, action_code
from ono99.i18n import speaking
from ono99.rules import PRESETS, make_rules
from ono99.texts import preset_words

ROOT = Path(__file__).resolve().parents[3]
STATIC = ROOT / "src" / "ono99" / "web" / "static"
#: seat 0 of this mattel2022 deal holds an ONO 99 card (R-99-1: it can never be played)
SEED = 17


def _hand(seed: int) -> list[str]:
    return [action_code(c) for c in Game("mattel2022", ["Ana", "Bo"], seed=seed).hands[0]]


def test_the_page_shows_the_servers_words_in_tamil(
    server: Server, chromium: Any, artifacts: Path
) -> None:
    """R-SET-5, R-SET-6, R-99-1, R-LIM-2: a Tamil page's lobby offers exactly the
    player counts and options the server gives for classic1980 (and mini's size) and
    shows its rules help for the options chosen; at a table, each card's face, the turn line and the reason
    under the ONO 99 card are the `texts` of the last `state` the page received, in
    Tamil."""
    assert "99" in _hand(SEED)
    errors: list[str] = []
    ctx = chromium.new_context(viewport={"width": 1100, "height": 900})
    page = ctx.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    frames: list[dict[str, Any]] = []
    page.on(
        "websocket",
        lambda ws: ws.on("framereceived", lambda payload: frames.append(json.loads(payload))),
    )
    page.goto(server.url + "/?lang=ta")
    page.wait_for_selector("#lobby:not([hidden])")
    with speaking("ta"):
        classic = preset_words("classic1980")
        titles = [preset_words(p)["title"] for p in PRESETS]
        points = preset_words("classic1980", {"scoring": "points", "target": 150})
    assert page.locator("#create-rules option").all_text_contents() == titles
    page.select_option("#create-rules", "classic1980")
    lo, hi = classic["players"]
    counts = page.locator("#create-players option").all_text_contents()
    assert counts == [str(n) for n in range(lo, hi + 1)]
    labels = page.locator("#create-options label span").all_text_contents()
    assert labels == [o["label"] for o in classic["options"]]
    assert classic["options"][0]["label"] != "Scoring"  # Tamil, not the English fallback
    page.select_option("#opt-scoring", "points")
    page.fill("#opt-target", "150")
    page.click("#help-button")
    page.wait_for_selector("#help[open]")
    page.wait_for_function(
        "t => document.querySelector('#help-text').textContent.includes(t)", arg=points["help"][3]
    )
    assert page.locator("#help-text p").all_text_contents() == points["help"]
    page.screenshot(path=str(artifacts / "help-ta.png"), full_page=True)
    page.keyboard.press("Escape")
    # mini's one option, its size (issue 37): a list of the two sizes in words; the help
    # follows the size chosen
    with speaking("ta"):
        mini = preset_words("mini")
        large = preset_words("mini", {"size": "large"})
    page.select_option("#create-rules", "mini")
    labels = page.locator("#create-options label span").all_text_contents()
    assert labels == [o["label"] for o in mini["options"]] and len(labels) == 1
    sizes = page.locator("#opt-size option").all_text_contents()
    assert sizes == [c["label"] for c in mini["options"][0]["choices"]]
    page.select_option("#opt-size", "large")
    page.click("#help-button")
    page.wait_for_selector("#help[open]")
    page.wait_for_function(
        "t => document.querySelector('#help-text').textContent.includes(t)", arg=large["help"][1]
    )
    assert page.locator("#help-text p").all_text_contents() == large["help"]
    page.keyboard.press("Escape")

    settings = {"rules": "mattel2022", "players": 2, "bots": "easy", "seed": SEED,
                "bot_delay": 0, "name": "Ana"}  # fmt: skip
    created = httpx.post(server.url + "/api/tables", json=settings).json()
    page.evaluate(
        "([id, creds]) => localStorage.setItem(`ono99.seat.${id}`, creds)",
        [created["table"], json.dumps({"seat": 0, "token": created["token"], "name": "Ana"})],
    )
    r = httpx.post(f"{server.url}/api/tables/{created['table']}/start",
                   json={"token": created["token"]})  # fmt: skip
    assert r.status_code == 200, r.text
    page.goto(f"{server.url}/t/{created['code']}?lang=ta")
    page.wait_for_selector("#hand .card .why")
    states = [f for f in frames if f.get("type") == "state"]
    texts = states[-1]["texts"]
    assert states[-1]["view"]["hand"] == _hand(SEED)
    faces = page.locator("#hand .card .face").all_text_contents()
    assert faces == [texts["cards"][c] for c in _hand(SEED)]
    with speaking("ta"):
        assert texts["cards"] == preset_words("mattel2022")["cards"]
    assert page.text_content("#turn") == texts["turn"]
    why = page.locator('#hand .card[data-card="99"] .why').first.text_content()
    assert why == texts["why_not"]["99"]
    with speaking("ta"):
        from ono99.i18n import _

        never = _("The {card} card can never be played: it stays in your hand")
        assert why == never.format(card=_("ONO 99")) != "The ONO 99 card can never be played"
    page.screenshot(path=str(artifacts / "table-words-ta.png"), full_page=True)
    ctx.close()
    assert not errors, errors


# ---------------------------------------------------------------- the scripts' source


def _table_scripts() -> dict[str, str]:
    """The table page's scripts (the companion's, companion*.js, are its own page)."""
    return {
        p.name: p.read_text(encoding="utf-8")
        for p in sorted((STATIC / "js").glob("*.js"))
        if not p.name.startswith("companion")
    }


def _js_strings(src: str) -> set[str]:
    """Every string literal of a script ("...", '...' and `...` without ${})."""
    found: set[str] = set()
    for quote in ('"', "'", "`"):
        found.update(re.findall(quote + r"((?:[^" + quote + r"\\\n]|\\.)*)" + quote, src))
    return found


def _engine_msgids() -> set[str]:
    """The English words of ``ono99/texts.py`` and ``ono99/narrate.py``: card names,
    reasons, whose turn it is, the rules help, option labels, the narration."""
    ids: set[str] = set()
    for name in ("texts.py", "narrate.py"):
        tree = ast.parse((ROOT / "src" / "ono99" / name).read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) in ("_", "N_"):
                ids.update(a.value for a in node.args if isinstance(a, ast.Constant))
            elif isinstance(node, ast.Call) and getattr(node.func, "id", None) == "ngettext":
                ids.update(a.value for a in node.args[:2] if isinstance(a, ast.Constant))
    return {i for i in ids if isinstance(i, str)}


#: words both sides say that carry no rule: the direction, who won, tokens and points
#: counts, being out (the replay viewer and the companion word a state with them)
SHARED_WORDS = {
    "clockwise", "counterclockwise", "No winner yet", "You win the game!",
    "{name} wins the game!", "{names} share the win", "{count} token", "{count} tokens",
    "{count} point", "{count} points", "out of the game", "out of this round", "winner",
    "You",
}  # fmt: skip


def test_the_table_pages_scripts_hold_no_rule_facts() -> None:
    """R-SET-5, R-SET-6 and the cards' names stay in the engine: no script of the table
    page names a preset, holds a player range or a deck count, or says any of the
    engine's rule words (card names, reasons, turn lines, rules help, option labels,
    narration) itself."""
    scripts = _table_scripts()
    assert {"app.js", "words.js", "replay.js", "i18n.js"} <= set(scripts)
    rule_words = _engine_msgids() - SHARED_WORDS - set(ACTION_CODES)  # codes: the protocol
    assert {"Reverse", "Play 2", "ONO 99", "{card}: can never be played."} <= rule_words
    ranges = {f"[{r.min_players}, {r.max_players}]" for r in map(make_rules, PRESETS)}
    for name, src in scripts.items():
        strings = _js_strings(src)
        assert not strings & set(PRESETS), (name, strings & set(PRESETS))
        assert not strings & rule_words, (name, strings & rule_words)
        compact = re.sub(r"\s+", " ", src)
        for r in ranges:
            assert r not in compact, (name, r)
        # no table of card codes to names or classes of cards beyond the CSS look
        assert not re.search(r"""["']?P2["']?\s*:\s*t\(""", src), name


def test_the_companions_scripts_hold_no_presets_or_player_ranges() -> None:
    """R-SET-5, R-SET-6: the companion's setup takes the presets, their player ranges and
    their options from the engine's words (PresetOut), not from tables of its own."""
    ranges = {f"[{r.min_players}, {r.max_players}]" for r in map(make_rules, PRESETS)}
    scripts = sorted((STATIC / "js").glob("companion*.js"))
    assert scripts
    for path in scripts:
        src = path.read_text(encoding="utf-8")
        assert not _js_strings(src) & set(PRESETS), path.name
        compact = re.sub(r"\s+", " ", src)
        assert not any(r in compact for r in ranges), path.name
