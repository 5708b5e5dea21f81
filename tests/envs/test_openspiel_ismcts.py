"""OpenSpiel's own ISMCTS plays python_ono99 (issue 25): ``resample_from_infostate``
gives states the player cannot tell apart from the real one."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts, mcts

import ono99.envs.openspiel  # noqa: F401  (registers python_ono99)

SPECS = [
    "python_ono99(players=2,rules=mattel2022)",
    "python_ono99(players=3,rules=classic1980)",
    "python_ono99(players=4,rules=gamerules,draw_penalty=true)",
]


def dealt(game: pyspiel.Game, rng: np.random.Generator) -> pyspiel.State:
    """A new state with its seed's chance nodes played from ``rng``."""
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(int(rng.integers(256)))
    return state


@pytest.mark.parametrize("spec", SPECS)
def test_resampled_states_keep_the_information_state(spec: str) -> None:
    """R-SET-1: a resampled state has the player's information state, legal actions and
    hand; the others' hidden cards are dealt again from the same unseen cards."""
    game = pyspiel.load_game(spec)
    rng = np.random.default_rng(0)
    state = dealt(game, rng)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    for _ in range(30):
        if state.is_terminal():
            break
        p = state.current_player()
        real = state.engine
        hidden = Counter(c for s in range(real.n) if s != p for c in real.hands[s])
        hidden.update(real.draw_pile)
        differs = False
        for _k in range(5):
            other = state.resample_from_infostate(p, sampler)
            assert other.information_state_string(p) == state.information_state_string(p)
            assert np.array_equal(
                other.information_state_tensor(p), state.information_state_tensor(p)
            )
            assert other.legal_actions() == state.legal_actions()
            assert other.history() == []  # a search world: no seed deals it
            w = other.engine
            again = Counter(c for s in range(w.n) if s != p for c in w.hands[s])
            again.update(w.draw_pile)
            assert again == hidden
            differs |= any(
                sorted(w.hands[s]) != sorted(real.hands[s]) for s in range(w.n) if s != p
            )
        assert differs or sum(hidden.values()) <= 1
        state.apply_action(int(rng.choice(state.legal_actions())))


@pytest.mark.parametrize("spec", SPECS)
def test_openspiels_ismcts_bot_plays(spec: str) -> None:
    """OpenSpiel's ISMCTS bot makes legal moves in every preset: a whole game in
    mattel2022, its first 6 decisions in the long multi-round presets (each rollout plays a
    whole multi-round game) (the rest is
    random play to the end)."""
    game = pyspiel.load_game(spec)
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(0))
    bot = ismcts.ISMCTSBot(game, evaluator, 1.0, 10, random_state=np.random.RandomState(1))
    state = dealt(game, np.random.default_rng(2))
    budget = None if "mattel2022" in spec else 6
    while not state.is_terminal():
        legal = state.legal_actions()
        searched = state.current_player() == 0 and (budget is None or budget > 0)
        action = bot.step(state) if searched else legal[0]
        if searched and budget is not None:
            budget -= 1
        assert action in legal
        state.apply_action(action)
    assert budget in (None, 0)
    assert abs(sum(state.returns())) < 1e-9
