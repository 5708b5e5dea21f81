"""The terminal game's keys: each card of the hand shows its key readably, as ``[1] 10``;
the letter keys work in capitals; the log scrolls with the page keys."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from textual.widgets import RichLog

from ono99.i18n import set_language
from ono99.tui.screens import ConfirmNewGame, ConfirmQuit
from ono99.tui.widgets import CardView
from test_tui_app import SIZE, make_app


@pytest.fixture(autouse=True)
def english() -> Iterator[None]:
    set_language("en")
    yield
    set_language("en")


async def test_hand_keys_read_as_bracketed_numbers() -> None:
    set_language("en")
    app, _saved = make_app("mattel2022", {}, 3, seed=6, bot_delay=60, draw_window=60)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        texts = [str(c.content) for c in app.screen.query(CardView)]
        assert texts, "no hand shown"
        for i, text in enumerate(texts, 1):
            assert text.startswith(f"[{i}] ") or text.startswith("[D] "), texts


async def test_letter_keys_work_in_capitals() -> None:
    app, _saved = make_app("mattel2022", {}, 3, seed=5, bot_delay=60, draw_window=60)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("Q")
        assert isinstance(app.screen, ConfirmQuit)
        await pilot.press("N")
        assert not isinstance(app.screen, ConfirmQuit)
        await pilot.press("N")
        assert isinstance(app.screen, ConfirmNewGame)
        await pilot.press("N")
        assert len(app.screen_stack) == 1 and not app.busy
        await pilot.press("F")
        assert app.fast or app.session.waiting_for() == "you"
        await pilot.press("Q", "Y")
    assert app.return_code == 0


async def test_the_log_scrolls_with_page_keys() -> None:
    app, _saved = make_app("mattel2022", {}, 3, seed=1, bot_delay=60, draw_window=60)
    async with app.run_test(size=SIZE) as pilot:
        log = app.query_one(RichLog)
        for i in range(60):
            log.write(f"line {i}")
        await pilot.pause()
        bottom = log.scroll_y
        assert bottom > 0
        await pilot.press("pageup")
        await pilot.pause()
        assert log.scroll_y < bottom
        await pilot.press("pagedown", "pagedown")
        await pilot.pause()
        assert log.scroll_y == bottom
