"""Issue 11, the terminal game: what an evening of real play found, one test each.

The Textual table is driven with the pilot (as in test_tui_app.py); plain mode through
a subprocess, as a script or a screen reader uses it.
"""

from __future__ import annotations

import random
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from rich.console import Console
from textual.widgets import RichLog, Static

from ono99.cards import DRAW, Card
from ono99.events import Event
from ono99.game import Game
from ono99.i18n import LANGUAGES, set_language, translator
from ono99.narrate import card_name, narrate
from ono99.rules import make_rules
from ono99.texts import card_legend, final_order
from ono99.tui.app import OnoApp
from ono99.tui.screens import ConfirmNewGame, ConfirmQuit, GameOver, HelpScreen
from ono99.tui.session import HUMAN, NotOver, Session, parse_pace
from test_play_plain import CODES, ENV
from test_tui_app import make_app, play_to_the_end, use_language

SIZE = (80, 24)
ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(autouse=True)
def english() -> Iterator[None]:
    set_language("en")
    yield
    set_language("en")


def on_screen(app: OnoApp, selector: str) -> str:
    """The text of a widget of the screen on top, as drawn."""
    widget = app.screen.query_one(selector, Static)
    console = Console(width=max(widget.content_size.width, 20), color_system=None)
    lines = console.render_lines(widget.content, console.options, pad=False)
    return "\n".join("".join(seg.text for seg in line) for line in lines)


def position_app(app: OnoApp, game: Game) -> Session:
    """Seat the app at a position the test set up (the human at seat 0)."""
    session = Session(game=game, bots="random")
    app.session = session
    return session


# ---------------------------------------------------------------- 1. game over


async def test_stray_enter_on_the_game_over_screen_keeps_the_results() -> None:
    """Enter, Space or Esc (a key meant for the last move) leave the results on screen;
    only P plays again (in either case)."""
    app, _saved = make_app("mattel2022", {}, 2, seed=3)
    async with app.run_test(size=SIZE) as pilot:
        await play_to_the_end(app, pilot, seed=3)
        first = app.session
        for key in ("enter", "space", "escape", "enter"):
            await pilot.press(key)
            await pilot.pause()
            assert isinstance(app.screen, GameOver) and app.session is first
        assert "P: play again" in on_screen(app, "#over-keys")
        await pilot.press("P")
        await pilot.pause()
        assert app.session is not first and not isinstance(app.screen, GameOver)


# ---------------------------------------------------------------- 2. the draw window


def draw_penalty_game() -> Game:
    """classic1980 with the draw penalty; you start holding a Double Play."""
    deal = {"hands": [["P2", "2", "3", "4"], ["5", "6", "7", "8"], ["2", "3", "4", "5"]],
            "draw": ["9", "9", "9"]}  # fmt: skip
    return Game("classic1980", ["You", "Ana", "Bo"], options={"draw_penalty": True},
                deals=[deal], seed=1)  # fmt: skip


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


# ---------------------------------------------------------------- 3. capitals


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


# ---------------------------------------------------------------- 4. "You" is the reader's


@pytest.mark.parametrize("lang", [x for x in LANGUAGES if x != "en"])
def test_you_in_a_record_is_the_readers_word(lang: str) -> None:
    """A round-score line names the human "You" in the reader's language, whatever
    language the record was played in (no "Scores: நீங்கள் 76" in English)."""
    use_language(lang)
    theirs = translator(lang).gettext("You")
    rules = make_rules("classic1980", {"scoring": "points"})
    end = Event("round_end", info={"round": 1, "scores": [76, 12], "gained": [76, 12]})
    set_language("en")
    line = narrate(end, ["You", "Ana"], rules, you=0) or ""
    assert line == "Round 1 ends. Scores: You 76, Ana 12"
    assert narrate(end, [theirs, "Ana"], rules, you=0) == line  # played in lang, read in en
    set_language(lang)
    mine = narrate(end, ["You", "Ana"], rules, you=0) or ""
    assert f"{theirs} 76" in mine and "Scores" not in mine and "You" not in mine


# ---------------------------------------------------------------- 5, 6. words


@pytest.mark.parametrize("lang", ["kn", "my", "uz"])
def test_seed_and_arena_header_are_translated(lang: str) -> None:
    """The new-game screen's Seed in kn, my, uz; the arena header in words of the language."""
    use_language(lang)
    t = translator(lang)
    assert t.gettext("Seed") != "Seed"
    header = t.gettext(
        "{rules} — players: {players}, games: {games}, seed: {seed}, "
        "backend: {backend}, workers: {workers}"
    )
    assert "backend:" not in header


@pytest.mark.parametrize("lang", ["my", "uz"])
def test_card_names_in_burmese_and_uzbek_with_the_english_on_the_help_screen(lang: str) -> None:
    use_language(lang)
    for preset in ("mattel2022", "classic1980"):
        r = make_rules(preset)
        for card, english in ((Card.PLAY2, ("Play 2", "Double Play")), (Card.HOLD, ("Hold",))):
            if r.deck[card]:
                name = card_name(int(card), r)
                assert name not in english
                if lang == "my":  # Myanmar script
                    assert not re.search(r"[A-Za-z]", name)
    legend = " ".join(card_legend(make_rules("classic1980")))
    assert "(Hold)" in legend and "(Double Play)" in legend and "(Reverse)" in legend
    assert "(Play 2)" in " ".join(card_legend(make_rules("mattel2022")))
    set_language("en")
    assert card_legend(make_rules("classic1980")) == []  # English needs no legend


