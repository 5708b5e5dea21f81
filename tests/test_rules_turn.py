"""A turn, the limit and the special cards (R-TURN, R-LIM, R-99, R-REV, R-M10, R-H)."""

from __future__ import annotations

from collections import Counter

import pytest

from engine_helpers import all_cards, codes, deck_counter, hand_codes, kinds, make, play, scripted
from ono99 import FOUR_99, Card, IllegalAction, RecordError, state_json, view_of


def test_turn_plays_one_card_and_announces_total() -> None:
    """R-TURN-1: the player to move plays exactly one card from their hand onto the
    discard pile, the total changes by its effect, and the new total is an event."""
    g = make("mattel2022", ["7 1 2 3", "4 5 6 8"], "9 0")
    g.apply("7")
    assert g.total == 7
    assert g.discard == [7]
    assert g.events is not None
    plays = [e for e in g.events if e.kind == "play"]
    assert [(e.seat, e.card, e.total) for e in plays] == [(0, 7, 7)]
    with pytest.raises(IllegalAction, match="R-TURN-1"):
        g.apply("7")  # seat 1 has no 7


def test_turn_draws_top_card_and_passes() -> None:
    """R-TURN-2: after playing, the player draws the top card of the draw pile (back to
    four cards) and the turn passes to the next player in the current direction."""
    g = make("mattel2022", ["7 1 2 3", "4 5 6 8", "1 2 3 4"], "9 0 10")
    pile = len(g.draw_pile)
    g.apply("7")
    assert hand_codes(g, 0) == sorted(["1", "2", "3", "9"])
    assert len(g.draw_pile) == pile - 1
    assert g.to_move == 1
    g.apply("4")
    assert hand_codes(g, 1) == sorted(["5", "6", "8", "0"])
    assert g.to_move == 2
    g.apply("1")
    assert "10" in hand_codes(g, 2) and g.to_move == 0


def test_reshuffle_when_draw_pile_empty() -> None:
    """R-TURN-3: when a card must be drawn from an empty draw pile, the whole discard
    pile (the card just played included) is shuffled into a new draw pile and the
    running total does not change."""
    # 8 players of gamerules: 32 cards in hands, 22 in the draw pile (all named).
    hands = ["2 3 4 5", "2 3 4 5", "2 3 4 5", "6 7 8 9", "6 7 8 9", "6 7 8 9",
             "-10 -10 -10 -10", "R R R R"]  # fmt: skip
    draw = "R R H H H H P2 P2 10 10 10 10 10 10 10 10 10 10 99 99 99 99"
    g = make("gamerules", hands, draw, seed=3)
    assert len(g.draw_pile) == 22
    checked = 0
    while g.round == 1 and checked < 3:
        legal = g.legal_actions()
        # lowest resulting total first; the 99 (sets 99) only as a last resort
        action = min(legal, key=lambda a: (a == Card.NINETY_NINE, g.total + (a if a <= 10 else 0)))
        before_discard = Counter(g.discard)
        before_total = g.total
        before_pile = len(g.draw_pile)
        seat = g.to_move
        assert seat is not None
        g.apply(action)
        if before_pile == 0 and g.round == 1:
            checked += 1
            played = Counter([action])
            effect = action if action <= 10 else (-10 if action == Card.MINUS10 else 0)
            assert g.total == before_total + effect  # not reset by the reshuffle
            assert g.discard == []
            # the new draw pile is the old discard pile (with the card just played)
            # less the one card drawn from it, which is now last in the hand
            assert Counter(g.draw_pile) + Counter([g.hands[seat][-1]]) == before_discard + played
            assert all_cards(g) == deck_counter(g)
    assert g.reshuffles >= 1 and checked >= 1
    assert "reshuffle" in kinds(g)


def test_both_piles_empty_no_card_is_drawn() -> None:
    """R-TURN-3: if the draw pile and the discard pile are both empty, no card is drawn
    and the player plays on with fewer cards. (Unreachable in a real deal -- the card
    just played is always in the discard pile -- so the piles are emptied by hand.)"""
    g = make("classic1980", ["2 3 4 5", "6 7 8 9"], "10")
    g.draw_pile.clear()
    g._draw(0, 1)
    assert len(g.hands[0]) == 4  # nothing to draw, nothing drawn
    g.apply("2")  # discard = [2]: the draw reshuffles it straight back
    assert sorted(g.hands[0]) == [2, 3, 4, 5]
    assert g.reshuffles == 1


