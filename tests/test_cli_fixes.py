"""CLI and record fixes of issue 11: a bot against itself in the arena, bounded numbers
in records, integer seeds, names that cannot rewrite the terminal, a UTF-8 BOM, finite
bench times, usage errors pointing at the subcommand's help, translated JSON errors and
``play --record`` keeping every game. Through a real subprocess where the CLI is meant."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from ono99 import RecordError, RulesError, load_record, parse_record, replay
from ono99.cli.options import parse_options
from ono99.i18n import LANGUAGES, translator
from ono99.records import SEED_LIMIT
from ono99.termsafe import terminal_safe
from ono99.tui.session import NewGame

BIG = "9" * 5000


def run(
    *args: str, stdin: str | None = None, lang: str = "C.UTF-8"
) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("LC_", "LANG"))}
    env.update(LC_ALL="C.UTF-8", LANG=lang, PYTHONIOENCODING="utf-8")
    return subprocess.run(
        [sys.executable, "-m", "ono99", *args],
        input=stdin,
        capture_output=True,
        text=True,
        encoding="utf-8",
        env=env,
        timeout=120,
    )


def one_line_error(p: subprocess.CompletedProcess[str], status: int = 2) -> str:
    assert p.returncode == status, (p.returncode, p.stdout, p.stderr)
    assert "Traceback" not in p.stderr + p.stdout
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("ono99: error: "), p.stderr
    return lines[0]


def needs_catalog(lang: str) -> None:
    try:
        translator(lang)
    except OSError:
        pytest.fail(f"no compiled {lang} catalog: the .mo files are committed (scripts/i18n.py)")


# ---------------------------------------------------------------- arena


def test_arena_one_bot_plays_itself() -> None:
    """CONTRACTS.md arena: ``--bots random --players 3`` is three entries of the same bot
    (random, random#2, random#3), each rated; the --json shape is the contract's."""
    p = run("arena", "--bots", "random", "--players", "3", "--games", "6", "--workers", "1",
            "--json")  # fmt: skip
    assert p.returncode == 0, p.stderr
    data = json.loads(p.stdout)
    assert set(data["bots"]) == {"random", "random#2", "random#3"}
    for entry in data["bots"].values():
        assert entry["games"] == 6 and len(entry["ci95"]) == 2
        assert set(entry["decision_ms"]) >= {"p50", "p99"} and 0 <= entry["win_rate"] <= 1
    assert sum(e["wins"] for e in data["bots"].values()) == pytest.approx(6)
    p = run("arena", "--bots", "random", "--players", "3", "--games", "3", "--workers", "1")
    assert p.returncode == 0 and "random#3" in p.stdout, p.stderr


# ---------------------------------------------------------------- numbers in records

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


# ---------------------------------------------------------------- seeds


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


# ---------------------------------------------------------------- names and text

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


def test_utf8_bom_is_accepted(tmp_path: Path) -> None:
    """R-REC: a record saved with a byte order mark (Windows Notepad) replays."""
    text = json.dumps({"players": ["Ana", "Bo"], "seed": 4, "moves": []})
    assert load_record("\ufeff" + text).players == ["Ana", "Bo"]
    path = tmp_path / "bom.json"
    path.write_bytes(b"\xef\xbb\xbf" + text.encode())
    p = run("replay", str(path), "--json")
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout)["players"] == ["Ana", "Bo"]


# ---------------------------------------------------------------- bench, usage errors


@pytest.mark.parametrize("seconds", ["inf", "-inf", "1e400", "nan", "0", "-1"])
def test_bench_seconds_must_be_finite_and_positive(seconds: str) -> None:
    """CONTRACTS.md bench: --seconds inf would run forever; a one-line error instead."""
    one_line_error(run("bench", f"--seconds={seconds}"))


@pytest.mark.parametrize(
    ("args", "command"),
    [
        (["replay"], "ono99 replay --help"),
        (["replay", "x.json", "--bogus"], "ono99 replay --help"),
        (["bench", "--players", "x"], "ono99 bench --help"),
        (["arena", "--players", "3"], "ono99 arena --help"),
        (["play", "--nope"], "ono99 play --help"),
        (["nosuchcommand"], "(see ono99 --help)"),
    ],
)
def test_usage_errors_point_to_the_subcommands_help(args: list[str], command: str) -> None:
    """CONTRACTS.md CLI: a usage error names the help that explains the command."""
    line = one_line_error(run(*args))
    assert command in line


# ---------------------------------------------------------------- JSON errors


