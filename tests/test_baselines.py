"""The baselines' scripts (issue 38, docs/baselines.md): ``benchmarks/sb3_baseline.py``
(MaskablePPO on ``sb3_vec_env``, against a bot and by self-play against its own snapshots)
and ``benchmarks/openspiel_dqn.py`` (OpenSpiel's DQN on the ``python_ono99`` game), each in a
tiny run: the curve has its points, the exported policy reads the observation it was
trained on and plays arena games (only legal moves: the arena raises IllegalAction on any
other). No game rule."""

from __future__ import annotations

import importlib
import importlib.util
import json
import os
import sys
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

from ono99.arena import make_spec, run_tournament
from ono99.envs.encoding import obs_size
from ono99.envs.policy import MLPPolicy

BENCH = Path(__file__).resolve().parent.parent / "benchmarks"


def script(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"bench_{name}", BENCH / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def check_run(out: Path, steps: list[int], trainer: str) -> MLPPolicy:
    config = json.loads((out / "config.json").read_text())
    curve = json.loads((out / "curve.json").read_text())
    assert [e["steps"] for e in curve] == steps
    for e in curve:
        for ev in e["eval"]:
            assert ev["games"] == 2 * config["eval_deals"]
            assert ev["ci95"][0] <= ev["win_rate"] <= ev["ci95"][1]
    policy = MLPPolicy.load(out / "policy.npz")
    assert policy.meta["trainer"] == trainer and policy.meta["players"] == 2
    assert policy.scale.shape == (obs_size(2),) and (policy.scale >= 1).all()
    result = run_tournament(make_spec([f"policy:{out}/policy.npz", "greedy"], 2, games=4, seed=3))
    assert result["games"] == 4
    return policy


@pytest.mark.parametrize("opponents", ["heuristic", "self"])
def test_sb3_baseline_tiny_run(opponents: str, tmp_path: Path) -> None:
    """Two rollouts of 2 seats x 4 rows x 16 steps: evaluated at 0, after the first
    rollout and at the end; self-play swaps in snapshots of the learner."""
    needs("sb3_contrib")
    out = tmp_path / "run"
    argv = ["--seed", "5", "--steps", "256", "--n-envs", "4", "--n-steps", "16",
            "--batch-size", "64", "--epochs", "1", "--eval-every", "128", "--eval-deals", "6",
            "--eval-opponents", "greedy", "--opponents", opponents, "--snapshot-every", "1",
            "--out", str(out)]  # fmt: skip
    assert script("sb3_baseline").main(argv) == 0
    policy = check_run(out, [0, 128, 256], "sb3-contrib MaskablePPO")
    assert policy.meta["trained_against"] == opponents and len(policy.weights) == 3


def test_sb3_baseline_replays_given_its_seed(tmp_path: Path) -> None:
    """A self-play run, run twice with one seed, gives the same network to the bit
    (docs/baselines.md: a run replays on one machine)."""
    needs("sb3_contrib")
    first, last = tmp_path / "a", tmp_path / "b"
    base = ["--seed", "5", "--n-envs", "4", "--n-steps", "16", "--batch-size", "64",
            "--epochs", "1", "--eval-every", "10000", "--eval-deals", "4",
            "--eval-opponents", "random", "--opponents", "self", "--pool", "1"]  # fmt: skip
    sb3 = script("sb3_baseline")
    assert sb3.main([*base, "--steps", "128", "--out", str(first)]) == 0
    assert sb3.main([*base, "--steps", "128", "--out", str(last)]) == 0
    a, b = MLPPolicy.load(first / "policy.npz"), MLPPolicy.load(last / "policy.npz")
    for (wa, ba), (wb, bb) in zip(a.weights, b.weights, strict=True):  # seeded: replays
        np.testing.assert_array_equal(wa, wb)
        np.testing.assert_array_equal(ba, bb)


def needs(module: str) -> None:
    """CI installs the test extra and torch (.ci/run): there a missing module fails the
    test, never skips it; elsewhere it skips."""
    if os.environ.get("CI"):
        importlib.import_module(module)
    else:
        pytest.importorskip(module)


def test_openspiel_dqn_tiny_run(tmp_path: Path) -> None:
    """Two DQN agents on ``python_ono99`` for a few games (learning starts at 1,000
    transitions): the exported Q-network plays the arena's games."""
    for module in ("pyspiel", "tree", "torch"):  # tree: dm-tree, for OpenSpiel's pytorch DQN
        needs(module)
    out = tmp_path / "dqn"
    argv = ["--seed", "5", "--steps", "2400", "--hidden", "16", "--eval-every", "1200",
            "--eval-deals", "6", "--eval-opponents", "greedy", "--learn-every", "4",
            "--out", str(out)]  # fmt: skip
    assert script("openspiel_dqn").main(argv) == 0
    curve = json.loads((out / "curve.json").read_text())
    steps = [e["steps"] for e in curve]
    assert steps[0] == 0 and 1200 <= steps[1] < steps[2] and steps[-1] >= 2400
    assert curve[-1]["loss"] is not None and np.isfinite(curve[-1]["loss"])
    check_run(out, steps, "open_spiel.python.pytorch.dqn")
