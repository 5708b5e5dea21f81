"""Issue 36 in the terminal: the hint key (H) shows each legal card's win chance from the
human's own view, valued off the UI thread; the record notes the moves made after a hint
(``hinted``, docs/records.md, R-REC) and still replays on both engines; R at the game's end
reviews it; ``hint`` in plain mode."""

from __future__ import annotations

import io
import json
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from ono99.bots.evaluate import Values
from ono99.bots.review import review_game
from ono99.cards import action_code
from ono99.i18n import _, set_language
from ono99.records import parse_record
from ono99.tui.app import OnoApp
from ono99.tui.plain import run_plain
from ono99.tui.review import ReviewScreen, review_lines
from ono99.tui.screens import GameOver, RoundSummary
from ono99.tui.session import HintAsk, Session
from ono99.tui.widgets import CardView
from test_cli_contract import run
from test_tui_app import SIZE, SIZES, layout_problems, make_app, use_language
from tui_helpers import on_screen

SAMPLES = 6  # worlds a hint / a reviewed decision: enough to test the wiring, quick


@pytest.fixture(autouse=True)
def english() -> Iterator[None]:
    set_language("en")
    yield
    set_language("en")


async def wait_for(pilot: Pilot[Any], done: Any, seconds: float = 120) -> None:
    """Wait (the event loop running) until ``done()`` holds."""
    deadline = time.monotonic() + seconds
    while not done():
        assert time.monotonic() < deadline, "timed out"
        await pilot.pause(0.02)


def card_texts(app: OnoApp) -> list[str]:
    return [str(c.content) for c in app.screen.query(CardView)]


async def test_the_hint_key_shows_each_cards_chance_under_it(monkeypatch: Any) -> None:
    """H on your turn: a "working" note while the chances are valued (in a worker: the
    table keeps answering), then each legal card's win chance under its box, the card
    colours kept; the move you then make is noted as hinted."""
    gate = threading.Event()
    seen: list[HintAsk] = []
    real = HintAsk.values

    def slow(ask: HintAsk, samples: int = 200, seed: int | None = None) -> Values:
        seen.append(ask)
        assert gate.wait(60)
        return real(ask, samples, seed)

    monkeypatch.setattr(HintAsk, "values", slow)
    app, _saved = make_app("mattel2022", {}, 2, seed=5, hint_samples=SAMPLES)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: app.session.waiting_for() == "you" and not app.busy)
        assert "H: hint" in on_screen(app, "#keys")
        await pilot.press("h")
        await wait_for(pilot, lambda: bool(seen))
        assert "Working out each card's chance to win" in on_screen(app, "#hint")
        assert not any("%" in t for t in card_texts(app))
        await pilot.press("right")  # the table answers while the hint is valued
        gate.set()
        await wait_for(pilot, lambda: app.current_hint() is not None)
        view = app.session.view()
        chances = app.current_hint()
        assert chances is not None and set(chances) == set(view.legal)
        for card, action in zip(app.screen.query(CardView), app.actions, strict=True):
            text = str(card.content)
            assert ("%" in text) == (action in view.legal), text
            assert any(cls.startswith("kind-") for cls in card.classes)  # colours kept
        assert "Working out" not in on_screen(app, "#hint")
        assert "Under each card: your chance to win" in on_screen(app, "#hint")
        index = seen[0].move
        legal = [i for i, a in enumerate(app.actions) if a in view.legal]
        await pilot.press(str(legal[0] + 1))
        assert app.session.hinted == (index,)
        assert app.current_hint() is None  # the position moved on: the chances go


async def test_a_hint_is_for_your_turn_only() -> None:
    """H while a bot is to move values nothing and says why."""
    app, _saved = make_app("mattel2022", {}, 3, seed=2, bot_delay=30)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: app.session.waiting_for() == "you")
        legal = [i for i, a in enumerate(app.actions) if a in app.session.view().legal]
        await pilot.press(str(legal[0] + 1))
        assert app.session.waiting_for() == "bot"
        await pilot.press("h")
        assert app.hint_ask is None
        assert "your turn" in on_screen(app, "#hint")


def test_hinted_moves_are_in_the_record_and_it_replays_on_both_engines(
    tmp_path: Path,
) -> None:
    """R-REC: a record with ``hinted`` replays with ``ono99 replay`` on the reference and
    the fast engine to the same state; without hints the key is absent."""
    s = Session("mattel2022", 2, bots="random", seed=9)
    assert s.ask_hint() is not None
    first = s.ask_hint()
    assert first is not None
    assert s.hint_shown(first)
    s.play(s.view().legal[0])
    while s.waiting_for() == "bot":
        s.step()
    stale = s.ask_hint()
    assert stale is not None
    s.play(s.view().legal[0])  # the hint for that position was never shown
    assert not s.hint_shown(stale)  # and it is too late now
    while not s.is_over:
        if s.waiting_for() == "you":
            s.play(s.view().legal[0])
        else:
            s.step()
    record = s.record()
    assert record["hinted"] == [first.move] == [0]
    assert parse_record(record).moves == record["moves"]
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    ref = run("replay", str(path), "--json")
    fast = run("replay", str(path), "--json", "--engine", "fast")
    assert ref.returncode == 0 and fast.returncode == 0, (ref.stderr, fast.stderr)
    assert json.loads(ref.stdout) == json.loads(fast.stdout)
    assert json.loads(ref.stdout)["winner"] is not None
    plain = Session("mattel2022", 2, bots="random", seed=9)
    plain.abandon()
    assert "hinted" not in plain.record()


