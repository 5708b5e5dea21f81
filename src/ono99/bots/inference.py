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
from typing import cast

from ono99.bots import compiled
from ono99.bots.common import C99, believed_world
from ono99.bots.heuristic import HeuristicBot
from ono99.cards import DRAW, FOUR_99
from ono99.errors import Ono99Error
from ono99.game import Game, seeded_shuffle
from ono99.view import PlayerView, view_of

__all__ = ["HandTracker", "ParticleTracker", "compiled_model"]

#: the model of the other players: a policy from a view to an action
Policy = Callable[[PlayerView], int]


class HandTracker:
    """Samples worlds conditioned on the other players' plays since the last decision."""

    def __init__(
        self,
        model: Policy,
        tries: int = 8,
        prior: Callable[[PlayerView, random.Random], Game] = believed_world,
    ) -> None:
        #: how the others are assumed to choose (e.g. ``HeuristicBot().act``)
        self.model = model
        #: attempts per world before falling back to the plain belief
        self.tries = tries
        #: the worlds before conditioning on the plays: the card-counting belief by default
        self.prior = prior
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
        return self.prior(view, rng)

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
        got = _replay(self.prior(prev, rng), self.model, action, drawn, played, view, rng, 0.0)
        return None if got is None else got[0]


def compiled_model(model: Policy) -> Callable[[Game], int] | None:
    """The compiled heuristic (:mod:`ono99.bots.fast_rollout`, the same moves) when ``model``
    is the ``act`` of a heuristic it plays (:meth:`HeuristicBot.compiled_plays_it`) and it is
    ready (:mod:`ono99.bots.compiled`)."""
    bot = getattr(model, "__self__", None)
    if (
        not isinstance(bot, HeuristicBot)
        or not bot.compiled_plays_it()
        or getattr(model, "__func__", None) is not HeuristicBot.act
    ):
        return None
    fast = compiled.module()
    return None if fast is None else cast("Callable[[Game], int]", fast.heuristic_move)


def _replay(
    w: Game,
    model: Policy,
    action: int,
    drawn: list[int],
    played: list[int],
    view: PlayerView,
    rng: random.Random,
    eps: float,
) -> tuple[Game, float] | None:
    """Carry world ``w`` (at the bot's previous decision) through the bot's ``action``,
    its real draw ``drawn`` and the others' ``played`` cards to ``view``. Returns the world
    and its weight: 1, times ``eps`` for each card the model would not have played
    (``eps = 0``: such a world is rejected), or None if the world cannot lead to ``view``.

    With ``eps = 0`` (:class:`HandTracker`, a fresh belief world each time) a played card
    missing from the player's hand is swapped in from the pile: the world is a proposal
    conditioned on the card being there. With ``eps > 0`` (:class:`ParticleTracker`, whose
    worlds carry what earlier plays taught) a hand must already hold what it plays, save
    a card drawn during the replay itself (after the first of two plays)."""
    strict = eps > 0.0
    if not _put_drawn(w, drawn, view.seat, strict, rng):
        return None
    try:
        w.apply(action)
        weight = _replay_plays(w, model, played, view, rng, eps)
    except Ono99Error:
        return None
    if weight is None or not _arrives(w, view):
        return None
    return w, weight


def _put_drawn(w: Game, drawn: list[int], me: int, strict: bool, rng: random.Random) -> bool:
    """Put the cards the bot really drew on top of ``w``'s pile (False: it cannot)."""
    pile = w.draw_pile
    for c in drawn:
        if c in pile:
            pile.remove(c)
        else:  # the world put it in another hand
            holder = next((s for s in range(w.n) if s != me and c in w.hands[s]), None)
            if strict or holder is None or not pile:
                return False
            w.hands[holder].remove(c)
            w.hands[holder].append(pile.pop(rng.randrange(len(pile))))
        pile.append(c)
    return True


def _replay_plays(
    w: Game, model: Policy, played: list[int], view: PlayerView, rng: random.Random, eps: float
) -> float | None:
    """Play the others' ``played`` cards in ``w``: the weight (see :func:`_replay`), or
    None where the world cannot have made those plays."""
    strict = eps > 0.0
    fast = compiled_model(model) if w.rules.standard_deal else None
    weight = 1.0
    drew: set[int] = set()
    i = 0
    while i < len(played):
        c = played[i]
        p = w.to_move
        if p is None or p == view.seat:
            return None
        legal = w.legal_actions(p)
        if c == C99 and FOUR_99 in legal and played[i : i + 4] == [C99] * 4:
            w.apply(FOUR_99)  # R-99-3: four 99s land on the pile at once
            i += 4
            continue
        hand = w.hands[p]
        if c not in hand:
            # condition on the card being there: swap it in from the pile
            if (strict and p not in drew) or not _swap_in(w, p, c, rng):
                return None
            legal = w.legal_actions(p)
        if c not in legal:
            return None
        if len(legal) > 1 and (fast(w) if fast else model(view_of(w, p))) != c:
            if not strict:
                return None  # the model would not have played it with this hand
            weight *= eps
        before = len(hand)
        w.apply(c)
        if len(w.hands[p]) >= before:
            drew.add(p)
        i += 1
    return weight


