"""``ono99 review FILE`` (CONTRACTS.md "CLI", docs/review.md), through a real subprocess."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from cli_helpers import one_line_error, run
from ono99.cards import action_code

GOLDEN = Path(__file__).resolve().parent / "golden"
CODES = {action_code(a) for a in range(18)}


def _shape(data: dict[str, Any], record: dict[str, Any]) -> None:
    assert set(data) == {"decisions", "seats"}
    for d in data["decisions"]:
        assert set(d) == {"move", "seat", "played", "options", "loss"}
        assert d["played"] == record["moves"][d["move"]]
        assert len(d["options"]) > 1
        wins = {o["move"]: o["win"] for o in d["options"]}
        assert d["played"] in wins
        assert d["loss"] == pytest.approx(max(wins.values()) - wins[d["played"]], abs=1e-5)
        for o in d["options"]:
            assert set(o) == {"move", "win", "ci95"} and o["move"] in CODES
            lo, hi = o["ci95"]
            assert 0.0 <= lo <= o["win"] <= hi <= 1.0


def test_review_json_points_tie() -> None:
    """R-REC, R-END-3: every decision with a choice of a points game valued; the shared
    win counts as a half for each winner; the same seed, the same output."""
    path = GOLDEN / "points_lowest_tie.json"
    record = json.loads(path.read_text())
    p = run("review", str(path), "--json", "--samples", "8", "--seed", "4")
    assert p.returncode == 0, p.stderr
    data = json.loads(p.stdout)
    _shape(data, record)
    assert data["decisions"]
    assert [s["seat"] for s in data["seats"]] == [0, 1, 2]
    assert [s["result"] for s in data["seats"]] == [0.5, 0.5, 0.0]  # winner [0, 1]
    for s in data["seats"]:
        mine = [d for d in data["decisions"] if d["seat"] == s["seat"]]
        assert s["decisions"] == len(mine)
        assert 0.0 <= s["start_ci95"][0] <= s["start_win"] <= s["start_ci95"][1] <= 1.0
    again = run("review", str(path), "--json", "--samples", "8", "--seed", "4")
    assert again.stdout == p.stdout
    one = run("review", "-", "--json", "--samples", "8", "--seed", "4", "--seat", "1",
              stdin=path.read_text())  # fmt: skip
    assert one.returncode == 0, one.stderr
    mine = json.loads(one.stdout)
    assert mine["decisions"] == [d for d in data["decisions"] if d["seat"] == 1]
    assert [s["seat"] for s in mine["seats"]] == [1]


def test_review_text_in_tamil() -> None:
    """The review told in words, in another language: the moves, the table of seats."""
    path = GOLDEN / "mattel_elimination.json"
    en = run("review", str(path), "--samples", "4")
    assert en.returncode == 0, en.stderr
    assert "Review of ONO 99 (Mattel 2022): 4 worlds a decision, seed 0" in en.stdout
    assert "mean loss" in en.stdout
    ta = run("review", str(path), "--samples", "4", "--lang", "ta")
    assert ta.returncode == 0, ta.stderr
    assert "mean loss" not in ta.stdout and "worlds a decision" not in ta.stdout
    assert len(ta.stdout.splitlines()) == len(en.stdout.splitlines())


@pytest.mark.parametrize(
    ("args", "text"),
    [
        (["/nonexistent/game.json"], None),
        (["--seat", "5"], None),
        (["--seat", "-1"], None),
        (["--samples", "0"], None),
        (["--seed", "-3"], None),
        ([], "{not json"),
        ([], '{"rules": "mattel2022", "players": 2, "seed": 1, "moves": ["99x4"]}'),
        ([], '{"rules": "nope", "players": 2, "seed": 1, "moves": []}'),
        ([], '{"format": "ono99-tracking/1", "tracking": true, "rules": "mattel2022"}'),
    ],
)
def test_review_bad_input_is_one_line(tmp_path: Path, args: list[str], text: str | None) -> None:
    """A bad file or option: one line on stderr, exit status 2, nothing on stdout."""
    if text is None:
        target = str(GOLDEN / "mattel_elimination.json")
        cmd = [target, *args] if args and args[0].startswith("-") else args
    else:
        path = tmp_path / "bad.json"
        path.write_text(text, encoding="utf-8")
        cmd = [str(path), *args]
    p = run("review", *cmd, "--samples", "2") if "--samples" not in cmd else run("review", *cmd)
    one_line_error(p)
    assert p.stdout == ""


def test_review_illegal_move_names_it(tmp_path: Path) -> None:
    """R-REC: an illegal move is named by its 0-based index, before any valuing."""
    path = tmp_path / "bad.json"
    path.write_text(
        json.dumps({"rules": "mattel2022", "players": 2, "seed": 4, "moves": ["4", "8", "8"]})
    )
    line = one_line_error(run("review", str(path), "--samples", "2"))
    assert "move 2" in line