def test_eliminated_players_are_skipped() -> None:
    """R-TURN-4 (with R-END-1): a busted player is skipped from then on."""
    # total 89 with seat 1 to move holding no safe card
    g = scripted("mattel2022", "10 9 8 10 9 8 10 9 8 8", ["1 2 3 4", "10 10 10 99", "5 6 7 0"])
    # 10+9+8 three times = 81, then seat 0 plays 8 = 89; seat 1 busts by itself
    assert g.total == 89
    assert g.out == [1] and g.alive == [True, False, True]
    assert g.to_move == 2
    g.apply("5")
    assert g.to_move == 0
    g.apply("1")
    assert g.to_move == 2  # seat 1 skipped


@pytest.mark.parametrize(
    ("preset", "ten_safe"), [("mattel2022", False), ("classic1980", False), ("gamerules", True)]
)
def test_limit_safe_cards(preset: str, ten_safe: bool) -> None:
    """R-LIM-1: safe means a total below 99 after the card (mattel2022, classic1980);
    gamerules: at most 99 (only exceeding 99 loses)."""
    plays = "10 9 10 9 10 9 10 9 10 3" if preset == "mattel2022" else "10 9 10 9 10 9 10 8 10 4"
    finals = ["10 5 H R" if preset != "mattel2022" else "10 9 R 0", "2 3 5 -10"]
    g = scripted(preset, plays, finals)
    assert g.total == 89 and g.to_move == 0
    legal = codes(g.legal_actions())
    assert ("10" in legal) is ten_safe
    assert ("9" if preset == "mattel2022" else "5") in legal
    if ten_safe:
        g.apply("10")
        assert g.total == 99 and g.winner is None and g.to_move == 1
        assert codes(g.legal_actions()) == ["-10"]  # 2, 3 and 5 would exceed 99
    else:
        with pytest.raises(IllegalAction, match="R-LIM"):
            g.apply("10")


def test_gamerules_total_99_then_only_zero_effect_cards() -> None:
    """R-LIM-1 (gamerules): at 99 exactly the game goes on; only cards that do not
    raise the total are safe."""
    g = make("gamerules", ["99 2 3 4", "2 -10 H R"], "5 6")
    g.apply("99")
    assert g.total == 99 and g.to_move == 1
    assert codes(g.legal_actions()) == ["-10", "R", "H"]


def test_must_play_safe_card_else_bust() -> None:
    """R-LIM-2: a player with a safe card must play one; with none they bust."""
    g = scripted("mattel2022", "10 9 10 9 10 9 10 9 10 3", ["10 9 0 R", "2 3 5 6"])
    assert g.total == 89
    with pytest.raises(IllegalAction, match="R-LIM-2"):
        g.apply("10")
    assert g.total == 89 and g.to_move == 0  # nothing changed
    # no safe card: seat 0 busts by itself and (two players) seat 1 wins
    g = scripted("mattel2022", "10 9 10 9 10 9 10 9 10 3", ["10 10 99 99", "2 3 5 6"])
    assert g.is_over and g.winner == 1 and g.out == [0]
    assert "bust" in kinds(g)


def test_ninety_nine_never_playable_2022_and_1980() -> None:
    """R-99-1: in mattel2022 and classic1980 the ONO 99 card can never be played --
    not even at a total ending in 0 -- and it stays in hand."""
    for preset in ("mattel2022", "classic1980"):
        g = make(preset, ["99 10 2 3", "4 5 6 7"], "8 9")
        assert "99" not in codes(g.legal_actions())
        with pytest.raises(IllegalAction, match="R-99"):
            g.apply("99")
        g.apply("10")
        assert "99" in hand_codes(g, 0)


def test_gamerules_99_sets_total_to_99() -> None:
    """R-99-2: in gamerules the 99 card sets the total to exactly 99 (from any total,
    negative included) and is safe."""
    g = make("gamerules", ["-10 99 2 3", "99 4 5 6"], "7 8 9")
    g.apply("-10")
    assert g.total == -10
    g.apply("99")
    assert g.total == 99
    g = make("gamerules", ["5 99 2 3", "99 4 5 6"], "7 8 9")
    g.apply("99")
    assert g.total == 99
    assert "99" in codes(g.legal_actions())  # safe at 99 too
    g.apply("99")
    # still 99; seat 0 (5 2 3 7) now has no safe card: it busts, a new round starts
    assert [e.total for e in g.events or [] if e.kind == "play"] == [99, 99]
    assert g.tokens == [2, 3] and g.round == 2 and g.total == 0


