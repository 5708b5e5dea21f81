"""Compiled opponents inside the batched simulator (``ono99.envs.fast_vec``): the greedy
and heuristic bots make the Python bots' moves, every row is the learner's decision with
the reference environment's observation, and games end with the documented rewards
(R-SET-1, R-DRAW-1, R-END-1, R-END-2, R-END-3, R-LIM-2)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from vec_reference import check_against_reference, random_run

from ono99 import IllegalAction
from ono99.bots.greedy import GreedyBot
from ono99.bots.heuristic import HeuristicBot
from ono99.envs.fast_vec import Ono99VectorEnv, OpponentVecEnv
from ono99.fast.vec import random_legal

SETTINGS: list[tuple[str, int, dict[str, Any], str, int]] = [
    ("mattel2022", 3, {}, "greedy", 0),
    ("mattel2022", 4, {}, "heuristic,greedy,heuristic", 1),
    ("classic1980", 3, {"draw_penalty": True}, "heuristic", 2),
    ("classic1980", 3, {"scoring": "points", "target": 60}, "greedy,heuristic", 0),
]


def _bots(names: str, n: int, seat: int) -> dict[int, Any]:
    parts = names.split(",") * (n - 1 if "," not in names else 1)
    others = [s for s in range(n) if s != seat]
    make = {"greedy": lambda: GreedyBot(0), "heuristic": lambda: HeuristicBot(samples=4)}
    return {s: make[name]() for s, name in zip(others, parts, strict=True)}


@pytest.mark.parametrize(("rules", "n", "options", "opponents", "seat"), SETTINGS)
def test_compiled_bots_play_the_python_bots_moves(
    rules: str, n: int, options: dict[str, Any], opponents: str, seat: int
) -> None:
    """Row by row, step by step, through several games per row: the same observation,
    mask and rewards as a reference Game dealt from the row's seed, with the Python bots
    (GreedyBot, HeuristicBot(samples=4)) in the other seats."""
    batch = 4
    env = OpponentVecEnv(rules, n, batch, opponents=opponents, seat=seat, seed=50, **options)
    steps = 150 if rules == "mattel2022" else 400
    assert check_against_reference(env, _bots(opponents, n, seat), options, steps) >= batch


def test_random_opponents_replay_from_a_seed_and_games_end() -> None:
    """Seeded alike, two runs give the same steps; every finished game's rewards sum to
    0 with the learner's share among them (R-END-1)."""
    runs = [
        random_run(OpponentVecEnv("mattel2022", 3, 16, opponents="random", seed=9), 300, 1)
        for _ in range(2)
    ]
    done = 0
    for (o1, r1, d1), (o2, r2, d2) in zip(*runs, strict=True):
        np.testing.assert_array_equal(o1, o2)
        np.testing.assert_array_equal(r1, r2)
        np.testing.assert_array_equal(d1, d2)
        np.testing.assert_allclose(r1[d1].sum(axis=1), 0.0, atol=1e-6)
        done += int(d1.sum())
    assert done > 16


def test_bad_arguments_and_illegal_actions_are_one_line_errors() -> None:
    """R-SET-5, R-LIM-2: bad opponents or seats are refused; an illegal action raises and
    changes nothing."""
    for kwargs in [{"opponents": "expert"}, {"opponents": "greedy,greedy,greedy"}, {"seat": 3}]:
        with pytest.raises(ValueError) as err:
            OpponentVecEnv("mattel2022", 3, 2, **kwargs)
        assert "\n" not in str(err.value)
    env = OpponentVecEnv("mattel2022", 3, 2, opponents="greedy", seed=1)
    step = env.reset()
    before = env._states.copy()
    bad = np.array([int(np.flatnonzero(step.mask[0] == 0)[0]), 0])
    with pytest.raises(IllegalAction, match="game 0"):
        env.step(bad)
    np.testing.assert_array_equal(env._states, before)


def test_gymnasium_vector_env() -> None:
    """The Gymnasium vector adapter: spaces, shapes, rewards on termination, masks."""
    env = Ono99VectorEnv("classic1980", 3, num_envs=8, opponents="greedy")
    obs, info = env.reset(seed=4)
    assert obs["observation"].shape == (8, env.single_observation_space["observation"].shape[0])
    assert env.observation_space.contains(obs)
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(400):
        masks = env.action_masks()
        np.testing.assert_array_equal(masks, obs["action_mask"].astype(bool))
        obs, reward, terminated, truncated, info = env.step(random_legal(obs["action_mask"], rng))
        assert reward.shape == (8,) and not truncated.any() and info == {}
        assert (reward[~terminated] == 0).all()
        assert set(np.round(reward[terminated], 3)) <= {1.0, -0.5, 0.0, 0.5, -1.0}
        ended += int(terminated.sum())
    assert ended > 0
    with pytest.raises(IllegalAction):
        Ono99VectorEnv("mattel2022", 2, num_envs=2, opponents="random").step(np.zeros(2, int))
