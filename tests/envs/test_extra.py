"""Without the ``rl`` extra the base package imports and the environments give a
one-line hint (CONTRACTS.md "Install and run")."""

from __future__ import annotations

import subprocess
import sys

import pytest

SCRIPT = """
import sys
sys.modules[{blocked!r}] = None  # as if it were not installed
import ono99, ono99.envs
from ono99 import Game
Game("mattel2022", 2, seed=1)
try:
    {statement}
except ImportError as e:
    print(type(e).__name__, "|", e)
"""


@pytest.mark.parametrize(
    ("blocked", "statement"),
    [
        ("pettingzoo", "ono99.envs.aec_env"),
        ("gymnasium", "from ono99.envs import GymEnv"),
        ("pyspiel", "import ono99.envs.openspiel"),
        ("numpy", "import ono99.envs.encoding"),
    ],
)
def test_missing_extra_gives_the_hint(blocked: str, statement: str) -> None:
    """Packaging, no game rule: one line naming the install command."""
    code = SCRIPT.format(blocked=blocked, statement=statement)
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True
    ).stdout.strip()
    assert out.startswith("MissingExtra |"), out
    assert out.endswith("pip install 'ono99[rl]'") and "\n" not in out
    assert blocked in out
