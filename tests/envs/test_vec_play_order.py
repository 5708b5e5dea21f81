"""The observation option ``play_order=K`` of the batched simulators (``FastVecEnv``,
``OpponentVecEnv``): every row's observation is the plain one followed by the last ``K``
cards of the discard pile, most recent first, one-hot: what ``ono99.envs.policy.observe``
reads from the view for a policy file with ``"play_order": K`` (R-SET-1: every card of
the pile was played face up; R-TURN-3 and R-END-2 empty it)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from ono99 import Game
from ono99.envs.encoding import NUM_CARDS, action_mask, obs_size
from ono99.envs.fast_vec import Ono99VectorEnv, OpponentVecEnv
from ono99.envs.policy import observe
from ono99.fast.vec import FastVecEnv, random_legal


@pytest.mark.parametrize(("rules", "n", "order"), [("mattel2022", 2, 8), ("classic1980", 3, 3)])
def test_fast_vec_play_order_is_what_the_policy_bot_reads(rules: str, n: int, order: int) -> None:
    """Row by row, step by step, through several games per row: the
    observation is ``observe(view, {"play_order": K})`` of the reference game."""
    batch, seed = 4, 70
    env = FastVecEnv(rules, n, batch, seed=seed, play_order=order)
    assert env.observation_size == obs_size(n) + NUM_CARDS * order
    step = env.reset()
    games = [Game(rules, n, seed=seed + b) for b in range(batch)]
    for g in games:
        g.take_draws()
    rng = np.random.default_rng(3)
    finished = 0
    meta = {"play_order": order}
    for _ in range(400):
        for b, g in enumerate(games):
            seat = g.to_move
            assert seat is not None and step.player[b] == seat
            np.testing.assert_array_equal(step.obs[b], observe(g.view(seat), meta))
            np.testing.assert_array_equal(step.mask[b], action_mask(g.view(seat)))
        actions = random_legal(step.mask, rng)
        step = env.step(actions)
        for b, g in enumerate(games):
            g.apply(int(actions[b]))
            g.take_draws()
            assert bool(step.done[b]) == g.is_over
            if g.is_over:
                finished += 1
                games[b] = g = Game(rules, n, seed=env.game_seeds()[b])
                g.take_draws()
    assert finished >= batch


def _tail(discard: list[int], order: int) -> np.ndarray:
    out = np.zeros((order, NUM_CARDS), np.float32)
    for i, card in enumerate(reversed(discard[-order:])):
        out[i, card] = 1.0
    return out.ravel()


def test_opponent_vec_play_order_in_learner_and_policy_rows() -> None:
    """With a policy in the other seat (a callable), both the learner's rows and the
    rows the policy is asked about end with the play order of their game's pile."""
    order, batch = 5, 6
    checked: list[int] = []
    env: OpponentVecEnv

    def opponent(obs: Any, mask: Any) -> Any:
        rows = np.flatnonzero(env._player != env.seat)
        for i, b in enumerate(rows):
            want = _tail(env.game(int(b)).discard, order)
            np.testing.assert_array_equal(obs[i, obs_size(2) :], want)
        checked.append(len(rows))
        return random_legal(mask, np.random.default_rng(len(checked)))

    env = OpponentVecEnv(
        "mattel2022", 2, batch, opponents=opponent, seat=1, seed=9, play_order=order
    )
    step = env.reset()
    rng = np.random.default_rng(4)
    for _ in range(200):
        for b in range(batch):
            np.testing.assert_array_equal(
                step.obs[b, obs_size(2) :], _tail(env.game(b).discard, order)
            )
        step = env.step(random_legal(step.mask, rng))
    assert sum(checked) > batch


def test_play_order_is_checked() -> None:
    """A bad ``play_order``, or one with ``history``, is a one-line ValueError."""
    for bad in (-1, 1.5, True):
        with pytest.raises(ValueError, match="play_order must be"):
            FastVecEnv("mattel2022", 2, 2, play_order=bad)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="together"):
        FastVecEnv("mattel2022", 2, 2, history=True, play_order=2)
    with pytest.raises(ValueError, match="play_order"):
        Ono99VectorEnv("mattel2022", 2, 2, play_order=2)
