"""``benchmarks/mini_solve.py``'s exact best response and CFR+ on arrays, for any number of
players (docs/mini.md "One size up"), checked against OpenSpiel's Python ``nash_conv`` on
Kuhn poker (small enough to be fast; the arrays know nothing of the game they walk)."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")
from open_spiel.python import policy as os_policy  # noqa: E402
from open_spiel.python.algorithms import exploitability  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
from mini_solve import Arrays, ArraysN, TablePolicy, build_tree  # noqa: E402


def as_policy(game: object, arr: Arrays, sigma: np.ndarray) -> TablePolicy:
    table = {
        info: {a: float(sigma[arr.offset[k] + j]) for j, a in enumerate(arr.actions[k])}
        for k, info in enumerate(arr.infos)
    }
    return TablePolicy(game, table, by_view=False)


@pytest.mark.parametrize("players", [2, 3])
def test_uniform_nash_conv_is_openspiels(players: int) -> None:
    game = pyspiel.load_game("kuhn_poker", {"players": players})
    arr = ArraysN(build_tree(game))
    assert arr.players == players
    uniform = arr.normalize(np.zeros(arr.n_ia))
    expected = exploitability.nash_conv(game, os_policy.UniformRandomPolicy(game))
    assert arr.nash_conv_n(uniform) == pytest.approx(expected, abs=1e-9)
    if players == 2:  # the two-player arrays give the same
        assert Arrays(build_tree(game)).nash_conv(uniform) == pytest.approx(expected, abs=1e-9)


@pytest.mark.parametrize("players", [2, 3])
def test_cfr_plus_policies_are_measured_as_openspiel_measures_them(players: int) -> None:
    """A policy far from uniform (CFR+'s average): the exact best response of every player
    on the arrays gives OpenSpiel's NashConv; with 2 players CFR+ nears the equilibrium."""
    game = pyspiel.load_game("kuhn_poker", {"players": players})
    arr = ArraysN(build_tree(game))
    sigma, curve = arr.cfr_plus(200, 100)
    expected = exploitability.nash_conv(game, as_policy(game, arr, sigma))
    assert curve[-1][1] == pytest.approx(expected, abs=1e-9)
    uniform = exploitability.nash_conv(game, os_policy.UniformRandomPolicy(game))
    assert expected < uniform / 5
    if players == 2:
        assert expected < 0.01
