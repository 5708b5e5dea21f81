"""Issue 26: the new-game screen takes a seed as strictly as ``--seed`` and a record do
(R-REC: a whole number from 0 to 2²⁵⁶ - 1): -5 is refused (it was saved, then failed to
replay), a 38-digit seed can be typed whole, nothing is cut silently."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from textual.widgets import Input

from ono99.i18n import set_language
from ono99.records import SEED_LIMIT

sys.path.insert(0, str(Path(__file__).parent))
from test_tui_app import SIZE, STARTED, make_app, message, open_settings_in_game


@pytest.mark.parametrize("bad", ["-5", "+5", "1e3", str(SEED_LIMIT), "٣"])
async def test_new_game_screen_refuses_seeds_a_record_cannot_hold(bad: str) -> None:
    set_language("en")
    STARTED.clear()
    app, _saved = make_app("mattel2022", {}, 3, seed=6, bot_delay=60, draw_window=60)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        s = app.session
        await open_settings_in_game(app, pilot)
        screen = app.screen
        seed = screen.query_one("#set-seed", Input)
        seed.focus()
        await pilot.press(*bad, "enter")
        assert seed.value == bad  # typed whole, not cut
        assert app.screen is screen and app.session is s and STARTED == []
        assert "from 0 to 2²⁵⁶ - 1" in message(app)


async def test_new_game_screen_takes_a_38_digit_seed() -> None:
    set_language("en")
    STARTED.clear()
    big = "12345678901234567890123456789012345678"
    app, _saved = make_app("mattel2022", {}, 3, seed=6, bot_delay=60, draw_window=60)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await open_settings_in_game(app, pilot)
        seed = app.screen.query_one("#set-seed", Input)
        seed.focus()
        await pilot.press(*big, "enter")
        await pilot.pause()
        assert STARTED and STARTED[-1].seed == int(big)
