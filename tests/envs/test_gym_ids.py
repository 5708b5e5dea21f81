"""Gymnasium conveniences (issue 25): registered ``gymnasium.make`` ids and
``action_masks()`` as sb3-contrib's MaskablePPO asks for it."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest

from ono99.envs.gym_env import GYM_IDS


@pytest.mark.parametrize("env_id", sorted(GYM_IDS))
def test_registered_ids_make_the_preset(env_id: str) -> None:
    env = gymnasium.make(env_id, players=3, opponents="greedy")
    obs, _info = env.reset(seed=7)
    assert env.unwrapped.rules.preset == GYM_IDS[env_id]
    masks = env.unwrapped.action_masks()
    assert masks.dtype == np.bool_ and masks.any()
    assert (masks == obs["action_mask"].astype(bool)).all()


def test_action_masks_follow_the_game_and_are_empty_at_the_end() -> None:
    """R-TURN-1: the mask is exactly the learner's legal actions at every step."""
    env = gymnasium.make("ono99.envs.gym_env:ono99/Mattel2022-v0", players=2, opponents="random")
    raw = env.unwrapped
    rng = np.random.default_rng(3)
    env.reset(seed=3)
    done = False
    while not done:
        masks = raw.action_masks()
        legal = set(raw.game.legal_actions(raw.seat))
        assert set(np.flatnonzero(masks)) == legal
        _obs, _r, term, trunc, _i = env.step(int(rng.choice(np.flatnonzero(masks))))
        done = term or trunc
    assert not raw.action_masks().any()


@pytest.mark.parametrize("env_id", sorted(GYM_IDS))
def test_action_masks_on_what_gymnasium_make_returns(env_id: str) -> None:
    """Issue 38: ``env.action_masks()`` works on the made environment itself (it raised
    AttributeError through Gymnasium's wrappers), and sb3-contrib's own lookup finds it;
    R-TURN-1: it is the learner's legal actions."""
    env = gymnasium.make(env_id, players=2, opponents="greedy")
    obs, _info = env.reset(seed=11)
    masks = env.action_masks()  # type: ignore[attr-defined]
    assert masks.dtype == np.bool_
    assert set(np.flatnonzero(masks)) == set(env.unwrapped.game.legal_actions(env.unwrapped.seat))
    assert (masks == env.get_wrapper_attr("action_masks")()).all()
    assert (masks == obs["action_mask"].astype(bool)).all()