def test_plain_mode_answers_hint_with_each_cards_chance() -> None:
    """``hint`` in plain mode: one line per legal move, ``code: N % to win``; the other
    answers stay as they were (the move after it is noted as hinted)."""
    s = Session("mattel2022", 2, bots="random", seed=3)
    codes = [action_code(a) for a in s.view().legal]
    out = io.StringIO()
    saved: list[Session] = []
    run_plain(s, io.StringIO(f"hint\n{codes[0]}\nquit\n"), out, lambda x: saved.append(x) or None,
              hint_samples=SAMPLES)  # fmt: skip
    text = out.getvalue()
    for code in codes:
        assert any(
            line.startswith(f"{code}: ") and line.endswith("% to win") for line in text.splitlines()
        ), text
    assert s.hinted == (0,)
    assert "hint:" not in text.splitlines()  # the contract lines are unchanged
    assert text.count("total: ") >= 2 and "hand: " in text


async def test_review_this_game_shows_the_costliest_moves() -> None:
    """R on the results reviews the finished game for your seat (off the UI thread, with
    progress): your summary, what the deal gave you, the moves that cost most with the
    better card; Esc goes back to the results."""
    app, _saved = make_app("mattel2022", {}, 2, seed=4, review_samples=SAMPLES)
    async with app.run_test(size=SIZE) as pilot:
        deadline = time.monotonic() + 300
        while not isinstance(app.screen, GameOver):
            assert time.monotonic() < deadline
            await pilot.pause()
            if isinstance(app.screen, RoundSummary):
                await pilot.press("enter")
            elif app.session.waiting_for() == "you" and not app.busy:
                view = app.session.view()
                # always the last legal card: a player who could do better
                legal = [i for i, a in enumerate(app.actions) if a in view.legal]
                await pilot.press(str(legal[-1] + 1))
        assert "R: review this game" in on_screen(app, "#review-key")
        await pilot.press("r")
        screen = app.screen
        assert isinstance(screen, ReviewScreen)
        await wait_for(pilot, lambda: screen.review is not None)
        review = screen.review
        assert review is not None and {s.seat for s in review.seats} == {0}
        assert all(d.seat == 0 for d in review.decisions)
        shown = "\n".join(str(w.content) for w in screen.query(".review-line"))
        assert "The deal gave you" in shown
        losers = [d for d in review.decisions if d.loss > 0]
        if losers:
            worst = max(losers, key=lambda d: d.loss)
            assert f"Move {worst.move + 1}: you played" in shown
        else:
            assert "as good as the best" in shown
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, GameOver))


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lang", ["en", "ta", "gu", "uz", "my", "kn"])
async def test_the_hint_fits_in_every_language(lang: str, size: tuple[int, int]) -> None:
    """The hint key is in the key line and the help screen, and the chances and their
    note fit the table, in every language at both sizes."""
    use_language(lang)
    app, _saved = make_app("classic1980", {}, 2, seed=8, hint_samples=SAMPLES)
    async with app.run_test(size=size) as pilot:
        await wait_for(pilot, lambda: app.session.waiting_for() == "you" and not app.busy)
        assert _("H: hint") in on_screen(app, "#keys")
        await pilot.press("h")
        await wait_for(pilot, lambda: app.current_hint() is not None)
        await pilot.pause()
        assert not layout_problems(app), layout_problems(app)
        assert _("Under each card: your chance to win the game if you play it now.")[:8] in (
            on_screen(app, "#hint").replace("\n", "")
        )
        await pilot.press("question_mark")
        help_text = "\n".join(str(w.content) for w in app.screen.query(".keys"))
        assert help_text.count("H") and _("H: hint")[:3] in help_text


def test_the_review_words_exist_in_every_language() -> None:
    """Every line of the review screen is translated (the summary's plural too)."""
    rec = parse_record({"rules": "mattel2022", "players": 2, "seed": 4,
                        "moves": ["4", "8"]})  # fmt: skip
    review = review_game(rec, seat=0, samples=SAMPLES, seed=1)
    rules = Session("mattel2022", 2, seed=4).rules
    english = [t.plain for t in review_lines(review, rules)]
    for lang in ["ta", "gu", "uz", "my", "kn"]:
        use_language(lang)
        lines = [t.plain for t in review_lines(review, rules)]
        assert len(lines) == len(english)
        assert all(a != b for a, b in zip(lines, english, strict=True)), lines
