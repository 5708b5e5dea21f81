"""The 1980 draw penalty (R-DRAW-1)."""

from __future__ import annotations

import pytest

from engine_helpers import codes, hand_codes, kinds, make, play, scripted
from ono99 import DRAW, IllegalAction, state_json

PENALTY = {"draw_penalty": True}


@pytest.mark.parametrize("preset", ["classic1980", "gamerules"])
def test_draw_is_the_players_own_move(preset: str) -> None:
    """R-DRAW-1: with draw_penalty, drawing after a play is the player's own action
    (record move ``draw``), offered until someone plays a card."""
    g = make(preset, ["2 3 4 5", "6 7 8 9", "2 3 4 5"], "10 10 10 10", options=PENALTY)
    g.apply("2")
    assert g.pending_draw == 0 and len(g.hands[0]) == 3
    assert g.to_move == 1
    assert DRAW in g.legal_actions() and g.legal_actions(0) == (DRAW,)
    assert DRAW not in g.legal_actions(1)
    assert g.apply("draw") == 0
    assert hand_codes(g, 0) == sorted(["3", "4", "5", "10"])
    assert g.pending_draw is None and g.to_move == 1
    assert g.moves[-1] == DRAW
    with pytest.raises(IllegalAction, match="R-DRAW-1"):
        g.apply("draw")


def test_draw_lost_when_anyone_plays_first() -> None:
    """R-DRAW-1 (and R-TURN-2): if any card is played before the player draws, the
    draw is lost and they play on with fewer cards -- a short player stays short."""
    g = make("classic1980", ["2 3 4 5", "6 7 8 9", "2 3 4 5"], "10 10 10 10 9", options=PENALTY)
    play(g, "2", "6")  # seat 0 never drew
    assert len(g.hands[0]) == 3 and g.pending_draw == 1
    assert "draw_lost" in kinds(g)
    play(g, "draw", "2", "draw", "3", "draw")
    assert len(g.hands[0]) == 3 and len(g.hands[1]) == 4  # seat 0 stays short
    assert hand_codes(g, 0) == sorted(["4", "5", "10"])


def test_draw_lost_by_own_second_card() -> None:
    """R-DRAW-1: a player owing two who plays the second card before drawing loses the
    first draw (their own second card counts)."""
    g = make("classic1980", ["P2 3 4 5", "6 7 8 9", "2 3 4 5"], "10 10 10 10", options=PENALTY)
    play(g, "P2", "draw")
    g.apply("6")
    assert g.to_move == 1 and g.pending_draw == 1 and g.owes_two == 1
    assert set(codes(g.legal_actions(1))) == {"7", "8", "9", "draw"}
    g.apply("7")
    assert g.pending_draw == 1 and len(g.hands[1]) == 2
    g.apply("draw")
    assert hand_codes(g, 1) == sorted(["8", "9", "10"])


def test_draw_pending_at_round_end_is_not_made_nor_announced() -> None:
    """R-DRAW-2 and R-END-2: a draw still pending when the round ends is simply not
    made: the cards are dealt again, and nothing is announced as lost."""
    g = make(
        "classic1980",
        ["2 3 4 5", "99 99 99 99"],
        "10 10",
        options=PENALTY,
        more_deals=[(["2 3 4 5", "6 7 8 9"], "")],
    )
    g.apply("2")  # seat 1 busts at once: the round ends before seat 0 draws
    assert g.round == 2 and g.pending_draw is None
    assert "draw_lost" not in kinds(g) and "round_end" in kinds(g)
    assert [len(h) for h in g.hands] == [4, 4]
    assert state_json(g)["pending_draw"] is None


def test_points_missing_cards_cost_15() -> None:
    """R-DRAW-1 with R-END-3: a lost draw leaves the hand short; each missing card
    scores 15 at the end of the round."""
    g = make(
        "classic1980",
        ["2 3 4 5", "6 99 99 99"],
        "10 10",
        options={"scoring": "points", "target": 200, **PENALTY},
    )
    play(g, "2", "6", "3")  # nobody draws; seat 1 then holds only 99s: out
    assert g.round == 2
    assert g.scores == [4 + 5 + 2 * 15, 3 * 20 + 15 + 25]


def test_points_bust_play_draws_by_itself() -> None:
    """R-DRAW-1 with R-END-3: the unsafe card of a points bust is followed by an
    automatic draw, not a ``draw`` move."""
    g = scripted(
        "classic1980",
        "10 9 8 10 9 8 10 9 8 4 5 5",
        ["4 7 10 99", "H R P2 3", "10 10 10 99"],
        "6 99 2",
        options={"scoring": "points", **PENALTY},
    )
    assert g.total == 95 and g.must_bust_play
    g.apply("7")
    assert hand_codes(g, 0) == sorted(["4", "10", "99", "6"])
    assert g.pending_draw is None and g.moves[-1] == 7


@pytest.mark.parametrize("scoring", ["tokens", "points"])
def test_own_pending_draw_comes_before_a_bust(scoring: str) -> None:
    """R-DRAW-2, R-LIM-2 with R-DRAW-1 (and R-END-3): between the two cards of a Double Play, a
    player with no safe card whose own draw is pending has an "other legal action": they
    do not bust (nor, in points mode, play an unsafe card) until they have drawn."""
    g = scripted(
        "classic1980",
        "10 10 10 10 10 10 9 9 8 8",
        ["P2 3 4 5", "2 10 10 10"],
        "6 7 2",
        options={"scoring": scoring, **PENALTY},
    )
    assert g.total == 94 and g.to_move == 0
    play(g, "P2", "draw", "2")  # seat 0 draws a 6; seat 1 owes two; first card: 96
    assert g.to_move == 1 and g.owes_two == 1 and g.pending_draw == 1
    assert codes(g.legal_actions()) == ["draw"]  # no bust yet, no unsafe "10"
    g.apply("draw")  # a 7: still no safe card
    if scoring == "points":
        assert set(codes(g.legal_actions())) == {"10", "7"}  # now the bust play
    else:
        assert g.round == 2 and g.tokens == [3, 2]  # busted by itself
