"""Setup, decks, presets and options (RULES.md "Cards and codes", R-SET)."""

from __future__ import annotations

from collections import Counter

import pytest

from engine_helpers import hand, hand_codes, make
from ono99 import Card, Game, RulesError, make_rules, parse_action, view_of
from ono99.rules import deck_list


def test_deck_sizes_112_and_54() -> None:
    """Deck sizes: 2022 = 112 cards, 1980 = 54 cards (RULES.md "Cards and codes")."""
    assert make_rules("mattel2022").deck_size == 112
    assert make_rules("classic1980").deck_size == 54
    assert make_rules("gamerules").deck_size == 54
    assert len(deck_list(make_rules("mattel2022"))) == 112
    assert len(deck_list(make_rules("classic1980"))) == 54


def test_deck_contents_per_card() -> None:
    """The card table: copies of each card in the 2022 and the 1980 decks."""
    want_2022 = {"0": 8, "10": 10, "-10": 10, "R": 10, "P2": 10, "99": 10, "H": 0}
    want_2022.update({str(v): 6 for v in range(1, 10)})
    want_1980 = {"0": 0, "1": 0, "10": 10, "-10": 4, "R": 6, "P2": 2, "H": 4, "99": 4}
    want_1980.update({str(v): 3 for v in range(2, 10)})
    for preset, want in (
        ("mattel2022", want_2022),
        ("classic1980", want_1980),
        ("gamerules", want_1980),
    ):
        counts = Counter(deck_list(make_rules(preset)))
        got = {code: counts[parse_action(code)] for code in want}
        assert got == want, preset


@pytest.mark.parametrize(
    ("preset", "n"), [("mattel2022", 2), ("mattel2022", 6), ("classic1980", 8), ("gamerules", 5)]
)
def test_seeded_deal_four_each_rest_is_draw_pile(preset: str, n: int) -> None:
    """R-SET-1: four cards to each player, the rest is the draw pile; R-SET-2: empty
    discard pile, total 0."""
    g = Game(preset, n, seed=11)
    assert [len(h) for h in g.hands] == [4] * n
    assert len(g.draw_pile) == g.rules.deck_size - 4 * n
    assert g.discard == []
    assert g.total == 0
    everything = Counter(g.draw_pile)
    for h in g.hands:
        everything.update(h)
    assert everything == Counter(deck_list(g.rules))


def test_explicit_deal_is_used_and_hands_are_private() -> None:
    """R-SET-1: hands and draw pile come from the deal; each player sees only their own
    hand (the view holds the others' hand sizes, never their cards)."""
    g = make("mattel2022", ["10 5 R 99", "7 P2 0 3", "-10 1 2 4"], "8 9 10 6")
    assert hand_codes(g, 0) == sorted(hand("10 5 R 99"))
    assert [g.draw_pile[-1 - i] for i in range(4)] == [8, 9, 10, 6]  # top first
    v = view_of(g, 1)
    assert sorted(v.hand) == sorted(g.hands[1])
    assert v.hand_sizes == (4, 4, 4)
    data = v.to_json()
    assert "hands" not in data
    assert set(data) >= {"hand", "hand_sizes"}
    assert sorted(data["hand"]) == sorted(hand("7 P2 0 3"))


def test_discard_starts_empty_total_zero() -> None:
    """R-SET-2: the discard pile starts empty with a running total of 0."""
    g = make("classic1980", ["10 5 R 9", "7 P2 2 3"], "8 9 10 6")
    assert g.discard == [] and g.total == 0 and g.round == 1
    g.apply("10")
    assert g.discard == [10] and g.total == 10


