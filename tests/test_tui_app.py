"""The Textual table of ``ono99 play``, driven with Textual's pilot, in every language."""

from __future__ import annotations

import random
import re
import time
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest
from rich.cells import cell_len
from rich.console import Console
from rich.text import Text
from textual.containers import ScrollableContainer
from textual.pilot import Pilot
from textual.widgets import Checkbox, Input, RichLog, Select, Static

from ono99.cards import DRAW
from ono99.game import Game
from ono99.i18n import LANGUAGES, _, set_language, translator
from ono99.tui.app import OnoApp
from ono99.tui.screens import ConfirmNewGame, ConfirmQuit, GameOver, HelpScreen, RoundSummary
from ono99.tui.session import HUMAN, NewGame, Session
from ono99.tui.setup import NewGameScreen
from tui_helpers import on_screen, position_app

SIZE = (80, 24)
#: the sizes the layout is made for: the usual terminal, and a small one (issue 11)
SIZES = [(80, 24), (60, 20)]

#: one game per language, spread over the presets and player counts
GAMES: dict[str, tuple[str, dict[str, Any], int]] = {
    "en": ("mattel2022", {}, 4),
    "ta": ("classic1980", {"draw_penalty": True}, 4),
    "gu": ("classic1980", {"scoring": "points", "target": 60}, 5),
    "uz": ("gamerules", {"draw_penalty": True}, 3),
    "my": ("mattel2022", {}, 6),
    "kn": ("classic1980", {}, 2),  # 5 players (gu has them) took 25-40 s: 15 rounds
}
# (8 players, the tallest table, are laid out in every language by
# test_every_preset_fits_in_every_language; a whole 8-player token game takes minutes here)


@pytest.fixture(autouse=True)
def english_after() -> Iterator[None]:
    yield
    set_language("en")


def use_language(lang: str) -> None:
    try:
        translator(lang)
    except OSError:
        pytest.fail(f"no compiled {lang} catalog: the .mo files are committed (scripts/i18n.py)")
    set_language(lang)


def make_app(rules: str, options: dict[str, Any], players: int, seed: int = 1,
             **kw: Any) -> tuple[OnoApp, list[Session]]:  # fmt: skip
    saved: list[Session] = []

    def save(s: Session) -> str:
        saved.append(s)
        return "game.json"

    def new(k: int) -> Session:
        return Session(rules, players, options=options, bots="random", seed=seed + k)

    kw.setdefault("bot_delay", 0.001)
    kw.setdefault("draw_window", 0.002)
    return OnoApp(new, start=start_random, save=save, **kw), saved


#: the settings each new game was started with from the new-game screen
STARTED: list[NewGame] = []


def start_random(settings: NewGame) -> Session:
    """The app's ``start`` factory for tests: the chosen settings, random (fast) bots."""
    STARTED.append(settings)
    return replace(settings, bots="random").session()


def layout_problems(app: OnoApp) -> list[str]:
    """Widgets whose text does not fit their box at this size (wide/combining scripts)."""
    problems: list[str] = []
    screen = app.screen
    width, height = app.size
    for w in screen.query("*"):
        if not w.display or w.region.area == 0:
            continue
        r = w.region
        scrolled = any(isinstance(a, ScrollableContainer) for a in w.ancestors)
        if not scrolled and (r.right > width or r.bottom > height):
            problems.append(f"{w!r} lies outside the screen: {r}")
        title = w.border_title
        if title and cell_len(str(title)) + 4 > w.outer_size.width:
            problems.append(f"{w!r}: border title {title!r} is cut")
        if not isinstance(w, Static) or isinstance(w, RichLog):
            continue
        content = w.content
        if isinstance(content, str):
            content = Text(content)
        size = w.content_size
        if size.width <= 0:
            continue
        console = Console(width=size.width, legacy_windows=False, color_system=None)
        lines = console.render_lines(content, console.options, pad=False)
        used = [line for line in lines if "".join(seg.text for seg in line).strip()]
        if len(lines) > size.height and len(used) > size.height:
            problems.append(f"{w!r}: {len(used)} lines in a {size.height}-line box")
        for line in lines:
            text = "".join(seg.text for seg in line)
            if cell_len(text) > size.width:
                problems.append(f"{w!r}: line {text!r} wider than {size.width}")
    return problems


