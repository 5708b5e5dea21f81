"""Every number a user gives is bounded (R-REC, R-SET-6): a record's seed, players,
dealer and target, an option's value and ``--seed`` of play, arena and bench; an integer
of thousands of digits is a one-line error, exit 2, never Python's; a seed is an integer.
Through a real subprocess where the CLI is meant."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from cli_helpers import one_line_error, run
from ono99 import RecordError, RulesError, parse_record, replay
from ono99.cli.options import parse_options
from ono99.records import SEED_LIMIT

BIG = "9" * 5000

HUGE_RECORDS = {
    "seed": {"players": 3, "seed": "BIG"},
    "players": {"players": "BIG"},
    "dealer": {"players": 3, "dealer": "BIG"},
    "target": {"rules": "classic1980", "players": 3,
               "options": {"scoring": "points", "target": "BIG"}},
    "negative": {"players": 3, "seed": "-BIG"},
    "in_a_list": {"players": 3, "moves": ["BIG"]},
}  # fmt: skip


@pytest.mark.parametrize("name", sorted(HUGE_RECORDS))
def test_huge_integers_are_a_one_line_error(name: str, tmp_path: Path) -> None:
    """R-REC: an integer of thousands of digits anywhere in a record is a bad record
    (one line, exit 2, and with --json the error object with move null)."""
    path = tmp_path / "huge.json"
    path.write_text(
        json.dumps(HUGE_RECORDS[name]).replace('"-BIG"', "-" + BIG).replace('"BIG"', BIG),
        encoding="utf-8",
    )
    line = one_line_error(run("replay", str(path)))
    assert "digits" in line
    p = run("replay", str(path), "--json")
    one_line_error(p)
    out = json.loads(p.stdout)
    assert out["move"] is None and "5000 digits" in out["error"]


@pytest.mark.parametrize(
    ("record", "words"),
    [
        ({"players": 3, "seed": SEED_LIMIT}, "'seed' must be an integer from 0 to 2²⁵⁶ - 1"),
        ({"players": 3, "seed": -1}, "not -1"),
        ({"players": 10**70}, "count from 2 to 8"),
        ({"players": 3, "dealer": 10**70}, "seat from 0 to 2"),
        ({"players": 3, "dealer": 10**5000}, "≈10**5000"),
        ({"rules": "classic1980", "players": 3,
          "options": {"scoring": "points", "target": 10**6 + 1}}, "at most 1000000"),
        ({"rules": "classic1980", "players": 3,
          "options": {"scoring": "points", "target": 10**5000}}, "≈10**5000"),
    ],
)  # fmt: skip
def test_every_number_of_a_record_is_bounded(record: dict[str, Any], words: str) -> None:
    """R-REC, R-SET-6: seed 0 <= seed < 2**256, players a count up to 99 (then the
    preset's range), dealer a seat, target at most 1,000,000; the error says so."""
    with pytest.raises((RecordError, RulesError), match=words.replace("*", r"\*")):
        replay(record)


def test_largest_seed_and_target_are_accepted() -> None:
    """R-REC: the bounds are inclusive where they say so; old integer seeds still work."""
    assert replay({"players": 3, "seed": SEED_LIMIT - 1}).seed == SEED_LIMIT - 1
    assert replay({"players": 3, "seed": 7}).seed == 7
    g = replay({"rules": "classic1980", "players": 3,
                "options": {"scoring": "points", "target": 10**6}})  # fmt: skip
    assert g.rules.target == 10**6


def test_option_values_with_huge_integers() -> None:
    """R-SET-6: ``--option target=<5000 digits>`` is a one-line error, not Python's."""
    with pytest.raises(RecordError, match="5000 digits"):
        parse_options([f"target={BIG}"])
    line = one_line_error(run("bench", "--rules", "classic1980", "--option", "scoring=points",
                              "--option", f"target={BIG}", "--seconds", "0.1"))  # fmt: skip
    assert "5000 digits" in line


@pytest.mark.parametrize("seed", ["abc", "7", 1.5, None, [1], True])
def test_record_seed_must_be_an_integer(seed: Any) -> None:
    """R-REC: the seed is an integer; a string (even of digits) is refused like 1.5."""
    with pytest.raises(RecordError, match="'seed' must be an integer"):
        parse_record({"players": 3, "seed": seed})


@pytest.mark.parametrize("command", [["bench", "--seconds", "0.1"],
                                     ["arena", "--bots", "random,greedy", "--games", "2"],
                                     ["play", "--plain"]])  # fmt: skip
def test_seed_options_are_bounded_like_records(command: list[str]) -> None:
    """R-REC: ``--seed`` of play, arena and bench takes what a record's seed takes."""
    for bad in ("-1", str(SEED_LIMIT)):
        line = one_line_error(run(*command, "--seed", bad, stdin="quit\n"))
        assert "--seed must be an integer from 0 to 2²⁵⁶ - 1" in line
