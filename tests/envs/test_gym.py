"""The Gymnasium environment: one learner against bots (CONTRACTS.md "Python")."""

from __future__ import annotations

import random

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from hypothesis import given
from hypothesis import strategies as st

from ono99.cards import DRAW
from ono99.envs import GymEnv
from ono99.errors import IllegalAction, Ono99Error
from ono99.records import state_json


@pytest.mark.parametrize(
    "kwargs",
    [
        {"rules": "mattel2022", "players": 3},
        {"rules": "classic1980", "players": 3, "opponents": "random,greedy", "draw_penalty": True},
        {"rules": "classic1980", "players": 2, "scoring": "points", "seat": 1},
    ],
)
def test_gymnasium_check_env(kwargs: dict) -> None:
    """Gymnasium's own checker (R-SET-1 seeding, R-DRAW-1 draws at once)."""
    check_env(GymEnv(**kwargs), skip_render_check=True)


@given(
    st.sampled_from(
        [
            ("mattel2022", {}, 3, "random"),
            ("classic1980", {"draw_penalty": True}, 3, "greedy,random"),
            ("classic1980", {"scoring": "points", "points_mode": "lowest"}, 3, "heuristic"),
            ("gamerules", {}, 2, "random"),
        ]
    ),
    st.integers(0, 2**32),
    st.integers(0, 2),
)
def test_games_against_bots_end_with_the_learners_share(
    config: tuple, seed: int, seat: int
) -> None:
    """The mask is the engine's legal actions for the learner (never DRAW: R-DRAW-1),
    the reward is 0 until the end (R-END-4), then the learner's share (R-END-1..3)."""
    rules, options, n, opponents = config
    seat %= n
    env = GymEnv(rules, n, opponents, seat=seat, **options)
    obs, info = env.reset(seed=seed)
    rng = random.Random(seed)
    game = env.game
    done, reward = False, 0.0
    while not done:
        legal = [int(a) for a in info["action_mask"].nonzero()[0]]
        assert np.array_equal(obs["action_mask"], info["action_mask"])
        assert legal == list(game.legal_actions(seat)) and DRAW not in legal
        assert game.to_move == seat
        obs, reward, done, truncated, info = env.step(rng.choice(legal))
        assert not truncated
        if not done:
            assert reward == 0.0
    assert game.is_over
    winners = game.winner if isinstance(game.winner, list) else [game.winner]
    if len(winners) == n:
        assert reward == 0.0
    elif seat in winners:
        assert reward == pytest.approx(1 / len(winners))
    else:
        assert reward == pytest.approx(-1 / (n - len(winners)))


def test_seeded_resets_reproduce_bots_included() -> None:
    """R-SET-1: reset(seed) then reset() replays the same deals and bot moves."""
    runs = []
    for _ in range(2):
        env = GymEnv("mattel2022", 3, "random")
        moves = []
        for s in (7, None):
            env.reset(seed=s)
            while not env.step(int(env.game.legal_actions(0)[0]))[2]:
                pass
            moves.append(list(env.game.moves))
        runs.append(moves)
    assert runs[0] == runs[1]


def test_illegal_action_loses_or_raises_and_changes_nothing() -> None:
    """R-LIM-2, R-99-1: an illegal action changes nothing in the game; by default it
    ends the episode with -1, with illegal="raise" it raises one line."""
    env = GymEnv("mattel2022", 2, "random")
    _, info = env.reset(seed=2)
    before = state_json(env.game)
    bad = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _, reward, done, _, info = env.step(bad)
    assert (reward, done) == (-1.0, True) and "\n" not in info["illegal_action"]
    assert state_json(env.game) == before
    with pytest.raises(IllegalAction):
        env.step(int(env.game.legal_actions(0)[0]))  # the episode is over
    strict = GymEnv("mattel2022", 2, "random", illegal="raise")
    strict.reset(seed=2)
    with pytest.raises(IllegalAction) as err:
        strict.step(bad)
    assert "\n" not in str(err.value)
    assert state_json(strict.game) == before


def test_opponents_get_views_not_the_game() -> None:
    """R-SET-1: a bot is handed a PlayerView of its own seat, never the game."""
    from ono99.view import PlayerView

    env = GymEnv("mattel2022", 3, "random", seat=1)
    seen = []
    env.reset(seed=4)
    for seat, bot in env.bots.items():
        act = bot.act

        def spy(view: object, act=act, seat=seat) -> int:  # type: ignore[no-untyped-def]
            assert isinstance(view, PlayerView) and view.seat == seat
            seen.append(seat)
            return act(view)

        bot.act = spy  # type: ignore[method-assign]
    while not env.step(int(env.game.legal_actions(1)[0]))[2]:
        pass
    assert set(seen) <= {0, 2} and seen


def test_bad_arguments_are_one_line_errors() -> None:
    """R-SET-5, R-SET-6: bad players, presets, options, seats and bots are refused."""
    for kwargs in [
        {"players": 9},
        {"rules": "nope"},
        {"bogus": 1},
        {"seat": 2},
        {"opponents": "nobot"},
        {"players": 3, "opponents": "random,greedy,heuristic"},
        {"illegal": "ignore"},
    ]:
        with pytest.raises((ValueError, Ono99Error)) as err:
            GymEnv(**kwargs)
        assert "\n" not in str(err.value)