def players_show_everyone(app: OnoApp) -> list[str]:
    panel = app.query_one("#players", Static)
    console = Console(width=panel.content_size.width, color_system=None)
    text = "\n".join(
        "".join(s.text for s in line)
        for line in console.render_lines(panel.content, console.options, pad=False)
    )
    return [name for name in app.session.names if name not in text]


async def play_to_the_end(app: OnoApp, pilot: Pilot[Any], seed: int) -> dict[str, int]:
    """Play like a person: number keys, arrows + Enter, D to draw; Enter on summaries."""
    rng = random.Random(seed)
    seen = {"turns": 0, "rounds": 0, "checks": 0}
    deadline = time.monotonic() + 600  # a whole game, however busy the machine
    while time.monotonic() < deadline:
        await pilot.pause()
        screen = app.screen
        if isinstance(screen, GameOver):
            assert not layout_problems(app), layout_problems(app)
            return seen
        if isinstance(screen, RoundSummary):
            seen["rounds"] += 1
            assert not layout_problems(app), layout_problems(app)
            await pilot.press("enter")
            continue
        s = app.session
        if s.waiting_for() == "you" and not app.busy:
            seen["turns"] += 1
            if seen["turns"] % 5 == 1:
                seen["checks"] += 1
                assert not layout_problems(app), layout_problems(app)
                assert not players_show_everyone(app)
            view = s.view()
            if DRAW in view.legal and rng.random() < 0.7:
                await pilot.press("d")
                continue
            legal = [i for i, a in enumerate(app.actions) if a in view.legal and a != DRAW]
            i = rng.choice(legal)
            if rng.random() < 0.5:
                await pilot.press(str(i + 1))
            else:
                steps = (i - app.selected) % len(app.actions)
                for _step in range(steps):
                    await pilot.press("right")
                await pilot.press("enter")
        elif s.human_may_draw() and rng.random() < 0.5:
            await pilot.press("d")
        else:
            await pilot.pause(0.005)
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("lang", list(LANGUAGES))
async def test_whole_game_in_every_language(lang: str) -> None:
    use_language(lang)
    rules, options, players = GAMES[lang]
    app, saved = make_app(rules, options, players, seed=7)
    size = SIZES[list(LANGUAGES).index(lang) % 2]  # half of them at 60x20
    async with app.run_test(size=size) as pilot:
        assert not layout_problems(app), layout_problems(app)
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        assert not layout_problems(app), layout_problems(app)
        await pilot.press("escape")
        seen = await play_to_the_end(app, pilot, seed=7)
        assert seen["checks"] > 0
        assert app.session.is_over and saved == [app.session]
        await pilot.press("q")
    assert app.return_code == 0


async def test_unplayable_card_is_explained_and_nothing_changes() -> None:
    set_language("en")
    app, _saved = make_app("mattel2022", {}, 2, seed=1)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        g = Game("mattel2022", ["You", "Ana"], seed=1, rng=1)  # the deal it was written for
        g.hands[HUMAN] = [15, 9, 5, 3]  # an ONO 99 card and a 9 at total 92
        g.total = 92
        g.resettle()
        app.session = Session(game=g, bots="random")  # the test's own position
        await app.refresh_table()
        await pilot.press("1")
        hint = str(app.query_one("#hint", Static).content)
        assert "never be played" in hint
        await pilot.press("2")
        assert "9 would take the total to 101" in str(app.query_one("#hint", Static).content)
        assert g.total == 92 and len(g.moves) == 0
        await pilot.press("3")
        assert g.moves == [5]


async def test_quit_asks_first_and_saves_the_record() -> None:
    set_language("en")
    app, saved = make_app("mattel2022", {}, 3, seed=2)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("q")
        assert isinstance(app.screen, ConfirmQuit)
        await pilot.press("n")
        assert not isinstance(app.screen, ConfirmQuit)
        assert saved == []
        await pilot.press("q")
        await pilot.press("y")
    assert saved and app.return_code == 0


