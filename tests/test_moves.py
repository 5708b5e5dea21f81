"""The rule arithmetic of ono99.moves is the engine's: over many random games, the
engine's legal cards are exactly the safe cards in hand, every play moves the total as
``total_after`` says, and every illegal card is refused for the reason ``why_illegal``
gives."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from ono99 import DRAW, FOUR_99, Game, IllegalAction, make_rules
from ono99.moves import is_safe, total_after, why_illegal

CONFIGS: list[tuple[str, dict[str, Any]]] = [
    ("mattel2022", {}),
    ("classic1980", {}),
    ("classic1980", {"zero_ending_99": True, "draw_penalty": True}),
    ("classic1980", {"scoring": "points"}),
    ("gamerules", {}),
    ("gamerules", {"draw_penalty": True}),
]


def _check_decision(g: Game) -> None:
    p = g.to_move
    assert p is not None
    legal = set(g.legal_actions(p))
    hand = g.hands[p]
    first = g.plays_left == 2
    for c in set(hand):
        safe = is_safe(g.rules, c, g.total, first, g.played_99)
        if g.must_bust_play:
            assert not safe or c not in legal  # R-END-3: only unsafe cards are offered
        else:
            assert (c in legal) == safe, (c, g.total, sorted(hand))
    for c in range(16):
        if c in legal:
            continue
        why = why_illegal(
            g.rules, c, hand=hand, total=g.total, plays_left=g.plays_left,
            played_99=g.played_99, bust_mode=g.must_bust_play,
        )  # fmt: skip
        try:
            g.copy().apply(c)
        except IllegalAction as e:
            assert e.rule == why.rule
        else:
            raise AssertionError(f"{c} was refused by legal_actions but applied")


@given(config=st.sampled_from(CONFIGS), seed=st.integers(0, 2**32), players=st.integers(2, 6))
def test_engine_legal_moves_and_totals_follow_the_rule_arithmetic(
    config: tuple[str, dict[str, Any]], seed: int, players: int
) -> None:
    """R-LIM-1, R-LIM-2, R-M10-1, R-99-1, R-99-2, R-99-5, R-P2-3, R-TURN-1: at every decision
    of a random game the legal cards are the safe cards in hand, the new total is
    ``total_after``'s, and each refused card is refused under the rule ``why_illegal`` names."""
    preset, options = config
    g = Game(make_rules(preset, options), players, seed=seed, events=False)
    rng = random.Random(seed)
    while not g.is_over:
        acting = g.acting()
        if g.to_move in acting and DRAW not in acting[g.to_move]:
            _check_decision(g)
        legal = g.legal_actions()
        a = legal[rng.randrange(len(legal))]
        before, total, rnd = g.must_bust_play, g.total, g.round
        g.apply(a)
        if a < FOUR_99 and not before and g.round == rnd:
            assert g.total == total_after(g.rules, total, a)


def test_total_after_floors_and_sets() -> None:
    """R-M10-1 (2022 floor at 0, 1980 negatives) and R-99-2 (gamerules 99 sets 99)."""
    m, c, gr = make_rules("mattel2022"), make_rules("classic1980"), make_rules("gamerules")
    assert total_after(m, 4, 11) == 0 and total_after(c, 4, 11) == -6
    assert total_after(gr, 40, 15) == 99 and total_after(c, 40, 15) == 40
    assert [total_after(m, 50, x) for x in (12, 13)] == [50, 50]
