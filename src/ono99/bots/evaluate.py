"""How good is each card? Win chances of every legal action, from one seat's view.

The evaluator answers "what are my chances with each card I may play?" for one seat, from
its :class:`~ono99.view.PlayerView` only (never the game): it samples worlds consistent
with everything that seat has seen, plays each legal action in every world, and lets the
heuristic (:class:`~ono99.bots.heuristic.HeuristicBot`) play every seat to the end of the
game. A sample is the seat's share of the win (1 for a win, 1/k for a win shared by k, 0
for a loss), under the preset's own ending: the last player in (elimination), the last
with tokens, or the lowest score (points).

- **Worlds.** The unseen cards (the deck minus the seat's hand, the discard pile and the
  hands laid face up) are dealt into the other hands, whose sizes are public, and the draw
  pile, with the belief that hands hold more escape cards than the pile
  (:func:`~ono99.bots.common.believed_world`). Given the seat's previous decision
  (``previous``), the worlds are also read from what the others played since
  (:class:`~ono99.bots.inference.HandTracker`, the inference behind ``expert``): a world is
  kept only if a heuristic player holding those cards would have played them.
- **Common random numbers.** Every action is played in the same worlds, with the same
  later draws and the same rollout decisions wherever the positions agree, so the
  differences between actions are much sharper than the intervals of each.
- **Anytime.** :class:`Evaluator` adds worlds on demand (:meth:`Evaluator.add`); the
  intervals shrink as 1/sqrt(worlds). :func:`evaluate` is the one-call form.
- **Deterministic.** The worlds are drawn from ``seed`` and what the seat sees, so the same
  seed gives the same values on any machine, with or without Numba. With Numba
  (``ono99[fast]``) the rollouts run compiled (:mod:`ono99.bots.fast_evaluate`, the same
  values, many times faster).

The values are the win chances *if everyone plays like the heuristic from here on*: the
strongest fast policy the project has, not a perfect one. docs/review.md says how well
they are calibrated against real games.

>>> from ono99 import Game
>>> g = Game("mattel2022", 2, seed=3)
>>> values = evaluate(g.view(g.to_move), samples=16, seed=1)
>>> [o.code for o in values.options]
['1', '10', '-10', 'P2']
>>> 0.0 <= values.best.win <= 1.0 and values.loss(values.best.action) == 0.0
True
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ono99.bots import compiled
from ono99.bots.common import believed_world
from ono99.bots.heuristic import ROLLOUT_SAMPLES, HeuristicBot
from ono99.bots.inference import HandTracker
from ono99.cards import DRAW, action_code
from ono99.determinize import sample_world
from ono99.game import Game
from ono99.view import PlayerView, view_of

__all__ = [
    "DEFAULT_SAMPLES", "Evaluator", "Option", "Values", "WinChance", "evaluate", "play_game",
    "prior_world", "wilson",
]  # fmt: skip

#: worlds per decision by default: a whole 2-player game reviewed within 10 s with the
#: compiled rollouts on the 2-core machine (benchmarks/review_speed.py, docs/review.md)
DEFAULT_SAMPLES = 200
#: decisions after which a Python rollout is cut off (as the compiled one)
MAX_GAME_STEPS = 20_000
_Z95 = 1.959963984540054


def wilson(mean: float, n: int) -> tuple[float, float]:
    """The 95 % Wilson score interval of a win rate ``mean`` over ``n`` samples (a shared
    win counts as its fraction): never outside [0, 1], never empty at 0 or 1."""
    if n <= 0:
        return (0.0, 1.0)
    z2 = _Z95 * _Z95
    centre = (mean + z2 / (2 * n)) / (1 + z2 / n)
    half = _Z95 * math.sqrt(max(0.0, mean * (1 - mean)) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    lo = 0.0 if mean <= 0.0 else max(0.0, centre - half)
    return (lo, 1.0 if mean >= 1.0 else min(1.0, centre + half))


@dataclass(frozen=True, slots=True)
class WinChance:
    """A win chance and its 95 % interval, from ``samples`` worlds."""

    win: float
    ci95: tuple[float, float]
    samples: int


@dataclass(frozen=True, slots=True)
class Option:
    """One legal action's win chance and its 95 % interval."""

    action: int
    win: float
    ci95: tuple[float, float]

    @property
    def code(self) -> str:
        """The action's code (``"7"``, ``"P2"``, ``"99x4"``): RULES.md "Cards and codes"."""
        return action_code(self.action)

    def to_json(self) -> dict[str, Any]:
        """``{"move": CODE, "win": p, "ci95": [lo, hi]}`` (CONTRACTS.md, ``ono99 review``)."""
        return {
            "move": self.code,
            "win": round(self.win, 6),
            "ci95": [round(x, 6) for x in self.ci95],
        }


