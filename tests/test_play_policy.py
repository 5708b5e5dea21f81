"""``ono99 play --bots policy:PATH`` (issue 38): a learned policy as the bots of a terminal
game, refused the way ``ono99 arena`` refuses it (one line, exit status 2) for a file that
holds no policy, another player count or an unknown model-zoo name (CONTRACTS.md "CLI";
no game rule)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from ono99.cards import action_code
from ono99.envs.encoding import obs_size
from ono99.envs.policy import MLPPolicy
from ono99.tui.session import resolve_level
from test_play_plain import CODES, ENV, run_play


def fixed_preference(path: Path, players: int, favourite: int) -> Path:
    """A policy that ignores the observation and plays ``favourite`` whenever it is
    legal (a bias on that logit only), else the lowest legal action."""
    n = obs_size(players)
    bias = np.linspace(0.0, -1.0, 18).astype(np.float32)
    bias[favourite] = 10.0
    MLPPolicy(
        [(np.zeros((n, 18), np.float32), bias)], np.ones(n, np.float32),
        {"rules": "mattel2022", "players": players, "obs_size": n},
    ).save(path)  # fmt: skip
    return path


def test_play_against_a_policy_file_plays_its_choices(tmp_path: Path) -> None:
    """A whole plain-mode game against ``policy:FILE``: the game ends, and every move of
    the bot in the record (replayed) is the policy's choice for the bot's view then."""
    from ono99.envs.policy import PolicyBot
    from ono99.records import apply_move, parse_record

    policy = fixed_preference(tmp_path / "p.npz", 2, favourite=0)
    record = tmp_path / "game.json"
    r = run_play("--seed", "5", "--players", "2", "--bots", f"policy:{policy}",
                 "--record", str(record), answers="\n".join(CODES * 300) + "\n")  # fmt: skip
    assert r.returncode == 0, r.stderr
    assert "Game over." in r.stdout and "Traceback" not in r.stderr
    parsed = parse_record(json.loads(record.read_text()))
    game = parsed.new_game()
    bot = PolicyBot(MLPPolicy.load(policy))
    bot_moves = 0
    for i, move in enumerate(parsed.moves):
        seat = game.to_move
        if seat == 1 and len(game.legal_actions()) > 1:
            assert move == action_code(bot.act(game.view(1))), (i, move)
            bot_moves += 1
        apply_move(game, i, move)
    assert game.is_over and bot_moves > 0


def test_resolve_level_takes_parametrised_bots(tmp_path: Path) -> None:
    policy = fixed_preference(tmp_path / "p.npz", 3, favourite=1)
    assert resolve_level(f"policy:{policy}") == (f"policy:{policy}", None)
    assert resolve_level("ismcts:50") == ("ismcts:50", None)
    with pytest.raises(ValueError, match="cannot read the policy file"):
        resolve_level(f"policy:{tmp_path / 'none.npz'}")
    with pytest.raises(ValueError, match="unknown bot level 'nope:1'"):
        resolve_level("nope:1")


@pytest.mark.parametrize(
    ("bots", "players", "message"),
    [
        ("policy:{tmp}/missing.npz", "2", "cannot read the policy file {tmp}/missing.npz"),
        ("policy:{tmp}/junk.npz", "2", "not a whole policy file"),
        ("policy:{tmp}/p3.npz", "2", "this policy was trained for 3 players"),
        ("policy:zoo/no-such-policy", "2", "no policy 'no-such-policy' in the model zoo"),
    ],
)
def test_bad_policy_one_line_exit_2(bots: str, players: str, message: str, tmp_path: Path) -> None:
    (tmp_path / "junk.npz").write_bytes(b"not a policy")
    fixed_preference(tmp_path / "p3.npz", 3, favourite=0)
    r = run_play("--players", players, "--bots", bots.format(tmp=tmp_path), answers="quit\n")
    assert r.returncode == 2, r.stderr
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and message.format(tmp=tmp_path) in lines[0], r.stderr
    assert "Traceback" not in r.stderr


def test_play_help_names_policy_path() -> None:
    p = subprocess.run(
        [sys.executable, "-m", "ono99", "play", "--help"], capture_output=True, text=True,
        env={**ENV, "COLUMNS": "200", "ONO99_LANG": "en"}, timeout=120, check=True,
    )  # fmt: skip
    text = " ".join(p.stdout.split())
    assert "policy:PATH" in text and "ismcts:N" in text and "policy:zoo/NAME" in text
