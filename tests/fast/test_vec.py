"""The batched fast simulator (``ono99.fast.vec.FastVecEnv``) against the reference engine
and the environments' encoding: every slot's observation, mask, seat to move and rewards
equal ``encode(game.view(to_move))``, ``action_mask``, ``to_move`` and ``outcome`` of a
reference ``Game`` dealt from the slot's seed and given the same actions (R-SET-1,
R-DRAW-1, R-END-1, R-END-2, R-END-3, R-REC)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from ono99 import Game, IllegalAction
from ono99.envs.encoding import action_mask, encode, obs_size, outcome
from ono99.fast.vec import OBS_PER_SEAT, OBS_SEATS_AT, FastVecEnv

SETTINGS: list[tuple[str, int, dict[str, Any]]] = [
    ("mattel2022", 2, {}),
    ("mattel2022", 5, {}),
    ("classic1980", 3, {}),
    ("classic1980", 4, {"zero_ending_99": True, "draw_penalty": True}),
    ("classic1980", 3, {"scoring": "points", "target": 60}),
    ("classic1980", 4, {"scoring": "points", "points_mode": "lowest", "draw_penalty": True}),
    ("gamerules", 6, {"draw_penalty": True}),
]


def reference(preset: str, n: int, options: dict[str, Any], seed: int) -> Game:
    g = Game(preset, n, options=options, seed=seed, events=False)
    g.take_draws()
    return g


@pytest.mark.parametrize(
    ("preset", "n", "options"), SETTINGS, ids=[f"{p}-{n}-{o}" for p, n, o in SETTINGS]
)
def test_every_step_matches_the_reference_and_the_encoding(
    preset: str, n: int, options: dict[str, Any]
) -> None:
    """Slot by slot, step by step, through several whole games per slot (a game that
    ends is replaced at once by the next seed's): the same observation, mask, seat to
    move, rewards and seeds as the reference engine with the environments' encoding."""
    batch, base = 6, 2**64 - 3  # the seeds cross a word of the key (a carry)
    env = FastVecEnv(preset, players=n, batch=batch, seed=base, **options)
    step = env.reset()
    games = [reference(preset, n, options, base + b) for b in range(batch)]
    assert env.game_seeds() == [base + b for b in range(batch)]
    rng = np.random.default_rng(1)
    finished = 0
    for _ in range(400 if preset != "classic1980" else 1500):
        for b, g in enumerate(games):
            seat = g.to_move
            assert seat is not None and step.player[b] == seat
            view = g.view(seat)
            np.testing.assert_array_equal(step.obs[b], encode(view))
            np.testing.assert_array_equal(step.mask[b], action_mask(view))
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in step.mask])
        step = env.step(actions)
        for b, g in enumerate(games):
            g.apply(int(actions[b]))
            g.take_draws()
            assert step.done[b] == g.is_over
            if g.is_over:
                assert step.rewards[b].tolist() == pytest.approx(outcome(g))
                finished += 1
                games[b] = reference(preset, n, options, env.game_seeds()[b])
            else:
                assert not step.rewards[b].any()
    assert finished >= batch
    assert sorted(env.game_seeds()) == sorted(set(env.game_seeds()))  # no seed dealt twice
    assert max(env.game_seeds()) < base + batch + finished


def test_shapes_layout_and_seeding() -> None:
    """The observation has the environments' size and layout; a seed repeats the run,
    no seed takes a fresh unguessable one (R-SET-1)."""
    env = FastVecEnv("classic1980", players=4, batch=3, seed=5)
    first = env.reset()
    assert first.obs.shape == (3, obs_size(4)) == (3, OBS_SEATS_AT + OBS_PER_SEAT * 4)
    assert first.obs.dtype == np.float32 and first.mask.dtype == np.int8
    assert first.rewards.shape == (3, 4) and first.done.dtype == np.bool_
    again = FastVecEnv("classic1980", players=4, batch=3).reset(seed=5)
    np.testing.assert_array_equal(first.obs, again.obs)
    fresh = [FastVecEnv("classic1980", players=4, batch=3) for _ in range(2)]
    seeds = [e.reset() and e.seed for e in fresh]
    assert seeds[0] != seeds[1] and min(seeds) > 2**64  # 128-bit secrets seeds
    # reset() again without a seed: new games, not the same ones
    env.reset()
    assert env.seed != 5


def test_bad_actions_raise_one_line_and_change_nothing() -> None:
    """R-TURN-1, R-LIM-2: an illegal action in any slot raises the engine's reason naming
    the slot, and no slot moves; bad shapes and types are refused too."""
    env = FastVecEnv("mattel2022", players=3, batch=4, seed=9)
    with pytest.raises(IllegalAction, match="reset"):
        env.step(np.zeros(4, np.int64))
    step = env.reset()
    actions = step.mask.argmax(axis=1)
    illegal = int(np.flatnonzero(step.mask[2] == 0)[0])
    actions[2] = illegal
    before = env._states.copy()
    with pytest.raises(IllegalAction, match=r"^game 2: .*\(R-") as e:
        env.step(actions)
    assert "\n" not in str(e.value)
    np.testing.assert_array_equal(env._states, before)
    for bad in ([0, 1], np.zeros(4), np.full(4, 17), np.full(4, -1), "abc"):
        with pytest.raises(IllegalAction):
            env.step(bad)
    np.testing.assert_array_equal(env._states, before)
    with pytest.raises(ValueError, match="batch"):
        FastVecEnv(batch=0)
    with pytest.raises(ValueError, match="2 to 6 players"):
        FastVecEnv(players=7)
    with pytest.raises(ValueError, match="option"):
        FastVecEnv("mattel2022", players=2, scoring="points")
