"""Places at the end of a game (R-END-3, R-END-1, R-END-2): one ranking,
:func:`ono99.texts.final_places`, for the terminal's final standings, the web table
(``texts.places``, tests/web/test_web_places.py) and the analysis report's "first out".

Players put out at the same round's end of a points game are placed among themselves by
their points, fewest best, equal points sharing a place; the ``out`` list of R-REC keeps
them in seat order, and the places used to follow it."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from ono99 import Game
from ono99.analysis.collect import game_data
from ono99.analysis.stats import summarize
from ono99.texts import final_places, final_standings
from ono99.view import PublicView

POINTS = {"scoring": "points", "target": 30}


def _played(seed: int, players: int = 4, options: dict[str, object] | None = None,
            rules: str = "classic1980") -> Game:  # fmt: skip
    g = Game(rules, players, options=POINTS if options is None else options, seed=seed)
    rng = random.Random(seed)
    while not g.is_over:
        g.apply(rng.choice(g.legal_actions()))
    return g


def _check_places(v: PublicView) -> None:
    """The places of ``v`` follow R-END-3 / R-END-1 / R-END-2."""
    places = final_places(v)
    assert sorted(s for _, s in places) == list(range(v.players))
    ranks = [p for p, _ in places]
    assert ranks == sorted(ranks) and ranks[0] == 1
    w = v.winner
    winners = {w} if isinstance(w, int) else set(w or ())
    assert {s for p, s in places if p == 1} == winners
    place = {s: p for p, s in places}
    when = dict(zip(v.out, v.out_rounds, strict=True))
    for a in v.out:
        for b in v.out:
            if a in winners or b in winners:
                continue
            if when[a] < when[b]:
                assert place[a] > place[b]  # out earlier: placed lower
            elif when[a] == when[b] and v.scores is not None:
                # R-END-3: the same round's end, by points, fewest best; equal ones share
                assert (place[a] < place[b]) == (v.scores[a] < v.scores[b])
                assert (place[a] == place[b]) == (v.scores[a] == v.scores[b])
            elif a != b:
                assert place[a] != place[b]
        for p, s in places:  # nobody shares a place with a player of another round's end
            if p == place[a] and s != a:
                assert s in winners or when.get(s) == when[a]


def test_players_out_at_the_same_round_end_are_placed_by_points() -> None:
    """R-END-3: seed 1 puts all four out at the end of round 1 with 68, 85, 90, 44 points;
    seat 3 wins, then seat 0 (68), seat 1 (85), seat 2 (90) — not seat order backwards."""
    g = Game("classic1980", 4, options=POINTS, seed=1, rng=1)  # dealt as when it was pinned
    while not g.is_over:
        g.apply(g.legal_actions()[0])
    v = g.public_view()
    assert v.out == (0, 1, 2, 3) and v.out_rounds == (1, 1, 1, 1)
    assert v.scores == (68, 85, 90, 44) and v.winner == 3
    assert final_places(v) == [(1, 3), (2, 0), (3, 1), (4, 2)]
    standings = final_standings(v)
    assert [(p, s) for p, s, _ in standings] == [(1, 3), (2, 0), (3, 1), (4, 2)]


def test_equal_points_share_a_place() -> None:
    """R-END-3 "ties share a place": seed 9 ends with seats 1 and 2 on 67 points each."""
    g = Game("classic1980", 4, options=POINTS, seed=9, rng=1)  # dealt as when it was pinned
    while not g.is_over:
        g.apply(g.legal_actions()[0])
    v = g.public_view()
    assert v.scores == (68, 67, 67, 49)
    assert final_places(v) == [(1, 3), (2, 1), (2, 2), (4, 0)]


@settings(max_examples=150, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    players=st.integers(2, 8),
    target=st.sampled_from([30, 60, 100]),
)
def test_places_of_random_points_games(seed: int, players: int, target: int) -> None:
    """R-END-3 over many random games: later out placed higher; the same round's end by
    points, ties sharing; the winners first."""
    g = _played(seed, players, {"scoring": "points", "target": target})
    _check_places(g.public_view())


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 6),
       preset=st.sampled_from([("mattel2022", {}), ("classic1980", {}),
                               ("classic1980", {"scoring": "points", "points_mode": "lowest"})]))  # fmt: skip
def test_places_of_other_modes(seed: int, players: int, preset: tuple[str, dict]) -> None:
    """R-END-1, R-END-2: one out at a time, the last one out placed second; `lowest`:
    nobody out, by points."""
    rules, options = preset
    g = _played(seed, players, options, rules)
    v = g.public_view()
    _check_places(v)
    order = [s for _, s in final_places(v)]
    if v.out:
        assert order[len(order) - len(v.out) :] == [s for s in reversed(v.out)]
    if v.scores is not None:
        assert [v.scores[s] for s in order] == sorted(v.scores)


def test_the_report_first_out_is_the_last_place() -> None:
    """The analysis report's "first out": the seat placed last (R-END-3), a shared last
    place split; in points games it was seat order (seat 0 most often)."""
    data = [game_data(_played(seed), seed) for seed in range(40)]
    for d, seed in zip(data, range(40), strict=True):
        v = _played(seed).public_view()
        assert d.places == [p for p, _ in sorted(final_places(v), key=lambda ps: ps[1])]
    counts = [0.0] * 4
    for d in data:
        last = [s for s, p in enumerate(d.places) if p == max(d.places)]
        for s in last:
            counts[s] += 1 / len(last)
    summary = summarize(data, {"rules": "classic1980", "options": POINTS, "players": 4})
    hits = [r["hits"] for r in summary["seats"]["first_out"]]
    assert hits == [round(c, 6) if c != int(c) else int(c) for c in counts]
    assert hits != [sum(1 for d in data if d.out and d.out[0] == s) for s in range(4)]