def test_four_99_discard_2022() -> None:
    """R-99-3: holding four ONO 99 cards, a mattel2022 player may discard all four as
    their play: the total does not change and they draw four cards."""
    g = make("mattel2022", ["99 99 99 99", "4 5 6 7"], "1 2 3 0 8")
    assert codes(g.legal_actions()) == ["99x4"]
    g.apply(FOUR_99)
    assert g.total == 0
    assert hand_codes(g, 0) == sorted(["1", "2", "3", "0"])
    assert g.discard == [Card.NINETY_NINE] * 4
    assert g.to_move == 1 and "four99" in kinds(g)
    # with a safe card in hand it is still a choice
    g = make("mattel2022", ["99 99 5 99", "4 99 6 7"], "99 1 2 3 0")
    g.apply("5")
    assert g.hands[0].count(Card.NINETY_NINE) == 4
    g.apply("4")
    assert "99x4" in codes(g.legal_actions()) and "99" not in codes(g.legal_actions())
    with pytest.raises(IllegalAction, match="R-99-3"):
        make("classic1980", ["2 3 4 5", "4 5 6 7"], "").apply(FOUR_99)


def test_four_99_as_first_and_as_second_of_two() -> None:
    """R-99-3: under Play 2 the four-99 discard may be the first or the second play."""
    # first of two
    g = make("mattel2022", ["P2 2 3 4", "99 99 99 99"], "5 1 2 3 0 8")
    g.apply("P2")
    assert g.owes_two == 1
    g.apply("99x4")
    assert g.to_move == 1 and g.owes_two == 1 and g.total == 0
    assert hand_codes(g, 1) == sorted(["1", "2", "3", "0"])
    g.apply("3")
    assert g.to_move == 0 and g.owes_two is None and g.total == 3
    # second of two
    g = make("mattel2022", ["P2 2 3 4", "99 99 99 7"], "5 99 1 2 3 0")
    g.apply("P2")
    g.apply("7")
    assert g.to_move == 1 and g.hands[1].count(Card.NINETY_NINE) == 4
    g.apply("99x4")
    assert g.to_move == 0 and g.owes_two is None and g.total == 7


def test_classic_hand_of_only_99s_busts() -> None:
    """R-99-4: classic1980 has no way to discard ONO 99 cards: a hand of only 99s
    busts (here at the start of the round: a token lost, a new round)."""
    g = make(
        "classic1980",
        ["99 99 99 99", "2 3 4 5"],
        more_deals=[(["2 3 4 5", "6 7 8 9"], "")],
    )
    assert g.tokens == [2, 3]
    assert g.round == 2 and g.to_move == 0
    assert "99x4" not in codes(g.legal_actions())


def test_zero_ending_99() -> None:
    """R-99-5: with zero_ending_99 an ONO 99 card may be played when the total ends in 0
    (0, 10, ..., and -10, -20 ...); it adds 0, counts as safe, and at most one is
    played per turn (a Double Play turn counts as one)."""
    opts = {"zero_ending_99": True}
    g = make("classic1980", ["99 99 99 99", "2 3 4 5"], "10 -10 7", options=opts)
    assert g.round == 1 and codes(g.legal_actions()) == ["99"]  # total 0 ends in 0: no bust
    g.apply("99")
    assert g.total == 0 and g.to_move == 1
    g.apply("5")
    assert "99" not in codes(g.legal_actions())  # 5 does not end in 0
    g = make("classic1980", ["-10 99 99 7", "P2 3 4 5"], "10 9 H 2", options=opts)
    g.apply("-10")
    g.apply("3")  # -7
    assert "99" not in codes(g.legal_actions())
    g = make("classic1980", ["-10 99 99 7", "3 4 5 6"], "10 9 H 2", options=opts)
    g.apply("-10")
    g.apply("6")  # -4 ... wrong ending
    assert "99" not in codes(g.legal_actions())
    # negative total ending in 0
    g = make("classic1980", ["-10 99 99 7", "-10 4 5 6"], "10 9 H 2", options=opts)
    g.apply("-10")
    g.apply("-10")  # -20
    assert g.total == -20 and "99" in codes(g.legal_actions())
    # one per turn, a Double Play turn included
    g = make("classic1980", ["P2 -10 3 4", "99 99 10 5"], "6 7 8", options=opts)
    g.apply("P2")
    assert g.owes_two == 1
    g.apply("99")
    assert g.to_move == 1 and "99" not in codes(g.legal_actions())
    with pytest.raises(IllegalAction, match="R-99-5"):
        g.apply("99")
    g.apply("10")
    assert g.to_move == 0 and g.total == 10
    g.apply("-10")  # 0, and a new turn for seat 1: its other 99 is playable again
    assert g.to_move == 1 and "99" in codes(g.legal_actions())


