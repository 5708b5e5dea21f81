"""Issue 26: each card of the hand shows its key readably, as ``[1] 10``."""

from __future__ import annotations

import sys
from pathlib import Path

from ono99.i18n import set_language
from ono99.tui.widgets import CardView

sys.path.insert(0, str(Path(__file__).parent))
from test_tui_app import SIZE, make_app


async def test_hand_keys_read_as_bracketed_numbers() -> None:
    set_language("en")
    app, _saved = make_app("mattel2022", {}, 3, seed=6, bot_delay=60, draw_window=60)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        texts = [str(c.content) for c in app.screen.query(CardView)]
        assert texts, "no hand shown"
        for i, text in enumerate(texts, 1):
            assert text.startswith(f"[{i}] ") or text.startswith("[D] "), texts
