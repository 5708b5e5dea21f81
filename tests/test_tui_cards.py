"""The terminal game's cards are small boxes in the web page's palette (issue 40): each
card's kind is its class in app.tcss, cards that cannot be played are dimmed, and the
colours are those of web/static/cards.css."""

from __future__ import annotations

import re
from pathlib import Path

from tests.test_tui_app import SIZE, make_app

from ono99.cards import Card
from ono99.game import Game
from ono99.i18n import set_language
from ono99.tui.session import HUMAN, Session
from ono99.tui.widgets import CARD_KINDS, CardView

SRC = Path(__file__).resolve().parents[1] / "src" / "ono99"


async def test_each_card_is_drawn_in_its_kind_and_unplayable_ones_are_dimmed() -> None:
    """R-TURN-2: at total 92 the 99 and the 9 cannot be played: dimmed; the others not."""
    set_language("en")
    app, _saved = make_app("mattel2022", {}, 2, seed=1)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        g = Game("mattel2022", ["You", "Ana"], seed=1)
        g.hands[HUMAN] = [int(Card.NINETY_NINE), 9, int(Card.MINUS10), int(Card.REVERSE)]
        g.total = 92
        g.resettle()
        app.session = Session(game=g, bots="random")
        await app.refresh_table()
        await pilot.pause()
        views = list(app.query(CardView))
        kinds = [next(c for c in v.classes if c.startswith("kind-")) for v in views]
        assert kinds == ["kind-n99", "kind-number", "kind-minus", "kind-reverse"]
        assert [v.has_class("unplayable") for v in views] == [True, True, False, False]


def _hexes(text: str, pattern: str) -> dict[str, tuple[str, str]]:
    return {k: (bg.lower(), ink.lower()) for k, bg, ink in re.findall(pattern, text)}


def test_the_terminal_and_the_page_share_one_palette() -> None:
    tcss = (SRC / "tui" / "app.tcss").read_text(encoding="utf-8")
    css = (SRC / "web" / "static" / "cards.css").read_text(encoding="utf-8")
    terminal = _hexes(tcss, r"CardView\.kind-(\w+) \{ background: (#\w+); color: (#\w+); \}")
    light = css.split("@media")[0]
    page = {k: (bg.lower(), ink.lower()) for k, bg, ink in re.findall(
        r"--cf-(\w+): (#\w+); --cf-\1-ink: (#\w+);", light)}  # fmt: skip
    page["number"] = (
        re.search(r"--cf-paper: (#\w+)", light)[1],
        re.search(r"--cf-ink: (#\w+)", light)[1],  # type: ignore[index]
    )
    kinds = set(CARD_KINDS.values()) - {"draw"}
    assert set(terminal) >= kinds
    assert {k: terminal[k] for k in kinds} == {k: page[k] for k in kinds}