def test_left_of_dealer_starts_clockwise() -> None:
    """R-SET-3: default dealer n-1 so seat 0 starts; the player left of a given dealer
    starts; play goes clockwise (seat i+1 next)."""
    g = make("mattel2022", ["1 2 3 4", "1 2 3 4", "5 6 7 8", "5 6 7 8"])
    assert g.dealer == 3 and g.to_move == 0 and g.direction == 1
    g.apply("1")
    assert g.to_move == 1
    g = make("mattel2022", ["1 2 3 4", "1 2 3 4", "5 6 7 8", "5 6 7 8"], dealer=1)
    assert g.to_move == 2
    g.apply("5")
    assert g.to_move == 3
    g.apply("5")
    assert g.to_move == 0


def test_tokens_start_at_three() -> None:
    """R-SET-4: classic1980 (tokens) and gamerules start every player with 3 tokens;
    mattel2022 and points scoring have none."""
    assert Game("classic1980", 4).tokens == [3, 3, 3, 3]
    assert Game("gamerules", 3).tokens == [3, 3, 3]
    assert Game("mattel2022", 3).tokens is None
    assert Game("classic1980", 3, options={"scoring": "points"}).tokens is None
    assert Game("classic1980", 3, options={"scoring": "points"}).scores == [0, 0, 0]


@pytest.mark.parametrize(
    ("preset", "bad", "good"),
    [
        ("mattel2022", (0, 1, 7), (2, 6)),
        ("classic1980", (1, 9), (2, 8)),
        ("gamerules", (1, 9), (2, 8)),
    ],
)
def test_player_count_range(preset: str, bad: tuple[int, ...], good: tuple[int, ...]) -> None:
    """R-SET-5: player counts outside the preset's range are rejected with a clear error."""
    for n in good:
        assert Game(preset, n).n == n
    for n in bad:
        with pytest.raises(RulesError, match="players"):
            Game(preset, n)
    with pytest.raises(RulesError, match="players"):
        Game(preset, ["x"] * (max(bad) if max(bad) > 2 else 1))
    with pytest.raises(RulesError):
        Game(preset, 10**12)  # rejected at once, nothing built for it


def test_options_per_preset() -> None:
    """R-SET-6: the options each preset takes, their defaults, and rejections."""
    assert make_rules("classic1980").options == {
        "scoring": "tokens",
        "zero_ending_99": False,
        "draw_penalty": False,
    }
    r = make_rules("classic1980", {"scoring": "points"})
    assert (r.mode, r.target, r.points_mode) == ("points", 100, "elimination")
    r = make_rules("classic1980", {"scoring": "points", "target": 150, "points_mode": "lowest"})
    assert (r.target, r.points_mode) == (150, "lowest")
    assert make_rules("classic1980", {"zero_ending_99": True, "draw_penalty": True}).draw_penalty
    assert make_rules("gamerules").options == {"draw_penalty": False}
    assert make_rules("gamerules", {"draw_penalty": True}).draw_penalty
    bad = [
        ("mattel2022", {"draw_penalty": True}),
        ("mattel2022", {"scoring": "points"}),
        ("classic1980", {"colour": "red"}),
        ("classic1980", {"scoring": "goals"}),
        ("classic1980", {"target": 150}),  # target needs points scoring
        ("classic1980", {"scoring": "points", "points_mode": "highest"}),
        ("classic1980", {"scoring": "points", "target": 0}),
        ("classic1980", {"zero_ending_99": "yes"}),
        ("gamerules", {"scoring": "points"}),
        ("gamerules", {"zero_ending_99": True}),
        ("uno", {}),
    ]
    for preset, opts in bad:
        with pytest.raises(RulesError) as info:
            make_rules(preset, opts)
        assert "\n" not in str(info.value)


def test_card_codes_round_trip() -> None:
    """Card codes (RULES.md "Cards and codes") parse to the cards and back."""
    for code, card in [("0", Card.N0), ("10", Card.N10), ("-10", Card.MINUS10), ("R", Card.REVERSE),
                       ("P2", Card.PLAY2), ("H", Card.HOLD), ("99", Card.NINETY_NINE)]:  # fmt: skip
        assert parse_action(code) == card
