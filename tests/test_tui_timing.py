"""The terminal game's timing: the draw window counted down on screen (R-DRAW-1), its
length and the bots' pace from the command line and the new-game screen, fast-forward until
your turn. The Textual table is driven with the pilot (as in test_tui_app.py); the command
line through a subprocess."""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Iterator

import pytest

from ono99.i18n import set_language
from ono99.tui.session import HUMAN, parse_pace
from test_play_plain import ENV
from test_tui_app import SIZE, make_app
from tui_helpers import draw_penalty_game, on_screen, position_app


@pytest.fixture(autouse=True)
def english() -> Iterator[None]:
    set_language("en")
    yield
    set_language("en")


async def test_draw_window_is_counted_down_on_screen() -> None:
    """R-DRAW-1: after your play the hint counts the seconds left to draw (draw_window
    = --draw-seconds); who owes two stays on screen meanwhile (R-P2-6)."""
    app, _saved = make_app("mattel2022", {}, 3, seed=1, bot_delay=0.01, draw_window=3)
    async with app.run_test(size=SIZE) as pilot:
        s = position_app(app, draw_penalty_game())
        await app.refresh_table()
        await pilot.press("1")  # the Double Play: Ana owes two
        assert s.human_may_draw()
        first = on_screen(app, "#hint")
        m = re.search(r"Press D now to draw your card! (\d\.\d) s left", first)
        assert m and 2.0 <= float(m.group(1)) <= 3.0, first
        assert "Ana must play two cards" in on_screen(app, "#owes")
        assert app.query_one("#owes").display
        await pilot.pause(0.6)
        later = re.search(r"(\d\.\d) s left", on_screen(app, "#hint"))
        assert later and float(later.group(1)) < float(m.group(1))
        await pilot.press("D")  # Shift+D draws (item 3)
        assert not s.human_may_draw() and len(s.view().hand) == 4


async def test_a_countdown_tick_after_the_widgets_are_gone_is_harmless() -> None:
    """R-DRAW-1: the draw window's countdown may tick once more while the app shuts down
    (CI once failed on it: the hint was gone); that tick does nothing."""
    app, _saved = make_app("mattel2022", {}, 3, seed=1, bot_delay=0.01, draw_window=3)
    async with app.run_test(size=SIZE):
        await app.query_one("#hint").remove()
        app.show_countdown()  # no #hint: nothing to update, no error


def test_draw_seconds_and_pace_on_the_command_line() -> None:
    def play(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "ono99", "play", "--plain", "--seed", "1", *args],
            input="quit\n", capture_output=True, text=True, env=ENV, timeout=60,
        )  # fmt: skip

    for good in (["--draw-seconds", "2.5"], ["--pace", "fast"], ["--pace", "0.2"]):
        assert play(*good).returncode == 0, good
    for bad, words in [
        (["--draw-seconds", "0"], "--draw-seconds must be more than 0"),
        (["--draw-seconds", "inf"], "--draw-seconds must be more than 0"),
        (["--pace", "warp"], "--pace must be slow, normal, fast"),
        (["--pace", "nan"], "--pace must be slow, normal, fast"),
    ]:
        r = play(*bad)
        lines = r.stderr.strip().splitlines()
        assert r.returncode == 2 and len(lines) == 1 and words in lines[0], (bad, r.stderr)
    assert parse_pace("slow") > parse_pace("normal") > parse_pace("fast") > 0
    assert parse_pace(" 0 ") == 0


async def test_pace_and_draw_seconds_on_the_new_game_screen() -> None:
    from test_tui_app import STARTED, open_settings_in_game

    STARTED.clear()
    app, _saved = make_app("mattel2022", {}, 3, seed=6, bot_delay=60, draw_window=60)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await open_settings_in_game(app, pilot)
        screen = app.screen
        assert not screen.query_one("#row-draw_seconds").display  # mattel2022: no penalty
        screen.query_one("#set-rules").value = "gamerules"  # type: ignore[attr-defined]
        await pilot.pause()
        screen.query_one("#set-draw_penalty").value = True  # type: ignore[attr-defined]
        await pilot.pause()
        assert screen.query_one("#row-draw_seconds").display
        assert not screen.query_one("#row-draw_seconds").disabled
        screen.query_one("#set-draw_seconds").value = "40"  # type: ignore[attr-defined]
        screen.query_one("#set-pace").value = 0.3  # type: ignore[attr-defined]
        await pilot.click("#set-start")
        assert app.screen is screen and "seconds to draw" in on_screen(app, "#set-message")
        screen.query_one("#set-draw_seconds").value = "4"  # type: ignore[attr-defined]
        await pilot.pause(0.4)  # the button takes no second press while it still shows the first
        await pilot.click("#set-start")
        await pilot.pause()
        assert app.screen is not screen, on_screen(app, "#set-message")
        assert STARTED[-1].pace == 0.3 and STARTED[-1].draw_seconds == 4
        assert app.bot_delay == 0.3 and app.draw_window == 4


async def test_fast_forward_at_any_time_until_your_turn() -> None:
    """F while you are still in: the bots (60 s a move here) play at once until your turn."""
    app, _saved = make_app("mattel2022", {}, 4, seed=2, bot_delay=60, draw_window=60)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        s = app.session
        if s.waiting_for() == "you":
            await pilot.press("1")
        assert s.waiting_for() == "bot" and s.view().active[HUMAN]
        await pilot.press("f")
        for _ in range(100):
            if s.waiting_for() != "bot":
                break
            await pilot.pause(0.05)
        assert s.waiting_for() == "you" or s.is_over or app.busy  # not 60 s a move
        assert not app.fast  # it ends at your turn
        await pilot.pause()
        assert "fast-forward" not in on_screen(app, "#top")
        app.fast = True  # what the top line says while it lasts
        assert "fast-forward" in str(app.top_text())
