"""The PettingZoo environment on the compiled engine (``aec_env(engine="fast")``): the same
games, observations, masks and rewards as on the reference engine (R-SET-1, R-DRAW-1,
R-END-1, R-END-2, R-END-3, R-LIM-2)."""

from __future__ import annotations

import random
import subprocess
import sys

import numpy as np
import pytest
from pettingzoo.test import api_test

from ono99.envs import aec_env
from ono99.errors import IllegalAction

CONFIGS = [
    ("mattel2022", {}, 3),
    ("classic1980", {"draw_penalty": True}, 4),
    ("classic1980", {"scoring": "points", "target": 60}, 3),
    ("gamerules", {}, 2),
]


@pytest.mark.parametrize(("rules", "options", "players"), CONFIGS)
def test_fast_env_passes_the_api_test(rules: str, options: dict, players: int) -> None:
    """PettingZoo's API test on the compiled engine, every preset and mode."""
    api_test(aec_env(rules, players, engine="fast", **options), num_cycles=200)


@pytest.mark.parametrize(("rules", "options", "players"), CONFIGS)
def test_fast_env_plays_the_reference_env_s_games(rules: str, options: dict, players: int) -> None:
    """Seeded alike, both engines deal the same games; given the same actions, every
    agent's observation and mask, the agent to act and the rewards are equal at every
    step, through several games (the observation from the seat's own hand and the public
    state only, as encode(view) builds it)."""
    ref = aec_env(rules, players, engine="reference", **options)
    fast = aec_env(rules, players, engine="fast", **options)
    rng = random.Random(7)
    for game in range(3):
        ref.reset(seed=100 + game)
        fast.reset(seed=100 + game)
        for agent in ref.agent_iter():
            assert fast.agent_selection == agent
            for other in ref.possible_agents:
                a, b = ref.observe(other), fast.observe(other)
                np.testing.assert_array_equal(a["observation"], b["observation"])
                np.testing.assert_array_equal(a["action_mask"], b["action_mask"])
            obs, reward, terminated, truncated, _ = ref.last()
            assert fast.last()[1:4] == (reward, terminated, truncated)
            action = None
            if not (terminated or truncated):
                action = rng.choice([int(i) for i in obs["action_mask"].nonzero()[0]])
            ref.step(action)
            fast.step(action)
        assert not fast.agents
        assert fast.unwrapped.game.winner == ref.unwrapped.game.winner


def test_fast_env_refuses_illegal_actions_and_changes_nothing() -> None:
    """R-LIM-2, R-DRAW-1: an illegal action raises the engine's one-line reason and leaves
    the game as it was."""
    env = aec_env("mattel2022", 2, engine="fast")
    env.reset(seed=3)
    game = env.unwrapped.game
    before = game.state.copy()
    mask = env.observe(env.agent_selection)["action_mask"]
    for bad in [int(np.flatnonzero(mask == 0)[0]), 17, 99, -1, "7", 2.5, True]:
        with pytest.raises(IllegalAction) as err:
            env.step(bad)
        assert "\n" not in str(err.value)
        np.testing.assert_array_equal(game.state, before)
    env.step(np.int64(int(np.flatnonzero(mask)[0])))
    assert game.n_moves == 1


def test_unknown_engine_is_refused_in_one_line() -> None:
    with pytest.raises(ValueError, match="engine must be 'auto', 'reference' or 'fast'"):
        aec_env("mattel2022", 2, engine="turbo")


def test_the_default_env_is_the_fast_one_where_numba_is_installed() -> None:
    """Issue 38: ``aec_env()`` as CONTRACTS.md names it plays on the compiled engine when
    Numba is there (the speed floor), and passes PettingZoo's API test."""
    from ono99.fast import FastGame

    env = aec_env()
    assert env.unwrapped.engine == "fast" and isinstance(env.unwrapped.game, FastGame)
    api_test(env, num_cycles=200)


def test_without_numba_the_default_env_is_the_reference_one() -> None:
    code = (
        "import sys\nsys.modules['numba'] = None\n"
        "from ono99.envs import aec_env\nfrom ono99.game import Game\n"
        "env = aec_env()\n"
        "print(env.unwrapped.engine, isinstance(env.unwrapped.game, Game))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True
    ).stdout.strip()
    assert out == "reference True"
