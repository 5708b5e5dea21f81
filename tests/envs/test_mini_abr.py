"""``benchmarks/mini_abr.py`` (issue 37, one size up): games played on the reference engine
for the learner's seats only, the paired evaluation of an approximate best response, and
tiny runs of ``abr`` and ``selfplay`` whose policies play as bots."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from ono99.arena import make_spec, run_tournament
from ono99.bots import make_bot
from ono99.bots.base import Bot
from ono99.view import PlayerView

pytest.importorskip("torch")  # training needs it; CI installs it (.ci/run)

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))
import mini_abr  # noqa: E402


class Last(Bot):
    """Plays its last legal action: deterministic, a function of the view."""

    name = "last"

    def act(self, view: PlayerView) -> int:
        return int(view.legal[-1])


def last(obs: Any, mask: Any) -> tuple[Any, Any]:
    """The chooser that plays as :class:`Last` does (the legal actions come sorted)."""
    return np.array([int(np.flatnonzero(m)[-1]) for m in mask]), np.zeros(len(obs))


@pytest.mark.parametrize("size", ["small", "large"])
def test_learner_seats_are_asked_and_returns_match_the_winner(size: str) -> None:
    """Only the learner's seats reach the chooser, only where there is a choice, with the
    legal actions as the mask; each decision's return is its game's result for its seat."""
    rules = mini_abr.mini_rules(size)
    meta = mini_abr.meta_for(rules, 2)
    asked: list[int] = []

    def choose(obs: Any, mask: Any) -> tuple[Any, Any]:
        assert obs.shape == (len(mask), mini_abr.obs_scale(rules, 2).shape[0])
        assert (mask.sum(axis=1) >= 2).all()  # forced moves are made without asking
        asked.append(len(obs))
        return last(obs, mask)

    batch = mini_abr.Batch()
    seats = [frozenset((k % 2,)) for k in range(40)]
    out = mini_abr.play_games(rules, list(range(40)), seats, choose,
                              lambda s: make_bot("greedy", seed=s), meta, batch)  # fmt: skip
    assert sum(asked) == len(batch.obs) > 0
    assert set(out) <= {1.0, -1.0} and set(batch.ret) <= {1.0, -1.0}
    assert all(batch.mask[i][a] for i, a in enumerate(batch.action))


def test_a_bot_against_itself_is_worth_exactly_zero() -> None:
    """The paired evaluation: one deterministic policy in the learner's seat and the
    other, each deal played from both seats, is the same game twice with the seats
    swapped, so the learner's mean return is exactly 0 with an interval of width 0; the
    same policy against ``random`` is not."""
    rules = mini_abr.mini_rules("small")
    meta = mini_abr.meta_for(rules, 2)
    res = mini_abr.evaluate(rules, last, lambda s: Last(), 200, 7, meta)
    assert res["value"] == 0.0 and res["ci95"] == [0.0, 0.0]
    assert res["seat0"] == -res["seat1"] != 0.0  # the seat matters; the pairing cancels it
    other = mini_abr.evaluate(rules, last, lambda s: make_bot("random", seed=s), 200, 7, meta)
    assert other["ci95"][0] < other["ci95"][1]


def test_abr_run_is_deterministic_and_its_responder_plays_as_a_bot(tmp_path: Path) -> None:
    """A tiny ``abr`` run twice with one seed gives the same result file; the responder's
    policy file plays ``mini`` in the arena as ``policy:PATH``."""
    results = []
    for k in range(2):
        out = tmp_path / f"run{k}"
        cmd = [sys.executable, str(ROOT / "benchmarks" / "mini_abr.py"), "abr", "--size", "small",
               "--against", "greedy", "--seed", "3", "--out", str(out), "--iterations", "2",
               "--games", "64", "--eval-games", "40"]  # fmt: skip
        done = subprocess.run(cmd, capture_output=True, text=True, check=True, timeout=300)
        row = json.loads(done.stdout)
        assert row == json.loads((out / "result.json").read_text(encoding="utf-8"))
        results.append(row)
    keep = ("exploitability_estimate", "ci95", "seat0", "seat1", "training_games", "exact")
    first, second = ({k: r[k] for k in keep} for r in results)
    assert first == second
    assert results[0]["exact"] == mini_abr.exact_small()["greedy"]
    lo, hi = results[0]["ci95"]
    assert -1 <= lo <= results[0]["exploitability_estimate"] <= hi <= 1
    name = f"policy:{tmp_path / 'run0' / 'policy.npz'}"
    res = run_tournament(make_spec([name, "greedy"], rules="mini", games=4, seed=1))
    assert res["games"] == 4


def test_selfplay_on_the_large_size_plays_it(tmp_path: Path) -> None:
    """A tiny ``selfplay`` run of ``size=large``: both files play the large game."""
    out = tmp_path / "sp"
    cmd = [sys.executable, str(ROOT / "benchmarks" / "mini_abr.py"), "selfplay", "--seed", "1",
           "--out", str(out), "--iterations", "2", "--games", "64"]  # fmt: skip
    subprocess.run(cmd, capture_output=True, text=True, check=True, timeout=300)
    for f in ("policy.npz", "policy-highest.npz"):
        spec = make_spec([f"policy:{out / f}", "heuristic"], rules="mini",
                         options={"size": "large"}, games=4, seed=2)  # fmt: skip
        assert run_tournament(spec)["games"] == 4


@pytest.mark.parametrize(("size", "recall"), [("small", True), ("large", False)])
def test_deal_best_response_is_best_on_its_sample(size: str, recall: bool) -> None:
    """The best response on sampled deals: replayed on its own sample it makes exactly the
    return it was fitted to, and no other policy does better there (greedy's and the
    last-card player's returns on the same deals are at most that)."""
    rules = mini_abr.mini_rules(size)
    seeds = list(range(300, 360))
    opponent = mini_abr._opponent("heuristic")
    for seat in (0, 1):
        br = mini_abr.DealBR(rules, seat, opponent, recall=recall)
        fitted = br.fit(seeds)
        rets, asked, unseen = br.play(seeds, lambda s: make_bot("random", seed=s))
        assert unseen == 0 and asked > 0
        assert sum(rets) / len(seeds) == pytest.approx(fitted)
        meta = mini_abr.meta_for(rules, 2)
        mine = mini_abr.play_games(rules, seeds, [frozenset((seat,))] * len(seeds), last,
                                   opponent, meta, None)  # fmt: skip
        assert sum(mine) / len(seeds) <= fitted
        empty = mini_abr.DealBR(rules, seat, opponent)  # nothing fitted: greedy plays all
        rets_g, asked_g, unseen_g = empty.play(seeds, lambda s: make_bot("greedy", seed=s))
        assert unseen_g == asked_g > 0
        assert sum(rets_g) / len(seeds) <= fitted


def test_deals_command_writes_its_row(tmp_path: Path) -> None:
    """``deals`` on the small size: its row, with the exact figure beside the estimate."""
    out = tmp_path / "d"
    cmd = [sys.executable, str(ROOT / "benchmarks" / "mini_abr.py"), "deals", "--size", "small",
           "--against", "greedy", "--seed", "1", "--deals", "200", "--eval-games", "100",
           "--out", str(out)]  # fmt: skip
    done = subprocess.run(cmd, capture_output=True, text=True, check=True, timeout=300)
    row = json.loads(done.stdout)
    assert row == json.loads((out / "result.json").read_text(encoding="utf-8"))
    assert row["exact"] == mini_abr.exact_small()["greedy"] and row["method"] == "deals"
    assert row["on_the_sample"] >= -1 and 0 <= row["unseen_share"] <= 1
    bad = subprocess.run([*cmd[:6], "nobody", *cmd[7:]], capture_output=True, text=True)
    assert bad.returncode != 0
