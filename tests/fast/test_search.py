"""The compiled searches (``ono99.bots.fast_tree``: the tree with greedy rollouts;
``ono99.bots.fast_flat``: heuristic rollouts on worlds read from the plays) make the Python
search's choices and leave its random generator (and hand tracker) where the Python search
leaves them, so the levels and the strength table's rows are one bot either way (R-LIM-2,
R-P2-1, R-P2-3, R-99-3, R-END-1, R-END-2, R-END-3, R-DRAW-1: the rules the rollout policies
and the rewards read)."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import ono99.bots.compiled as compiled
import ono99.bots.greedy as greedy
import ono99.bots.ismcts as ismcts
from ono99 import DRAW, Game
from ono99.arena import make_spec
from ono99.arena.tournament import play_game
from ono99.bots import fast_flat, make_bot
from ono99.bots import fast_rollout as fr
from ono99.bots import fast_tree as ft
from ono99.bots.common import forced_move
from ono99.bots.heuristic import HeuristicBot

SETTINGS: list[tuple[str, dict[str, Any], int]] = [
    ("classic1980", {"scoring": "points"}, 3),
    ("classic1980", {"scoring": "points", "points_mode": "lowest", "target": 60}, 4),
    ("classic1980", {}, 3),
    ("classic1980", {"zero_ending_99": True, "draw_penalty": True}, 4),
    ("mattel2022", {}, 3),
    ("mattel2022", {}, 2),
    ("gamerules", {}, 5),
]

#: ISMCTSBot options: hard's defaults (few worlds), random rollouts, whole rollouts
CONFIGS: list[dict[str, Any]] = [
    {"iterations": 30},
    {"iterations": 20, "rollout": "random"},
    {"iterations": 15, "horizon": 0, "z": 0.5, "c": 1.1},
]


@pytest.fixture(autouse=True)
def _compiled_now(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(compiled, "FAST_ROLLOUTS", True)  # compiled now, not in the background


def test_the_constants_are_the_searchs() -> None:
    assert ft.MAX_ROLLOUT == ismcts.MAX_ROLLOUT
    # the rollout's greedy order (fast_rollout.greedy_card), shared with the greedy bot
    assert ismcts._SPECIAL_ORDER == greedy._SPECIAL_ORDER
    for card in range(DRAW + 1):
        assert fr.SPECIAL_RANK[card] == ismcts._SPECIAL_ORDER.get(card, 9), card


@given(st.integers(0, 2**64 - 1))
def test_the_rollout_generator_is_seeded_as_random_random(seed: int) -> None:
    """random.Random(getrandbits(64)): one key word when the high word is zero."""
    state = np.zeros(625, np.uint32)
    ft.seed_words(state, np.array([seed & 0xFFFFFFFF, seed >> 32], np.uint64))
    assert tuple(int(v) for v in state) == random.Random(seed).getstate()[1]


@pytest.mark.parametrize(
    ("preset", "options", "n"), SETTINGS, ids=[s[0] + str(s[1]) + str(s[2]) for s in SETTINGS]
)
def test_the_rollout_policy_chooses_as_pythons(
    preset: str, options: dict[str, Any], n: int
) -> None:
    """``rollout_choice`` at every decision of random games, with and without random
    moves: the same card, the same random numbers drawn."""
    rng = random.Random(f"{preset}{options}{n}")
    checked = 0
    for _ in range(3):
        g = Game(preset, n, options=options, seed=rng.getrandbits(32), events=False)
        while not g.is_over:
            if g.pending_draw is not None:
                g.apply(DRAW)
                continue
            for eps in (0.0, 0.1, 1.0):
                r1 = random.Random(checked)
                mt = np.array(r1.getstate()[1], np.uint32)
                state, cfg, _ = fr.world_state(g)
                got = ft._choice(state, cfg, mt, eps)
                assert got == ismcts.rollout_choice(g, r1, eps)
                assert tuple(int(v) for v in mt) == r1.getstate()[1]
                checked += 1
            legal = g.legal_actions()
            g.apply(legal[rng.randrange(len(legal))])
    assert checked > 300


@pytest.mark.slow
@pytest.mark.parametrize(
    ("preset", "options", "n"), SETTINGS, ids=[s[0] + str(s[1]) + str(s[2]) for s in SETTINGS]
)
def test_the_search_chooses_as_pythons(
    preset: str, options: dict[str, Any], n: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """At decisions of heuristic games, the compiled search and the Python search, each
    from the same seed, choose the same card and leave their generators alike."""
    checked = 0
    for game in range(2):
        g = Game(preset, n, options=options, seed=1000 + game, events=False)
        players = [HeuristicBot(s) for s in range(n)]
        step = 0
        while not g.is_over:
            seat = g.pending_draw if g.pending_draw is not None else g.to_move
            assert seat is not None
            view = g.view(seat)
            if forced_move(view) is None and step % 2 == 0:
                prior = HeuristicBot(1).act(view)
                for i, cfg in enumerate(CONFIGS):
                    python = ismcts.ISMCTSBot(step * 7 + i, **cfg)
                    fast = ismcts.ISMCTSBot(step * 7 + i, **cfg)
                    monkeypatch.setattr(compiled, "FAST_ROLLOUTS", False)
                    want = python.search(view, prior)
                    monkeypatch.setattr(compiled, "FAST_ROLLOUTS", True)
                    assert fast.search(view, prior) == want
                    assert fast.rng.getstate() == python.rng.getstate()
                    checked += 1
            g.apply(players[seat].act(view))
            step += 1
    assert checked > 40


def test_the_tree_search_plays_the_same_games_either_way(monkeypatch: pytest.MonkeyPatch) -> None:
    """Arena games of ``ismcts:N`` in points mode (the strength table's c3p row, small):
    the same moves, the same results with the compiled and the Python tree."""
    spec = make_spec(["ismcts:40", "heuristic"], 3, "classic1980", {"scoring": "points"}, 3, 11)
    fast = [play_game(spec, i, timed=False) for i in range(3)]
    monkeypatch.setattr(compiled, "FAST_ROLLOUTS", False)
    slow = [play_game(spec, i, timed=False) for i in range(3)]
    for a, b in zip(fast, slow, strict=True):
        assert (a.winners, a.places, a.decisions) == (b.winners, b.places, b.decisions)


#: (search, setting) pairs of the flat search: the levels' and the table's, and others
FLAT: list[tuple[str, str, dict[str, Any], int]] = [
    ("ismcts:10:heuristic:infer", "classic1980", {}, 3),
    ("ismcts:8:heuristic:infer:z2", "mattel2022", {}, 4),
    ("ismcts:10:heuristic:infer:z2", "mattel2022", {}, 2),
    ("ismcts:8:heuristic:infer", "classic1980", {"scoring": "points"}, 3),
    ("ismcts:6:heuristic", "classic1980", {"draw_penalty": True}, 4),
    ("ismcts:4:heuristic:infer", "gamerules", {}, 5),
]


@pytest.mark.parametrize(("bot", "preset", "options", "n"), FLAT, ids=[f[0] + f[1] for f in FLAT])
def test_the_rollout_search_chooses_as_pythons(
    bot: str, preset: str, options: dict[str, Any], n: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A game of the search against itself, every decision made twice from the same
    state: by the compiled search and by the Python one (its tracker, its rollouts). The
    same moves, the generators alike, the trackers' counts of worlds read and fallbacks
    alike."""
    python = [make_bot(bot, s) for s in range(n)]
    fast = [make_bot(bot, s) for s in range(n)]
    g = Game(preset, n, options=options, seed=n * 31, events=False)
    read = 0
    while not g.is_over:
        seat = g.pending_draw if g.pending_draw is not None else g.to_move
        assert seat is not None
        view = g.view(seat)
        monkeypatch.setattr(compiled, "FAST_ROLLOUTS", False)
        want = python[seat].act(view)
        monkeypatch.setattr(compiled, "FAST_ROLLOUTS", True)
        assert fast[seat].act(view) == want
        a: Any = python[seat]
        b: Any = fast[seat]
        assert a.rng.getstate() == b.rng.getstate()
        if a.tracker is not None:
            assert (a.tracker.kept, a.tracker.fallbacks) == (b.tracker.kept, b.tracker.fallbacks)
            read = a.tracker.kept
        g.apply(want)
    assert read > 0 or "infer" not in bot


def test_searches_it_does_not_cover_stay_python(monkeypatch: pytest.MonkeyPatch) -> None:
    """Uniform worlds (``belief=False``), greedy rollouts on worlds read from the plays,
    a particle filter and another rollout policy are not compiled; the tree with greedy or
    random rollouts and the heuristic rollouts (believed worlds or read from the plays)
    are."""
    calls: list[str] = []
    monkeypatch.setattr(ft, "search", lambda *a, **kw: calls.append("tree") or 0)
    monkeypatch.setattr(fast_flat, "search", lambda *a, **kw: calls.append("flat") or (0, 0, 0))
    g = Game("classic1980", 3, seed=5, events=False, options={"scoring": "points"})
    while forced_move(view := g.view(g.to_move or 0)) is not None:
        g.apply(view.legal[0])
    prior = HeuristicBot(0).act(view)
    for kw in (
        {"infer": True},
        {"belief": False},
        {"rollout": "heuristic", "belief": False},
        {"rollout": "heuristic", "particles": 8},
    ):
        ismcts.ISMCTSBot(1, iterations=3, **kw).search(view, prior)
    other = ismcts.ISMCTSBot(1, iterations=3, rollout="heuristic")
    other.policy = HeuristicBot(0, samples=2)
    other.search(view, prior)
    assert calls == []
    for kw in (
        {},
        {"rollout": "random"},
        {"rollout": "heuristic"},
        {"rollout": "heuristic", "infer": True},
    ):
        ismcts.ISMCTSBot(1, iterations=3, **kw).search(view, prior)
    assert calls == ["tree", "tree", "flat", "flat"]
