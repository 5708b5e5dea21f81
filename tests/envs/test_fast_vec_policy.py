"""Policies as opponents in the batched simulator (``OpponentVecEnv(opponents=...)`` with
``policy:PATH`` or a callable, issue 38): the policy seats make the moves the same network
makes as a bot (:class:`~ono99.envs.policy.PolicyBot`) on the reference engine, reading the
view of its own seat only, and games end with the documented rewards (R-SET-1, R-DRAW-1,
R-END-1, R-END-2, R-LIM-2)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest
from vec_reference import check_against_reference, random_run

from ono99 import IllegalAction
from ono99.bots.greedy import GreedyBot
from ono99.bots.heuristic import HeuristicBot
from ono99.envs.encoding import obs_size
from ono99.envs.fast_vec import OpponentVecEnv
from ono99.envs.policy import MLPPolicy, PolicyBot

#: rules, players, options, the other seats in seat order (P: the policy), the learner's seat
SETTINGS: list[tuple[str, int, dict[str, Any], list[str], int]] = [
    ("mattel2022", 2, {}, ["P"], 0),
    ("mattel2022", 3, {}, ["P", "greedy"], 1),
    ("mattel2022", 4, {}, ["heuristic", "P", "P"], 0),
    ("classic1980", 3, {"scoring": "points", "target": 60}, ["P", "P"], 2),
]


def _network(players: int, seed: int) -> MLPPolicy:
    rng = np.random.default_rng(seed)
    size = obs_size(players)
    layers = [
        (rng.normal(size=(size, 24)).astype(np.float32), rng.normal(size=24).astype(np.float32)),
        (rng.normal(size=(24, 18)).astype(np.float32), rng.normal(size=18).astype(np.float32)),
    ]
    return MLPPolicy(layers, np.full(size, 3.0, np.float32), {"players": players})


@pytest.mark.parametrize(("rules", "n", "options", "others", "seat"), SETTINGS)
def test_policy_seats_play_the_policy_bots_moves(
    rules: str, n: int, options: dict[str, Any], others: list[str], seat: int
) -> None:
    """Row by row, step by step, through several games per row: the learner's observation,
    mask and rewards are a reference Game's with PolicyBot (the same network) in the
    policy seats and the Python bots in the others."""
    policy = _network(n, 5)
    calls: list[int] = []

    def batched(obs: Any, mask: Any) -> Any:
        calls.append(len(obs))
        return policy.act(obs, mask)

    opponents = [batched if s == "P" else s for s in others]
    batch = 4
    env = OpponentVecEnv(rules, n, batch, opponents=opponents, seat=seat, seed=70, **options)
    make = {
        "P": lambda: PolicyBot(policy),
        "greedy": lambda: GreedyBot(0),
        "heuristic": lambda: HeuristicBot(samples=4),
    }
    others_seats = [s for s in range(n) if s != seat]
    bots = {s: make[name]() for s, name in zip(others_seats, others, strict=True)}
    steps = 120 if rules == "mattel2022" else 300
    assert check_against_reference(env, bots, options, steps) >= batch
    assert calls and max(calls) > 1  # rows of several games in one call


def test_a_policy_file_plays_as_its_network_and_is_checked(tmp_path: Path) -> None:
    """``policy:PATH`` is the saved network, batched: the same steps as the network given
    as a callable; a file for another player count, a bad file and a bad name are one-line
    errors before any game."""
    path = tmp_path / "p.npz"
    policy = _network(3, 8)
    policy.save(path)
    runs = [
        random_run(OpponentVecEnv("mattel2022", 3, 8, opponents=opponents, seed=4), 60, 2)
        for opponents in [f"policy:{path}", policy.act]
    ]
    for (o1, r1, d1), (o2, r2, d2) in zip(*runs, strict=True):
        np.testing.assert_array_equal(o1, o2)
        np.testing.assert_array_equal(r1, r2)
        np.testing.assert_array_equal(d1, d2)
    with pytest.raises(ValueError, match="reads 81 observation entries") as err:
        OpponentVecEnv("mattel2022", 4, 2, opponents=f"policy:{path}")
    assert "\n" not in str(err.value)
    (tmp_path / "bad.npz").write_bytes(b"not a policy")
    with pytest.raises(ValueError, match="cannot read the policy file"):
        OpponentVecEnv("mattel2022", 3, 2, opponents=f"policy:{tmp_path / 'bad.npz'}")
    with pytest.raises(ValueError, match="policy:PATH"):
        OpponentVecEnv("mattel2022", 3, 2, opponents=["greedy", 7])  # type: ignore[list-item]


def test_a_policy_that_plays_an_illegal_action_is_named() -> None:
    """R-LIM-2: the simulator checks a policy's actions as it checks the learner's."""

    def worst(obs: Any, mask: Any) -> Any:
        return np.argmin(mask, axis=1)  # an illegal action wherever one exists

    env = OpponentVecEnv("mattel2022", 2, 4, opponents=worst, seat=1, seed=3)
    with pytest.raises(IllegalAction, match="the policy of seat 0 chose"):
        env.reset()


def test_self_play_a_policy_against_itself() -> None:
    """Self-play at simulator speed: the learner's network in every other seat, games
    end and every finished game's rewards sum to 0 (R-END-1)."""
    policy = _network(4, 1)
    env = OpponentVecEnv("mattel2022", 4, 32, opponents=policy.act, seed=11)
    step = env.reset()
    done = 0
    for _ in range(200):
        step = env.step(policy.act(step.obs, step.mask))
        np.testing.assert_allclose(step.rewards[step.done].sum(axis=1), 0.0, atol=1e-6)
        assert (step.rewards[~step.done] == 0).all()
        done += int(step.done.sum())
    assert done > 32
