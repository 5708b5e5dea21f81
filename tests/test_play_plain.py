"""``ono99 play --plain`` through a subprocess, as a script or screen reader uses it."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from ono99.i18n import LANGUAGES, translator

#: every card code, then 99x4 and draw: cycling through them always finds a legal move
CODES = ["10", "9", "8", "7", "6", "5", "4", "3", "2", "1", "0", "-10", "R", "P2", "H", "99",
         "99x4", "draw"]  # fmt: skip
ENV = {**os.environ, "PYTHONIOENCODING": "utf-8", "LANGUAGE": "", "LC_ALL": "", "LANG": "C.UTF-8"}


def run_play(
    *args: str, answers: str = "", timeout: float = 120
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "ono99", "play", "--plain", *args],
        input=answers,
        capture_output=True,
        text=True,
        encoding="utf-8",
        env=ENV,
        timeout=timeout,
    )


def needs_catalog(lang: str) -> None:
    try:
        translator(lang)
    except OSError:
        pytest.fail(f"no compiled {lang} catalog: the .mo files are committed (scripts/i18n.py)")


def check_prompts(out: str) -> int:
    """Every prompt ``> `` comes right after ``total: N`` and ``hand: codes`` lines."""
    chunks = out.split("> ")
    for chunk in chunks[:-1]:
        lines = chunk.rstrip("\n").split("\n")
        assert re.fullmatch(r"total: -?\d+", lines[-2]), lines[-2:]
        assert re.fullmatch(r"hand:( (\d+|-10|R|P2|H|99))*", lines[-1]), lines[-1]
    return len(chunks) - 1


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_whole_game_in_every_language(lang: str, tmp_path: Path) -> None:
    needs_catalog(lang)
    record = tmp_path / "game.json"
    answers = "\n".join(CODES * 300) + "\n"
    r = run_play("--lang", lang, "--seed", "3", "--players", "3", "--bots", "easy",
                 "--record", str(record), answers=answers)  # fmt: skip
    assert r.returncode == 0, r.stderr
    assert "Traceback" not in r.stderr
    assert check_prompts(r.stdout) > 0
    assert record.exists()
    final = subprocess.run(
        [sys.executable, "-m", "ono99", "replay", str(record), "--json"],
        capture_output=True, text=True, env=ENV, check=True,
    )  # fmt: skip
    assert json.loads(final.stdout)["winner"] is not None
    if lang != "en":  # something on screen is in the language
        assert re.search(r"[^\x00-\x7f]", r.stdout.replace("—", "").replace("…", ""))


def test_draw_penalty_offers_draw_without_timers() -> None:
    """R-DRAW-1 in plain mode: after a play the prompt comes again offering draw."""
    answers = "\n".join(["10", "draw", "9", "", "8", "draw"] + CODES * 200) + "\n"
    r = run_play("--rules", "gamerules", "--option", "draw_penalty=true", "--seed", "2",
                 "--players", "2", "--bots", "random", answers=answers)  # fmt: skip
    assert r.returncode == 0, r.stderr
    assert "Draw your card: answer draw" in r.stdout
    assert re.search(r"You draw (\d+|-10|Reverse|Hold|Double Play|O'NO 99)\n", r.stdout)
    check_prompts(r.stdout)


def test_help_illegal_answers_and_quit(tmp_path: Path) -> None:
    record = tmp_path / "quit.json"
    r = run_play("--seed", "1", "--players", "2", "--bots", "random", "--record", str(record),
                 answers="help\nbanana\n99\nquit\n")  # fmt: skip
    assert r.returncode == 0, r.stderr
    out = r.stdout
    assert "Take turns playing one card" in out and "You can play:" in out
    assert "'banana' is not a card code" in out
    # each refused answer: one line, then the same prompt again (game unchanged)
    prompts = out.split("> ")
    assert len(prompts) == 5
    hands = {p.rstrip("\n").split("\n")[-1] for p in prompts[:4]}
    assert len(hands) == 1
    assert "You left the game." in out and "Game record saved to" in out
    assert json.loads(record.read_text())["moves"] == []  # seat 0 left before any move


def test_end_of_input_quits() -> None:
    r = run_play("--seed", "1", "--players", "2", "--bots", "random", answers="")
    assert r.returncode == 0
    assert "You left the game." in r.stdout


def test_stdin_not_a_terminal_means_plain() -> None:
    r = subprocess.run(
        [sys.executable, "-m", "ono99", "play", "--seed", "1", "--bots", "random"],
        input="quit\n", capture_output=True, text=True, env=ENV, timeout=60,
    )  # fmt: skip
    assert r.returncode == 0
    assert "\ntotal: 0\nhand: " in "\n" + r.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--players", "9"], "2 to 6 players, not 9"),
        (["--rules", "nope"], "unknown rules preset 'nope'"),
        (["--bots", "godlike"], "unknown bot level 'godlike'"),
        (["--option", "draw_penalty=true"], "mattel2022 takes no options"),
        (["--option", "x"], "--option takes key=value"),
        (["--rules", "classic1980", "--option", "colour=red"], "does not take option 'colour'"),
        (
            ["--rules", "mini", "--option", "size=huge"],
            "mini option 'size' must be one of 'small', 'large', not 'huge'",
        ),
        (["--lang", "xx"], "unknown language 'xx'"),
        (["--record", "/no/such/folder/g.json"], "no folder /no/such/folder"),
    ],
)
def test_bad_arguments_one_line_exit_2(args: list[str], message: str) -> None:
    r = run_play(*args, answers="quit\n")
    assert r.returncode == 2
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and message in lines[0], r.stderr
    assert "Traceback" not in r.stderr


def test_echoed_answers_escape_control_bytes() -> None:
    """Issue 26: the transcript echoes each answer; control bytes (an escape sequence that
    would clear the screen, a bell, C1, bidi overrides) come back escaped, never raw."""
    evil = "\x1b[2J\x07\x9b\u202ex"
    r = run_play("--seed", "1", "--bots", "random", answers=f"{evil}\nquit\n")
    assert r.returncode == 0, r.stderr
    for ch in "\x1b\x07\x9b\u202e":
        assert ch not in r.stdout + r.stderr
    assert "\\x1b[2J" in r.stdout


def test_draw_prompt_says_what_any_other_answer_does() -> None:
    """Issue 26: the draw prompt says that any other answer (but help or quit) skips the
    draw, and it does: a card code there is not played, the draw is skipped."""
    answers = "\n".join(["10", "7", "9", "8"] + CODES * 200) + "\n"
    r = run_play("--rules", "gamerules", "--option", "draw_penalty=true", "--seed", "2",
                 "--players", "2", "--bots", "random", answers=answers)  # fmt: skip
    assert r.returncode == 0, r.stderr
    assert "any other answer but help or quit skips it" in r.stdout
    assert "You do not draw now." in r.stdout


def run_plain(*args: str, answers: str) -> str:
    r = subprocess.run(
        [sys.executable, "-m", "ono99", "play", "--plain", *args],
        input=answers, capture_output=True, text=True, encoding="utf-8", env=ENV, timeout=120,
    )  # fmt: skip
    assert r.returncode == 0, r.stderr
    return r.stdout


def test_plain_game_over_once_and_final_standings_winner_first() -> None:
    out = run_plain("--seed", "4", "--players", "4", "--bots", "random",
                    answers="\n".join(CODES * 300) + "\n")  # fmt: skip
    assert len(re.findall(r"wins the game!|win the game!|share the win", out)) == 1
    tail = out[out.index("Game over.") :].splitlines()[1:]
    standings = [line for line in tail if re.match(r"\d\. ", line)]
    assert len(standings) == 4, tail
    assert standings[0].startswith("1. ") and "winner" in standings[0]
    names = [line.split(":")[0][3:] for line in standings]
    assert sorted(names) == sorted(["You", "Ana", "Bo", "Cy"])
    # the others in the reverse of the order they were eliminated
    out_order = [m for m in re.findall(r"^(\w+) (?:is|are) out of the game$", out, re.M)]
    assert names[1:] == list(reversed(out_order))


def test_plain_help_says_you_can_play_once() -> None:
    out = run_plain("--seed", "1", "--players", "2", "--bots", "random", answers="help\nquit\n")
    prompts = out.split("> ")
    assert [p.count("You can play:") for p in prompts[:2]] == [1, 1]