async def test_help_screen_lists_the_printed_card_names() -> None:
    use_language("my")
    app, _saved = make_app("classic1980", {}, 3, seed=1, bot_delay=60, draw_window=60)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        text = " ".join(str(w.content) for w in app.screen.query(Static))
        assert "(Hold)" in text and "(Double Play)" in text


# ---------------------------------------------------------------- 7. pace, fast-forward


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


# ---------------------------------------------------------------- 8. the main screen


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


# ---------------------------------------------------------------- 10. plain mode


def run_plain(*args: str, answers: str) -> str:
    r = subprocess.run(
        [sys.executable, "-m", "ono99", "play", "--plain", *args],
        input=answers, capture_output=True, text=True, encoding="utf-8", env=ENV, timeout=120,
    )  # fmt: skip
    assert r.returncode == 0, r.stderr
    return r.stdout


def test_plain_game_over_once_and_final_standings_winner_first() -> None:
    out = run_plain("--seed", "4", "--players", "4", "--bots", "random",
                    answers="\n".join(CODES * 300) + "\n")  # fmt: skip
    assert len(re.findall(r"wins the game!|win the game!|share the win", out)) == 1
    tail = out[out.index("Game over.") :].splitlines()[1:]
    standings = [line for line in tail if re.match(r"\d\. ", line)]
    assert len(standings) == 4, tail
    assert standings[0].startswith("1. ") and "winner" in standings[0]
    names = [line.split(":")[0][3:] for line in standings]
    assert sorted(names) == sorted(["You", "Ana", "Bo", "Cy"])
    # the others in the reverse of the order they were eliminated
    out_order = [m for m in re.findall(r"^(\w+) (?:is|are) out of the game$", out, re.M)]
    assert names[1:] == list(reversed(out_order))


def test_plain_help_says_you_can_play_once() -> None:
    out = run_plain("--seed", "1", "--players", "2", "--bots", "random", answers="help\nquit\n")
    prompts = out.split("> ")
    assert [p.count("You can play:") for p in prompts[:2]] == [1, 1]


def test_final_order_shared_win_and_points() -> None:
    g = Game("mattel2022", ["You", "Ana", "Bo"], seed=3)
    while not g.is_over:
        g.apply(g.legal_actions()[0] if g.pending_draw is None else g.legal_actions()[-1])
    view = g.view(0)
    order = final_order(view)
    assert order[0] == view.winner and sorted(order) == [0, 1, 2]
    assert order[1:] == list(reversed(view.out))


def test_the_winner_is_called_the_winner_even_when_out_too() -> None:
    """R-END-3 (elimination mode): every score passed the target in the same round, so
    every seat is out and the lowest score wins; the winner's standing is "winner", never
    "out of the game", and so in an elimination game's end (R-END-1)."""
    from ono99.texts import standing_text

    opts = {"scoring": "points", "target": 40, "points_mode": "elimination"}
    g = Game("classic1980", 3, options=opts, seed=0)
    rng = random.Random(0)
    while not g.is_over:
        acting = g.acting()
        seat = min(acting)
        g.apply(rng.choice(acting[seat]), seat)
    assert isinstance(g.winner, int) and g.out == [0, 1, 2]  # the case at hand: all out
    view = g.view(0)
    for seat in range(3):
        words = standing_text(view, seat)
        assert ("winner" in words) is (seat == g.winner), words
        assert ("out of the game" in words) is (seat != g.winner), words
    m = Game("mattel2022", 3, seed=3)
    while not m.is_over:
        m.apply(m.legal_actions()[0] if m.pending_draw is None else m.legal_actions()[-1])
    assert isinstance(m.winner, int) and standing_text(m.view(0), m.winner) == "winner"


# ---------------------------------------------------------------- 11. views and events only


def test_front_ends_read_views_and_events_only() -> None:
    """Issue 10: the app and plain mode use the session's public queries, never its game."""
    for name in ("app.py", "plain.py", "screens.py", "setup.py", "widgets.py"):
        text = (ROOT / "src" / "ono99" / "tui" / name).read_text(encoding="utf-8")
        assert not re.search(r"\.game\b|\._game\b", text), name
    s = Session("classic1980", 3, options={"draw_penalty": True}, bots="random", seed=1)
    assert not hasattr(s, "game")
    with pytest.raises(NotOver):
        s.record()  # the seed (and so every hand) only once the game is over
    assert s.events() and s.events() == []  # the first round_start, then nothing new
    assert s.names == ("You", "Ana", "Bo") and s.rules.draw_penalty
    assert s.public_view().total == s.view().total == 0
    assert list(s.acting()) == [s.view().to_move]
    s.abandon()
    assert s.record()["seed"] == 1 and s.waiting_for() is None and s.acting() == {}


def test_the_draw_race_is_read_from_acting() -> None:
    s = Session(game=draw_penalty_game(), bots="random")
    s.events()
    s.play(int(Card.PLAY2))
    assert s.acting() == {HUMAN: (DRAW,), 1: s.acting()[1]} and s.human_may_draw()


async def test_a_countdown_tick_after_the_widgets_are_gone_is_harmless() -> None:
    """R-DRAW-1: the draw window's countdown may tick once more while the app shuts down
    (CI once failed on it: the hint was gone); that tick does nothing."""
    app, _saved = make_app("mattel2022", {}, 3, seed=1, bot_delay=0.01, draw_window=3)
    async with app.run_test(size=SIZE):
        await app.query_one("#hint").remove()
        app.show_countdown()  # no #hint: nothing to update, no error