@dataclass(frozen=True, slots=True)
class Values:
    """Every legal action's win chance for ``seat``, in the order of ``view.legal``."""

    seat: int
    samples: int
    options: tuple[Option, ...]
    #: paired differences: ``diff[i][j]`` = (mean, half-width of its 95 % interval) of
    #: option i's value minus option j's over the same worlds
    diff: tuple[tuple[tuple[float, float], ...], ...] = field(repr=False, default=())

    def option(self, action: int) -> Option:
        """The option of ``action`` (KeyError if it is not legal here)."""
        for o in self.options:
            if o.action == action:
                return o
        raise KeyError(action)

    @property
    def best(self) -> Option:
        """The option with the highest win chance (the first such, in legal order)."""
        return max(self.options, key=lambda o: o.win)

    def loss(self, action: int) -> float:
        """The win chance lost by playing ``action``: the best option's minus its own."""
        return self.best.win - self.option(action).win

    def loss_ci95(self, action: int) -> tuple[float, float]:
        """A 95 % interval of the best option's win minus ``action``'s, from the paired
        samples (much narrower than the two options' own intervals)."""
        i = self.options.index(self.best)
        j = self.options.index(self.option(action))
        mean, half = self.diff[i][j]
        return (mean - half, mean + half)


def play_game(g: Game, action: int | None, me: int, policy: HeuristicBot) -> float:
    """Play ``action`` (None: none) in world ``g``, then ``policy`` in every seat to the
    end of the game; ``me``'s share of the win. The Python form of
    :func:`ono99.bots.fast_evaluate.game_values` (the same values)."""
    if action is not None:
        g.apply(action)
    steps = 0
    while (p := g.to_move) is not None and steps < MAX_GAME_STEPS:
        if g.pending_draw is not None:
            g.apply(DRAW)
        else:
            legal = g.legal_actions()
            g.apply(legal[0] if len(legal) == 1 else policy.act(view_of(g, p)))
        steps += 1
    w = g.winner
    if w is not None:
        winners = w if isinstance(w, list) else [w]
        return 1.0 / len(winners) if me in winners else 0.0
    alive = sum(g.alive)
    return 1.0 / alive if g.alive[me] else 0.0


def _rollouts(
    world: Game, actions: Sequence[int | None], me: int, policy: HeuristicBot
) -> list[float]:
    """Every action played out in ``world`` (left as it was)."""
    fast = compiled.module()
    if fast is not None and fast.usable(world):
        from ono99.bots import fast_evaluate

        return fast_evaluate.game_values(world, [-1 if a is None else a for a in actions], me)
    return [play_game(world.copy(), a, me, policy) for a in actions]


def prior_world(view: PlayerView, rng: random.Random) -> Game:
    """The evaluator's worlds before the hand reading: a uniform deal of the unseen cards
    while nobody has played a card this round (the deal is uniform), else the card-counting
    belief that hands hold more escape cards than the pile (the cards kept by players who
    had a choice; docs/review.md measures both)."""
    if not view.discard:
        return sample_world(view, rng)
    return believed_world(view, rng)


def _stream(seed: int, view: PlayerView) -> random.Random:
    """The worlds' random numbers: from ``seed`` and what the seat sees of this decision
    (so two decisions of one game draw different worlds, and nothing hidden enters)."""
    key = (
        seed, view.seat, view.round, view.reshuffles, len(view.discard), view.total,
        view.plays_left, tuple(sorted(view.hand)), view.hand_sizes,
    )  # fmt: skip
    return random.Random(repr(key))


