"""Information-Set Monte Carlo Tree Search (single-observer ISMCTS, Cowling et al. 2012),
anchored on the heuristic player.

Every iteration samples one world consistent with the bot's view: the unseen cards —
deck minus own hand, discard pile and laid-down cards — dealt into the other hands
(whose sizes are public) and the draw pile, by :func:`ono99.determinize.sample_world`
re-dealt with a belief that opponents' hands are richer in escape cards and 99s than
the draw pile (:func:`ono99.bots.common.believed_world`, measured in play). With
``infer=True`` worlds are also conditioned on the cards the others played since the
bot's last move (:class:`ono99.bots.inference.HandTracker`): a world is kept only if a
heuristic player holding those cards would have played what was played
(``particles=N``: a particle filter carries such worlds through the whole round,
:class:`ono99.bots.inference.ParticleTracker`). In that
world *every* root action is tried (paired samples: the same world and the same
rollout random numbers for each), and below each root action an information-set tree
whose edges are (seat, action) pairs is descended with UCB1 over the actions available
in that world (availability counts), one edge is expanded and a fast greedy rollout
(:func:`rollout_choice`) plays ``horizon`` (8) more plies or to the end of the round.
A rollout cut short is scored statically by how many ways out each hand still has
(escape cards, numbers still safe): short rollouts are much less noisy than whole ones.

What ONO 99 taught us (docs/strength.md): action values differ by a few per cent
while a rollout's outcome is a coin toss, so an unanchored search mostly plays noise
and loses to a greedy player. This bot therefore plays the heuristic's choice unless
another action beats it by ``z`` standard errors of the paired difference, and does not
search at all far from the limit (room above ``critical_room``), where choices hardly
matter.

With ``rollout="heuristic"`` the search is flat instead: after each root action the
heuristic plays every seat to the end of the round (a rollout algorithm, one step of
policy improvement over the heuristic; Bertsekas, Tesauro & Galperin). It costs more
(about 2 ms per world and card in Python) but, on worlds read from the others' plays
(``infer=True``), it is the configuration that beats the heuristic in ``mattel2022`` (with
``z = 2``) and in ``classic1980`` with tokens (``z = 1``) (docs/strength.md), which plain
``ismcts`` uses there (:class:`PresetISMCTS`).

Rewards at the end of the round: in ``mattel2022`` (elimination) the round is the
whole game; with tokens (R-END-2) the round's loser scores 0 and the others 1; in
points mode (R-END-3) each player scores ``1 - points gained / 60``. A game that ends
gives 1 to the winner (shared wins split it). Each edge keeps the reward of the seat
that acted (max^n for several players).

The budget is a fixed number of iterations (worlds), so a seeded bot plays the same
moves on any machine (the arena relies on it). The bot sees only its
:class:`~ono99.view.PlayerView`, never the game.

This module is the only implementation of the search. With Numba installed
(``ono99[fast]``) the heuristic's rollouts run on the fast engine
(:mod:`ono99.bots.fast_rollout`, the same values), which makes the rollout search three to
five times cheaper; everything else, and every move, is the same with or without it.
"""

from __future__ import annotations

import math
import random
from typing import Any

from ono99.bots import compiled
from ono99.bots.base import Bot, register, register_param
from ono99.bots.common import (
    CARD_POINTS,
    FITS_STRENGTH,
    MAX_ROLLOUT,
    P2,
    ROLLOUT_POINTS,
    believed_world,
    forced_move,
    is_escape,
)
from ono99.bots.greedy import OTHER_RANK, SPECIAL_ORDER
from ono99.bots.heuristic import ROLLOUT_SAMPLES, HeuristicBot
from ono99.bots.inference import HandTracker, ParticleTracker
from ono99.cards import DRAW, FOUR_99, MAX_NUMBER
from ono99.determinize import sample_world
from ono99.errors import Ono99Error
from ono99.game import Game
from ono99.i18n import N_
from ono99.view import PlayerView, view_of

__all__ = [
    "ISMCTSBot",
    "PresetISMCTS",
    "DEFAULT_ITERATIONS",
    "ROLLOUT_ITERATIONS",
    "BY_SCORING",
    "rollout_choice",
]

#: iterations per decision of plain ``ismcts`` (the ``hard`` level's budget)
DEFAULT_ITERATIONS = 300


