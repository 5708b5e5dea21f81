"""Play 2 / Double Play (R-P2)."""

from __future__ import annotations

import pytest

from engine_helpers import codes, hand_codes, kinds, make, play, scripted
from ono99 import IllegalAction, state_json, view_of


def test_play2_next_player_plays_two() -> None:
    """R-P2-1: Play 2 adds 0; the next player plays a card, the total is announced,
    draws, plays a second card, draws; then the turn passes."""
    for preset in ("mattel2022", "classic1980", "gamerules"):
        g = make(preset, ["P2 2 3 4", "5 6 7 8", "2 3 4 5"], "9 10 9 10 9")
        g.apply("P2")
        assert g.total == 0 and g.to_move == 1 and g.owes_two == 1
        g.apply("5")
        assert g.total == 5 and g.to_move == 1
        assert hand_codes(g, 1) == sorted(["6", "7", "8", "10"])  # drew after the first
        g.apply("6")
        assert g.total == 11 and g.to_move == 2 and g.owes_two is None
        assert hand_codes(g, 1) == sorted(["7", "8", "10", "9"])
        g.apply("2")
        assert g.to_move == 0  # seat 2 played one card only


def test_play2_does_not_stack() -> None:
    """R-P2-2: Play 2s do not stack: passed on (2022 answer) or played as the second
    card, the player who finally takes it plays exactly two cards."""
    g = make("mattel2022", ["P2 2 3 4", "P2 6 7 8", "2 3 4 5"], "9 10 9 10 9 1")
    play(g, "P2", "P2")
    assert g.owes_two == 2
    play(g, "2", "3")
    assert g.to_move == 0 and g.owes_two is None and g.total == 5
    # classic: a Double Play as second card passes on exactly two
    g = make("classic1980", ["P2 2 3 4", "5 P2 7 8", "2 3 4 5"], "9 10 9 10 9 2")
    play(g, "P2", "5", "P2")
    assert g.owes_two == 2 and g.to_move == 2
    play(g, "2", "3")
    assert g.to_move == 0 and g.owes_two is None and g.total == 10


def test_play2_answers_2022() -> None:
    """R-P2-3 (mattel2022): the obligated player may answer with a Reverse or a Play 2
    as their single play (always an answer when played first); the obligation falls
    on the next player in the (possibly reversed) direction."""
    g = make("mattel2022", ["P2 2 3 4", "R 6 7 8", "2 3 4 5"], "9 10 9 10")
    play(g, "P2", "R")
    assert g.direction == -1 and g.to_move == 0 and g.owes_two == 0
    play(g, "2", "3")
    assert g.to_move == 2 and g.owes_two is None  # counterclockwise from seat 0
    g = make("mattel2022", ["P2 2 3 4", "P2 6 7 8", "2 3 4 5"], "9 10 9 10")
    play(g, "P2", "P2")
    assert g.to_move == 2 and g.owes_two == 2
    # a -10 first is not an answer: the player still owes the second card
    g = make("mattel2022", ["P2 2 3 4", "-10 6 7 8", "2 3 4 5"], "9 10 9 10")
    play(g, "P2", "-10")
    assert g.to_move == 1 and g.owes_two == 1


def test_play2_answers_1980() -> None:
    """R-P2-3 (classic1980/gamerules): the answers are Reverse or Hold; a Double Play
    can never be the first of the two cards but may be the second."""
    for preset in ("classic1980", "gamerules"):
        g = make(preset, ["P2 2 3 4", "H 6 7 8", "2 3 4 5"], "9 10 9 10")
        play(g, "P2", "H")
        assert g.to_move == 2 and g.owes_two == 2 and g.direction == 1
        g = make(preset, ["P2 2 3 4", "R 6 7 8", "2 3 4 5"], "9 10 9 10")
        play(g, "P2", "R")
        assert g.to_move == 0 and g.owes_two == 0 and g.direction == -1
        g = make(preset, ["P2 2 3 4", "P2 6 7 8", "2 3 4 5"], "9 10 9 10")
        g.apply("P2")
        assert "P2" not in codes(g.legal_actions())
        with pytest.raises(IllegalAction, match="R-P2-3"):
            g.apply("P2")
        play(g, "6", "P2")
        assert g.to_move == 2 and g.owes_two == 2