async def test_draw_key_takes_the_pending_draw_before_the_next_bot_plays() -> None:
    """R-DRAW-1: a short window after your play, D draws; waiting loses the card."""
    set_language("en")
    app, _saved = make_app(
        "classic1980", {"draw_penalty": True}, 3, seed=4, bot_delay=0.001, draw_window=1.5
    )
    async with app.run_test(size=SIZE) as pilot:
        s = app.session
        while s.waiting_for() != "you":
            await pilot.pause(0.01)
        view = s.view()
        await pilot.press(str(app.actions.index(next(a for a in view.legal if a != DRAW)) + 1))
        assert s.human_may_draw()
        assert (
            "Press D now" in str(app.query_one("#hint", Static).content) or s.waiting_for() == "you"
        )
        hand = len(s.view().hand)
        await pilot.press("d")
        assert len(s.view().hand) == hand + 1
        log = "\n".join(line.text for line in app.query_one(RichLog).lines)
        assert "You draw " in log
        # next time, do nothing: the next card played (by anyone) loses it
        lost = False
        start_round = s.view().round
        for _ in range(2000):
            log = "\n".join(line.text for line in app.query_one(RichLog).lines)
            lost = "You did not draw in time" in log
            if lost or s.is_over or s.view().round != start_round:
                break
            if s.waiting_for() == "you" and not app.busy:
                view = s.view()
                card = next(a for a in view.legal if a != DRAW)
                await pilot.press(str(app.actions.index(card) + 1))
            await pilot.pause(0.01)
        assert lost  # the next card played (seed 4: a bot's) loses the skipped draw


async def test_play_again_starts_a_new_game() -> None:
    set_language("en")
    app, _saved = make_app("mattel2022", {}, 2, seed=3)
    async with app.run_test(size=SIZE) as pilot:
        await play_to_the_end(app, pilot, seed=3)
        first = app.session
        await pilot.press("p")
        await pilot.pause()
        assert app.games == 1 and app.session is not first and not app.session.is_over
        assert not isinstance(app.screen, GameOver)


def test_cell_widths_match_the_terminal() -> None:
    """Spacing marks take a cell, as tmux/xterm/VTE draw them (measured in tmux 3.3)."""
    from ono99.tui.cells import use_terminal_widths

    use_terminal_widths()
    measured = {"ડ્રો": 3, "ပြောင်းပြန်": 9, "ಪ್ಲೇ 2": 5, "ப்ளே 2": 5, "நான்கு": 5, "ಅನಾ": 3,
                "போ": 2, "ગુજરાતી": 6, "abc": 3, "日本": 4}  # fmt: skip
    assert {s: cell_len(s) for s in measured} == measured


def cut_words(app: OnoApp) -> list[str]:
    """Words of the table shortened with "…" to fit (a name or "counterclockwise")."""
    cut: list[str] = []
    for w in app.screen.query(Static):
        if not w.display or isinstance(w, RichLog) or w.content_size.width <= 0:
            continue
        console = Console(width=w.content_size.width, color_system=None)
        content = Text(w.content) if isinstance(w.content, str) else w.content
        for line in console.render_lines(content, console.options, pad=False):
            text = "".join(seg.text for seg in line)
            if ("…" in text.replace("…\n", "") and not text.rstrip().endswith("…")) or (
                re.search(r"\w…", text) and w.id != "turn"
            ):
                cut.append(text)
    return cut


@pytest.mark.parametrize("size", SIZES, ids=["80x24", "60x20"])
@pytest.mark.parametrize("lang", list(LANGUAGES))
@pytest.mark.parametrize(
    ("rules", "options", "players"),
    [
        ("mattel2022", {}, 6),
        ("classic1980", {"scoring": "points", "draw_penalty": True}, 8),
        ("gamerules", {"draw_penalty": True}, 8),
    ],
)
async def test_every_preset_fits_in_every_language(
    lang: str, rules: str, options: dict[str, Any], players: int, size: tuple[int, int]
) -> None:
    """At 80x24 and 60x20: nothing cut or outside the screen, every player and score in
    sight, the whole key legend, no word shortened with "…"."""
    use_language(lang)
    app, _saved = make_app(rules, options, players, seed=1, bot_delay=60, draw_window=60)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        assert not layout_problems(app), layout_problems(app)
        assert not players_show_everyone(app)
        assert not cut_words(app), cut_words(app)
        keys = str(app.query_one("#keys", Static).content)
        assert _("Q: quit") in keys and _("?: help") in keys
        if app.session.waiting_for() == "you":
            for key in ("right", "right", "right"):
                await pilot.press(key)
                assert not layout_problems(app), layout_problems(app)
        await pilot.press("q")
        assert isinstance(app.screen, ConfirmQuit)
        assert not layout_problems(app), layout_problems(app)
        await pilot.press("y")


