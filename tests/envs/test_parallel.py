"""The PettingZoo parallel API over the AEC environment (ono99.envs.parallel_env)."""

from __future__ import annotations

import random
import warnings
from typing import Any

import numpy as np
import pytest
from env_configs import CONFIGS
from pettingzoo.test import parallel_api_test, parallel_seed_test

from ono99.envs import aec_env, parallel_env
from ono99.errors import IllegalAction
from ono99.records import full_state_json


@pytest.mark.parametrize(("rules", "options", "players"), CONFIGS)
def test_pettingzoo_parallel_api_and_seed_tests(
    rules: str, options: dict[str, Any], players: int
) -> None:
    """PettingZoo's own parallel API test (masked actions) and its seed test (actions
    sampled without masks, so with ``illegal="lose"``), every preset and mode
    (R-END-1..3, R-DRAW-1)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the illegal-move wrapper warns at each such move
        parallel_api_test(parallel_env(rules, players, **options), num_cycles=300)
        parallel_seed_test(lambda: parallel_env(rules, players, illegal="lose", **options))


@pytest.mark.parametrize(("rules", "options", "players"), CONFIGS)
def test_the_same_games_as_the_aec_environment(
    rules: str, options: dict[str, Any], players: int
) -> None:
    """R-TURN-1, R-END-1..3: the seat to move's action is the one used, the others' are
    ignored; the game, each observation and the rewards are the AEC environment's."""
    for seed in range(4):
        par, aec = parallel_env(rules, players, **options), aec_env(rules, players, **options)
        obs, _ = par.reset(seed=seed)
        aec.reset(seed=seed)
        rng = random.Random(seed)
        totals = dict.fromkeys(par.possible_agents, 0.0)
        while par.agents:
            mover = aec.agent_selection
            aobs, _, term, trunc, _ = aec.last()
            if term or trunc:
                aec.step(None)
                continue
            assert np.array_equal(obs[mover]["observation"], aobs["observation"])
            assert np.array_equal(obs[mover]["action_mask"], aobs["action_mask"])
            for other in par.agents:
                if other != mover:  # nobody else may act now
                    assert not obs[other]["action_mask"].any()
            action = rng.choice(aobs["action_mask"].nonzero()[0].tolist())
            junk = {a: 0 for a in par.agents if a != mover}  # ignored
            obs, rewards, _, _, _ = par.step({**junk, mover: action})
            aec.step(action)
            for a, r in rewards.items():
                totals[a] += r
        a, b = par.unwrapped.game, aec.unwrapped.game
        assert full_state_json(a, len(a.draw_pile), 0) == full_state_json(b, len(b.draw_pile), 0)
        game = par.unwrapped.game
        assert game.is_over
        winners = game.winner if isinstance(game.winner, list) else [game.winner]
        assert abs(sum(totals.values())) < 1e-9  # the winners share +1, the losers -1
        assert all(totals[par.possible_agents[w]] > 0 for w in winners)


def test_illegal_actions_raise_or_lose() -> None:
    """R-TURN-1: a card the seat to move does not hold raises the engine's one-line
    reason by default; with ``illegal="lose"`` it ends the game, -1 for that seat."""
    env = parallel_env("mattel2022", 3)
    obs, _ = env.reset(seed=1)
    mover = env.unwrapped.agent_selection
    bad = int(np.flatnonzero(obs[mover]["action_mask"] == 0)[0])
    with pytest.raises(IllegalAction):
        env.step({mover: bad})
    env = parallel_env("mattel2022", 3, illegal="lose")
    env.reset(seed=1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        _, rewards, terms, _, _ = env.step({mover: bad})
    assert rewards[mover] == -1 and all(terms.values())
    with pytest.raises(ValueError, match="illegal must be"):
        parallel_env("mattel2022", 3, illegal="ignore")
