"""Sample a full game consistent with one player's view (for search bots).

The unseen cards are the deck minus the viewer's hand, the discard pile and the
hands laid face up; they are dealt at random into the other hands (whose sizes
are public) and the draw pile. Only the view is read, so a bot that searches
sampled worlds cannot learn hidden cards.
"""

from __future__ import annotations

import random

from ono99.game import Game, seeded_shuffle
from ono99.view import PlayerView

__all__ = ["unseen_cards", "unseen_counts", "sample_world"]


def unseen_counts(view: PlayerView) -> list[int]:
    """Copies of each card (index = card int) the viewer cannot see: the deck minus its
    own hand, the discard pile and the hands laid face up. (Counted directly: the bots
    count cards at every decision of every player in the search's rollouts.)"""
    counts = list(view.rules.deck)
    for c in view.discard:
        counts[c] -= 1
    for c in view.hand:
        counts[c] -= 1
    seat = view.seat
    for s, h in enumerate(view.laid_down):
        if h and s != seat:  # an eliminated viewer's laid-down hand is its own hand
            for c in h:
                counts[c] -= 1
    return [k if k > 0 else 0 for k in counts]


def unseen_cards(view: PlayerView) -> list[int]:
    """The cards the viewer cannot see, as a list (card ints, one per copy)."""
    out: list[int] = []
    for card, k in enumerate(unseen_counts(view)):
        out.extend([card] * k)
    return out


def sample_world(view: PlayerView, rng: random.Random) -> Game:
    """A :class:`Game` whose public state and viewer's hand equal ``view``'s and
    whose hidden cards are a uniform random deal of the unseen cards."""
    pool = unseen_cards(view)
    seeded_shuffle(rng, pool)  # rng.shuffle(pool), the same draws, faster
    n = len(view.names)
    hands: list[list[int]] = []
    for s in range(n):
        if s == view.seat:
            hands.append(list(view.hand))
        elif view.laid_down[s]:
            hands.append(list(view.laid_down[s]))
        else:
            k = view.hand_sizes[s]
            hands.append(pool[len(pool) - k :])
            del pool[len(pool) - k :]
    return Game.world(view, hands, pool, rng.getrandbits(32))  # the rest is the draw pile