def rollout_choice(g: Game, rng: random.Random, epsilon: float) -> int:
    """The rollout policy: greedy play (dump the highest safe number card, keep the
    escape cards) with a Play 2 thrown when the total is high, and ``epsilon``
    random moves. Reads only the mover's hand and the public total of the world."""
    legal = g.legal_actions()
    if len(legal) == 1:
        return legal[0]
    if g.must_bust_play:
        return max(legal, key=lambda c: CARD_POINTS[c])  # R-END-3
    if legal[-1] == FOUR_99:
        return FOUR_99
    if epsilon and rng.random() < epsilon:
        return legal[rng.randrange(len(legal))]
    room = g.rules.limit - g.total
    if room <= 12 and P2 in legal and g.plays_left == 1:
        return P2
    best = -1
    for c in legal:
        if c <= MAX_NUMBER:
            best = c
    if best >= 0:
        return best
    return min(legal, key=lambda c: SPECIAL_ORDER.get(c, OTHER_RANK))


class _Edge:
    """An edge (seat, action) of the information-set tree."""

    __slots__ = ("n", "w", "avail", "children")

    def __init__(self) -> None:
        self.n = 0
        self.w = 0.0
        self.avail = 1
        self.children: dict[int, _Edge] = {}


class ISMCTSBot(Bot):
    """ISMCTS with ``iterations`` sampled worlds per decision (module doc)."""

    name = "ismcts"

    def __init__(
        self,
        seed: int = 0,
        iterations: int = DEFAULT_ITERATIONS,
        c: float = 0.7,
        epsilon: float = 0.1,
        rollout: str = "greedy",
        z: float = 1.0,
        belief: bool = True,
        critical_room: int = 40,
        horizon: int = 8,
        infer: bool = False,
        particles: int = 0,
    ) -> None:
        if iterations < 1:
            raise ValueError(f"ismcts needs at least 1 iteration, not {iterations}")
        if rollout not in ("greedy", "random", "heuristic"):
            raise ValueError(f"unknown rollout policy {rollout!r} (greedy, random or heuristic)")
        self.rng = random.Random(seed)
        #: "heuristic": flat search, the heuristic plays every seat to the end of the round
        self.rollout = rollout
        self.iterations = iterations
        self.c = c
        self.epsilon = 1.0 if rollout == "random" else epsilon
        self.z = z
        self.belief = belief
        self.critical_room = critical_room
        #: plies of rollout before a static evaluation (0: to the end of the round)
        self.horizon = horizon
        self.prior = HeuristicBot()
        #: sample worlds conditioned on the others' plays since the last move (inference.py)
        self.tracker: HandTracker | None = None
        if particles > 0:
            model = HeuristicBot(samples=ROLLOUT_SAMPLES).act
            self.tracker = ParticleTracker(model, seed ^ 0x9A7, particles=particles)
        elif infer:
            self.tracker = HandTracker(HeuristicBot(samples=ROLLOUT_SAMPLES).act)
        #: the rollout policy of ``rollout="heuristic"``
        self.policy = HeuristicBot(samples=ROLLOUT_SAMPLES)

    def reset(self) -> None:
        if self.tracker is not None:
            self.tracker.reset()

    def act(self, view: PlayerView) -> int:
        action = self._choose(view)
        if self.tracker is not None:
            self.tracker.saw(view, action)
        return action

    def _choose(self, view: PlayerView) -> int:
        forced = forced_move(view)
        if forced is not None:
            return forced
        prior = self.prior.act(view)
        room = view.rules.limit - view.total
        if room > self.critical_room and view.owes_two is None:
            return prior  # far from the limit the search has nothing to find
        return self.search(view, prior)

    def search(self, view: PlayerView, prior: int) -> int:
        """Evaluate every root action on the same sampled worlds (paired samples);
        below the root, one ISMCTS tree per root action. Returns the heuristic's
        ``prior`` unless another action beats it by ``z`` standard errors."""
        rng = self.rng
        legal = view.legal
        k = len(legal)
        roots = [_Edge() for _ in legal]
        diffs_sum = [0.0] * k
        diffs_sq = [0.0] * k
        pi = legal.index(prior)
        world_of = believed_world if self.belief else sample_world
        if self.tracker is not None:
            world_of = self.tracker.world
        for _ in range(self.iterations):
            world = world_of(view, rng)
            seed = rng.getrandbits(64)
            if self.rollout == "heuristic":
                vals = self._play_outs(world, legal, view.seat)
            else:
                vals = [
                    self._iterate(world.copy(), a, roots[i], random.Random(seed), view.seat)
                    for i, a in enumerate(legal)
                ]
            base = vals[pi]
            for i, v in enumerate(vals):
                d = v - base
                diffs_sum[i] += d
                diffs_sq[i] += d * d
        n = self.iterations
        best, best_score = prior, 0.0
        for i, a in enumerate(legal):
            if i == pi:
                continue
            mean = diffs_sum[i] / n
            var = max(0.0, diffs_sq[i] / n - mean * mean)
            se = math.sqrt(var / n) if n > 1 else 1.0
            score = mean - self.z * se
            if score > best_score:
                best, best_score = a, score
        return best

    def _play_outs(self, world: Game, legal: tuple[int, ...], me: int) -> list[float]:
        """Every root action played out in ``world`` (left as it was): on the fast engine
        where Numba is installed and the rollout policy is the plain heuristic, the same
        values (:mod:`ono99.bots.fast_rollout`)."""
        fast = compiled.module()
        if fast is not None and self.policy.compiled_plays_it() and fast.usable(world):
            values: list[float] = fast.rollout_values(world, legal, me)
            return values
        return [self._play_out(world.copy(), a, me) for a in legal]

    def _play_out(self, g: Game, action: int, me: int) -> float:
        """Play ``action`` in world ``g``, then the heuristic in every seat to the end of
        the round; ``me``'s reward. (The heuristic's own random numbers are seeded by the
        position, so every root action meets the same draws and the same choices.)"""
        start_round = g.round
        elimination = g.rules.scoring.bust_eliminates
        before = _round_start(g)
        policy = self.policy
        apply = g.apply
        apply(action)
        steps = 0
        while steps < MAX_ROLLOUT and (p := _settle(g, me, start_round, elimination)) is not None:
            legal = g.legal_actions()
            apply(legal[0] if len(legal) == 1 else policy.act(view_of(g, p)))
            steps += 1
        return _rewards(g, *before)[me]

    def _iterate(self, g: Game, action: int, root: _Edge, rng: random.Random, me: int) -> float:
        """Play ``action`` in world ``g``, descend ``root``'s tree with UCB1, expand one
        edge, roll out to the end of the round; back up; return ``me``'s reward."""
        start_round = g.round
        elimination = g.rules.scoring.bust_eliminates
        before = _round_start(g)
        apply = g.apply
        apply(action)
        path: list[tuple[_Edge, int]] = [(root, me)]
        node = root.children
        c = self.c
        log = math.log
        sqrt = math.sqrt
        while (p := _settle(g, me, start_round, elimination)) is not None:
            legal = g.legal_actions()
            if len(legal) == 1:
                apply(legal[0])  # a forced move needs no node
                continue
            base = p * 32
            best_edge: _Edge | None = None
            best_a = -1
            best_val = -1.0
            untried = -1
            for a in legal:
                edge = node.get(base + a)
                if edge is None:
                    if untried < 0:
                        untried = a
                    continue
                edge.avail += 1
                val = edge.w / edge.n + c * sqrt(log(edge.avail) / edge.n)
                if val > best_val:
                    best_val, best_a, best_edge = val, a, edge
            if untried >= 0:
                pick = rollout_choice(g, rng, 0.0)
                if (base + pick) in node:
                    pick = untried
                new = _Edge()
                node[base + pick] = new
                apply(pick)
                path.append((new, p))
                break
            assert best_edge is not None
            apply(best_a)
            path.append((best_edge, p))
            node = best_edge.children
        eps = self.epsilon
        steps = 0
        limit = self.horizon or MAX_ROLLOUT
        while not g.is_over and g.round == start_round and steps < limit:
            if elimination and not g.alive[me]:
                break
            if g.pending_draw is not None:
                apply(DRAW)
                continue
            apply(rollout_choice(g, rng, eps))
            steps += 1
        reward = _rewards(g, *before)
        for edge, p in path:
            edge.n += 1
            edge.w += reward[p]
        return reward[me]


