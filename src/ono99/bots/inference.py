"""Reading the other hands from what was played since the bot's last move.

:class:`HandTracker` remembers the bot's previous view and the action it took. For the
next decision it samples worlds *through* what happened in between: a world consistent
with the previous view (:func:`~ono99.bots.common.believed_world`), the bot's own card
played and the card it really drew put on top of the pile, then every card the others
played since (public: the discard pile) replayed in that world. A world is kept only if
the player to move would have chosen that very card by the tracker's model of them
(the heuristic) and the world ends in the public state the bot sees now. What the others
drew is sampled by the world itself, so the kept worlds are draws from the posterior of
their hands given their last plays (rejection sampling), not only given the card counts.

Only views are read: the previous view, the current view and the bot's own action.
When the two views do not connect simply (a new round, a reshuffle, a bust in between)
or too few worlds survive, it falls back to the card-counting belief.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable

from ono99.bots.common import C99, believed_world
from ono99.cards import DRAW, FOUR_99
from ono99.errors import Ono99Error
from ono99.game import Game
from ono99.view import PlayerView, view_of

__all__ = ["HandTracker"]

#: the model of the other players: a policy from a view to an action
Policy = Callable[[PlayerView], int]


class HandTracker:
    """Samples worlds conditioned on the other players' plays since the last decision."""

    def __init__(self, model: Policy, tries: int = 8) -> None:
        #: how the others are assumed to choose (e.g. ``HeuristicBot(seed).act``)
        self.model = model
        #: attempts per world before falling back to the plain belief
        self.tries = tries
        self.prev: tuple[PlayerView, int] | None = None
        self.kept = 0
        self.fallbacks = 0

    def reset(self) -> None:
        self.prev = None

    def saw(self, view: PlayerView, action: int) -> None:
        """Remember the bot's decision (call after choosing ``action`` at ``view``)."""
        self.prev = (view, action)

    def world(self, view: PlayerView, rng: random.Random) -> Game:
        """A world consistent with ``view`` and, where possible, with the others' plays."""
        plan = self._plan(view)
        if plan is not None:
            prev, action, drawn, played = plan
            for _ in range(self.tries):
                w = self._through(prev, action, drawn, played, view, rng)
                if w is not None:
                    self.kept += 1
                    return w
        self.fallbacks += 1
        return believed_world(view, rng)

    def _plan(self, view: PlayerView) -> tuple[PlayerView, int, list[int], list[int]] | None:
        """What connects the previous view to this one, or None if it is not simple."""
        if self.prev is None:
            return None
        prev, action = self.prev
        if (
            prev.seat != view.seat
            or prev.round != view.round
            or prev.reshuffles != view.reshuffles
            or prev.names != view.names
            or action == DRAW
            or len(view.discard) <= len(prev.discard)
            or view.discard[: len(prev.discard)] != prev.discard
            or sum(view.alive) != sum(prev.alive)
            or prev.bust_mode
            or prev.pending_draw is not None
            or view.pending_draw is not None
        ):
            return None
        since = list(view.discard[len(prev.discard) :])
        kept = Counter(prev.hand)
        if kept[action] < 1 and action < 16:
            return None
        if action < 16:
            if since[0] != action:
                return None
            kept[action] -= 1
            played = since[1:]
        else:
            return None  # 99x4: four cards at once; not worth modelling
        drawn = list((Counter(view.hand) - kept).elements())
        if len(drawn) != 1 or Counter(view.hand) - Counter(drawn) != +kept:
            return None
        return prev, action, drawn, played

    def _through(
        self,
        prev: PlayerView,
        action: int,
        drawn: list[int],
        played: list[int],
        view: PlayerView,
        rng: random.Random,
    ) -> Game | None:
        w = believed_world(prev, rng)
        me = view.seat
        pile = w.draw_pile
        for c in drawn:  # the card the bot really drew goes on top of the pile
            if c in pile:
                pile.remove(c)
            else:  # the belief put it in another hand: swap it out for a pile card
                holder = next((s for s in range(w.n) if s != me and c in w.hands[s]), None)
                if holder is None or not pile:
                    return None
                w.hands[holder].remove(c)
                w.hands[holder].append(pile.pop(rng.randrange(len(pile))))
            pile.append(c)
        try:
            w.apply(action)
            i = 0
            while i < len(played):
                c = played[i]
                p = w._to_move
                if p < 0 or p == me:
                    return None
                if c == C99 and FOUR_99 in w._legal and played[i : i + 4] == [C99] * 4:
                    w.apply(FOUR_99)  # R-99-3: four 99s land on the pile at once
                    i += 4
                    continue
                hand = w.hands[p]
                if c not in hand:
                    # condition on the card being there: swap it in from the pile
                    if c not in w.draw_pile or not hand:
                        return None
                    w.draw_pile.remove(c)
                    out = hand.pop(rng.randrange(len(hand)))
                    w.draw_pile.insert(rng.randrange(len(w.draw_pile) + 1), out)
                    hand.append(c)
                    w._legal = w._compute_legal()
                if c not in w._legal:
                    return None
                if len(w._legal) > 1 and self.model(view_of(w, p)) != c:
                    return None  # the model would not have played it with this hand
                w.apply(c)
                i += 1
        except Ono99Error:
            return None
        if (
            w._to_move != me
            or w.total != view.total
            or w.direction != view.direction
            or w.owes_two != view.owes_two
            or w.plays_left != view.plays_left
            or sorted(w.hands[me]) != sorted(view.hand)
            or [len(h) for h in w.hands] != list(view.hand_sizes)
            or w.alive != list(view.alive)
        ):
            return None
        return w
