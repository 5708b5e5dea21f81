"""``python_ono99(rules=mini)``: chance is the cards dealt and drawn, so OpenSpiel's exact
algorithms run on it (CONTRACTS.md "Python"; docs/mini.md)."""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

import pytest

pyspiel = pytest.importorskip("pyspiel")

import ono99.envs.openspiel  # noqa: E402,F401  (registers python_ono99)
from ono99.cards import Card  # noqa: E402
from ono99.envs.openspiel import Ono99State, mini_info_state  # noqa: E402
from ono99.errors import IllegalAction  # noqa: E402

P2, REV = int(Card.PLAY2), int(Card.REVERSE)


def load(players: int = 2) -> Any:
    return pyspiel.load_game("python_ono99", {"rules": "mini", "players": players})


def play(state: Any, actions: list[int]) -> Any:
    for a in actions:
        state.apply_action(a)
    return state


@pytest.mark.parametrize("players", [2, 3])
def test_pyspiel_random_sim_test_with_serialization(players: int) -> None:
    """OpenSpiel's own consistency checks, serialization included (R-END-4: every random
    game ends)."""
    pyspiel.random_sim_test(load(players), num_sims=5, serialize=True, verbose=False)


def test_the_deal_is_one_chance_node_a_card() -> None:
    """R-SET-1: each card dealt is a chance node whose outcomes are the cards left, each as
    likely as its copies; after four cards the hands are the cards dealt, seat 0's first."""
    game = load()
    assert game.max_chance_outcomes() == 16 and game.max_game_length() == 16
    state = game.new_initial_state()
    assert state.is_chance_node()
    outcomes = {a: Fraction(p).limit_denominator(100) for a, p in state.chance_outcomes()}
    assert outcomes == {1: Fraction(1, 4), 2: Fraction(1, 4), 3: Fraction(1, 4),
                        REV: Fraction(1, 8), P2: Fraction(1, 8)}  # fmt: skip
    play(state, [3, 3])
    assert dict(state.chance_outcomes()) == pytest.approx({1: 1 / 3, 2: 1 / 3, REV: 1 / 6,
                                                           P2: 1 / 6})  # fmt: skip
    play(state, [2, P2])
    assert isinstance(state, Ono99State) and state.current_player() == 0
    assert state.dealt().hands == [[3, 3], [2, P2]]


def test_a_play_then_its_draw() -> None:
    """R-TURN-2: a play is followed by a chance node, the card drawn (one outcome per card
    left in the pile); the card goes to the hand of the player who played."""
    state = play(load().new_initial_state(), [3, 3, 2, P2])
    state.apply_action(3)  # seat 0 plays 3
    assert state.is_chance_node() and state.dealt().total == 0  # the play waits for its card
    assert sorted(a for a, _ in state.chance_outcomes()) == [1, 2, REV]
    state.apply_action(REV)
    engine = state.dealt()
    assert engine.total == 3 and sorted(engine.hands[0]) == [3, REV]
    assert state.current_player() == 1
    with pytest.raises(IllegalAction, match="no '3' in hand"):
        state.apply_action(3)  # seat 1 holds no 3: refused, nothing changes
    again = load().deserialize_state(state.serialize())
    assert again.history() == state.history() and str(again) == str(state)


def test_information_states_tell_only_what_the_player_saw() -> None:
    """Hidden information: two deals that differ only in the other player's cards give
    the same information state; the player's own cards and draws are in it."""
    a = play(load().new_initial_state(), [3, 3, 2, P2])
    b = play(load().new_initial_state(), [3, 3, 1, REV])
    assert a.information_state_string(0) == b.information_state_string(0) == "3 3+/0|3 3|"
    play(a, [3, 1])
    assert a.information_state_string(1) == "2 P2+/1|2 P2|3"
    assert mini_info_state(0, (3, 3), (1,), (3, 1), (3,)) == "3 3+1/0|1 3|3"


def test_random_games_match_their_chance_probabilities() -> None:
    """The chance probabilities of a game played to the end multiply to the probability of
    its deal and draws, and returns sum to zero (R-END-1: the last player left wins)."""
    rng = random.Random(4)
    for _ in range(50):
        state = load().new_initial_state()
        prob = 1.0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                assert sum(p for _, p in outcomes) == pytest.approx(1.0)
                a, p = rng.choice(outcomes)
                prob *= p
            else:
                a = rng.choice(state.legal_actions())
            state.apply_action(a)
        assert 0 < prob <= 1 and sum(state.returns()) == 0
        assert sorted(state.returns()) == [-1.0, 1.0]


@pytest.mark.slow
def test_nash_conv_of_the_uniform_policy() -> None:
    """The independent check's computation: OpenSpiel's exact NashConv of the uniform
    policy on the whole tree (minutes: a slow test; docs/mini.md gives its value)."""
    from open_spiel.python import policy
    from open_spiel.python.algorithms import exploitability

    game = load()
    value = exploitability.nash_conv(game, policy.UniformRandomPolicy(game))
    assert value == pytest.approx(79 / 90)  # 0.87777...