# ---------------------------------------------------------------- the new-game screen


def message(app: OnoApp) -> str:
    return str(app.screen.query_one("#set-message", Static).content)


async def open_settings_in_game(app: OnoApp, pilot: Pilot[Any]) -> None:
    await pilot.press("n")
    assert isinstance(app.screen, ConfirmNewGame)
    await pilot.press("y")
    await pilot.pause()
    assert isinstance(app.screen, NewGameScreen)


async def test_new_game_from_game_over_with_the_keyboard() -> None:
    """S at the end: classic1980, 3 players (R-SET-5), draw_penalty on (R-SET-6), a seed —
    chosen with keys only (Tab, Space/arrows to open a list and Enter to pick, Space on
    options); the new game has them and plays to the end, and its record is saved like the
    first one's."""
    set_language("en")
    STARTED.clear()
    app, saved = make_app("mattel2022", {}, 2, seed=3)
    async with app.run_test(size=SIZE) as pilot:
        await play_to_the_end(app, pilot, seed=3)
        first = app.session
        assert saved == [first]
        await pilot.press("s")
        await pilot.pause()
        assert isinstance(app.screen, NewGameScreen)
        assert not layout_problems(app), layout_problems(app)
        # points options only for presets with scoring (R-SET-6)
        assert not app.screen.query_one("#row-scoring").display
        await pilot.press("space", "down", "enter")  # rules: mattel2022 -> classic1980
        assert app.screen.query_one("#set-rules", Select).value == "classic1980"
        assert app.screen.query_one("#row-draw_penalty").display
        assert app.screen.query_one("#row-target").disabled  # scoring is tokens
        await pilot.press("tab", "space", "down", "enter")  # players: 2 -> 3
        assert app.screen.query_one("#set-players", Select).value == 3
        # bots, pace, scoring, 99 option, draw penalty
        await pilot.press("tab", "tab", "tab", "tab", "tab")
        assert app.screen.focused is app.screen.query_one("#set-draw_penalty", Checkbox)
        await pilot.press("space")
        assert app.screen.query_one("#set-draw_penalty", Checkbox).value
        assert not app.screen.query_one("#row-draw_seconds").disabled  # the draw window
        await pilot.press("tab", "tab", *"4242", "enter")  # seconds to draw, seed
        await pilot.pause()
        assert not isinstance(app.screen, NewGameScreen)
        s = app.session
        assert s is not first and not s.is_over
        assert s.rules.preset == "classic1980" and s.players == 3 and s.seed == 4242
        assert dict(s.rules.options) == {
            "scoring": "tokens", "zero_ending_99": False, "draw_penalty": True
        }  # fmt: skip
        assert [
            NewGame("classic1980", 3, "random", dict(s.rules.options), 4242, pace=0.001,
                    draw_seconds=0.002)
        ] == STARTED  # fmt: skip
        await play_to_the_end(app, pilot, seed=5)
        assert saved == [first, s]
        await pilot.press("p")  # play again keeps the new settings, the next seed
        await pilot.pause()
        again = app.session
        assert again is not s and again.rules == s.rules and again.seed == 4243
        assert again.players == 3


async def test_new_game_key_asks_first_and_escape_changes_nothing() -> None:
    """N in a game asks like Q; N or Esc at any step leaves the game as it was."""
    set_language("en")
    STARTED.clear()
    app, saved = make_app("mattel2022", {}, 3, seed=5, bot_delay=60, draw_window=60)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        s = app.session
        before = s.public_view()
        await pilot.press("n")
        assert isinstance(app.screen, ConfirmNewGame)
        assert not layout_problems(app), layout_problems(app)
        await pilot.press("n")
        assert not isinstance(app.screen, ConfirmNewGame) and not app.busy
        await open_settings_in_game(app, pilot)
        await pilot.press("escape")
        await pilot.pause()
        assert app.session is s and s.public_view() == before and not s.is_over
        assert len(app.screen_stack) == 1 and not app.busy
        assert saved == [] and STARTED == []
        if s.waiting_for() == "you":  # the game goes on
            await pilot.press("1")
            assert s.public_view() != before


