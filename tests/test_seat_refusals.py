"""A refusal told to the seat that acts is built from what that seat may see (issue 22).

``verify``/``apply`` take the acting seat; an action that is not that seat's to make is
refused for a public reason (not its turn, no draw of its own pending), never for the
reason the mover's hand would give."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ono99 import DRAW, Game, IllegalAction
from ono99.fast import FastGame

PRESETS = [("classic1980", {"draw_penalty": True}), ("gamerules", {"draw_penalty": True}),
           ("mattel2022", {})]  # fmt: skip


def _refusal(g: Game | FastGame, action: int, seat: int) -> str | None:
    try:
        g.verify(action, seat)
    except IllegalAction as e:
        return str(e)
    return None


@pytest.mark.parametrize("engine", [Game, FastGame])
@pytest.mark.parametrize(("preset", "options"), PRESETS)
@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**64), players=st.integers(2, 5), steps=st.integers(0, 60))
def test_refusals_to_a_seat_never_depend_on_hidden_cards(
    engine: type[Game] | type[FastGame], preset: str, options: dict[str, bool], seed: int,
    players: int, steps: int,
) -> None:  # fmt: skip
    """R-TURN-1, R-DRAW-1: in random positions, every card a seat that is not to move asks
    for is refused with "it is not your turn", and a draw asked for by a seat whose draw
    is not pending with "no draw is pending": the same words whatever anyone holds. The
    game is left exactly as it was."""
    g = engine(preset, players, options=options, seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if g.is_over:
            break
        g.apply(rng.choice(g.legal_actions()))
    if g.is_over:
        return
    before = (g.to_move, g.pending_draw, g.total, [sorted(h) for h in g.hands])
    for seat in range(players):
        for action in range(DRAW + 1):
            why = _refusal(g, action, seat)
            if action == DRAW:
                own = seat == g.to_move and DRAW in g.legal_actions(seat)
                if seat != g.pending_draw and not own:
                    assert why == "no draw is pending (R-DRAW-1)"
            elif seat != g.to_move:
                assert why == "it is not your turn (R-TURN-1)"
            elif action in g.legal_actions(seat):
                assert why is None
    assert before == (g.to_move, g.pending_draw, g.total, [sorted(h) for h in g.hands])


def test_apply_with_the_acting_seat() -> None:
    """R-DRAW-1, R-TURN-1: ``apply(action, seat)`` makes the move of that seat only: the
    pending draw by its own seat, a card by the player to move; another seat is refused
    and nothing changes."""
    g = Game("classic1980", ["Ana", "Bo", "Cy"], options={"draw_penalty": True}, seed=3)
    card = g.legal_actions(0)[0]
    with pytest.raises(IllegalAction, match="not your turn"):
        g.apply(card, 1)
    assert g.apply(card, 0) == 0
    assert g.pending_draw == 0 and g.to_move == 1
    with pytest.raises(IllegalAction, match="no draw is pending"):
        g.apply(DRAW, 1)
    with pytest.raises(IllegalAction, match="not your turn"):
        g.apply(g.legal_actions(1)[0], 0)
    assert g.apply(DRAW, 0) == 0
    assert g.apply(g.legal_actions(1)[0], 1) == 1
