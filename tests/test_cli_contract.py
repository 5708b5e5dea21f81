"""CLI contract of ``ono99 replay`` (CONTRACTS.md "CLI", RULES.md R-REC), through a
real subprocess: ``python -m ono99``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

GOLDEN = Path(__file__).resolve().parent / "golden"
FIELDS = ("total", "direction", "to_move", "hands", "draw_pile", "out", "tokens", "scores",
          "round", "winner", "owes_two")  # fmt: skip


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("LC_", "LANG"))}
    env.update(LC_ALL="C.UTF-8", LANG="C.UTF-8", PYTHONIOENCODING="utf-8")
    return subprocess.run(
        [sys.executable, "-m", "ono99", *args],
        input=stdin,
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )


def write(tmp_path: Path, record: Any, name: str = "game.json") -> str:
    path = tmp_path / name
    path.write_text(record if isinstance(record, str) else json.dumps(record), encoding="utf-8")
    return str(path)


def _one_line_error(p: subprocess.CompletedProcess[str]) -> None:
    assert p.returncode == 2, (p.returncode, p.stdout, p.stderr)
    assert "Traceback" not in p.stderr + p.stdout
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].strip(), p.stderr


def test_replay_json_fields() -> None:
    """R-REC: ``replay --json`` prints one JSON object with the listed fields."""
    path = GOLDEN / "points_lowest_tie.json"
    p = run("replay", str(path), "--json")
    assert p.returncode == 0, p.stderr
    data = json.loads(p.stdout)
    for key in FIELDS:
        assert key in data
    assert data == json.loads((GOLDEN / "points_lowest_tie.expected.json").read_text())
    assert data["winner"] == [0, 1] and data["to_move"] is None and data["direction"] == 1
    assert isinstance(data["draw_pile"], int) and data["tokens"] is None
    assert data["scores"] == [65, 65, 67] and data["round"] == 1 and data["owes_two"] is None


def test_replay_json_mid_game_tokens() -> None:
    """R-REC: state fields mid-game (tokens list, owes_two seat, out in order)."""
    rec = {
        "rules": "classic1980",
        "players": 3,
        "deals": [
            {
                "hands": [["P2", "2", "3", "4"], ["5", "6", "7", "8"], ["9", "H", "R", "10"]],
                "draw": ["2", "3"],
            }
        ],
        "moves": ["P2", "5"],
    }
    p = run("replay", "-", "--json", stdin=json.dumps(rec))
    assert p.returncode == 0, p.stderr
    data = json.loads(p.stdout)
    assert data["owes_two"] == 1 and data["to_move"] == 1 and data["total"] == 5
    assert data["tokens"] == [3, 3, 3] and data["scores"] is None and data["out"] == []
    assert data["hands"][0] == ["2", "3", "4", "2"] and data["winner"] is None


def test_replay_illegal_move(tmp_path: Path) -> None:
    """R-REC: an illegal move prints {"error": ..., "move": k} (k = first bad move,
    0-based) and exits non-zero."""
    rec = {"rules": "mattel2022", "players": 2, "moves": ["P2"],
           "deals": [{"hands": [["1", "2", "3", "4"], ["5", "6", "7", "8"]], "draw": ["9"]}]}  # fmt: skip
    rec["moves"] = ["1", "5", "9", "9"]
    p = run("replay", write(tmp_path, rec), "--json")
    assert p.returncode != 0
    out = json.loads(p.stdout)
    assert set(out) == {"error", "move"} and out["move"] == 3
    assert "Traceback" not in p.stderr and len(p.stderr.strip().splitlines()) == 1
    rec["moves"] = ["1", "X"]
    p = run("replay", write(tmp_path, rec), "--json")
    assert p.returncode != 0 and json.loads(p.stdout)["move"] == 1


BAD_INPUTS = {
    "malformed_json": '{"rules": "mattel2022", "players": 2,',
    "not_an_object": "[1, 2, 3]",
    "unknown_preset": {"rules": "uno", "players": 2},
    "unknown_option": {"rules": "classic1980", "players": 2, "options": {"jokers": True}},
    "option_not_taken": {"rules": "mattel2022", "players": 2, "options": {"draw_penalty": True}},
    "wrong_player_count": {"rules": "mattel2022", "players": 7},
    "deal_card_deck_lacks": {"rules": "classic1980", "players": 2,
                             "deals": [{"hands": [["1", "2", "3", "4"], ["5", "6", "7", "8"]]}]},
    "deal_too_many_copies": {"rules": "classic1980", "players": 2,
                             "deals": [{"hands": [["2", "2", "2", "2"], ["5", "6", "7", "8"]]}]},
    "deal_unknown_code": {"rules": "classic1980", "players": 2,
                          "deals": [{"hands": [["2", "3", "4", "J"], ["5", "6", "7", "8"]]}]},
    "later_deal_bad": {"rules": "classic1980", "players": 2, "moves": ["2"],
                       "deals": [{"hands": [["2", "3", "4", "5"], ["5", "6", "7", "8"]]},
                                 {"hands": [["H", "H", "H", "H"], ["H", "6", "7", "8"]]}]},
}  # fmt: skip


@pytest.mark.parametrize("name", sorted(BAD_INPUTS))
def test_bad_input_one_line_exit_2(tmp_path: Path, name: str) -> None:
    """R-REC, R-SET-5, R-SET-6: a bad record gives one line on stderr, exit 2, no
    traceback; with --json, {"error": ..., "move": null} on stdout."""
    path = write(tmp_path, BAD_INPUTS[name])
    p = run("replay", path)
    _one_line_error(p)
    assert p.stdout == ""
    p = run("replay", path, "--json")
    _one_line_error(p)
    out = json.loads(p.stdout)
    assert out["move"] is None and out["error"]


def test_missing_file_and_bad_arguments(tmp_path: Path) -> None:
    """CONTRACTS.md: a missing file or bad arguments: one line on stderr, exit 2."""
    _one_line_error(run("replay", str(tmp_path / "nope.json")))
    _one_line_error(run("replay", str(tmp_path)))
    _one_line_error(run("replay"))
    _one_line_error(run("replay", str(GOLDEN / "points_lowest_tie.json"), "--bogus"))
    deep = write(tmp_path, "[" * 200_000)
    _one_line_error(run("replay", deep))


def test_narrated_replay() -> None:
    """R-TURN-1: without --json the game is told move by move ("Ana plays 7 — total 17")."""
    rec = {
        "rules": "mattel2022",
        "players": ["Ana", "Bo"],
        "deals": [{"hands": [["10", "5", "R", "99"], ["7", "P2", "0", "3"]], "draw": ["8"]}],
        "moves": ["10", "7", "R"],
    }
    p = run("replay", "-", stdin=json.dumps(rec))
    assert p.returncode == 0, p.stderr
    lines = p.stdout.splitlines()
    assert "Ana plays 10 — total 10" in lines
    assert "Bo plays 7 — total 17" in lines
    assert lines.index("Ana plays 10 — total 10") < lines.index("Bo plays 7 — total 17")
    assert any(line.startswith("Ana plays") and "total 17" in line for line in lines)


def test_module_entry_point_help() -> None:
    """``python -m ono99 --help`` works (src/ono99/__main__.py)."""
    p = run("--help")
    assert p.returncode == 0 and "replay" in p.stdout
