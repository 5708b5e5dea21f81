"""The observation option ``history=True`` in the batched simulators (``FastVecEnv``,
``OpponentVecEnv``, ``Ono99VectorEnv``): after every step, every row's observation is the
plain one followed by who played what this round, the counts of the announcements that
row's observer heard (plays, Four 99s, thrown bust cards; reset when a round is dealt),
observer-relative: the layout of ``aec_env(..., history=True)`` (R-SET-1, R-99-3, R-END-2,
R-END-3, R-DRAW-1)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from ono99 import Game
from ono99.bots.greedy import GreedyBot
from ono99.bots.heuristic import HeuristicBot
from ono99.envs.encoding import NUM_CARDS, action_mask, bounds, encode, obs_size
from ono99.envs.fast_vec import Ono99VectorEnv, OpponentVecEnv
from ono99.fast.vec import FastVecEnv, random_legal

SETTINGS: list[tuple[str, int, dict[str, Any]]] = [
    ("mattel2022", 2, {}),
    ("mattel2022", 5, {}),
    ("classic1980", 3, {}),
    ("classic1980", 4, {"zero_ending_99": True, "draw_penalty": True}),
    ("classic1980", 3, {"scoring": "points", "target": 60}),
    ("gamerules", 4, {"draw_penalty": True}),
]


def heard(game: Game, observer: int) -> np.ndarray:
    """The oracle: counts from the announcements ``observer`` heard since the round began."""
    n = game.n
    counts = np.zeros((n, NUM_CARDS), np.float32)
    for e in game.events_for(observer):
        if e.kind == "round_start":
            counts[:] = 0
        elif e.kind == "play" or (e.kind == "bust" and e.card is not None):
            counts[e.seat, e.card] += 1
        elif e.kind == "four99":
            counts[e.seat, 15] += 4
    return counts[[(observer + k) % n for k in range(n)]].ravel()


def expected(game: Game, seat: int) -> np.ndarray:
    return np.concatenate((encode(game.view(seat)), heard(game, seat)))


@pytest.mark.parametrize(("rules", "n", "options"), SETTINGS)
def test_fast_vec_history_is_what_each_row_heard(
    rules: str, n: int, options: dict[str, Any]
) -> None:
    """Row by row, step by step, through several games per row (a game that ends is
    replaced by the next seed's, its counts empty): the history observation is the plain
    observation of the same run followed by the counts of what the seat to move heard."""
    batch, seed = 5, 40
    env = FastVecEnv(rules, n, batch, seed=seed, history=True, **options)
    plain = FastVecEnv(rules, n, batch, seed=seed, **options)
    assert env.observation_size == obs_size(n, history=True)
    step, base = env.reset(), plain.reset()
    games = [Game(rules, n, options=options, seed=seed + b) for b in range(batch)]
    for g in games:
        g.take_draws()
    rng = np.random.default_rng(2)
    finished = nonzero = 0
    for _ in range(300 if rules == "mattel2022" else 700):
        assert step.obs.shape == (batch, obs_size(n, history=True))
        np.testing.assert_array_equal(step.obs[:, : obs_size(n)], base.obs)
        for b, g in enumerate(games):
            seat = g.to_move
            assert seat is not None and step.player[b] == seat
            np.testing.assert_array_equal(step.obs[b], expected(g, seat))
            np.testing.assert_array_equal(step.mask[b], action_mask(g.view(seat)))
        nonzero += int(step.obs[:, obs_size(n) :].any(axis=1).sum())
        actions = random_legal(step.mask, rng)
        step, base = env.step(actions), plain.step(actions)
        for b, g in enumerate(games):
            g.apply(int(actions[b]))
            g.take_draws()
            assert bool(step.done[b]) == g.is_over
            if g.is_over:
                finished += 1
                games[b] = g = Game(rules, n, options=options, seed=env.game_seeds()[b])
                g.take_draws()
    assert finished >= batch and nonzero > 0


OPPONENTS: list[tuple[str, int, dict[str, Any], str, int]] = [
    ("mattel2022", 3, {}, "greedy", 1),
    ("classic1980", 3, {"draw_penalty": True}, "greedy,heuristic", 0),
    ("classic1980", 3, {"scoring": "points", "target": 60}, "greedy", 2),
]


@pytest.mark.parametrize(("rules", "n", "options", "opponents", "seat"), OPPONENTS)
def test_opponent_vec_history_counts_the_bots_plays(
    rules: str, n: int, options: dict[str, Any], opponents: str, seat: int
) -> None:
    """With bots in the other seats (GreedyBot, HeuristicBot(samples=4), as the compiled
    ones play), the learner's history observation counts every seat's plays, the bots'
    made inside the step included, and starts empty in each new game."""
    batch = 4
    env = OpponentVecEnv(
        rules, n, batch, opponents=opponents, seat=seat, seed=60, history=True, **options
    )
    step = env.reset()
    names = opponents.split(",") * (n - 1 if "," not in opponents else 1)
    make = {"greedy": lambda: GreedyBot(0), "heuristic": lambda: HeuristicBot(samples=4)}
    bots = dict(zip([s for s in range(n) if s != seat], [make[x]() for x in names], strict=True))

    def to_learner(g: Game) -> None:
        g.take_draws()
        while not g.is_over and g.to_move != seat:
            g.apply(bots[g.to_move].act(g.view(g.to_move)))
            g.take_draws()

    def fresh(b: int) -> Game:
        g = Game(rules, n, options=options, seed=env.game_seeds()[b])
        to_learner(g)
        return g

    games = [fresh(b) for b in range(batch)]
    rng = np.random.default_rng(5)
    finished = 0
    for _ in range(120 if rules == "mattel2022" else 300):
        for b, g in enumerate(games):
            np.testing.assert_array_equal(step.obs[b], expected(g, seat))
        actions = random_legal(step.mask, rng)
        step = env.step(actions)
        for b, g in enumerate(games):
            g.apply(int(actions[b]))
            to_learner(g)
            assert bool(step.done[b]) == g.is_over
            if g.is_over:
                finished += 1
                games[b] = fresh(b)
    assert finished >= batch


def test_vector_env_history_space_and_bad_option() -> None:
    """``Ono99VectorEnv(history=True)``: the observation space is the history Box of
    ``GymEnv(history=True)`` and every observation lies in it; ``history`` must be a bool."""
    env = Ono99VectorEnv("classic1980", 3, 8, opponents="random", history=True)
    low, high = bounds(env.sim.rules, 3, history=True)
    box = env.single_observation_space["observation"]
    np.testing.assert_array_equal(box.low, low)
    np.testing.assert_array_equal(box.high, high)
    obs, _ = env.reset(seed=1)
    rng = np.random.default_rng(0)
    for _ in range(50):
        assert all(box.contains(o) for o in obs["observation"])
        obs, *_ = env.step(random_legal(obs["action_mask"], rng))
    with pytest.raises(ValueError, match="history must be True or False"):
        FastVecEnv("mattel2022", 2, 4, history=1)  # type: ignore[arg-type]
