"""Stable-Baselines3 on the batched simulator (``ono99.envs.sb3_vec_env``, issue 38):
SB3's ``VecEnv`` interface, action masks that are the learners' legal actions (R-TURN-1,
R-LIM-2), rewards at the end of a game only (R-END-1), and sb3-contrib's MaskablePPO
training on it against a compiled bot and against a policy."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from ono99 import IllegalAction
from ono99.envs import sb3_vec_env
from ono99.envs.encoding import obs_size
from ono99.envs.policy import MLPPolicy
from ono99.fast.vec import random_legal

sb3_contrib = pytest.importorskip("sb3_contrib", reason="the test extra installs sb3-contrib")


def test_vec_env_interface_masks_and_rewards() -> None:
    from stable_baselines3.common.vec_env import VecEnv, VecMonitor

    env = sb3_vec_env(rules="classic1980", players=3, opponents="greedy", n_envs=6)
    assert isinstance(env, VecEnv) and env.num_envs == 6
    assert env.observation_space.shape == (obs_size(3),)
    assert env.action_space.n == 18
    env.seed(40)
    obs = env.reset()
    again = sb3_vec_env(rules="classic1980", players=3, opponents="greedy", n_envs=6, seed=40)
    np.testing.assert_array_equal(obs, again.reset())  # SB3's seed: game i from seed + i
    assert env.observation_space.contains(obs[0])
    assert env.has_attr("action_masks") and not env.env_is_wrapped(VecMonitor)[0]
    rng = np.random.default_rng(1)
    ended = 0
    for _ in range(300):
        masks = env.action_masks()
        assert masks.dtype == np.bool_ and masks.shape == (6, 18) and masks.any(axis=1).all()
        np.testing.assert_array_equal(np.stack(env.env_method("action_masks")), masks)
        assert env.env_method("action_masks", indices=[2])[0].tolist() == masks[2].tolist()
        obs, reward, done, infos = env.step(random_legal(masks.astype(np.int8), rng))
        assert obs.shape == (6, obs_size(3)) and len(infos) == 6
        assert (reward[~done] == 0).all()
        ended += int(done.sum())
    assert ended > 0
    bad = np.array([int(np.flatnonzero(~env.action_masks()[0])[0])] + [0] * 5)
    with pytest.raises(IllegalAction, match="game 0"):
        env.step(bad)
    with pytest.raises(AttributeError, match="no per-game method"):
        env.env_method("render")


def _learn(opponents: object, tmp: Path) -> tuple[object, int]:
    env = sb3_vec_env(rules="mattel2022", players=2, opponents=opponents, n_envs=8, seed=3)
    model = sb3_contrib.MaskablePPO(
        "MlpPolicy", env, n_steps=32, batch_size=64, n_epochs=2, seed=0, device="cpu"
    )
    model.learn(total_timesteps=512)
    path = tmp / "model.zip"
    model.save(path)
    return model, model.num_timesteps


def test_maskable_ppo_trains_against_the_heuristic(tmp_path: Path) -> None:
    """MaskablePPO asks the masks at every step: a wrong mask would make it choose an
    illegal action, which the simulator refuses (R-LIM-2)."""
    model, steps = _learn("heuristic", tmp_path)
    assert steps >= 512
    env = sb3_vec_env(rules="mattel2022", players=2, opponents="heuristic", n_envs=8, seed=9)
    obs = env.reset()
    for _ in range(50):
        actions, _ = model.predict(obs, action_masks=env.action_masks())  # type: ignore[attr-defined]
        obs, *_ = env.step(actions)


def test_maskable_ppo_trains_against_a_policy(tmp_path: Path) -> None:
    """The opponent given as a saved network (``policy:PATH``), played batched."""
    rng = np.random.default_rng(0)
    size = obs_size(2)
    layers = [(rng.normal(size=(size, 18)).astype(np.float32), np.zeros(18, np.float32))]
    MLPPolicy(layers, np.ones(size, np.float32), {"players": 2}).save(tmp_path / "p.npz")
    _model, steps = _learn(f"policy:{tmp_path / 'p.npz'}", tmp_path)
    assert steps >= 512


def test_missing_sb3_gives_the_hint() -> None:
    """Packaging, no game rule: without stable-baselines3, one line naming the extra."""
    code = (
        "import sys\nsys.modules['stable_baselines3'] = None\n"
        "try:\n    from ono99.envs import sb3_vec_env\n"
        "except ImportError as e:\n    print(type(e).__name__, '|', e)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True
    ).stdout.strip()
    assert out.startswith("MissingExtra |") and out.endswith("pip install 'ono99[sb3]'"), out


def test_a_trained_policy_exports_as_a_policy_file_that_plays_the_same(tmp_path: Path) -> None:
    """``policy_from_sb3``: the exported network picks SB3's deterministic action in every
    row, and the file plays as ``policy:PATH`` (R-TURN-1: legal actions only)."""
    import torch

    from ono99.bots import make_bot
    from ono99.envs.sb3 import RELU_POLICY, policy_from_sb3
    from ono99.game import Game

    env = sb3_vec_env(rules="mattel2022", players=2, opponents="greedy", n_envs=8, seed=5)
    model = sb3_contrib.MaskablePPO(
        "MlpPolicy", env, n_steps=16, batch_size=64, n_epochs=1, seed=0, device="cpu",
        policy_kwargs={**RELU_POLICY, "activation_fn": torch.nn.ReLU},
    )  # fmt: skip
    model.learn(total_timesteps=128)
    policy = policy_from_sb3(model, {"rules": "mattel2022", "players": 2})
    obs = env.reset()
    for _ in range(20):
        masks = env.action_masks()
        want, _ = model.predict(obs, action_masks=masks, deterministic=True)
        np.testing.assert_array_equal(policy.act(obs, masks), want)
        obs, *_ = env.step(want)
    policy.save(tmp_path / "ppo.npz")
    bot = make_bot(f"policy:{tmp_path / 'ppo.npz'}")
    g = Game("mattel2022", 2, seed=3)
    g.take_draws()
    assert bot.act(g.view(g.to_move)) in g.legal_actions()
    tanh = sb3_contrib.MaskablePPO("MlpPolicy", env, n_steps=16, device="cpu")
    with pytest.raises(ValueError, match="ReLU"):
        policy_from_sb3(tanh, {})
