"""Issue 26, the command line's first hour: bounded run sizes (--workers, --seconds, --games,
ismcts:N), analyze creating nothing for a bad or stopped run, Ctrl-C and SIGTERM stopping a
long run with one line, --lang in any case, no Python spellings in help, the progress bar's
rules. Through a real subprocess where the CLI is meant."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from cli_helpers import one_line_error, run
from ono99.arena import default_workers, make_spec
from ono99.arena.tournament import MAX_GAMES, MAX_ITERATIONS
from ono99.cli.typer_i18n import plain_metavar
from ono99.i18n import translator

sys.path.insert(0, str(Path(__file__).parent))


@pytest.mark.parametrize("command", ["arena", "analyze"])
def test_workers_bounded_by_cpu_count(command: str, tmp_path: Path) -> None:
    """--workers 100000 would fork that many processes: a one-line error instead."""
    out = tmp_path / "out"
    args = ["--bots", "random,random", "--games", "2", "--workers", "100000"]
    if command == "analyze":
        args += ["--out", str(out), "--players", "2"]
    line = one_line_error(run(command, *args))
    assert f"from 1 to {default_workers()}" in line and "100000" in line
    assert not out.exists()
    assert run(command, *args[:-1], "0").returncode == 2


@pytest.mark.parametrize("seconds", ["1e308", "3601", "0.001"])
def test_bench_seconds_bounded(seconds: str) -> None:
    line = one_line_error(run("bench", "--seconds", seconds))
    assert "0.01" in line and "3,600" in line


def test_arena_games_bounded() -> None:
    one_line_error(run("arena", "--bots", "random,random", "--games", str(10**23)))
    one_line_error(run("arena", "--bots", "random,random", "--games", "1e23"))
    with pytest.raises(ValueError, match="from 1 to"):
        make_spec(["random", "random"], games=MAX_GAMES + 1)
    assert make_spec(["random", "random"], games=MAX_GAMES).games == MAX_GAMES


@pytest.mark.parametrize("bot", ["ismcts:99999999999999999", f"ismcts:{MAX_ITERATIONS + 1}:heuristic",
                                 "ismcts:" + "9" * 5000])  # fmt: skip
def test_ismcts_iterations_bounded(bot: str) -> None:
    line = one_line_error(run("arena", "--bots", f"{bot},random", "--games", "2"))
    assert "at most 100,000 iterations" in line
    make_spec([f"ismcts:{MAX_ITERATIONS}", "random"], games=2)  # the bound itself is fine


def test_analyze_empty_out_creates_nothing(tmp_path: Path) -> None:
    """--out '' once wrote the report into the current folder."""
    p = subprocess.run(
        [sys.executable, "-m", "ono99", "analyze", "--out", "", "--games", "4"],
        capture_output=True, text=True, cwd=tmp_path, timeout=120,
    )  # fmt: skip
    one_line_error(p)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    "args",
    [
        ["--bots", "nobody"],
        ["--players", "9"],
        ["--games", "0"],
        ["--option", "bogus=1"],
        ["--seed", "-1"],
    ],
)
def test_invalid_analyze_creates_nothing(tmp_path: Path, args: list[str]) -> None:
    out = tmp_path / "a" / "b"
    one_line_error(run("analyze", "--out", str(out), *args))
    assert list(tmp_path.iterdir()) == []


def test_analyze_out_not_a_folder(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("x")
    line = one_line_error(run("analyze", "--out", str(tmp_path / "file" / "sub"), "--games", "4"))
    assert "cannot write" in line
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file"]


def _default_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _long_run(tmp_path: Path, command: str) -> tuple[subprocess.Popen[str], Path]:
    out = tmp_path / "out"
    workers = min(2, default_workers())
    args = ["--bots", "heuristic,heuristic", "--games", "200000", "--workers", str(workers)]
    if command == "analyze":
        args += ["--out", str(out), "--players", "2"]
    env = {**os.environ, "LC_ALL": "C.UTF-8", "LANG": "C.UTF-8"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "ono99", command, *args],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
        start_new_session=True,  # its own process group, as a shell gives a job
        # Ctrl-C as a terminal delivers it: where the test runner was started in the
        # background, SIGINT is ignored and a child would inherit that (Python then never
        # turns SIGINT into KeyboardInterrupt)
        preexec_fn=_default_sigint,
    )  # fmt: skip
    # wait until the worker processes are playing (they are the parent's children)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        children = Path(f"/proc/{proc.pid}/task/{proc.pid}/children")
        if workers == 1 or (children.exists() and len(children.read_text().split()) >= 2):
            break
        time.sleep(0.2)
    time.sleep(1.0)
    return proc, out


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="needs Linux /proc")
@pytest.mark.parametrize(
    ("command", "sig", "status"),
    [
        ("arena", signal.SIGINT, 130),
        ("arena", signal.SIGTERM, 143),
        ("analyze", signal.SIGINT, 130),
        ("analyze", signal.SIGTERM, 143),
    ],
)
def test_stop_cleanly(tmp_path: Path, command: str, sig: signal.Signals, status: int) -> None:
    """Ctrl-C (SIGINT to the whole process group, as a terminal sends it) and SIGTERM (to
    the parent only, as `kill` does): one line, 130 or 143, no traceback from the parent
    or any worker, no output folder, no worker left behind."""
    proc, out = _long_run(tmp_path, command)
    try:
        children = Path(f"/proc/{proc.pid}/task/{proc.pid}/children").read_text().split()
        assert proc.poll() is None, proc.communicate()
        if sig == signal.SIGINT:
            os.killpg(proc.pid, sig)
        else:
            proc.send_signal(sig)
        stdout, stderr = proc.communicate(timeout=60)
    finally:  # a failed test leaves no 200,000-game run behind
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert proc.returncode == status, stderr
    assert stderr.strip().splitlines() == ["ono99: interrupted"], stderr
    assert stdout == ""
    assert not out.exists()
    for pid in children:  # the pool's workers are gone too
        deadline = time.monotonic() + 10
        while Path(f"/proc/{pid}").exists() and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not Path(f"/proc/{pid}").exists() or "Z" in Path(f"/proc/{pid}/stat").read_text()


@pytest.mark.parametrize("lang", ["TA", "Ta", "ta"])
def test_lang_any_case(lang: str) -> None:
    p = run("play", "--plain", "--lang", lang, stdin="quit\n")
    assert p.returncode == 0, p.stderr
    assert "சுற்று" in p.stdout
    p = run("bench", "--seconds", "x", f"--lang={lang}")
    assert p.returncode == 2 and "Traceback" not in p.stderr


@pytest.mark.parametrize("command", ["play", "replay", "bench", "arena", "analyze"])
def test_help_has_no_python_spellings(command: str) -> None:
    p = run(command, "--help")
    assert p.returncode == 0, p.stderr
    for spelling in ("<str>", "<int>", "<float", "list[", "<path>", "x>=", "True", "None"):
        assert spelling not in p.stdout, (spelling, p.stdout)
    assert re.search(r"--\w+ (TEXT|INTEGER|NUMBER|DIR)", p.stdout) or command == "replay"


def test_plain_metavar() -> None:
    assert plain_metavar("<list[str]>") == "TEXT"
    assert plain_metavar("<int range>") == "INTEGER"
    assert plain_metavar("<bool>") == "BOOLEAN"
    assert plain_metavar("FILE") == "FILE"


def test_progress_bar_rules(monkeypatch: pytest.MonkeyPatch) -> None:
    """The bar: on stderr only when it is a terminal, and not while JSON goes to one."""
    from ono99.cli import long_run

    class Tty:
        def __init__(self, tty: bool) -> None:
            self.tty = tty

        def isatty(self) -> bool:
            return self.tty

        def write(self, s: str) -> int:
            return len(s)

        def flush(self) -> None:
            pass

    for err, out, as_json, shown in [
        (True, True, False, True),
        (True, True, True, False),
        (True, False, True, True),
        (False, True, False, False),
    ]:
        monkeypatch.setattr(sys, "stderr", Tty(err))
        monkeypatch.setattr(sys, "stdout", Tty(out))
        assert long_run.show_progress(as_json) is shown
    with long_run.long_run(10, True) as progress:
        assert progress is not None
        progress(5)
        progress(10)
    with long_run.long_run(10, False) as progress:
        assert progress is None


def test_a_player_count_the_preset_does_not_take_is_worded_once(tmp_path: Path) -> None:
    """R-SET-5: every command and the terminal's setup refuse a player count the preset
    does not take with the one message of ``Rules.check_players`` (rule ID included), in
    English and translated; ``play`` and ``arena`` wrote their own copy without the ID."""
    from ono99.rules import make_rules

    want = "mattel2022 is for 2 to 6 players, not 1 (R-SET-5)"
    out = tmp_path / "out"
    for args in (["play", "--plain"], ["bench", "--seconds", "0.1"],
                 ["arena", "--bots", "random"], ["analyze", "--out", str(out)]):  # fmt: skip
        assert one_line_error(run(*args, "--players", "1")) == f"ono99: error: {want}"
    assert not out.exists()
    ta = translator("ta").gettext("{preset} is for {low} to {high} players, not {count}")
    said = one_line_error(run("arena", "--bots", "random", "--players", "9", "--lang", "ta"))
    assert said.endswith(ta.format(preset="mattel2022", low=2, high=6, count=9) + " (R-SET-5)")
    with pytest.raises(ValueError, match=r"not 7 \(R-SET-5\)"):
        make_rules("mattel2022").check_players(7)


@pytest.mark.parametrize("seconds", ["inf", "-inf", "1e400", "nan", "0", "-1"])
def test_bench_seconds_must_be_finite_and_positive(seconds: str) -> None:
    """CONTRACTS.md bench: --seconds inf would run forever; a one-line error instead."""
    one_line_error(run("bench", f"--seconds={seconds}"))
