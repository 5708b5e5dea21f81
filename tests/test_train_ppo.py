"""benchmarks/train_ppo.py: a tiny PPO run on the fast simulator (torch, CPU).

CI installs torch (.ci/run), and there this test must run: it skips only outside CI when
torch is missing (torch is no dependency of ono99, docs/learning.md)."""

from __future__ import annotations

import importlib.util
import json
import math
import os
import sys
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

if os.environ.get("CI"):
    import torch  # noqa: F401  (CI installs it: a missing torch fails here, never skips)
else:
    pytest.importorskip("torch")

from ono99.arena import make_spec, run_tournament
from ono99.envs.policy import MLPPolicy

SCRIPT = Path(__file__).resolve().parent.parent / "benchmarks" / "train_ppo.py"


def script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_train_ppo", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclass looks its module up there
    spec.loader.exec_module(module)
    return module


def test_a_tiny_run_has_finite_losses_and_plays_only_legal_actions(tmp_path: Path) -> None:
    """A few hundred decisions: every update's loss is finite, the curve has its points,
    the saved policy plays arena games (legal only: the arena and the fast environment
    raise IllegalAction on any other), and the evaluation's intervals hold its win rate."""
    ppo = script()
    cfg = ppo.Config(
        seed=7, players=3, opponents="greedy,random", steps=384, rows=8, rollout=8,
        hidden=(16,), eval_every=192, eval_deals=12, eval_opponents=("greedy",),
    )  # fmt: skip
    curve = ppo.train(cfg, tmp_path)
    assert [e["steps"] for e in curve] == [0, 192, 384]
    for e in curve[1:]:
        assert math.isfinite(e["loss"]) and e["entropy"] > 0
    for e in curve:
        (ev,) = e["eval"]
        assert ev["games"] == 36
        lo, hi = ev["ci95"]
        assert lo <= ev["win_rate"] <= hi
        elo, ehi = ev["edge_ci95"]
        assert elo <= ev["edge"] <= ehi
    assert json.loads((tmp_path / "curve.json").read_text()) == curve
    again = ppo.train(cfg, tmp_path / "again")  # the seed fixes the run (one torch thread)
    strip = [{k: v for k, v in e.items() if not k.endswith("seconds")} for e in curve]
    assert [{k: v for k, v in e.items() if not k.endswith("seconds")} for e in again] == strip
    policy = MLPPolicy.load(tmp_path / "policy.npz")
    assert policy.meta["players"] == 3
    import ono99.envs.policy  # noqa: F401  (registers policy:PATH)

    spec = make_spec([f"policy:{tmp_path / 'policy.npz'}", "greedy", "random"], games=6, seed=1)
    res = run_tournament(spec, workers=1)
    assert sum(b["wins"] for b in res["bots"].values()) == pytest.approx(6)


def test_evaluation_deals_are_fixed_and_paired() -> None:
    """The same policy on the same deals gives the same figures; every deal is played in
    every seat (two games a deal with two players)."""
    ppo = script()
    cfg = ppo.Config(seed=1, players=2)
    rng = np.random.default_rng(0)
    n = 54 + 9 * 2
    pol = MLPPolicy(
        [(rng.normal(size=(n, 18)).astype(np.float32), np.zeros(18, np.float32))],
        ppo.obs_scale(cfg), {"players": 2},
    )  # fmt: skip
    a = ppo.evaluate(pol, cfg, "random", 40, 5)
    b = ppo.evaluate(pol, cfg, "random", 40, 5)
    assert a == b and a["games"] == 80
    # two players: the edge is twice the win rate minus one
    assert a["edge"] == pytest.approx(2 * a["win_rate"] - 1, abs=1e-5)


def test_the_table_reads_the_arena_runs_beside_a_policy(tmp_path: Path) -> None:
    """``train_ppo.py table``: each saved arena run is a row, the edge seen from the policy's
    side whichever entry the arena listed first."""
    ppo = script()
    rng = np.random.default_rng(1)
    n = 54 + 9 * 2
    pol = MLPPolicy(
        [(rng.normal(size=(n, 18)).astype(np.float32), np.zeros(18, np.float32))],
        ppo.obs_scale(ppo.Config(seed=1)), {"players": 2},
    )  # fmt: skip
    run = tmp_path / "run"
    run.mkdir()
    pol.save(run / "policy.npz")
    import ono99.envs.policy  # noqa: F401  (registers policy:PATH)

    name = f"policy:{run / 'policy.npz'}"
    for bots, opp in (([name, "greedy"], "greedy"), (["random", name], "random")):
        res = run_tournament(make_spec(bots, games=20, seed=2), workers=1)
        (run / f"arena-{opp}.json").write_text(json.dumps(res))
    rows = ppo.table([run]).splitlines()[2:]
    assert [r.split("|")[2].strip() for r in rows] == ["random", "greedy"]
    second = json.loads((run / "arena-random.json").read_text())
    edge = -second["pairs"][0]["diff"]  # listed as random − policy
    assert f"{edge:+.1%}" in rows[0]


def test_a_tiny_self_play_run_with_the_play_order_and_a_magnet(tmp_path: Path) -> None:
    """Issue 37's recipe, tiny: a league of the network itself, its snapshots and a bot,
    the play order in the observation, the magnet's KL. The run replays from its seed,
    the KL is finite and small, every entry of the league gets games, and the saved
    policy (``"play_order"`` in its ``meta``) plays arena games as ``policy:PATH`` on the
    reference engine, reading the play order from the view."""
    ppo = script()
    cfg = ppo.Config(
        seed=3, steps=512, rows=4, rollout=16, hidden=(16,), eval_every=512, eval_deals=8,
        eval_opponents=("greedy",), play_order=4, league=("self", "pool", "greedy"),
        pool_every=1, pool_size=2, magnet=1.0, magnet_every=2,
    )  # fmt: skip
    curve = ppo.train(cfg, tmp_path)
    assert [e["steps"] for e in curve] == [0, 768]
    last = curve[-1]
    assert math.isfinite(last["loss"]) and 0.0 <= last["magnet_kl"] < 1.0
    assert set(last["train_reward_by"]) == {"self", "pool", "greedy"}
    again = ppo.train(cfg, tmp_path / "again")
    strip = [{k: v for k, v in e.items() if not k.endswith("seconds")} for e in curve]
    assert [{k: v for k, v in e.items() if not k.endswith("seconds")} for e in again] == strip
    policy = MLPPolicy.load(tmp_path / "policy.npz")
    assert policy.meta["play_order"] == 4 and policy.meta["trained_against"] == "self,pool,greedy"
    assert policy.scale.shape == (54 + 9 * 2 + 4 * 16,)
    import ono99.envs.policy  # noqa: F401  (registers policy:PATH)

    spec = make_spec([f"policy:{tmp_path / 'policy.npz'}", "heuristic"], games=4, seed=1)
    res = run_tournament(spec, workers=1)
    assert sum(b["wins"] for b in res["bots"].values()) == pytest.approx(4)
