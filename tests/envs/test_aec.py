"""The PettingZoo AEC environment (CONTRACTS.md "Python")."""

from __future__ import annotations

import random

import numpy as np
import pytest
from env_configs import CONFIGS
from hypothesis import given
from hypothesis import strategies as st
from pettingzoo.test import api_test, seed_test

from ono99.cards import DRAW, FOUR_99
from ono99.envs import aec_env
from ono99.errors import IllegalAction, RulesError
from ono99.records import state_json


@pytest.mark.parametrize(("rules", "options", "players"), CONFIGS)
def test_pettingzoo_api_test(rules: str, options: dict, players: int) -> None:
    """PettingZoo's own API test, every preset and mode (R-END-1..3, R-DRAW-1), on the
    reference engine (the fast one, the default with Numba: tests/envs/test_aec_fast.py)."""
    api_test(aec_env(rules, players, engine="reference", **options), num_cycles=200)


def test_pettingzoo_seed_test() -> None:
    """Seeded resets reproduce (R-SET-1: the seed gives every deal)."""
    seed_test(lambda: aec_env("classic1980", 3, draw_penalty=True), num_cycles=200)


def _play(env, rng: random.Random) -> dict[str, float]:  # type: ignore[no-untyped-def]
    game = env.unwrapped.game
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        totals[agent] += reward
        if terminated or truncated:
            env.step(None)
            continue
        seat = env.possible_agents.index(agent)
        assert seat == game.to_move
        legal = [int(a) for a in obs["action_mask"].nonzero()[0]]
        assert legal == list(game.legal_actions(seat))
        assert DRAW not in legal and game.pending_draw is None
        for other in env.possible_agents:
            if other != agent:
                assert not env.observe(other)["action_mask"].any()
        env.step(rng.choice(legal))
    return totals


@given(st.sampled_from(CONFIGS), st.integers(0, 2**32))
def test_random_games_end_with_the_winners_rewarded(config: tuple, seed: int) -> None:
    """Masks are the engine's legal actions of the agent to act, only that agent
    has a non-empty mask, every game ends (R-END-4) and the rewards are the
    documented shares: winners +1 split, losers -1 split (R-END-1..3, R-LIM-2)."""
    rules, options, n = config
    env = aec_env(rules, n, **options)
    env.reset(seed=seed)
    game = env.unwrapped.game
    totals = _play(env, random.Random(seed))
    assert game.is_over and not env.agents
    winners = game.winner if isinstance(game.winner, list) else [game.winner]
    for seat, agent in enumerate(env.possible_agents):
        want = 1 / len(winners) if seat in winners else -1 / (n - len(winners))
        assert totals[agent] == pytest.approx(want)
    assert sum(totals.values()) == pytest.approx(0.0)


def test_seeded_reset_reproduces_and_unseeded_differs() -> None:
    """R-SET-1: the same seed deals the same games; no seed deals fresh ones."""
    env = aec_env("mattel2022", 4)
    hands = []
    for _ in range(2):
        env.reset(seed=5)
        first = env.unwrapped.game.hands
        env.reset()
        hands.append((first, env.unwrapped.game.hands))
    assert hands[0] == hands[1]
    fresh = aec_env("mattel2022", 4)
    fresh.reset()
    other = aec_env("mattel2022", 4)
    other.reset()
    assert fresh.unwrapped.game.seed != other.unwrapped.game.seed


def test_illegal_action_raises_and_changes_nothing() -> None:
    """R-LIM-2, R-99-1: an illegal action raises one line and leaves the game as it was
    (the reference engine's record; the fast engine's: tests/envs/test_aec_fast.py)."""
    env = aec_env("mattel2022", 2, engine="reference")
    env.reset(seed=3)
    game = env.unwrapped.game
    before = state_json(game)
    mask = env.observe(env.agent_selection)["action_mask"]
    for bad in [int(np.flatnonzero(mask == 0)[0]), DRAW, FOUR_99, 99, -1, "7", 2.5, True]:
        with pytest.raises(IllegalAction) as err:
            env.step(bad)
        assert "\n" not in str(err.value)
        assert state_json(game) == before
    env.step(np.int64(int(np.flatnonzero(mask)[0])))  # numpy integers are accepted
    assert len(game.moves) == 1


def test_bad_arguments_are_one_line_errors() -> None:
    """R-SET-5, R-SET-6: bad players, presets and options are refused in one line."""
    for kwargs in [{"players": 9}, {"rules": "nope"}, {"bogus": 1}, {"render_mode": "rgb"}]:
        with pytest.raises(ValueError) as err:
            aec_env(**kwargs)
        assert "\n" not in str(err.value)
    with pytest.raises(RulesError):
        aec_env("mattel2022", 2, draw_penalty=True)


def test_render_shows_no_hand() -> None:
    """R-SET-1: rendering is a spectator's view."""
    env = aec_env("mattel2022", 2, render_mode="ansi")
    env.reset(seed=1)
    text = env.render()
    assert text.startswith("total 0") and "hand " not in text
