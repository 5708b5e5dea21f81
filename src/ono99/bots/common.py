"""What a bot can work out from public rules and its own view: which cards are safe,
what a card does to the total, who moves next, card counting (RULES.md R-LIM, R-P2).

These helpers read only a :class:`~ono99.view.PlayerView` and the :class:`Rules`.
"""

from __future__ import annotations

import heapq
import random

from ono99.cards import DRAW, FOUR_99, Card
from ono99.determinize import sample_world, unseen_counts
from ono99.game import CARD_POINTS, Game, seeded_shuffle
from ono99.moves import is_escape, is_safe, total_after
from ono99.rules import Rules
from ono99.view import PlayerView

__all__ = [
    "CARD_POINTS",
    "M10",
    "REV",
    "P2",
    "HOLD",
    "C99",
    "is_safe",
    "new_total",
    "pool_counts",
    "next_seat",
    "is_escape",
    "HAND_BIAS",
    "weighted_hand",
    "believed_world",
    "forced_move",
    "MAX_ROLLOUT",
    "ROLLOUT_POINTS",
    "FITS_STRENGTH",
]

#: the search's rollouts (``bots.ismcts``, and their compiled copy ``bots.fast_rollout``)
#: longer than this are cut off and scored as a draw among the players left
MAX_ROLLOUT = 600

#: a rollout's reward in points mode: 1 less the points it took over this (at least 0)
ROLLOUT_POINTS = 60.0
#: a cut-off rollout's estimate of a hand: 1, plus 1 an escape card, plus this a card that
#: fits under the limit
FITS_STRENGTH = 0.5

M10 = int(Card.MINUS10)
REV = int(Card.REVERSE)
P2 = int(Card.PLAY2)
HOLD = int(Card.HOLD)
C99 = int(Card.NINETY_NINE)


def forced_move(view: PlayerView) -> int | None:
    """The move every careful bot makes without thinking, or None when there is a choice:
    draw at once (R-DRAW-1), the only legal card, the points-mode bust card worth most
    (R-END-3: it leaves the lowest hand score) and the four-99 discard (R-99-3)."""
    legal = view.legal
    if DRAW in legal:
        return DRAW
    if len(legal) == 1:
        return legal[0]
    if view.bust_mode:
        return max(legal, key=lambda c: (CARD_POINTS[c], c))
    if FOUR_99 in legal:
        return FOUR_99
    return None


def new_total(rules: Rules, card: int, total: int) -> int:
    """The total after ``card`` (:func:`ono99.moves.total_after`, argument order of the bots)."""
    return total_after(rules, total, card)


def pool_counts(view: PlayerView) -> list[int]:
    """Copies of each card (0..15) the viewer has not seen: the deck minus its own
    hand, the discard pile and laid-down hands (card counting)."""
    return unseen_counts(view)


def next_seat(active: tuple[bool, ...] | list[bool], seat: int, direction: int) -> int:
    """The next seat still taking turns after ``seat`` (R-TURN-4)."""
    n = len(active)
    i = (seat + direction) % n
    while not active[i] and i != seat:
        i = (i + direction) % n
    return i


#: Belief about opponents' hands (measured: in games between sensible players, a hand
#: that has been played from holds the escape cards and dead 99s it kept, and fewer of
#: the high numbers it dumped). Relative odds of each card being in an opponent's hand
#: rather than in the draw pile; index = card int.
HAND_BIAS: tuple[float, ...] = (
    0.8, 0.7, 0.66, 0.62, 0.58, 0.54, 0.5, 0.46, 0.43, 0.41, 0.38,  # 0..10
    1.7, 1.4, 1.4, 1.4, 2.6,  # -10, R, P2, H, 99
)  # fmt: skip


_INV_BIAS = tuple(1.0 / b for b in HAND_BIAS)


def weighted_hand(pool: list[int], k: int, rng: random.Random) -> list[int]:
    """Draw ``k`` cards from ``pool`` (removed from it) with :data:`HAND_BIAS` odds
    (Efraimidis–Spirakis weighted sampling without replacement)."""
    if k <= 0:
        return []
    if k >= len(pool):
        out = pool[:]
        pool.clear()
        return out
    rnd = rng.random
    inv = _INV_BIAS
    keyed = heapq.nlargest(k, [(rnd() ** inv[c], i) for i, c in enumerate(pool)])
    take = sorted((i for _, i in keyed), reverse=True)
    out = [pool[i] for i in take]
    for i in take:
        del pool[i]
    return out


def believed_world(view: PlayerView, rng: random.Random) -> Game:
    """:func:`~ono99.determinize.sample_world`, with the other players' hidden hands
    re-dealt from the unseen cards with :data:`HAND_BIAS` odds (a belief, not a leak:
    only the view is read)."""
    g = sample_world(view, rng)
    seats = [s for s in range(g.n) if s != view.seat and not view.laid_down[s] and g.hands[s]]
    pool = list(g.draw_pile)
    for s in seats:
        pool.extend(g.hands[s])
    seeded_shuffle(rng, pool)  # rng.shuffle(pool), the same draws, faster
    for s in seats:
        g.hands[s] = weighted_hand(pool, len(g.hands[s]), rng)
    g.draw_pile = pool
    if g.to_move != view.seat:
        g.resettle()  # the player to move holds another hand now: its legal actions too
    return g