def _settle(g: Game, me: int, start_round: int, elimination: bool) -> int | None:
    """Take the pending draws in ``g``; the seat to move, or None where the walk stops:
    the game or the round is over, or ``me`` is out of the game."""
    while True:
        p = g.to_move
        if p is None or g.round != start_round or (elimination and not g.alive[me]):
            return None
        if g.pending_draw is None:
            return p
        g.apply(DRAW)


def _round_start(g: Game) -> tuple[list[bool], list[int] | None, list[int] | None]:
    """What :func:`_rewards` compares the end of a rollout with: who was alive, the tokens
    and the scores when it began."""
    return (
        g.alive[:],
        None if g.tokens is None else g.tokens[:],
        None if g.scores is None else g.scores[:],
    )


def _rewards(
    g: Game,
    alive0: list[bool],
    tokens0: list[int] | None,
    scores0: list[int] | None,
) -> list[float]:
    """Each seat's reward at the end of a rollout begun at (``alive0``, ``tokens0``,
    ``scores0``): the game's winner, the round's losers, the points taken, or (cut off)
    an estimate."""
    n = g.n
    w = g.winner
    if w is not None:
        winners = w if isinstance(w, list) else [w]
        r = [0.0] * n
        for s in winners:
            r[s] = 1.0 / len(winners)
        return r
    if tokens0 is not None and g.tokens is not None:
        tokens = g.tokens
        # 1 for a seat that was in and kept its tokens; a lost token or going out lost
        # the round (R-END-2)
        return [
            1.0 if alive0[s] and tokens[s] >= tokens0[s] and g.alive[s] else 0.0 for s in range(n)
        ]
    if scores0 is not None and g.scores is not None and g.scores != scores0:
        return [max(0.0, 1.0 - (g.scores[s] - scores0[s]) / ROLLOUT_POINTS) for s in range(n)]
    return _estimate(g, alive0)


