"""``--engine fast`` on the command line (CONTRACTS.md "CLI"): ``ono99 bench`` and
``ono99 replay`` through a real subprocess, and the same games and states as the
reference engine."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from ono99.bench import run_bench
from ono99.cli import main

GOLDEN = Path(__file__).resolve().parent.parent / "golden"
RECORDS = sorted(p for p in GOLDEN.glob("*.json") if not p.name.endswith(".expected.json"))


def run(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if not k.startswith(("LC_", "LANG"))}
    base.update(LC_ALL="C.UTF-8", LANG="C.UTF-8", PYTHONIOENCODING="utf-8", **(env or {}))
    return subprocess.run(
        [sys.executable, "-m", "ono99", *args], capture_output=True, text=True, env=base,
        timeout=300,
    )  # fmt: skip


def run_in_process(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """The CLI in this process (the subprocess tests cover the real entry point)."""
    try:
        main(list(args))
        code = 0
    except SystemExit as e:
        code = int(e.code or 0)
    out = capsys.readouterr()
    return code, out.out, out.err


def one_line_error(p: subprocess.CompletedProcess[str]) -> str:
    assert p.returncode == 2, (p.returncode, p.stdout, p.stderr)
    assert "Traceback" not in p.stderr + p.stdout
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1, p.stderr
    return lines[0]


@pytest.mark.parametrize(
    ("rules", "players", "options"),
    [
        ("mattel2022", 4, {}),
        ("mattel2022", 2, {}),
        ("classic1980", 3, {}),
        ("classic1980", 5, {"scoring": "points", "zero_ending_99": True}),
        ("classic1980", 4, {"scoring": "points", "points_mode": "lowest", "draw_penalty": True}),
        ("gamerules", 8, {"draw_penalty": True}),
    ],
)
def test_bench_plays_the_reference_benchs_games(
    rules: str, players: int, options: dict[str, Any]
) -> None:
    """R-END-4, R-SET-1, R-DRAW-1: the fast bench plays the very games of the
    reference bench (same deals, same random choices): the same steps for the same
    games and seed."""
    seed = 2**200 + 999  # the next seeds carry into more digits: 10**k - 1 boundaries too
    ref = run_bench(rules, players, options=options, seed=seed, games=60)
    fast = run_bench(rules, players, options=options, seed=seed, games=60, engine="fast")
    assert fast["games"] == ref["games"] == 60
    assert fast["steps"] == ref["steps"] > 0
    nines = run_bench(rules, players, options=options, seed=9_999_990, games=20)
    fast = run_bench(rules, players, options=options, seed=9_999_990, games=20, engine="fast")
    assert fast["steps"] == nines["steps"]


def test_bench_fast_json() -> None:
    """CONTRACTS.md: ``bench --engine fast --json`` prints one object with games, steps,
    seconds, games_per_s and steps_per_s."""
    p = run("bench", "--engine", "fast", "--seconds", "0.3", "--rules", "classic1980",
            "--players", "3", "--json")  # fmt: skip
    assert p.returncode == 0, p.stderr
    data = json.loads(p.stdout)
    assert data["engine"] == "fast" and data["rules"] == "classic1980" and data["players"] == 3
    assert data["games"] > 0 and data["steps"] > data["games"]
    assert data["games_per_s"] > 0 and data["steps_per_s"] > 0 and data["seconds"] >= 0.3


@pytest.mark.parametrize(
    "args",
    [
        ["--players", "9"],
        ["--rules", "classic1980", "--players", "1"],
        ["--rules", "nope"],
        ["--option", "scoring=points"],
        ["--seconds", "nan"],
        ["--seed", "-1"],
    ],
)
def test_bench_fast_bad_arguments_are_one_line(args: list[str]) -> None:
    """R-SET-5, R-SET-6: a bad argument is one line and exit status 2 on the fast engine too."""
    one_line_error(run("bench", "--engine", "fast", "--json", *args))


@pytest.mark.parametrize("path", RECORDS, ids=[p.stem for p in RECORDS])
def test_replay_fast_prints_what_the_reference_prints(
    path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """R-REC: ``replay --engine fast`` gives the reference's output, with --json (the
    final state) and without (the game told move by move)."""
    for extra in (["--json"], []):
        ref = run_in_process(capsys, "replay", str(path), *extra)
        fast = run_in_process(capsys, "replay", str(path), "--engine", "fast", *extra)
        assert ref[0] == 0, ref
        assert fast == ref


def test_replay_fast_through_the_entry_point() -> None:
    """R-REC: the installed command, in a fresh process: the same JSON as the reference."""
    path = str(GOLDEN / "classic_tokens_seeded_reshuffle.json")
    ref = run("replay", path, "--json")
    fast = run("replay", path, "--json", "--engine", "fast")
    assert ref.returncode == fast.returncode == 0, fast.stderr
    assert json.loads(fast.stdout) == json.loads(ref.stdout)


def test_replay_fast_errors_are_the_references(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """R-REC, R-TURN-1: an illegal move and a bad record give the reference's JSON error
    (``move`` = the index, or null) and one line on stderr, exit status 2."""
    records = {
        "illegal": {"rules": "mattel2022", "players": 3, "seed": 7, "moves": ["9", "7", "8"]},
        "bad_deal": {"rules": "mattel2022", "players": 3, "seed": 7,
                     "deals": [{"hands": [["99"], [], []]}], "moves": []},
        "bad_rules": {"rules": "mattel2099", "players": 3, "seed": 7, "moves": []},
    }  # fmt: skip
    for name, record in records.items():
        path = tmp_path / f"{name}.json"
        path.write_text(json.dumps(record), encoding="utf-8")
        for extra in (["--json"], []):
            ref = run_in_process(capsys, "replay", str(path), *extra)
            fast = run_in_process(capsys, "replay", str(path), "--engine", "fast", *extra)
            assert fast[0] == 2 and len(fast[2].strip().splitlines()) == 1, (name, fast)
            assert fast == ref, name
    p = run("replay", str(tmp_path / "illegal.json"), "--json", "--engine", "fast")
    one_line_error(p)
    data = json.loads(p.stdout)
    assert data["move"] == 2 and "has no '8'" in data["error"]


def test_without_numba_the_fast_engine_is_a_one_line_hint() -> None:
    """CONTRACTS.md "Install and run": a missing optional dependency is a one-line hint."""
    code = (
        "import sys; sys.modules['numba'] = None; sys.argv = ['ono99'] + sys.argv[1:];"
        " from ono99.cli import main; main()"
    )
    for args in (["bench", "--engine", "fast"], ["replay", "-", "--engine", "fast"]):
        p = subprocess.run(
            [sys.executable, "-c", code, *args], capture_output=True, text=True, timeout=120,
            input="{}",
        )  # fmt: skip
        line = one_line_error(p)
        assert "pip install 'ono99[fast]'" in line and "numba" in line


def test_a_disagreement_between_the_engines_is_reported(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """R-REC: told by the reference, checked by the fast engine: if the fast engine ended
    elsewhere, the replay says so in one line, exit status 1 (it never happens; a guard)."""
    import ono99.cli.replay as replay_cli

    monkeypatch.setattr(replay_cli, "_fast_outcome", lambda rec: {"total": -1})
    code, out, err = run_in_process(capsys, "replay", str(RECORDS[0]), "--engine", "fast")
    assert code == 1 and out  # the narration was printed, then the check failed
    assert err.strip() == "ono99: error: the fast engine and the reference disagree on this record"
