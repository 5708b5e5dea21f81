"""The observation vector is a function of one seat's view only (R-SET-1)."""

from __future__ import annotations

import random

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from ono99 import Game
from ono99.cards import DRAW
from ono99.envs.aec import Ono99AEC
from ono99.envs.encoding import (
    action_mask,
    bounds,
    encode,
    field_names,
    obs_size,
    outcome,
)

CONFIGS = [
    ("mattel2022", {}, 3),
    ("classic1980", {}, 4),
    ("classic1980", {"draw_penalty": True}, 3),
    ("classic1980", {"scoring": "points"}, 3),
    ("classic1980", {"scoring": "points", "points_mode": "lowest"}, 2),
    ("gamerules", {"draw_penalty": True}, 5),
]


def _play(game: Game, rng: random.Random, steps: int) -> None:
    for _ in range(steps):
        game.take_draws()
        if game.is_over:
            return
        game.apply(rng.choice(game.legal_actions(game.to_move)))
    game.take_draws()


def other_world(game: Game, seat: int, rng: random.Random) -> Game:
    """A game with ``game``'s public state and ``seat``'s hand, whose other hidden
    cards (the other live hands and the draw pile) are dealt again at random."""
    view = game.view(seat)
    hidden = [s for s in range(game.n) if s != seat and not view.laid_down[s]]
    pool = [c for s in hidden for c in game.hands[s]] + list(game.draw_pile)
    rng.shuffle(pool)
    hands = [list(h) for h in game.hands]
    for s in hidden:
        k = len(hands[s])
        hands[s], pool = pool[:k], pool[k:]
    return Game.world(view, hands, pool, rng.getrandbits(32))


def test_field_names_cover_the_vector() -> None:
    for n in (2, 5, 8):
        names = field_names(n)
        assert len(names) == obs_size(n) == len(set(names))


@given(st.sampled_from(CONFIGS), st.integers(0, 2**32), st.integers(0, 80))
def test_observation_depends_on_the_view_only(config: tuple, seed: int, steps: int) -> None:
    """R-SET-1: two worlds with the same public view and the same own hand, but the
    other hands and the draw pile dealt differently, give the same observation and
    mask — in the encoder and in the AEC environment."""
    rules, options, n = config
    game = Game(rules, n, options=options, seed=seed)
    _play(game, random.Random(seed), steps)
    for seat in range(n):
        view = game.view(seat)
        obs, mask = encode(view), action_mask(view)
        env = Ono99AEC(rules, n, **options)
        for k in range(2):
            world = other_world(game, seat, random.Random(seed + k))
            assert world.view(seat).hand == view.hand
            assert np.array_equal(encode(world.view(seat)), obs)
            assert np.array_equal(action_mask(world.view(seat)), mask)
            env.game = world
            seen = env.observe(f"player_{seat}")
            assert np.array_equal(seen["observation"], obs)
            assert np.array_equal(seen["action_mask"], mask)


def test_worlds_really_differ() -> None:
    """The hidden-information test above is not vacuous: sampled worlds move the
    other hands (R-SET-1)."""
    game = Game("mattel2022", 4, seed=11)
    worlds = [other_world(game, 0, random.Random(k)) for k in range(5)]
    assert len({tuple(map(tuple, w.hands[1:])) for w in worlds}) > 1


@given(st.sampled_from(CONFIGS), st.integers(0, 2**32))
def test_whole_games_stay_in_bounds_and_masks_match(config: tuple, seed: int) -> None:
    """Every observation lies in the declared bounds, and the mask is exactly the
    engine's legal actions; pending draws are taken at once, so DRAW is never in a
    mask (R-DRAW-1, R-LIM-2). Every game ends with its winners rewarded (R-END-4)."""
    rules, options, n = config
    game = Game(rules, n, options=options, seed=seed, events=False)
    low, high = bounds(game.rules, n)
    rng = random.Random(seed)
    while True:
        game.take_draws()
        for seat in range(n):
            view = game.view(seat)
            obs = encode(view)
            assert (obs >= low).all() and (obs <= high).all()
            assert [int(a) for a in action_mask(view).nonzero()[0]] == list(
                game.legal_actions(seat)
            )
        if game.is_over:
            break
        assert game.pending_draw is None
        assert list(game.acting()) == [game.to_move]
        assert DRAW not in game.legal_actions(game.to_move)
        game.apply(rng.choice(game.legal_actions(game.to_move)))
    rewards = outcome(game)
    assert abs(sum(rewards)) < 1e-9
    winners = game.winner if isinstance(game.winner, list) else [game.winner]
    for seat in range(n):
        assert (rewards[seat] > 0) == (seat in winners) or len(winners) == n


def test_outcome_shares_a_win() -> None:
    """R-END-3: a shared win is a fraction of a win; the losers share -1."""
    game = Game("classic1980", 4, seed=1)
    game._winner = [0, 2]  # a finished game's result, set by hand for the arithmetic
    assert outcome(game) == [0.5, -0.5, 0.5, -0.5]
    game._winner = [0, 1, 2, 3]
    assert outcome(game) == [0.0] * 4
