"""The model zoo (issue 38, docs/baselines.md): the baselines' trained policies shipped in
the package, ``policy:zoo/NAME`` for the arena, ``ono99 play`` and ``OpponentVecEnv``. Each
entry is the final policy of a documented run (the same bytes as the run's
``policy.npz``), loads, and plays whole games with legal moves only (the arena and the
simulator raise IllegalAction on any other; R-TURN-1)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from ono99.arena import make_spec, run_tournament
from ono99.envs.policy import ZOO, MLPPolicy, policy_file, zoo_names
from ono99.errors import Ono99Error

ROOT = Path(__file__).resolve().parents[2]
RUNS = ROOT / "benchmarks" / "results" / "baselines"

#: each entry and the run it comes from (docs/baselines.md)
ENTRIES = {
    "m2-ppo-heuristic": ("sb3-heuristic-3801", "sb3-contrib MaskablePPO", "heuristic"),
    "m2-ppo-selfplay": ("sb3-selfplay-3802", "sb3-contrib MaskablePPO", "self"),
    "m2-dqn-selfplay": ("dqn-selfplay-3803", "open_spiel.python.pytorch.dqn", "self"),
}


#: the learned policies of the research variant ``mini`` (docs/mini.md): each entry, the
#: run whose ``policy-highest.npz`` it is, and the game's options
MINI_ENTRIES = {
    "mini-selfplay": ("benchmarks/results/mini/ppo-selfplay-1", {}, "benchmarks/mini_learn.py"),
    "mini-large-selfplay": (
        "benchmarks/results/mini/large-selfplay-1",
        {"size": "large"},
        "benchmarks/mini_abr.py",
    ),
}


def test_the_zoo_holds_the_documented_entries() -> None:
    assert zoo_names() == sorted([*ENTRIES, *MINI_ENTRIES])
    mini = (ROOT / "docs" / "mini.md").read_text(encoding="utf-8")
    for name, (run, _options, _trainer) in MINI_ENTRIES.items():
        assert f"policy:zoo/{name}" in mini and run in mini, name
        assert (ZOO / f"{name}.npz").stat().st_size < 250_000  # small: committed
    docs = (ROOT / "docs" / "baselines.md").read_text(encoding="utf-8")
    for name, (run, _trainer, _against) in ENTRIES.items():
        assert f"policy:zoo/{name}" in docs and run in docs, name
        assert (ZOO / f"{name}.npz").stat().st_size < 200_000  # small: committed


@pytest.mark.parametrize("name", sorted(ENTRIES))
def test_each_entry_is_its_runs_policy_and_plays(name: str) -> None:
    run, trainer, against = ENTRIES[name]
    assert policy_file(f"zoo/{name}") == policy_file(f"zoo/{name}.npz") == ZOO / f"{name}.npz"
    assert (ZOO / f"{name}.npz").read_bytes() == (RUNS / run / "policy.npz").read_bytes()
    policy = MLPPolicy.load(ZOO / f"{name}.npz")
    assert policy.meta["rules"] == "mattel2022" and policy.meta["players"] == 2
    assert policy.meta["trainer"] == trainer and policy.meta["trained_against"] == against
    assert policy.meta["seed"] == int(run.rsplit("-", 1)[1])
    # as a bot: arena games against random, seats rotated
    result = run_tournament(make_spec([f"policy:zoo/{name}", "random"], 2, games=4, seed=2))
    assert result["games"] == 4
    assert sum(b["wins"] for b in result["bots"].values()) == pytest.approx(4)


@pytest.mark.parametrize("name", sorted(MINI_ENTRIES))
def test_each_mini_entry_is_its_runs_policy_and_plays_its_size(name: str) -> None:
    """The mini entries: the same bytes as their run's highest-logit policy, and they play
    their size of ``mini`` in the arena (the fast simulator does not play mini)."""
    run, options, trainer = MINI_ENTRIES[name]
    assert (ZOO / f"{name}.npz").read_bytes() == (ROOT / run / "policy-highest.npz").read_bytes()
    policy = MLPPolicy.load(ZOO / f"{name}.npz")
    assert policy.meta["rules"] == "mini" and policy.meta["players"] == 2
    assert policy.meta.get("options", {}) == options and policy.meta["trained_by"] == trainer
    assert policy.meta["sample"] is False  # the highest logit: a pure policy
    spec = make_spec([f"policy:zoo/{name}", "random"], 2, rules="mini", options=options,
                     games=4, seed=2)  # fmt: skip
    result = run_tournament(spec)
    assert result["games"] == 4
    assert sum(b["wins"] for b in result["bots"].values()) == pytest.approx(4)


@pytest.mark.parametrize("name", sorted(ENTRIES))
def test_each_entry_is_a_simulator_opponent(name: str) -> None:
    pytest.importorskip("numba")
    from ono99.envs.fast_vec import OpponentVecEnv
    from ono99.fast.vec import random_legal

    env = OpponentVecEnv("mattel2022", 2, 8, opponents=f"policy:zoo/{name}", seed=4)
    step = env.reset()
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(200):
        step = env.step(random_legal(step.mask, rng))
        ended += int(step.done.sum())
    assert ended > 0


def test_arena_and_play_take_a_zoo_name_and_refuse_an_unknown_one() -> None:
    name = sorted(ENTRIES)[0]
    run = subprocess.run(
        [sys.executable, "-m", "ono99", "arena", "--bots", f"policy:zoo/{name},greedy",
         "--games", "2", "--seed", "1", "--workers", "1", "--json"],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    bad = subprocess.run(
        [sys.executable, "-m", "ono99", "arena", "--bots", "policy:zoo/nope,greedy"],
        capture_output=True, text=True, timeout=120, env={**os.environ, "ONO99_LANG": "en", "LANGUAGE": "", "LC_ALL": ""},
    )  # fmt: skip
    lines = bad.stderr.strip().splitlines()
    assert bad.returncode == 2 and len(lines) == 1, bad.stderr
    assert "no policy 'nope' in the model zoo" in lines[0]
    assert all(f"zoo/{n}" in lines[0] for n in ENTRIES)
    with pytest.raises(Ono99Error, match="no policy 'x/y' in the model zoo"):
        policy_file("zoo/x/y")
    assert policy_file("./zoo/mine.npz") == "./zoo/mine.npz"  # a folder of one's own
