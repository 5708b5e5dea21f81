"""``print(game)``: the table as text, the way python-chess prints a board (issue 38;
R-SET-1: it is the engine object's text, every hand shown; a player's side is a view)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from ono99 import Game
from ono99.cards import action_code

SETUPS = [("mattel2022", {}, 3), ("classic1980", {}, 4), ("classic1980", {"scoring": "points"}, 3)]


def test_a_new_game_prints_its_table() -> None:
    assert str(Game("mattel2022", 3, seed=7)) == (
        "mattel2022 · round 1 · Total 0 · →\n"
        "> Player 1  4 cards  1 -10 P2 99\n"
        "  Player 2  4 cards  3 R R 99\n"
        "  Player 3  4 cards  R R P2 99\n"
        "draw pile 100 · discard pile 0"
    )


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(SETUPS), st.integers(0, 2**32), st.integers(0, 400))
def test_the_table_follows_the_game(setup: tuple, seed: int, moves: int) -> None:
    """After any number of random moves: the seat to move is marked, every hand is shown
    by its codes, out seats say so, the piles and the mode's tokens or points are
    counted, and a finished game names its winners (R-END-1, R-END-4)."""
    rules, options, n = setup
    g = Game(rules, n, options=options, seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if g.is_over:
            break
        g.apply(rng.choice(g.legal_actions()))
    lines = str(g).splitlines()
    assert len(lines) == n + 2
    assert f"Total {g.total} · {'→' if g.direction > 0 else '←'}" in lines[0]
    assert ("Game over" in lines[0]) == g.is_over
    for seat, line in enumerate(lines[1 : n + 1]):
        assert line.startswith(">" if seat == g.to_move else " ")
        assert g.names[seat] in line
        if not g.alive[seat]:
            assert "out of the game" in line
        else:
            codes = " ".join(action_code(c) for c in sorted(g.hands[seat]))
            assert codes in line
        if g.tokens is not None:
            assert f"tokens {g.tokens[seat]}" in line
        if g.scores is not None:
            assert f"points {g.scores[seat]}" in line
    assert lines[-1] == f"draw pile {len(g.draw_pile)} · discard pile {len(g.discard)}"
    if g.is_over:
        w = g.winner
        for s in w if isinstance(w, list) else [w]:
            assert g.names[s] in lines[0]


def test_the_fast_engine_prints_the_same_table() -> None:
    """Both engines hold the same state for the same seed and moves (tests/fast/), so
    the same text."""
    from ono99.fast import FastGame

    ref, fast = Game("classic1980", 3, seed=11), FastGame("classic1980", 3, seed=11)
    rng = random.Random(2)
    for _ in range(80):
        if ref.is_over:
            break
        assert str(ref) == str(fast)
        action = rng.choice(ref.legal_actions())
        ref.apply(action)
        fast.apply(action)
    assert str(ref) == str(fast)