def test_play2_double_play_only_card_busts_1980() -> None:
    """R-P2-3, R-P2-4: a 1980 player owing two whose only cards are a Double Play and
    unsafe cards cannot make the first play: they bust (tokens: the round ends)."""
    g = scripted(
        "classic1980",
        "10 9 10 9 10 9 10 8 10 4",
        ["P2 2 3 4", "P2 10 10 99"],
        more_deals=[(["2 3 4 5", "6 7 8 9"], "")],
    )
    assert g.total == 89 and g.to_move == 0
    g.apply("P2")  # seat 1: P2 may not be first, 10 would make 99, 99 is unplayable
    assert g.tokens == [3, 2] and g.round == 2
    assert g.to_move == 1 and g.owes_two is None  # the loser starts round 2


RAMP_89 = "10 9 8 10 9 8 10 9 8 2 3 3"  # twelve plays: total 89, seat 0 to move


def test_play2_bust_on_first_or_second() -> None:
    """R-P2-4: an obligated player who cannot make the first play busts, and so does
    one who makes the first but cannot make the second; the next player owes nothing."""
    # cannot make the first play (mattel: elimination)
    g = scripted("mattel2022", RAMP_89, ["P2 2 3 4", "10 10 99 99", "5 6 7 0"])
    assert g.total == 89 and g.to_move == 0
    g.apply("P2")
    assert g.out == [1]
    assert g.to_move == 2 and g.owes_two is None and g.plays_left == 1
    # makes the first (0), draws a 10, cannot make the second
    g = scripted("mattel2022", RAMP_89, ["P2 2 3 4", "0 10 10 99", "5 6 7 0"], "2 10")
    g.apply("P2")
    assert g.owes_two == 1
    g.apply("0")
    assert g.out == [1] and g.to_move == 2 and g.owes_two is None
    assert g.total == 89
    g.apply("0")
    assert g.to_move == 0  # seat 2 played one card: it owed nothing


def test_play2_second_card_acts_normally() -> None:
    """R-P2-5: the second card acts normally: a number adds, a Reverse as second card
    reverses, a Play 2 as second card obliges the next player."""
    g = make("mattel2022", ["P2 2 3 4", "5 R 7 8", "2 3 4 5"], "9 10 9 10")
    play(g, "P2", "5", "R")
    assert g.total == 5 and g.direction == -1 and g.to_move == 0 and g.owes_two is None
    g = make("mattel2022", ["P2 2 3 4", "5 P2 7 8", "2 3 4 5"], "9 10 9 10")
    play(g, "P2", "5", "P2")
    assert g.to_move == 2 and g.owes_two == 2
    g = make("classic1980", ["P2 2 3 4", "5 R 7 8", "2 3 4 5"], "9 10 9 10")
    play(g, "P2", "5", "R")
    assert g.direction == -1 and g.to_move == 0 and g.owes_two is None


def test_owes_two_shown_until_settled() -> None:
    """R-P2-6: the obligated seat is shown as owes_two from the moment the Play 2 lands
    until settled -- also between the first and second card; cleared after the second
    card, moved on by an answer, cleared by a bust."""
    g = make("mattel2022", ["P2 2 3 4", "5 6 7 8", "P2 3 4 5"], "9 10 9 10 9")
    assert state_json(g)["owes_two"] is None
    g.apply("P2")
    assert state_json(g)["owes_two"] == 1 and view_of(g, 2).owes_two == 1
    g.apply("5")
    assert state_json(g)["owes_two"] == 1 and view_of(g, 0).owes_two == 1
    g.apply("6")
    assert state_json(g)["owes_two"] is None
    g.apply("P2")
    assert g.owes_two == 0
    assert "owes_two" in kinds(g)
    # cleared by a bust (elimination)
    g = scripted("mattel2022", RAMP_89, ["P2 2 3 4", "10 10 99 99", "5 6 7 0"])
    g.apply("P2")
    assert g.out == [1] and state_json(g)["owes_two"] is None
