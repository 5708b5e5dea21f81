"""Player names from a record or the command line (R-REC): never blank, at most 40
characters, and never written raw to a terminal (control and bidi characters escaped; the
joiners of Indic and Burmese text kept). Through a real subprocess where the CLI is meant."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cli_helpers import one_line_error, run
from ono99 import RecordError, parse_record
from ono99.termsafe import terminal_safe

EVIL = ["A\x1b[2Jna", "\u202eoB", "C\x9by\x07", "D\x7fi"]


def test_record_names_never_reach_the_terminal_raw(tmp_path: Path) -> None:
    """R-REC: a record's names holding control characters (C0, C1, DEL) or bidi
    overrides are shown escaped in the narration and in errors."""
    rec = {"players": EVIL, "seed": 3, "moves": []}
    p = run("replay", "-", stdin=json.dumps(rec))
    assert p.returncode == 0, p.stderr
    assert "Round 1: A\\x1b[2Jna starts" in p.stdout
    for ch in "\x1b\x9b\x07\x7f\u202e":
        assert ch not in p.stdout + p.stderr
    rec["moves"] = ["99x4"]
    p = run("replay", "-", stdin=json.dumps(rec))
    line = one_line_error(p)
    assert "A\\x1b[2Jna" in line
    for ch in "\x1b\x9b\x07\x7f\u202e":
        assert ch not in p.stdout + p.stderr
    p = run("replay", "-", "--json", stdin=json.dumps(rec))
    assert "\x1b" not in p.stdout and json.loads(p.stdout)["move"] == 0


def test_terminal_safe_keeps_the_joiners_of_indic_and_burmese_text() -> None:
    """Only controls and bidi controls are escaped: ZWJ/ZWNJ and letters stay."""
    for text in ("நீங்கள்", "ಸೆಳೆಯಿರಿ", "မြန်မာ", "ક્ષ\u200dા", "a\u200cb", "Oʻzbek"):
        assert terminal_safe(text) == text
    assert terminal_safe("\x00\x1f\x7f\x80\x9f\u2066") == "\\x00\\x1f\\x7f\\x80\\x9f\\u2066"


@pytest.mark.parametrize(
    ("names", "words"),
    [
        (["Ana", ""], "the name of seat 1 is empty"),
        (["  \t", "Bo"], "the name of seat 0 is empty"),
        (["Ana", "x" * 41], "the name of seat 1 has 41 characters; at most 40"),
    ],
)
def test_names_are_not_empty_and_not_too_long(names: list[str], words: str) -> None:
    """R-REC: a player name is not blank and has at most 40 characters."""
    with pytest.raises(RecordError, match=words):
        parse_record({"players": names})
    line = one_line_error(run("replay", "-", stdin=json.dumps({"players": names})))
    assert words in line
    assert parse_record({"players": ["Ana", "x" * 40]}).players == ["Ana", "x" * 40]
