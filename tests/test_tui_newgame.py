"""Issue 26, the new-game screen: the field with the focus is plain to see, Enter starts
the game from any field (a list opens with Space or the arrows, Enter picks in it), and
no field cuts what is typed."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from textual.widgets import Button, Checkbox, Input, Label, Select

from ono99.i18n import set_language
from ono99.tui.setup import NewGameScreen
from test_tui_app import SIZE, STARTED, make_app, message, open_settings_in_game


@pytest.fixture(autouse=True)
def english() -> Iterator[None]:
    set_language("en")
    yield
    set_language("en")


def fields(screen: NewGameScreen) -> list[Select[object] | Input | Checkbox]:
    return [
        w
        for w in screen.query("Select, Input, Checkbox")
        if isinstance(w, Select | Input | Checkbox) and w.focusable and w.id
    ]


async def test_the_focused_field_is_plain_to_see() -> None:
    """Tab through every field: its row's label alone is drawn in reverse, and the field
    is marked; the Start and Cancel buttons look different when they have the focus."""
    app, _saved = make_app("classic1980", {"scoring": "points", "draw_penalty": True}, 3)
    async with app.run_test(size=SIZE) as pilot:
        await open_settings_in_game(app, pilot)
        screen = app.screen
        assert isinstance(screen, NewGameScreen)
        seen = []
        for _field in range(len(fields(screen)) + 2):
            focused = screen.focused
            assert focused is not None
            if isinstance(focused, Button):
                plain = focused.rich_style
                focused.blur()
                await pilot.pause()
                assert focused.rich_style != plain, focused
                focused.focus()
                await pilot.pause()
            else:
                seen.append(focused.id)
                row = next(a for a in focused.ancestors if "row" in a.classes)
                for label in screen.query(".row .label").results(Label):
                    mine = label.parent is row
                    assert ("reverse" in str(label.rich_style)) == mine, (focused.id, label)
            await pilot.press("tab")
            await pilot.pause()
        assert {f.id for f in fields(screen)} <= set(seen)


@pytest.mark.parametrize(
    "field", ["set-rules", "set-players", "set-scoring", "set-target", "set-draw_penalty",
              "set-draw_seconds", "set-seed"],
)  # fmt: skip
async def test_enter_starts_the_game_from_any_field(field: str) -> None:
    """R-SET-6: Enter on a list (closed), a number, an option or the seed starts the game
    with the settings shown."""
    STARTED.clear()
    app, _saved = make_app("classic1980", {"scoring": "points", "draw_penalty": True}, 3)
    async with app.run_test(size=SIZE) as pilot:
        await open_settings_in_game(app, pilot)
        app.screen.query_one(f"#{field}").focus()
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        assert not isinstance(app.screen, NewGameScreen), message(app)
        assert len(STARTED) == 1 and STARTED[0].rules == "classic1980"
        assert dict(STARTED[0].options)["scoring"] == "points"


async def test_enter_on_an_open_list_picks_and_on_cancel_cancels() -> None:
    STARTED.clear()
    app, _saved = make_app("mattel2022", {}, 2)
    async with app.run_test(size=SIZE) as pilot:
        await open_settings_in_game(app, pilot)
        await pilot.press("space", "down", "enter")  # the rules list: open, next, pick
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, NewGameScreen) and STARTED == []
        assert screen.query_one("#set-rules", Select).value == "classic1980"
        screen.query_one("#set-cancel", Button).focus()
        await pilot.press("enter")
        await pilot.pause()
        assert not isinstance(app.screen, NewGameScreen) and STARTED == []


@pytest.mark.parametrize(("field", "typed"), [("set-target", "12345678"), ("set-seed", "9" * 90)])
async def test_nothing_typed_is_cut(field: str, typed: str) -> None:
    """A field takes all that is typed; a number over its limit is refused with the
    reason, never cut to fit (the points target's limit is 1,000,000, R-SET-6)."""
    STARTED.clear()
    app, _saved = make_app("classic1980", {"scoring": "points"}, 3)
    async with app.run_test(size=SIZE) as pilot:
        await open_settings_in_game(app, pilot)
        box = app.screen.query_one(f"#{field}", Input)
        box.value = ""
        box.focus()
        await pilot.press(*typed)
        assert box.value == typed
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, NewGameScreen) and STARTED == []
        assert ("at most 1000000" if field == "set-target" else "2²⁵⁶ - 1") in message(app)