def test_zero_ending_99_off_by_default() -> None:
    """R-99-5: the option is off by default (R-99-1 holds at a total ending in 0)."""
    g = make("classic1980", ["99 2 3 4", "5 6 7 8"], "9")
    assert "99" not in codes(g.legal_actions())


def test_reverse_flips_direction() -> None:
    """R-REV-1: Reverse flips the direction of play and adds 0."""
    g = make("mattel2022", ["5 2 3 4", "R 6 7 8", "1 2 3 4"], "9 9 9 9")
    g.apply("5")
    g.apply("R")
    assert g.direction == -1 and g.total == 5 and g.to_move == 0
    g.apply("2")
    assert g.to_move == 2
    g = make("classic1980", ["R 2 3 4", "5 6 7 8", "9 10 2 3"], "9 9")
    g.apply("R")
    assert g.direction == -1 and g.to_move == 2


def test_reverse_is_hold_with_two_players() -> None:
    """R-REV-2: with exactly two players taking turns Reverse acts as a Hold: the
    direction stays and the other player moves next; it still answers a Play 2."""
    for preset in ("mattel2022", "classic1980", "gamerules"):
        g = make(preset, ["R 2 3 4", "R 6 7 8"], "9 9 9")
        g.apply("R")
        assert g.direction == 1 and g.to_move == 1
    g = make("mattel2022", ["P2 2 3 4", "R 6 7 8"], "9 9 9")
    g.apply("P2")
    g.apply("R")
    assert g.direction == 1 and g.to_move == 0 and g.owes_two == 0


def test_reverse_is_hold_when_two_left_in_game() -> None:
    """R-REV-2: in mattel2022 after one of three players is out, Reverse is a Hold."""
    g = scripted("mattel2022", "10 9 8 10 9 8 10 9 8 8", ["1 R 3 4", "10 10 10 99", "5 R 7 0"])
    assert g.out == [1] and g.to_move == 2
    g.apply("R")
    assert g.direction == 1 and g.to_move == 0
    g.apply("R")
    assert g.direction == 1 and g.to_move == 2


def test_reverse_is_hold_when_two_left_in_points_round() -> None:
    """R-REV-2: in points mode, with three players in the game but two left in the
    round, Reverse is a Hold."""
    g = make(
        "classic1980",
        ["5 R 3 4", "99 99 99 99", "R 6 7 8"],
        "9 9 9 2",
        options={"scoring": "points"},
    )
    g.apply("5")  # seat 1 holds only 99s: out of the round without playing
    assert g.round_out == [1] and g.to_move == 2
    g.apply("R")
    assert g.direction == 1 and g.to_move == 0
    g.apply("R")
    assert g.direction == 1 and g.to_move == 2


def test_minus_ten_floor() -> None:
    """R-M10-1: -10 subtracts ten; mattel2022 never goes below 0 (the card may still be
    played under 10), classic1980 and gamerules go negative."""
    g = make("mattel2022", ["5 -10 3 4", "-10 6 7 8"], "9 9 9")
    g.apply("5")
    assert "-10" in codes(g.legal_actions())
    g.apply("-10")
    assert g.total == 0
    g.apply("-10")
    assert g.total == 0
    g = make("mattel2022", ["10 5 3 4", "-10 6 7 8"], "2 9 9")
    play(g, "10", "6", "5", "-10")
    assert g.total == 11
    for preset in ("classic1980", "gamerules"):
        g = make(preset, ["5 -10 3 4", "-10 6 7 8"], "9 9 9")
        play(g, "5", "-10")
        assert g.total == -5
        g.apply("-10")
        assert g.total == -15


def test_hold_adds_zero_1980_only() -> None:
    """R-H-1: Hold adds 0 and play goes on (1980 deck only)."""
    g = make("classic1980", ["7 H 3 4", "H 6 7 8", "2 3 4 5"], "9 9 9")
    play(g, "7", "H")
    assert g.total == 7 and g.direction == 1 and g.to_move == 2
    with pytest.raises(RecordError, match="lacks"):
        make("mattel2022", ["H 2 3 4", "5 6 7 8"], "")


def test_state_json_after_turns_has_contract_fields() -> None:
    """R-REC: the replay state JSON has the listed fields."""
    g = make("mattel2022", ["7 1 2 3", "4 5 6 8"], "9 0")
    data = state_json(g)
    for key in ("total", "direction", "to_move", "hands", "draw_pile", "out", "tokens",
                "scores", "round", "winner", "owes_two"):  # fmt: skip
        assert key in data
    assert view_of(g, 0).hand == tuple(g.hands[0])
