"""The UI-independent game driver of ``ono99 play`` (src/ono99/tui/session.py, texts.py)."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from ono99.cards import DRAW, FOUR_99, Card
from ono99.errors import RulesError
from ono99.game import Game
from ono99.i18n import set_language
from ono99.records import replay
from ono99.texts import rules_help, tell, turn_text, why_not
from ono99.tui.session import HUMAN, NotOver, NotPlayable, Session, resolve_level
from tui_helpers import draw_penalty_game

GAMES = [
    ("mattel2022", {}, 4),
    ("mattel2022", {}, 2),
    ("classic1980", {}, 3),
    ("classic1980", {"draw_penalty": True}, 5),
    ("classic1980", {"scoring": "points", "target": 60, "draw_penalty": True}, 4),
    ("classic1980", {"scoring": "points", "points_mode": "lowest", "zero_ending_99": True}, 3),
    ("gamerules", {"draw_penalty": True}, 8),
]


@pytest.fixture(autouse=True)
def english() -> Iterator[None]:
    set_language("en")
    yield
    set_language("en")


def play_out(s: Session, rng: random.Random) -> list[str]:
    """Play to the end: the human picks a random legal move and sometimes skips a draw."""
    lines = [line for e in s.events() if (line := tell(e, s.names, s.rules))]
    for _ in range(20_000):
        if s.is_over:
            break
        if s.waiting_for() == "you":
            events = s.play(rng.choice(s.view().legal))
        elif s.human_may_draw() and rng.random() < 0.5:
            events = s.draw()
        else:
            events = s.step()
        lines += [line for e in events if (line := tell(e, s.names, s.rules))]
    assert s.is_over
    return lines


@pytest.mark.parametrize(("rules", "options", "players"), GAMES)
def test_whole_games_end_and_replay(rules: str, options: dict[str, object], players: int) -> None:
    for seed in range(3):
        s = Session(rules, players, options=options, bots="random", seed=seed)
        lines = play_out(s, random.Random(seed))
        assert lines[-1].endswith("!") or "share the win" in lines[-1]
        assert replay(s.record()).view(HUMAN) == s.view()


def test_bots_draw_at_once_and_only_the_human_draw_waits() -> None:
    """R-DRAW-1: after a bot move no bot draw is pending; the human's stays open."""
    s = Session("classic1980", 4, options={"draw_penalty": True}, bots="random", seed=2)
    s.events_so_far()
    while s.waiting_for() != "you":
        s.step()
    s.play(next(a for a in s.view().legal if a != DRAW))
    if s.waiting_for() == "you":  # first of two cards: the draw is on offer now too
        assert DRAW in s.view().legal
    assert s.human_may_draw()
    events = s.draw()
    assert not s.human_may_draw()
    drawn = [e for e in events if e.kind == "draw"]
    assert drawn and drawn[0].info and len(drawn[0].info["cards"]) == 1
    assert tell(drawn[0], s.names, s.rules).startswith("You draw ")
    while s.waiting_for() == "bot":
        s.step()
        assert s.view().pending_draw in (None, HUMAN)


def test_a_skipped_draw_is_lost_when_the_next_card_is_played() -> None:
    s = Session("gamerules", 3, options={"draw_penalty": True}, bots="random", seed=5)
    s.events_so_far()
    while s.waiting_for() != "you":
        s.step()
    s.play(next(a for a in s.view().legal if a != DRAW))
    while s.waiting_for() == "you":  # a second card to play first
        s.play(next(a for a in s.view().legal if a != DRAW))
    hand = len(s.view().hand)
    events = s.step()
    lost = [e for e in events if e.kind == "draw_lost" and e.seat == HUMAN]
    if not any(e.kind == "round_start" for e in events):
        assert lost
        assert len(s.view().hand) == hand
        assert tell(lost[0], s.names, s.rules) == "You did not draw in time and lose that card"


def test_illegal_moves_are_refused_with_a_reason_and_change_nothing() -> None:
    s = Session("mattel2022", 3, bots="random", seed=1)
    s.events_so_far()
    before = s.view()
    with pytest.raises(NotPlayable, match="no card to draw"):
        s.play(DRAW)
    missing = next(c for c in range(16) if c not in s.view().hand)
    with pytest.raises(NotPlayable):
        s.play(missing)
    with pytest.raises(NotPlayable):
        s.play(FOUR_99)
    assert s.view() == before


def test_reasons_for_unplayable_cards() -> None:
    g = Game("mattel2022", ["You", "Ana"], seed=1)
    g.hands[0] = [int(Card.NINETY_NINE), 9, 5, 3]
    g.total = 92
    g.resettle()  # recompute the legal moves for the edited hand
    view = Session(game=g, bots="random").view()
    assert why_not(9, view) == "9 would take the total to 101: reaching 99 loses"
    assert "never be played" in (why_not(int(Card.NINETY_NINE), view) or "")
    assert why_not(5, view) is None
    assert why_not(3, view) is None
    assert turn_text(view) == "Your turn: play a card"


def test_reason_when_it_is_not_your_turn() -> None:
    s = Session("mattel2022", 3, bots="random", seed=3)
    s.events_so_far()
    if s.waiting_for() == "you":
        s.play(s.view().legal[0])
    view = s.view()
    if view.to_move not in (None, HUMAN):
        assert (why_not(view.hand[0], view) or "").startswith("It is not your turn")


def test_rules_help_names_the_preset_rules() -> None:
    assert "99 itself is fine" in " ".join(rules_help(Session("gamerules", 2, seed=1).rules))
    text = " ".join(rules_help(Session("classic1980", 2, options={"draw_penalty": True}).rules))
    assert "Draw penalty" in text and "Double Play" in text and "token" in text


def test_player_counts_and_levels() -> None:
    with pytest.raises(RulesError, match="2 to 6 players, not 7"):
        Session("mattel2022", 7)
    with pytest.raises(RulesError, match="2 to 8 players, not 9"):
        Session("classic1980", 9)
    s = Session("classic1980", 8, seed=1)
    assert s.names[0] == "You" and len(set(s.names)) == 8
    assert resolve_level("random") == ("random", None)
    with pytest.raises(ValueError, match="unknown bot level 'godlike'"):
        resolve_level("godlike")


ROOT = Path(__file__).resolve().parent.parent


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
