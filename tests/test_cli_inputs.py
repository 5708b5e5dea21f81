"""The CLI's inputs: a record read no further than a record can be (R-REC, ``RECORD_LIMIT``
as ``POST /api/replay``), a UTF-8 byte order mark accepted, a record that is not JSON told
in one plain line in the reader's language, a ``--option`` key given twice, ``--record``
that overwrites only an earlier game record, and a usage error that points at the
subcommand's help. Each bad input is one line on stderr, exit status 2, and changes
nothing. Through a real subprocess, as a user runs it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cli_helpers import needs_catalog, one_line_error, run
from ono99 import RecordError, load_record
from ono99.i18n import LANGUAGES
from ono99.records import RECORD_LIMIT
from ono99.tui.session import NewGame

# ---------------------------------------------------------------- replay: a bounded read


def test_a_file_larger_than_a_record_is_refused(tmp_path: Path) -> None:
    """R-REC: a file over ``RECORD_LIMIT`` bytes is not read to its end, and is named."""
    big = tmp_path / "big.json"
    big.write_bytes(b" " * (RECORD_LIMIT + 1))
    line = one_line_error(run("replay", str(big)))
    assert f"{big} is larger than a game record can be (1,000,000 bytes)" in line
    p = run("replay", "--json", str(big))
    one_line_error(p)
    assert json.loads(p.stdout)["move"] is None
    # a record just at the limit is read (and then judged as a record)
    big.write_bytes(b'{"players": 2, "seed": 1}' + b" " * (RECORD_LIMIT - 25))
    assert run("replay", "--json", str(big)).returncode == 0


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no /dev/zero on this system")
def test_replay_of_an_endless_file_is_one_line() -> None:
    """``ono99 replay /dev/zero`` ended in a MemoryError traceback: now one line, exit 2."""
    assert "larger than a game record" in one_line_error(run("replay", "/dev/zero"))


def test_an_endless_stdin_is_refused() -> None:
    p = run("replay", "-", stdin=" " * (RECORD_LIMIT + 10))
    assert "larger than a game record" in one_line_error(p)


# ---------------------------------------------------------------- --option twice


@pytest.mark.parametrize(
    "command",
    [
        ["play", "--plain"],
        ["arena", "--bots", "random,random", "--games", "1"],
        ["analyze", "--games", "1", "--out", "OUT"],
        ["bench", "--seconds", "0.1"],
    ],
)
def test_an_option_given_twice_is_refused(command: list[str], tmp_path: Path) -> None:
    """R-SET-6 options: ``--option target=100 --option target=200`` cannot be guessed at."""
    args = [str(tmp_path / "out") if a == "OUT" else a for a in command]
    p = run(*args, "--rules", "classic1980", "--option", "scoring=points",
            "--option", "target=100", "--option", " target=200", stdin="quit\n")  # fmt: skip
    assert "--option target is given twice" in one_line_error(p)
    assert p.stdout == ""
    assert not (tmp_path / "out").exists()


# ---------------------------------------------------------------- --record


def test_record_refuses_to_overwrite_another_file(tmp_path: Path) -> None:
    """A file that is not an ono99 game record is kept, byte for byte, and the game does
    not start."""
    notes = tmp_path / "notes.json"
    notes.write_text('{"my": "thesis"}\n')
    p = run("play", "--plain", "--seed", "1", "--record", str(notes), stdin="quit\n")
    line = one_line_error(p)
    assert f"{notes} is not an ono99 game record; --record does not overwrite it" in line
    assert p.stdout == ""
    assert notes.read_text() == '{"my": "thesis"}\n'


def test_record_overwrites_an_earlier_record_and_an_empty_file(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    for seed in ("1", "2"):
        p = run("play", "--plain", "--players", "2", "--seed", seed, "--record", str(path),
                stdin="quit\n")  # fmt: skip
        assert p.returncode == 0, p.stderr
        assert json.loads(path.read_text())["seed"] == int(seed)
    path.write_text("")
    p = run("play", "--plain", "--players", "2", "--seed", "3", "--record", str(path),
            stdin="quit\n")  # fmt: skip
    assert p.returncode == 0 and json.loads(path.read_text())["seed"] == 3


def test_the_next_games_file_is_kept_when_it_is_not_a_record(tmp_path: Path) -> None:
    """Play again writes ``game-2.json`` beside ``game.json``: a file of that name that is
    not a record is kept, and the game says it was not saved."""
    from ono99.cli.play import RecordSaver

    other = tmp_path / "game-2.json"
    other.write_text("keep me\n")
    save = RecordSaver(str(tmp_path / "game.json"), quiet=True)
    first, second = (NewGame("mattel2022", 2, "random", {}, s).session() for s in (1, 2))
    assert save(first) == str(tmp_path / "game.json")
    assert save(second) is None
    assert other.read_text() == "keep me\n"
    assert save.errors == [f"{other} is not an ono99 game record; --record does not overwrite it"]


def test_utf8_bom_is_accepted(tmp_path: Path) -> None:
    """R-REC: a record saved with a byte order mark (Windows Notepad) replays."""
    text = json.dumps({"players": ["Ana", "Bo"], "seed": 4, "moves": []})
    assert load_record("\ufeff" + text).players == ["Ana", "Bo"]
    path = tmp_path / "bom.json"
    path.write_bytes(b"\xef\xbb\xbf" + text.encode())
    p = run("replay", str(path), "--json")
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout)["players"] == ["Ana", "Bo"]


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
