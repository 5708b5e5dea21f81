"""The OpenSpiel game ``python_ono99`` (CONTRACTS.md "Python")."""

from __future__ import annotations

import random

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

import ono99.envs.openspiel  # noqa: E402,F401  (registers python_ono99)
from ono99 import Game  # noqa: E402
from ono99.envs.openspiel import Ono99State  # noqa: E402


def test_registered_and_typed() -> None:
    """Imperfect information, sequential, sampled chance, zero-sum, terminal rewards."""
    assert "python_ono99" in pyspiel.registered_names()
    game = pyspiel.load_game("python_ono99(players=3,rules=classic1980)")
    t = game.get_type()
    assert t.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert t.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert t.chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
    assert t.utility == pyspiel.GameType.Utility.ZERO_SUM
    assert game.num_players() == 3 and game.num_distinct_actions() == 18


def test_pyspiel_random_sim_test() -> None:
    """OpenSpiel's own consistency test (clone, strings, tensors, returns)."""
    game = pyspiel.load_game("python_ono99(players=2,rules=mattel2022)")
    pyspiel.random_sim_test(game, num_sims=3, serialize=False, verbose=False)


@pytest.mark.parametrize(
    "spec",
    [
        "python_ono99(players=3,rules=classic1980)",
        "python_ono99(players=4,rules=gamerules,rng_seed=3)",
        "python_ono99(players=6,rules=mattel2022,rng_seed=4)",
    ],
)
def test_random_play_reaches_terminal_states(spec: str) -> None:
    """Every game ends (R-END-4) with returns summing to 0: winners +1 split, losers
    -1 split (R-END-1..3); the legal actions are the engine's (R-LIM-2)."""
    game = pyspiel.load_game(spec)
    rng = random.Random(spec)
    for _ in range(3):
        state = game.new_initial_state()
        while not state.is_terminal():
            player = state.current_player()
            legal = state.legal_actions()
            assert legal == list(state.engine.legal_actions(player))
            state.apply_action(rng.choice(legal))
        returns = state.returns()
        assert sum(returns) == pytest.approx(0.0)
        winner = state.engine.winner
        winners = winner if isinstance(winner, list) else [winner]
        assert all(returns[s] > 0 for s in winners)


def test_rng_seed_reproduces_and_clone_is_independent() -> None:
    """R-SET-1: the same rng_seed deals the same games; a clone plays on alone."""
    spec = "python_ono99(players=3,rules=mattel2022,rng_seed=9)"
    a, b = pyspiel.load_game(spec), pyspiel.load_game(spec)
    sa, sb = a.new_initial_state(), b.new_initial_state()
    assert str(sa) == str(sb)
    clone = sa.clone()
    clone.apply_action(clone.legal_actions()[0])
    assert sa.move_number() == 0 and clone.move_number() == 1
    assert str(sa) == str(sb)


def test_observations_depend_on_the_view_only() -> None:
    """R-SET-1: the observation tensor and string of a player do not change when the
    other hands and the draw pile are dealt differently."""
    game = pyspiel.load_game("python_ono99(players=3,rules=mattel2022,rng_seed=2)")
    state = game.new_initial_state()
    for _ in range(10):
        state.apply_action(state.legal_actions()[-1])
    engine = state.engine
    for seat in range(3):
        view = engine.view(seat)
        rng = random.Random(seat)
        pool = [c for s in range(3) if s != seat for c in engine.hands[s]] + engine.draw_pile
        rng.shuffle(pool)
        hands = [list(h) for h in engine.hands]
        for s in range(3):
            if s != seat:
                hands[s], pool = pool[: len(hands[s])], pool[len(hands[s]) :]
        other = state.clone()
        assert isinstance(other, Ono99State)
        other._box.engine = Game.world(view, hands, pool, 1)
        assert other._box.engine.hands != engine.hands
        assert np.array_equal(other.observation_tensor(seat), state.observation_tensor(seat))
        assert np.array_equal(
            other.information_state_tensor(seat), state.information_state_tensor(seat)
        )
        assert other.observation_string(seat) == state.observation_string(seat)


def test_bad_parameters_are_one_line_errors() -> None:
    """R-SET-5: a player count or preset the rules do not allow is refused."""
    for spec in ["python_ono99(players=9)", "python_ono99(rules=nope)"]:
        with pytest.raises(ValueError) as err:
            pyspiel.load_game(spec)
        assert "\n" not in str(err.value)


def test_preset_options_are_parameters() -> None:
    """R-SET-6: the preset's options are game parameters; left out they are the preset's
    defaults. A points game with the draw penalty (R-END-3, R-DRAW-1) plays to its end
    with the engine's rules, and its returns sum to 0."""
    plain = pyspiel.load_game("python_ono99(players=3,rules=classic1980)")
    assert plain.rules.options["scoring"] == "tokens" and not plain.rules.draw_penalty
    game = pyspiel.load_game(
        "python_ono99(players=3,rules=classic1980,scoring=points,target=60,"
        "points_mode=lowest,draw_penalty=true,zero_ending_99=true,rng_seed=5)"
    )
    assert game.rules.options == {
        "scoring": "points", "target": 60, "points_mode": "lowest",
        "zero_ending_99": True, "draw_penalty": True,
    }  # fmt: skip
    rng = random.Random(5)
    state = game.new_initial_state()
    while not state.is_terminal():
        assert state.engine.rules is game.rules
        state.apply_action(rng.choice(state.legal_actions()))
    assert state.engine.scores is not None and max(state.engine.scores) >= 60
    assert sum(state.returns()) == pytest.approx(0.0)


@pytest.mark.parametrize(
    "spec",
    [
        "python_ono99(rules=mattel2022,scoring=points)",
        "python_ono99(rules=classic1980,target=60)",
        "python_ono99(rules=classic1980,scoring=bogus)",
        "python_ono99(rules=gamerules,zero_ending_99=true)",
        "python_ono99(rules=classic1980,scoring=points,target=-3)",
    ],
)
def test_bad_options_are_one_line_errors(spec: str) -> None:
    """R-SET-6: an option the preset does not take, or a bad value, is refused."""
    with pytest.raises(ValueError) as err:
        pyspiel.load_game(spec)
    assert "\n" not in str(err.value)
