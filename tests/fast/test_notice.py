"""The first use of the fast engine says it is compiling, once, on a terminal (issue 38;
no game rule)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = """
import numba
import ono99.fast.notice as n
n.TTY_ONLY = {tty_only}
from ono99.fast.notice import announce_first_call

class Kernels:
    @announce_first_call
    def work(self, k):
        @numba.njit  # a new function: Numba compiles it (a 'numba:compile' event)
        def add(x):
            return x + k
        return add(1)

s = Kernels()
print([s.work(k) for k in range(3)], "wrapped" if hasattr(Kernels.work, "__wrapped__") else "plain")
"""


def _run(code: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=600,
        env={**os.environ, "LANGUAGE": "en", **env}, check=True,
    )  # fmt: skip


def test_a_compiling_first_call_says_so_once_then_costs_nothing() -> None:
    p = _run(SCRIPT.format(tty_only=False))
    assert p.stdout.split() == ["[1,", "2,", "3]", "plain"]  # the wrapper left the class
    assert p.stderr.count("Compiling the fast engine") == 1, p.stderr
    assert p.stderr.strip() == (
        "Compiling the fast engine (first use on this machine, about a minute)…"
    )


def test_not_on_a_terminal_it_says_nothing() -> None:
    """A script's stderr (here a pipe) keeps its one-line errors."""
    p = _run(SCRIPT.format(tty_only=True))
    assert p.stdout.split()[-1] == "plain"
    assert p.stderr == ""


@pytest.mark.slow
def test_the_first_fast_game_on_a_machine_without_the_cache_says_it_compiles(
    tmp_path: Path,
) -> None:
    """A real first use: Numba's cache sent to an empty folder, so the engine compiles."""
    code = (
        "import ono99.fast.notice as n\nn.TTY_ONLY = False\n"
        "from ono99.fast import FastGame\nFastGame('mattel2022', 2, seed=1)\n"
    )
    p = _run(code, NUMBA_CACHE_DIR=str(tmp_path))
    assert p.stderr.count("Compiling the fast engine") == 1, p.stderr
