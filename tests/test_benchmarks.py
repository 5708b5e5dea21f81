"""The benchmark scripts and the engine's own shuffle (benchmarks/, ``ono99 bench``)."""

from __future__ import annotations

import importlib.util
import json
import random
import sys
import zlib
from pathlib import Path
from types import ModuleType

import pytest

from ono99.bench import run_bench
from ono99.cli import main
from ono99.game import seeded_shuffle

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"


def _script(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"bench_{name}", BENCHMARKS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("length", [0, 1, 2, 3, 54, 112, 300])
def test_shuffle_is_the_stdlib_shuffle(length: int) -> None:
    """R-REC: seeded deals must not change; the inlined shuffle draws exactly like
    random.shuffle (records made before it replay the same)."""
    for seed in range(30):
        ours, theirs = list(range(length)), list(range(length))
        seeded_shuffle(random.Random(f"s:{seed}"), ours)
        random.Random(f"s:{seed}").shuffle(theirs)
        assert ours == theirs


@pytest.mark.parametrize("rules", ["mattel2022", "classic1980", "gamerules"])
def test_run_bench_counts(rules: str) -> None:
    r = run_bench(rules, 3, seconds=0.05)
    assert r["games"] >= 1 and r["steps"] >= r["games"]
    assert r["steps_per_s"] > 0 and r["games_per_s"] > 0


def test_bench_cli_json(capsys: pytest.CaptureFixture[str]) -> None:
    try:
        main(["bench", "--seconds", "0.05", "--players", "2", "--json"])
    except SystemExit as e:
        assert e.code in (0, None)
    out = json.loads(capsys.readouterr().out)
    for key in ("games", "steps", "seconds", "games_per_s", "steps_per_s"):
        assert out[key] > 0


def test_check_same_games_is_stable(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """Playing the fixed games twice gives the same digests (and events=False games
    end exactly like events=True ones: the script checks that itself)."""
    check = _script("check_same_games")
    saved = tmp_path / "digests.json"
    assert check.main(["--games", "4", "--save", str(saved)]) == 0
    assert check.main(["--games", "4", "--check", str(saved)]) == 0
    assert "same games" in capsys.readouterr().out


def test_vs_rlcard_runs(capsys: pytest.CaptureFixture[str]) -> None:
    vs = _script("vs_rlcard")
    assert vs.main(["--seconds", "0.05", "--reps", "2", "--players", "2"]) == 0
    captured = capsys.readouterr()
    result = json.loads(captured.out.strip().splitlines()[-1])
    assert result["ono99_steps_per_s"] > 0
    assert "| engine |" in captured.out
    if result["rlcard_uno_steps_per_s"] is None:
        assert "rlcard is not installed" in captured.err
    else:
        assert result["ratio"] > 0
        steps = [r["steps"] for r in result["runs"] if r["engine"] == "rlcard"]
        assert len(steps) == 2 and all(s > 0 for s in steps)


def test_engines_compares_both_engines(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """benchmarks/engines.py: a row per setting with both engines' steps/s and the ratio."""
    engines = _script("engines")
    saved = tmp_path / "engines.json"
    assert (
        engines.main(["--seconds", "0.05", "--reps", "2", "--only", "2", "--save", str(saved)]) == 0
    )
    out = capsys.readouterr().out
    result = json.loads(out.strip().splitlines()[-1])
    assert json.loads(saved.read_text()) == result
    (row,) = result["rows"]
    assert row["setting"].startswith("classic1980 tokens") and "| **" in out
    assert len(row["runs"]["fast"]) == len(row["runs"]["reference"]) == 2
    assert (
        row["fast"] > 0 and row["reference"] > 0 and row["ratio"] == row["fast"] / row["reference"]
    )


def test_vec_env_benchmark_runs(capsys: pytest.CaptureFixture[str]) -> None:
    """benchmarks/vec_env.py: both simulators step, the ratio is theirs."""
    vec = _script("vec_env")
    args = ["--seconds", "0.05", "--reps", "2", "--batch", "8", "--rules", "classic1980"]
    assert vec.main([*args, "--players", "3"]) == 0
    out = capsys.readouterr().out
    result = json.loads(out.strip().splitlines()[-1])
    assert result["fast_steps_per_s"] > 0 and result["reference_steps_per_s"] > 0
    assert result["ratio"] == result["fast_steps_per_s"] / result["reference_steps_per_s"]
    assert "| `FastVecEnv`, batch 8 |" in out


def test_search_cpu_plays_the_search_rows(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """benchmarks/search_cpu.py: a row's games, compiled and in Python, timed and saved;
    the bots' default is left as it was."""
    from ono99.bots import compiled

    bench = _script("search_cpu")
    before = compiled.FAST_ROLLOUTS
    for mode in ([], ["--python"]):
        out = tmp_path / "cpu.json"
        assert bench.main(["--games", "1", "--only", "c3p", "--save", str(out), *mode]) == 0
        saved = json.loads(out.read_text())
        assert saved["mode"] == ("python" if mode else "compiled") and saved["games"] == 1
        assert list(saved["cpu_seconds_per_game"]) == ["c3p-ismcts-heuristic"]
        assert saved["cpu_seconds_per_game"]["c3p-ismcts-heuristic"] > 0
        assert before == compiled.FAST_ROLLOUTS
    assert capsys.readouterr().out.count("c3p-ismcts-heuristic") == 2


def test_decision_time_loads_the_compiled_search_first(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """benchmarks/decision_time.py: the compiled rollouts are loaded before the clock (and
    said so), unless --cold; every decision with a choice is timed."""
    timing = _script("decision_time")
    args = ["--bot", "expert", "--games", "1", "--clock", "cpu", "--only", "mattel2022/2p"]
    timing.main(args)
    warm = json.loads(capsys.readouterr().out)
    assert warm["compiled"] is True and warm["compiled_load_s"] >= 0
    assert warm["configs"]["mattel2022/2p"]["with_a_choice"]["decisions"] > 0
    timing.main([*args, "--cold"])
    cold = json.loads(capsys.readouterr().out)
    assert "compiled" not in cold
    assert (
        cold["configs"]["mattel2022/2p"]["all"]["decisions"]
        == (warm["configs"]["mattel2022/2p"]["all"]["decisions"])
    )  # the same game: the compiled rollouts play the same moves


def test_vs_rlcard_without_rlcard(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without rlcard the script skips it cleanly (a message, exit 0)."""
    monkeypatch.setitem(sys.modules, "rlcard", None)  # import rlcard -> ImportError
    vs = _script("vs_rlcard")
    assert vs.main(["--seconds", "0.02", "--reps", "1", "--players", "2"]) == 0
    captured = capsys.readouterr()
    assert "rlcard is not installed" in captured.err
    assert json.loads(captured.out.strip().splitlines()[-1])["rlcard_uno_steps_per_s"] is None


def test_pool_runs_adds_games_and_pools_the_paired_comparison() -> None:
    """Arena runs with different seeds pool into one result: games and wins add up, and the
    block-paired difference is the block-weighted mean with its standard error."""
    from ono99.arena import make_spec, run_tournament

    pool = _script("pool_runs").pool
    a = run_tournament(make_spec(["heuristic", "greedy"], 2, games=40, seed=1), workers=1)
    b = run_tournament(make_spec(["heuristic", "greedy"], 2, games=60, seed=2), workers=1)
    out = pool([a, b])
    h = out["bots"]["heuristic"]
    assert out["games"] == 100 and h["games"] == 100
    assert h["wins"] == a["bots"]["heuristic"]["wins"] + b["bots"]["heuristic"]["wins"]
    assert h["seats"] == [50, 50]
    pa, pb, pooled = a["pairs"][0], b["pairs"][0], out["pairs"][0]
    assert pooled["blocks"] == pa["blocks"] + pb["blocks"] == 50
    assert pooled["diff"] == pytest.approx((20 * pa["diff"] + 30 * pb["diff"]) / 50, abs=1e-5)
    se = ((20 * pa["se"]) ** 2 + (30 * pb["se"]) ** 2) ** 0.5 / 50
    assert pooled["se"] == pytest.approx(se, abs=1e-5)
    with pytest.raises(SystemExit):
        pool([a, a])  # the same seed twice would count the same games twice


def test_decision_values_scores_rounds_with_tokens() -> None:
    """``decision_values.py --horizon round``: rollouts stop at the end of the round and
    score it as the search does with tokens (R-END-2): 1 unless the searcher lost the round.
    Every legal card gets a value in every world (paired samples)."""
    from ono99 import Game

    dv = _script("decision_values")
    g = Game("classic1980", 3, seed=zlib.crc32(b"dv:1"), events=False)
    view = g.view(g.to_move)
    for horizon in ("round", "game"):
        values = dv.rollout_values(view, 6, random.Random(2), 4, dv.true_world(g), horizon)
        assert len(values) == 6 and all(len(row) == len(view.legal) for row in values)
        assert all(0.0 <= v <= 1.0 for row in values for v in row)
    rounds = dv.rollout_values(view, 30, random.Random(3), 4, dv.true_world(g), "round")
    flat = {v for row in rounds for v in row}
    assert flat <= {0.0, 1.0} and flat == {0.0, 1.0}  # some rounds lost, some not


def _bot_moves_check(only: str | None, capsys: pytest.CaptureFixture[str]) -> None:
    check = _script("check_same_bots")
    pinned = BENCHMARKS / "results" / "bot-moves.json"
    args = ["--check", str(pinned)] + (["--only", only] if only else [])
    code = check.main(args)
    out = capsys.readouterr().out
    assert code == 0, out
    assert "same moves" in out


def test_the_heuristic_plays_the_pinned_moves(capsys: pytest.CaptureFixture[str]) -> None:
    """The heuristic (R-DRAW-1, R-99-3, R-END-3 choices included) plays exactly the moves
    pinned in benchmarks/results/bot-moves.json, in every preset and mode: the strength
    table's parts, run over many sessions, are of one and the same bot."""
    _bot_moves_check("heuristic", capsys)


@pytest.mark.slow
def test_every_search_plays_the_pinned_moves(capsys: pytest.CaptureFixture[str]) -> None:
    """The same for every search configuration of the table and the levels."""
    _bot_moves_check(None, capsys)


def test_check_same_bots_reports_a_changed_bot(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A digest that differs is reported, with exit status 1."""
    check = _script("check_same_bots")
    saved = tmp_path / "moves.json"
    assert check.main(["--only", "m2-heuristic", "--save", str(saved)]) == 0
    digests = json.loads(saved.read_text())
    digests["m2-heuristic"] = "0" * 64
    saved.write_text(json.dumps(digests))
    assert check.main(["--only", "m2-heuristic", "--check", str(saved)]) == 1
    assert "DIFFERENT: m2-heuristic" in capsys.readouterr().out


def test_web_memory_rounds_leave_no_table_in_memory(capsys: pytest.CaptureFixture[str]) -> None:
    """benchmarks/web_memory.py (docs/deploy.md "Memory"): every round's finished tables
    leave memory, and each round reports the resident set before and after malloc_trim."""
    script = _script("web_memory")
    assert script.main(["--tables", "6", "--rounds", "2", "--finished-seconds", "0.2"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [line["round"] for line in lines] == [0, 1, 2]
    for line in lines[1:]:
        assert line["in_memory"] == 0 and line["tables"] == 6 * line["round"]
        assert line["rss_mb"] > 0


def test_review_calibration_runs(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """benchmarks/review_calibration.py: positions valued and won, binned, charted."""
    cal = _script("review_calibration")
    out, svg = tmp_path / "cal.json", tmp_path / "cal.svg"
    args = ["--games", "2", "--per-game", "2", "--samples", "4", "--bots", "greedy,heuristic",
            "--out", str(out), "--chart", str(svg)]  # fmt: skip
    assert cal.main(args) == 0
    result = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert result == json.loads(out.read_text())
    assert result["positions"] == sum(b["positions"] for b in result["bins"]) == 4
    for b in result["bins"]:
        assert b["bin"][0] <= b["value"] <= b["bin"][1] and 0.0 <= b["won"] <= 1.0
    assert svg.read_text().lstrip().startswith(("<?xml", "<svg"))


def test_review_speed_runs(capsys: pytest.CaptureFixture[str]) -> None:
    """benchmarks/review_speed.py: a game reviewed with both rollouts, its hints timed."""
    speed = _script("review_speed")
    assert speed.main(["--games", "1", "--python-games", "1", "--samples", "2"]) == 0
    result = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert result["python_review"]["games"] == 1
    assert result["compiled_review"]["games"] == 1
    assert result["hint"]["positions"] == result["compiled_review"]["decisions_median"]
    assert 0 < result["hint"]["cpu_s_p50"] <= result["hint"]["cpu_s_p99"]
