"""The OpenSpiel playthrough of ``python_ono99`` (``tests/envs/playthroughs/``), checked the
way OpenSpiel checks its own games' (``open_spiel/python/tests/playthrough_test.py``):
the file's actions are played again and every line must come out the same. A change to
the rules (R-SET-1 deal, R-TURN, R-LIM, R-END), the observations or the strings shows up
as a changed line. To regenerate it after a deliberate change (the same actions), run
docs/envs.md's command (OpenSpiel's ``update_path``).
"""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("pyspiel")
flags = pytest.importorskip("absl.flags")

from open_spiel.python.algorithms import generate_playthrough  # noqa: E402

import ono99.envs.openspiel  # noqa: E402,F401  (registers python_ono99)

FILES = sorted((Path(__file__).parent / "playthroughs").glob("*.txt"))


@pytest.fixture(autouse=True)
def _flags_parsed() -> None:
    # generate_playthrough reads an absl flag; outside absltest nobody parses them
    if not flags.FLAGS.is_parsed():
        flags.FLAGS.mark_as_parsed()


def test_there_is_a_playthrough() -> None:
    """The default game has a committed playthrough, a whole game to its end."""
    assert [f.name for f in FILES] == ["python_ono99.txt"]
    text = FILES[0].read_text(encoding="utf-8")
    assert "IsTerminal() = True" in text and "ChanceMode.EXPLICIT_STOCHASTIC" in text


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_playthrough_replays_exactly(path: Path) -> None:
    """Every state of the recorded game, rebuilt from its actions (16 seed bytes, then the
    plays), prints exactly as recorded: history, strings, tensors, legal actions, returns."""
    original, again = generate_playthrough.replay(str(path))
    assert again.splitlines() == original.splitlines()
