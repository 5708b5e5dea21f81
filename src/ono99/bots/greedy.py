"""A simple sensible policy: dump the highest safe number card, keep the special
cards for when nothing else is safe.

- always draws at once (R-DRAW-1) and always discards four 99s when it can (R-99-3);
- a points-mode bust (R-END-3) throws the card worth most points;
- with no number card to play: Play 2, Reverse, Hold, ONO 99 (zero-ending / gamerules),
  and last -10.
"""

from __future__ import annotations

import random

from ono99.bots.base import Bot, register
from ono99.bots.common import C99, CARD_POINTS, HOLD, M10, P2, REV
from ono99.cards import DRAW, FOUR_99, MAX_NUMBER
from ono99.view import PlayerView

__all__ = ["GreedyBot", "OTHER_RANK", "SPECIAL_ORDER", "greedy_choice"]

SPECIAL_ORDER = {P2: 0, REV: 1, HOLD: 2, C99: 3, M10: 4}
#: the rank of any other action: after every special card
OTHER_RANK = len(SPECIAL_ORDER)


def greedy_choice(legal: tuple[int, ...], bust_mode: bool) -> int:
    """The greedy action among ``legal`` (sorted card ints)."""
    if DRAW in legal:
        return DRAW
    if FOUR_99 in legal:
        return FOUR_99
    if bust_mode:
        return max(legal, key=lambda c: (CARD_POINTS[c], c))
    best = -1
    for c in legal:
        if c <= MAX_NUMBER:
            best = c  # legal is sorted: the last number is the highest
    if best >= 0:
        return best
    return min(legal, key=lambda c: SPECIAL_ORDER.get(c, OTHER_RANK))


@register("greedy")
class GreedyBot(Bot):
    """:func:`greedy_choice`; with ``epsilon`` > 0 a random legal card that often."""

    name = "greedy"

    def __init__(self, seed: int = 0, epsilon: float = 0.0) -> None:
        self.rng = random.Random(seed)
        self.epsilon = epsilon

    def act(self, view: PlayerView) -> int:
        legal = view.legal
        if self.epsilon and DRAW not in legal and self.rng.random() < self.epsilon:
            return legal[self.rng.randrange(len(legal))]
        return greedy_choice(legal, view.bust_mode)
