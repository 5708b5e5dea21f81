"""The observation vector and the action mask of one seat, from its view only.

Written by the names of :mod:`ono99.layout`, from a :class:`~ono99.view.PlayerView` (what
that seat may know, R-SET-1) and nothing else. Plain lists: the environments turn them into
NumPy arrays (:func:`ono99.envs.encoding.encode`), and the reference engine's
:meth:`ono99.game.Game.observe` writes them into the arrays an environment hands it, as the
fast engine writes the same values from its state (:mod:`ono99.fast.obs`).

Seats are *relative*: block ``k`` of the per-seat part is the seat ``k`` places after the
observer, clockwise (block 0 is the observer itself).

>>> from ono99 import Game
>>> values = observation_values(Game("mattel2022", 3, seed=7).view(0))
>>> len(values), sum(values[:NUM_CARDS])    # seat 0 holds four cards
(81, 4.0)
"""

from __future__ import annotations

from ono99.cards import NUM_ACTIONS
from ono99.layout import (
    ACTIVE,
    ALIVE,
    BUST_MODE,
    DIRECTION,
    DISCARD_AT,
    DRAW_PILE,
    HAND_SIZE,
    LAID_AT,
    NUM_CARDS,
    OWES_TWO,
    PENDING_DRAW,
    PER_SEAT,
    PLAYED_99,
    PLAYS_LEFT,
    SCORE,
    SCORE_SLACK,
    SEATS_AT,
    TO_MOVE,
    TOKENS,
    TOTAL,
    TOTAL_HIGH,
    TOTAL_LOW,
    WINNER,
)
from ono99.view import PlayerView

__all__ = ["NUM_CARDS", "mask_values", "observation_values", "winners"]


def winners(winner: int | tuple[int, ...] | list[int] | None) -> tuple[int, ...]:
    """The winning seats (none while the game goes on)."""
    if winner is None:
        return ()
    if isinstance(winner, int):
        return (winner,)
    return tuple(winner)


def observation_values(view: PlayerView) -> list[float]:
    """The observation vector of ``view`` (``ono99.envs.encoding.field_names`` order).

    A function of the view alone: the observer's own hand, public counters and piles,
    hand sizes -- never another hand or the draw order (R-SET-1). Built in a Python list
    (an item set on a NumPy array costs several times a list's, and this runs at every step
    of every environment)."""
    n = len(view.names)
    me = view.seat
    out = [0.0] * (SEATS_AT + PER_SEAT * n)
    for c in view.hand:
        out[c] += 1.0
    t = view.total
    out[TOTAL] = TOTAL_HIGH if t > TOTAL_HIGH else (TOTAL_LOW if t < TOTAL_LOW else t)
    out[DIRECTION] = view.direction
    out[PLAYS_LEFT] = view.plays_left
    out[PLAYED_99] = view.played_99
    out[BUST_MODE] = view.bust_mode
    out[DRAW_PILE] = view.draw_pile
    for c in view.discard:
        out[DISCARD_AT + c] += 1.0
    for hand in view.laid_down:
        for c in hand:
            out[LAID_AT + c] += 1.0
    won = winners(view.winner)
    top_score = float(view.rules.target + SCORE_SLACK)
    sizes, alive, active, tokens, scores = (
        view.hand_sizes, view.alive, view.active, view.tokens, view.scores,
    )  # fmt: skip
    to_move, owes, pending = view.to_move, view.owes_two, view.pending_draw
    b = SEATS_AT
    for k in range(n):
        s = (me + k) % n
        out[b + HAND_SIZE] = sizes[s]
        out[b + ALIVE] = alive[s]
        out[b + ACTIVE] = active[s]
        out[b + TO_MOVE] = to_move == s
        out[b + OWES_TWO] = owes == s
        out[b + PENDING_DRAW] = pending == s
        out[b + WINNER] = s in won
        if tokens is not None:
            out[b + TOKENS] = tokens[s]
        if scores is not None:
            out[b + SCORE] = min(top_score, float(scores[s]))
        b += PER_SEAT
    return out


def mask_values(view: PlayerView) -> list[int]:
    """1 for each action id in ``view.legal``, 0 for the others (``NUM_ACTIONS`` long)."""
    mask = [0] * NUM_ACTIONS
    for a in view.legal:
        mask[a] = 1
    return mask
