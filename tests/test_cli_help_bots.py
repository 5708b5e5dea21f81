"""``play --help`` and ``arena --help`` name every bot they take (issue 38), from the
registry (CONTRACTS.md "CLI"; no game rule)."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import ono99.envs.policy  # noqa: F401  (registers policy:PATH, as arena does for such a name)
from ono99.bots import BOTS, LEVELS, PARAM_BOTS


def _help(command: str) -> str:
    env = {**os.environ, "COLUMNS": "200", "ONO99_LANG": "en", "LANG": "C.UTF-8"}
    p = subprocess.run(
        [sys.executable, "-m", "ono99", command, "--help"],
        capture_output=True, text=True, timeout=120, env=env, check=True,
    )  # fmt: skip
    return re.sub(r"\s+", " ", p.stdout)


def test_arena_help_names_every_bot_policy_included() -> None:
    text = _help("arena")
    for name in [*BOTS, *(f"{k}:N" for k in PARAM_BOTS if k != "policy"), "policy:PATH"]:
        assert name in text, name
    assert set(PARAM_BOTS) == {"ismcts", "policy"}  # a new one: add it to the help


def test_play_help_names_every_bot_it_takes() -> None:
    text = _help("play")
    for name in [*LEVELS, *BOTS]:
        assert re.search(rf"\b{re.escape(name)}\b", text), name