def _estimate(g: Game, alive0: list[bool]) -> list[float]:
    """A rollout cut off (its horizon, or an eliminated searcher): a static estimate from
    how many ways out each hand still has."""
    n = g.n
    rules = g.rules
    room = rules.limit - g.total
    strength = [0.0] * n
    for s in range(n):
        if g.active[s]:
            v = 1.0
            for c in g.hands[s]:
                if is_escape(rules, c):
                    v += 1.0
                elif c < room:
                    v += FITS_STRENGTH
            strength[s] = v
    live = [s for s in range(n) if strength[s] > 0]
    r = [0.0] * n
    if not live:
        return r
    if rules.scoring.bust_eliminates:
        tot = sum(strength[s] for s in live)
        for s in live:
            r[s] = strength[s] / tot
        return r
    inv = sum(1.0 / strength[s] for s in live)
    for s in range(n):
        if alive0[s]:
            r[s] = 1.0 - ((1.0 / strength[s]) / inv if strength[s] > 0 else 0.0)
    return r


#: the options ``ismcts:N:OPT:...`` takes (ISMCTSBot keyword arguments)
PARAM_OPTIONS: dict[str, dict[str, object]] = {
    "heuristic": {"rollout": "heuristic", "horizon": 0},
    "infer": {"infer": True},
    "particles": {"particles": 64},
    "z2": {"z": 2.0},
}


@register_param("ismcts")
def _make_ismcts_n(seed: int, arg: str) -> Bot:
    """``ismcts:N`` (N worlds per decision), optionally followed by ``:heuristic``
    (heuristic rollouts to the end of the round), ``:infer`` (worlds read from the last
    plays), ``:particles`` (a particle filter over the round) or ``:z2`` (leave the
    heuristic's card only for one better by two standard errors, not one)."""
    first, *opts = arg.split(":")
    try:
        iterations = int(first)
    except ValueError:
        raise Ono99Error(
            N_("ismcts:N needs a whole number of iterations, not {arg}"), arg=repr(first)
        ) from None
    if iterations < 1:
        raise Ono99Error(
            N_("ismcts:N needs at least 1 iteration, not {iterations}"), iterations=iterations
        )
    kwargs: dict[str, Any] = {}
    for opt in opts:
        if opt not in PARAM_OPTIONS:
            choices = ", ".join(f"ismcts:N:{o}" for o in PARAM_OPTIONS)
            raise Ono99Error(
                N_("unknown bot {name} (choose {choices})"),
                name=repr(f"ismcts:{arg}"),
                choices=choices,
            )
        kwargs.update(PARAM_OPTIONS[opt])
    return ISMCTSBot(seed, iterations=iterations, **kwargs)


#: worlds per decision of plain ``ismcts`` (heuristic rollouts)
ROLLOUT_ITERATIONS = 120

#: scoring mode -> the ``ismcts:...`` configuration plain ``ismcts`` plays there
BY_SCORING: dict[str, str] = {
    "elimination": f"{ROLLOUT_ITERATIONS}:heuristic:infer:z2",
    "tokens": f"{ROLLOUT_ITERATIONS}:heuristic:infer",
    "points": f"{ROLLOUT_ITERATIONS}:heuristic:infer",
}


class PresetISMCTS(Bot):
    """Plain ``ismcts`` (and the ``expert`` level): the configuration measured strongest
    for the rules being played (docs/strength.md), one of :data:`BY_SCORING`.

    - Elimination games (``mattel2022``): heuristic rollouts to the end of the game on
      worlds read from the others' last plays, 120 worlds, leaving the heuristic's card
      only for one better by two standard errors (``ismcts:120:heuristic:infer:z2``).
    - Tokens and points (``classic1980``): the same search to the end of the round,
      leaving the heuristic's card for one better by one standard error
      (``ismcts:120:heuristic:infer``). With points the tree search (``ismcts:300``,
      played here before) trails the heuristic; this search beats it.
    """

    name = "ismcts"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self._bots: dict[str, Bot] = {}

    def _for(self, mode: str) -> Bot:
        bot = self._bots.get(mode)
        if bot is None:
            bot = self._bots[mode] = _make_ismcts_n(self.seed, BY_SCORING[mode])
        return bot

    def reset(self) -> None:
        for bot in self._bots.values():
            bot.reset()

    def act(self, view: PlayerView) -> int:
        return self._for(view.rules.mode).act(view)


@register("ismcts")
def _make_ismcts(seed: int) -> Bot:
    return PresetISMCTS(seed)
