"""``ono99 play --record``: where the records of a session go (R-REC). Every game of a
session gets its own file; a path that cannot be written is refused before the game, in
one line, and changes nothing; a save that fails at the end is exit status 1. Through a
real subprocess where the CLI is meant."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from cli_helpers import one_line_error, run
from ono99.tui.session import NewGame


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
