"""The observation option ``history=True``: who played what this round, the same counts as
the announcements each player heard (``events_for``: plays, Four 99s, thrown bust cards;
reset at each round's start), observer-relative, on both engines and in GymEnv (R-SET-1,
R-99-3, R-END-2, R-END-3, R-DRAW-1)."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test

from ono99 import Game
from ono99.envs import GymEnv, aec_env
from ono99.envs.encoding import NUM_CARDS, field_names, obs_size

CONFIGS = [
    ("mattel2022", {}, 3),
    ("classic1980", {"draw_penalty": True}, 4),
    ("classic1980", {"scoring": "points", "target": 60}, 3),
]


def _heard(game: Game, observer: int) -> np.ndarray:
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


@pytest.mark.parametrize("engine", ["reference", "fast"])
@pytest.mark.parametrize(("rules", "options", "players"), CONFIGS)
def test_history_counts_what_each_player_heard(
    rules: str, options: dict[str, Any], players: int, engine: str
) -> None:
    """At every step, every agent's history block equals the counts of the announcements
    it heard this round, and the rest of the observation is the plain one."""
    env = aec_env(rules, players, engine=engine, history=True, **options)
    plain = aec_env(rules, players, engine=engine, **options)
    rng = random.Random(4)
    base = obs_size(players)
    assert env.observation_space("player_0")["observation"].shape == (obs_size(players, True),)
    assert len(field_names(players, True)) == obs_size(players, True)
    for game_no in range(2):
        env.reset(seed=game_no)
        plain.reset(seed=game_no)
        shadow = Game(rules, players, options=options, seed=env.unwrapped.game.seed)
        shadow.take_draws()
        for _agent in env.agent_iter():
            for seat, other in enumerate(env.possible_agents):
                obs = env.observe(other)["observation"]
                np.testing.assert_array_equal(obs[base:], _heard(shadow, seat))
                np.testing.assert_array_equal(obs[:base], plain.observe(other)["observation"])
            obs, _, terminated, truncated, _ = env.last()
            action = None
            if not (terminated or truncated):
                action = rng.choice([int(i) for i in obs["action_mask"].nonzero()[0]])
                shadow.apply(action)
                shadow.take_draws()
            env.step(action)
            plain.step(action)


def test_history_observations_pass_the_api_tests() -> None:
    """PettingZoo's API test (observations inside their Box) and Gymnasium's check_env."""
    api_test(aec_env("classic1980", 3, history=True, scoring="points"), num_cycles=200)
    check_env(GymEnv("mattel2022", 3, opponents="greedy", history=True), skip_render_check=True)


def test_gym_history_counts_the_bots_plays_too() -> None:
    """GymEnv's history holds the bots' plays between the learner's turns (public: R-SET-1)."""
    env = GymEnv("mattel2022", 4, opponents="greedy", seat=2, history=True)
    obs, info = env.reset(seed=8)
    done = False
    while not done:
        np.testing.assert_array_equal(obs["observation"][obs_size(4) :], _heard(env.game, 2))
        action = int(info["action_mask"].nonzero()[0][0])
        obs, _, done, _, info = env.step(action)


def test_history_must_be_a_bool() -> None:
    with pytest.raises(ValueError, match="history must be"):
        aec_env("mattel2022", 2, history="yes")