class Evaluator:
    """Win chances of ``view``'s seat, sampled a batch of worlds at a time (anytime).

    When the seat is to move, each legal action is valued; otherwise (another seat to
    move, or ``as_it_stands``) the one value is that of the game going on as it stands,
    the heuristic making the next move too (:meth:`chance`). ``previous`` is the seat's own last decision this game, the
    view and the action it chose: worlds are then read from the others' plays since."""

    def __init__(
        self,
        view: PlayerView,
        *,
        seed: int = 0,
        previous: tuple[PlayerView, int] | None = None,
        as_it_stands: bool = False,
    ) -> None:
        self.view = view
        self.seed = seed
        # (under the draw penalty the seat to move may play while another seat's draw is
        # pending, R-DRAW-1: that is a decision too)
        deciding = not as_it_stands and view.to_move == view.seat
        self.actions: tuple[int, ...] = view.legal if deciding and view.legal else ()
        self._plays: list[int | None] = list(self.actions) or [None]
        self._rng = _stream(seed, view)
        self._tracker = HandTracker(HeuristicBot(samples=ROLLOUT_SAMPLES).act, prior=prior_world)
        if previous is not None:
            self._tracker.saw(*previous)
        self._policy = HeuristicBot(samples=ROLLOUT_SAMPLES)
        m = len(self._plays)
        self._sum = [0.0] * m
        self._dsum = [[0.0] * m for _ in range(m)]
        self._dsq = [[0.0] * m for _ in range(m)]
        #: worlds sampled so far
        self.samples = 0

    def add(self, samples: int) -> Evaluator:
        """Sample ``samples`` more worlds and play every action out in each; returns the
        evaluator (``Evaluator(view, as_it_stands=True).add(200).chance()``: a seat's chance
        as the game stands, what the deal gave it before it decides anything)."""
        me = self.view.seat
        m = len(self._plays)
        for _ in range(samples):
            world = self._tracker.world(self.view, self._rng)
            vals = _rollouts(world, self._plays, me, self._policy)
            for i in range(m):
                self._sum[i] += vals[i]
                for j in range(m):
                    d = vals[i] - vals[j]
                    self._dsum[i][j] += d
                    self._dsq[i][j] += d * d
            self.samples += 1
        return self

    def _chance(self, i: int) -> WinChance:
        n = self.samples
        mean = self._sum[i] / n if n else 0.5
        return WinChance(mean, wilson(mean, n), n)

    def chance(self) -> WinChance:
        """The seat's win chance as the game stands (when it is not to choose), or with
        the best action (when it is)."""
        if not self.actions:
            return self._chance(0)
        return max((self._chance(i) for i in range(len(self.actions))), key=lambda c: c.win)

    def values(self) -> Values:
        """Every legal action's value so far (none when the seat is not to choose)."""
        n = max(self.samples, 1)
        diff = tuple(
            tuple(
                (
                    self._dsum[i][j] / n,
                    _Z95
                    * math.sqrt(max(0.0, self._dsq[i][j] / n - (self._dsum[i][j] / n) ** 2) / n),
                )
                for j in range(len(self.actions))
            )
            for i in range(len(self.actions))
        )
        options = []
        for i, a in enumerate(self.actions):
            c = self._chance(i)
            options.append(Option(a, c.win, c.ci95))
        return Values(self.view.seat, self.samples, tuple(options), diff)


def evaluate(
    view: PlayerView,
    samples: int = DEFAULT_SAMPLES,
    seed: int = 0,
    previous: tuple[PlayerView, int] | None = None,
) -> Values:
    """Every legal action's win chance for ``view``'s seat, from ``samples`` worlds
    (:class:`Evaluator`). ``view``'s seat must be the one to move."""
    if view.to_move != view.seat or not view.legal:
        raise ValueError("evaluate() needs the view of the seat to move")
    return Evaluator(view, seed=seed, previous=previous).add(samples).values()