async def test_invalid_settings_say_why_and_do_not_start() -> None:
    """A seed that is not a number, a points target of 0 (R-SET-6): a one-line message,
    nothing starts; then valid settings start, the abandoned game's record saved first."""
    set_language("en")
    STARTED.clear()
    app, saved = make_app("mattel2022", {}, 3, seed=6, bot_delay=60, draw_window=60)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        s = app.session
        await open_settings_in_game(app, pilot)
        screen = app.screen
        seed = screen.query_one("#set-seed", Input)
        seed.focus()
        await pilot.press(*"12x", "enter")
        assert app.screen is screen and app.session is s and STARTED == []
        assert "The seed must be a whole number" in message(app)
        assert not layout_problems(app), layout_problems(app)
        seed.value = "77"
        screen.query_one("#set-rules", Select).value = "classic1980"
        await pilot.pause()
        screen.query_one("#set-scoring", Select).value = "points"
        await pilot.pause()
        target = screen.query_one("#set-target", Input)
        assert not screen.query_one("#row-target").disabled and target.value == "100"
        target.value = "0"
        await pilot.click("#set-start")
        assert app.screen is screen and STARTED == []
        assert "'target' must be a positive integer" in message(app)
        target.value = "60"
        target.focus()
        await pilot.press("enter")  # Enter in a field starts too
        await pilot.pause()
        assert app.screen is not screen and saved == [s]  # the abandoned game's record
        new = app.session
        assert new.seed == 77 and new.players == 3 and new.rules.target == 60
        assert new.rules.options["points_mode"] == "elimination"


@pytest.mark.parametrize("size", SIZES, ids=["80x24", "60x20"])
@pytest.mark.parametrize("lang", list(LANGUAGES))
async def test_new_game_screen_fits_in_every_language(lang: str, size: tuple[int, int]) -> None:
    use_language(lang)
    app, _saved = make_app("gamerules", {}, 8, seed=1, bot_delay=60, draw_window=60)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        await open_settings_in_game(app, pilot)
        screen = app.screen
        for preset in ("mattel2022", "gamerules", "mini", "classic1980"):
            screen.query_one("#set-rules", Select).value = preset
            await pilot.pause()
            assert not layout_problems(app), (preset, layout_problems(app))
        screen.query_one("#set-scoring", Select).value = "points"
        screen.query_one("#set-seed", Input).value = "seed?"
        await pilot.click("#set-start")
        assert app.screen is screen and message(app)
        assert not layout_problems(app), layout_problems(app)
        await pilot.press("escape")
        assert len(app.screen_stack) == 1


async def test_points_target_and_every_score_on_the_main_screen() -> None:
    app, _saved = make_app("classic1980", {"scoring": "points", "target": 60}, 5, seed=1,
                           bot_delay=60, draw_window=60)  # fmt: skip
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert "to 60 points" in on_screen(app, "#top")
        players = on_screen(app, "#players")
        assert players.count("0 points") == 5, players


async def test_your_hand_is_hidden_once_you_are_out() -> None:
    """Points mode (R-END-3): a hand of only ONO 99 cards is out of the round at once."""
    deal = {"hands": [["99", "99", "99", "99"], ["5", "6", "7", "8"], ["2", "3", "4", "5"]],
            "draw": ["9", "9"]}  # fmt: skip
    g = Game("classic1980", ["You", "Ana", "Bo"], options={"scoring": "points"}, deals=[deal],
             seed=1)  # fmt: skip
    app, _saved = make_app("mattel2022", {}, 3, seed=1, bot_delay=60, draw_window=60)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        s = position_app(app, g)
        assert not s.view().active[HUMAN]
        await app.refresh_table()
        assert not app.query_one("#hand").display and app.actions == []
        assert "You are out" in on_screen(app, "#hint")