def test_json_syntax_error_is_one_plain_line() -> None:
    """R-REC: a record that is not JSON: where it breaks, without Python's words."""
    with pytest.raises(RecordError) as info:
        load_record('{"players":\n  ]')
    assert str(info.value) == "not valid JSON (line 2, column 3)"


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_json_syntax_error_is_translated_whole(lang: str) -> None:
    """R-REC: the JSON error is translated whole: no English "Expecting value" left."""
    needs_catalog(lang)
    p = run("--lang", lang, "replay", "-", stdin='{"players":\n  ]')
    line = one_line_error(p)
    assert "Expecting" not in line and "JSON" in line
    assert "2" in line and "3" in line and "not valid" not in line
    p = run("--lang", lang, "replay", "-", "--json", stdin='{"players": ]')
    assert json.loads(p.stdout) == {"error": "not valid JSON (line 1, column 13)", "move": None}


# ---------------------------------------------------------------- play --record


def test_record_saver_keeps_every_game(tmp_path: Path) -> None:
    """R-REC: "play again" writes each game to its own file: game.json, game-2.json...;
    saving the same game again rewrites its own file."""
    from ono99.cli.play import RecordSaver

    save = RecordSaver(str(tmp_path / "game.json"))
    first, second, third = (NewGame("mattel2022", 2, "random", {}, s).session()
                            for s in (1, 2, 3))  # fmt: skip
    assert save(first) == str(tmp_path / "game.json")
    assert save(second) == str(tmp_path / "game-2.json")
    assert save(first) == str(tmp_path / "game.json")
    assert save(third) == str(tmp_path / "game-3.json")
    seeds = [json.loads((tmp_path / n).read_text())["seed"]
             for n in ("game.json", "game-2.json", "game-3.json")]  # fmt: skip
    assert seeds == [1, 2, 3] and save.errors == []


@pytest.mark.parametrize(
    ("target", "words"),
    [
        ("", "--record needs a file name"),
        ("   ", "--record needs a file name"),
        ("/dev/full", "cannot save the game record to /dev/full"),
        ("/no/such/folder/g.json", "no folder /no/such/folder"),
    ],
)
def test_record_path_is_checked_before_the_game(target: str, words: str) -> None:
    """A record that cannot be written is found before the game starts: one line, exit 2."""
    if target == "/dev/full" and not Path("/dev/full").exists():
        pytest.skip("no /dev/full")
    p = run("play", "--plain", "--record", target, stdin="6\n")
    line = one_line_error(p)
    assert words in line and p.stdout == ""


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() == 0, reason="root writes anyway")
def test_read_only_record_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "ro.json"
    path.write_text("keep\n")
    path.chmod(0o444)
    one_line_error(run("play", "--plain", "--record", str(path), stdin="quit\n"))
    assert path.read_text() == "keep\n"


def test_checking_an_existing_record_file_changes_nothing(tmp_path: Path) -> None:
    """The check opens an existing file for appending and writes nothing; a new file it
    creates is removed again (a game quit at once then writes its record)."""
    from ono99.cli.play import check_record_path

    path = tmp_path / "old.json"
    old = '{"players": 2, "seed": 1, "moves": []}\n'  # an earlier game's record
    path.write_text(old)
    check_record_path(str(path))
    assert path.read_text() == old
    new = tmp_path / "new.json"
    check_record_path(str(new))
    assert not new.exists()


def test_failed_save_at_the_end_is_exit_status_1(tmp_path: Path) -> None:
    """A record that passed the check but cannot be written when the game ends: exit
    status 1 with a one-line reason."""
    gone = tmp_path / "gone" / "game.json"
    code = (
        "import sys; from pathlib import Path; import ono99.cli.play as p; "
        f"p.RecordSaver.path_of = lambda self, k: Path({str(gone)!r}); "
        "from ono99.cli import main; main(sys.argv[1:])"
    )
    env = {**os.environ, "LANGUAGE": "", "LC_ALL": "C.UTF-8", "LANG": "C.UTF-8",
           "PYTHONIOENCODING": "utf-8"}  # fmt: skip
    p = subprocess.run(
        [sys.executable, "-c", code, "play", "--plain", "--seed", "1", "--players", "2",
         "--bots", "random", "--record", str(tmp_path / "game.json")],
        input="quit\n", capture_output=True, text=True, env=env, timeout=60,
    )  # fmt: skip
    line = one_line_error(p, status=1)
    assert f"cannot save the game record to {gone}" in line
    assert "saved to" not in p.stdout
