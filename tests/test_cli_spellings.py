"""No Python spellings reach a user (issue 26): a bad option value is shown as it is
written in ``--option`` and in a record (JSON: ``true``, ``null``, ``[1]``), not as Python
writes it (``True``, ``None``, ``{'a': 1}``); help writes ranges in words, not ``0<=x<=65535``."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from ono99.errors import RulesError
from ono99.rules import make_rules

#: what Python writes and a user never should read
PYTHON = ("True", "False", "None", "{'", "<list", "<int", "<str", "<=x", "x>=", "x<=", "-1.0")

#: every option of every preset that takes options, with values of every JSON kind but its own
BAD = [
    (preset, name, value)
    for preset, names in (
        ("classic1980", ("scoring", "zero_ending_99", "draw_penalty", "points_mode", "target")),
        ("gamerules", ("draw_penalty",)),
    )
    for name in names
    for value in (True, False, None, [True, None], {"a": False}, 1.5, "x", -3)
]


def _options(preset: str, name: str, value: object) -> dict[str, object]:
    if name in ("target", "points_mode"):
        return {"scoring": "points", name: value}
    return {name: value}


@pytest.mark.parametrize(("preset", "name", "value"), BAD)
def test_bad_option_values_are_written_as_json(preset: str, name: str, value: object) -> None:
    """R-SET-6: every bad value of every option is refused, and the message shows it the
    way it was written in JSON."""
    opts = _options(preset, name, value)
    try:
        make_rules(preset, opts)
    except RulesError as e:
        message = str(e)
    else:
        assert name in ("zero_ending_99", "draw_penalty") and isinstance(value, bool)
        return  # a good value (true/false of a boolean option)
    for spelling in PYTHON:
        assert spelling not in message, (spelling, message)
    if not isinstance(value, str):
        assert message.endswith("not " + json.dumps(value)), message


def test_a_record_preset_that_is_not_a_string() -> None:
    """R-SET-6 through a record: ``"rules": null`` is named as the record writes it."""
    with pytest.raises(RulesError, match=r"unknown rules preset null \(choose"):
        make_rules(None, {})  # type: ignore[arg-type]


def ono99(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "ono99", *args],
        capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL,
    )  # fmt: skip


@pytest.mark.parametrize(
    ("args", "shown"),
    [
        (["play", "--rules", "classic1980", "--option", "scoring=true"], "not true"),
        (["bench", "--rules", "classic1980", "--option", "zero_ending_99=null"], "not null"),
        (["arena", "--bots", "random,random", "--rules", "classic1980", "--option",
          'scoring={"a": [true]}'], 'not {"a": [true]}'),
        (["play", "--draw-seconds", "-1"], "not -1"),
        (["serve", "--port", "70000"], "less than or equal to 65535"),
    ],
)  # fmt: skip
def test_cli_errors_have_no_python_spellings(args: list[str], shown: str) -> None:
    p = ono99(*args)
    assert p.returncode == 2, p.stderr
    lines = p.stderr.splitlines()
    assert len(lines) == 1 and shown in lines[0], p.stderr
    for spelling in PYTHON:
        assert spelling not in lines[0], (spelling, lines[0])


def test_port_range_in_help_and_errors_in_every_language() -> None:
    """``serve --help`` writes the port's range in words; the error for a port over the
    range is translated like the one under it."""
    p = ono99("serve", "--help")
    assert p.returncode == 0 and "0 to 65535" in p.stdout, p.stdout
    assert "<=" not in p.stdout and ">=" not in p.stdout
    p = ono99("serve", "--port", "70000", "--lang", "uz")
    assert p.returncode == 2 and "65535" in p.stderr
    assert "Input should be" not in p.stderr, p.stderr
