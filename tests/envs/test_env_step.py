"""The environments' side of :class:`ono99.engine.EngineGame` on both engines: ``take_draws``,
``env_step`` and ``observe`` (R-DRAW-1, R-LIM-2, R-SET-1). The environments call only these,
so the reference ``Game`` and the fast ``FastGame`` must answer them alike."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from ono99 import DRAW, Game, IllegalAction, state_json
from ono99.cards import NUM_ACTIONS
from ono99.engine import EngineGame
from ono99.envs.encoding import action_mask, encode, obs_size
from ono99.fast import FastGame

CONFIGS: list[tuple[str, dict[str, Any], int]] = [
    ("mattel2022", {}, 3),
    ("classic1980", {"draw_penalty": True}, 4),
    ("classic1980", {"scoring": "points", "target": 60, "zero_ending_99": True}, 3),
    ("gamerules", {"draw_penalty": True}, 5),
]


def _observed(game: EngineGame, seat: int) -> tuple[np.ndarray, np.ndarray]:
    obs = np.full(obs_size(game.n), np.nan, np.float32)
    mask = np.full(NUM_ACTIONS, 7, np.int8)
    game.observe(seat, obs, mask)
    return obs, mask


@pytest.mark.parametrize(("rules", "options", "players"), CONFIGS)
def test_both_engines_step_observe_and_refuse_alike(
    rules: str, options: dict[str, Any], players: int
) -> None:
    """Seeded alike, at every step of several games: every seat's observation and mask are
    its view's encoding on both engines; every action a seat may not make now (another
    seat's turn, ``DRAW``, a card it cannot play) raises the same one-line reason on both
    and changes nothing; a legal step returns the same next seat (-1 at the end)."""
    rng = random.Random(5)
    for seed in range(3):
        ref = Game(rules, players, options=options, seed=seed, events=False)
        fast = FastGame(rules, players, options=options, seed=seed)
        games: tuple[EngineGame, EngineGame] = (ref, fast)
        for g in games:
            g.take_draws()
        while True:
            assert ref.pending_draw is None and DRAW not in ref.legal_actions()
            for seat in range(players):
                view = ref.view(seat)
                for g in games:
                    obs, mask = _observed(g, seat)
                    np.testing.assert_array_equal(obs, encode(view))
                    np.testing.assert_array_equal(mask, action_mask(view))
            if ref.is_over:
                break
            before = state_json(ref)
            to_move = ref.to_move
            assert to_move is not None
            tries = [(to_move, a) for a in range(NUM_ACTIONS) if a not in ref.legal_actions()]
            tries += [((to_move + 1) % players, ref.legal_actions()[0]), (to_move, DRAW)]
            for seat, action in tries:
                reasons = []
                for g in games:
                    with pytest.raises(IllegalAction) as err:
                        g.env_step(action, seat)
                    reasons.append(str(err.value))
                assert reasons[0] == reasons[1] and "\n" not in reasons[0]
                assert state_json(ref) == before == fast.state_json()
            action = rng.choice(ref.legal_actions())
            assert ref.env_step(action, to_move) == fast.env_step(action, to_move)
            assert state_json(ref) == fast.state_json()
