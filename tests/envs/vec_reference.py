"""The check both compiled-opponent test files make: ``OpponentVecEnv`` row by row next to
reference ``Game``s dealt from the rows' seeds, with Python bots in the other seats."""

from __future__ import annotations

from typing import Any

import numpy as np

from ono99 import Game
from ono99.envs.encoding import action_mask, encode, outcome
from ono99.envs.fast_vec import OpponentVecEnv
from ono99.fast.vec import random_legal


def to_learner(g: Game, bots: dict[int, Any], seat: int) -> None:
    """The bots' moves (draws at once) up to the learner's turn or the game's end."""
    g.take_draws()
    while not g.is_over and g.to_move != seat:
        g.apply(bots[g.to_move].act(g.view(g.to_move)))
        g.take_draws()


def check_against_reference(
    env: OpponentVecEnv, bots: dict[int, Any], options: dict[str, Any], steps: int
) -> int:
    """``steps`` random learner steps: at every step the same observation, mask and
    rewards in every row as a reference Game with ``bots`` in the other seats (a new one
    when a game ends); returns how many games ended."""
    seat, n, rules = env.seat, env.players, env.rules.preset
    step = env.reset()

    def fresh(b: int) -> Game:
        g = Game(rules, n, options=options, seed=env.game_seeds()[b], events=False)
        to_learner(g, bots, seat)
        return g

    games = [fresh(b) for b in range(env.batch)]
    rng = np.random.default_rng(3)
    finished = 0
    for _ in range(steps):
        assert (step.player == seat).all()
        for b, g in enumerate(games):
            view = g.view(seat)
            np.testing.assert_array_equal(step.obs[b], encode(view))
            np.testing.assert_array_equal(step.mask[b], action_mask(view))
        actions = random_legal(step.mask, rng)
        step = env.step(actions)
        for b, g in enumerate(games):
            g.apply(int(actions[b]))
            to_learner(g, bots, seat)
            assert bool(step.done[b]) == g.is_over
            np.testing.assert_allclose(step.rewards[b], outcome(g) if g.is_over else 0.0)
            if g.is_over:
                finished += 1
                games[b] = fresh(b)
    return finished


def random_run(env: OpponentVecEnv, steps: int, seed: int) -> list[tuple[Any, Any, Any]]:
    """Each step's (obs, rewards, done) of ``steps`` random learner steps after a reset."""
    step = env.reset()
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(steps):
        step = env.step(random_legal(step.mask, rng))
        out.append((step.obs.copy(), step.rewards.copy(), step.done.copy()))
    return out