def _swap_in(w: Game, p: int, c: int, rng: random.Random) -> bool:
    """Card ``c`` from the pile into seat ``p``'s hand for a random card of it."""
    hand = w.hands[p]
    if c not in w.draw_pile or not hand:
        return False
    w.draw_pile.remove(c)
    out = hand.pop(rng.randrange(len(hand)))
    w.draw_pile.insert(rng.randrange(len(w.draw_pile) + 1), out)
    hand.append(c)
    w.resettle()
    return True


def _arrives(w: Game, view: PlayerView) -> bool:
    """Whether world ``w`` shows what ``view`` shows."""
    return (
        w.to_move == view.seat
        and w.total == view.total
        and w.direction == view.direction
        and w.owes_two == view.owes_two
        and w.plays_left == view.plays_left
        and sorted(w.hands[view.seat]) == sorted(view.hand)
        and [len(h) for h in w.hands] == list(view.hand_sizes)
        and w.alive == list(view.alive)
    )


class ParticleTracker(HandTracker):
    """A particle filter over the other hands, carried through the whole round.

    Where :class:`HandTracker` conditions a fresh belief world on the plays since the
    bot's last move only, this keeps ``particles`` worlds from one decision to the next
    and carries each through what happened in between (:func:`_replay`): a world whose
    hands could not have made the plays seen is dropped, and one whose player the model
    says would have chosen another card keeps weight ``eps`` (the others are not exactly
    the model). The survivors are resampled by weight, so a hand that has held back its
    -10 for three turns, or dumped high cards while keeping others, is read from all of
    it. When too few survive, fresh :class:`HandTracker` worlds top the set up; a new
    round or a reshuffle (which the replay does not model) starts again from the belief.
    """

    def __init__(
        self,
        model: Policy,
        seed: int = 0,
        particles: int = 64,
        eps: float = 0.1,
        tries: int = 8,
    ) -> None:
        super().__init__(model, tries)
        #: the filter's own random numbers: it must follow every decision, searched or not
        self.rng = random.Random(seed)
        self.particles = particles
        self.eps = eps
        self._worlds: list[Game] = []
        self._at: tuple[object, ...] | None = None

    def reset(self) -> None:
        super().reset()
        self._worlds = []
        self._at = None

    def saw(self, view: PlayerView, action: int) -> None:
        self._sync(view)  # the next update starts from this decision's particles
        super().saw(view, action)

    def world(self, view: PlayerView, rng: random.Random) -> Game:
        self._sync(view)
        w = self._worlds[rng.randrange(len(self._worlds))].copy()
        seeded_shuffle(rng, w.draw_pile)  # the order of the pile is unknown to everyone
        return w

    def _sync(self, view: PlayerView) -> None:
        key = (view.seat, view.round, view.reshuffles, view.total, view.discard, view.hand)
        if key != self._at:
            self._update(view, self.rng)
            self._at = key

    def _update(self, view: PlayerView, rng: random.Random) -> None:
        m = self.particles
        plan = self._plan(view)
        if plan is None or not self._worlds:
            self._worlds = [HandTracker.world(self, view, rng) for _ in range(m)]
            return
        _, action, drawn, played = plan
        worlds: list[Game] = []
        weights: list[float] = []
        for old in self._worlds:
            w = old.copy()
            seeded_shuffle(rng, w.draw_pile)
            got = _replay(w, self.model, action, drawn, played, view, rng, self.eps)
            if got is not None:
                worlds.append(got[0])
                weights.append(got[1])
        self.kept += len(worlds)
        if len(worlds) < m // 4:
            top = sum(weights) / len(weights) if weights else 1.0
            for _ in range(m // 2 - len(worlds)):
                worlds.append(HandTracker.world(self, view, rng))
                weights.append(top)
        # systematic resampling
        total = sum(weights)
        step = total / m
        u = rng.random() * step
        out: list[Game] = []
        acc = 0.0
        j = -1
        for i in range(m):
            target = u + i * step
            while acc <= target and j < len(worlds) - 1:
                j += 1
                acc += weights[j]
            out.append(worlds[j])
        self._worlds = out
