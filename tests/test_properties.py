"""Property tests over many random games of every preset and mode (R-END-4 and the
invariants every rule relies on).

The default run plays a few thousand games; ``-m slow`` adds the issue's 10,000
games per preset and mode. Hypothesis profiles live in conftest.py (``ci`` for CI).
"""

from __future__ import annotations

import dataclasses
import json
import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ono99 import DRAW, Game, make_rules, replay, state_json, to_record, view_of
from ono99.rules import Rules, deck_list

CONFIGS: list[tuple[str, dict[str, Any]]] = [
    ("mattel2022", {}),
    ("classic1980", {}),
    ("classic1980", {"zero_ending_99": True}),
    ("classic1980", {"draw_penalty": True}),
    ("classic1980", {"zero_ending_99": True, "draw_penalty": True}),
    ("classic1980", {"scoring": "points"}),
    ("classic1980", {"scoring": "points", "zero_ending_99": True, "draw_penalty": True}),
    ("classic1980", {"scoring": "points", "points_mode": "lowest"}),
    (
        "classic1980",
        {"scoring": "points", "points_mode": "lowest", "target": 60, "draw_penalty": True},
    ),
    ("gamerules", {}),
    ("gamerules", {"draw_penalty": True}),
]
IDS = [f"{p}-{'-'.join(f'{k}={v}' for k, v in o.items()) or 'default'}" for p, o in CONFIGS]
MAX_STEPS = 100_000  # far beyond any real game; hitting it means a game that never ends


def _check_state(g: Game, deck: Counter[int]) -> None:
    """The invariants that hold after every action."""
    r = g.rules
    cards: Counter[int] = Counter(g.draw_pile)
    cards.update(g.discard)
    for h in g.hands:
        assert len(h) <= 4
        cards.update(h)
    assert cards == deck  # every card somewhere, exactly once
    if r.preset == "mattel2022":
        assert 0 <= g.total <= 98
    elif r.preset == "classic1980":
        assert g.total < 99
    else:
        assert g.total <= 99
    assert g.direction in (1, -1)
    if g.is_over:
        assert g.winner is not None and g.to_move is None
        assert g.legal_actions() == ()
        return
    p = g.to_move
    assert p is not None and g.alive[p] and g.active[p]
    assert g.owes_two is None or g.owes_two == p
    legal = g.legal_actions(p)
    assert legal, "the player to move always has an action (busts resolve themselves)"
    for a in legal:
        if a != DRAW and a <= 15:
            assert a in g.hands[p]
    if g.pending_draw is not None:
        assert r.draw_penalty


def play_random(rules: Rules, players: int, seed: int, policy: int, check: bool = True) -> Game:
    """One random game: uniformly random legal actions (the pending ``draw`` too)."""
    g = Game(rules, players, seed=seed, events=False)
    deck = Counter(deck_list(rules))
    rng = random.Random(policy)
    if check:
        _check_state(g, deck)
    steps = 0
    while not g.is_over:
        legal = g.legal_actions()
        g.apply(legal[rng.randrange(len(legal))])
        steps += 1
        assert steps < MAX_STEPS, "a game that does not end"
        if check:
            _check_state(g, deck)
    return g


def _assert_finished(g: Game) -> None:
    w = g.winner
    assert w is not None
    seats = w if isinstance(w, list) else [w]
    assert seats and all(0 <= s < g.n for s in seats)
    if isinstance(w, list):
        assert len(w) >= 2 and g.rules.mode == "points"
    if g.rules.mode != "points":
        assert isinstance(w, int) and w not in g.out and len(g.out) == g.n - 1
    elif g.rules.points_mode == "elimination":
        # the last player left, or (no one left) the fewest among the last eliminated
        assert all(s not in g.out for s in seats) or len(g.out) == g.n
    if g.rules.mode == "points":
        assert g.scores is not None
        if g.rules.points_mode == "lowest":
            assert max(g.scores) >= g.rules.target
            assert all(g.scores[s] == min(g.scores) for s in seats)
    if g.rules.mode == "tokens":
        assert g.tokens is not None and all(0 <= t <= 3 for t in g.tokens)


config_st = st.sampled_from(CONFIGS)


@given(config=config_st, data=st.data())
def test_random_games_keep_invariants_and_replay(
    config: tuple[str, dict[str, Any]], data: st.DataObject
) -> None:
    """R-END-4, R-TURN-3, R-LIM-1, R-M10-1: in random games of every preset and mode
    every card is always somewhere exactly once, totals stay in bounds (mattel 0..98,
    classic < 99, gamerules <= 99), every game ends with a winner, and the written
    record replays to the identical state."""
    preset, options = config
    rules = make_rules(preset, options)
    players = data.draw(st.integers(rules.min_players, rules.max_players), label="players")
    seed = data.draw(st.integers(0, 2**32), label="seed")
    policy = data.draw(st.integers(0, 2**32), label="policy")
    g = play_random(rules, players, seed, policy)
    _assert_finished(g)
    rec = json.loads(json.dumps(to_record(g)))
    assert state_json(replay(rec, events=False)) == state_json(g)


def _hide_shuffle(g: Game, seat: int, rng: random.Random) -> Game:
    """A copy of ``g`` whose cards hidden from ``seat`` (other hands not laid face up,
    and the draw pile) are dealt again at random, every hand keeping its size."""
    h = g.copy()
    laid = view_of(g, seat).laid_down
    hidden = [s for s in range(g.n) if s != seat and not laid[s]]
    pool = list(h.draw_pile)
    for s in hidden:
        pool += h.hands[s]
    rng.shuffle(pool)
    for s in hidden:
        k = len(h.hands[s])
        h.hands[s] = pool[:k]
        del pool[:k]
    h.draw_pile = pool
    return h


@given(config=config_st, data=st.data())
def test_view_never_depends_on_hidden_cards(
    config: tuple[str, dict[str, Any]], data: st.DataObject
) -> None:
    """R-SET-1: hands are private. At random points of random games, seat i's view is
    the same whatever the cards hidden from it are, and it holds no other hand
    (only hands laid face up, R-END-1)."""
    preset, options = config
    rules = make_rules(preset, options)
    players = data.draw(st.integers(rules.min_players, rules.max_players), label="players")
    seed = data.draw(st.integers(0, 2**32), label="seed")
    rng = random.Random(data.draw(st.integers(0, 2**32), label="policy"))
    g = Game(rules, players, seed=seed, events=False)
    while True:
        for seat in range(players):
            v = view_of(g, seat)
            assert v == view_of(_hide_shuffle(g, seat, rng), seat)
            assert v.hand == tuple(g.hands[seat])
            for s in range(players):
                if s != seat and v.laid_down[s]:
                    assert rules.mode == "elimination" and not g.alive[s]
            data_json = v.to_json()
            assert "hands" not in data_json and "draw" not in data_json
        if g.is_over:
            break
        legal = g.legal_actions()
        g.apply(legal[rng.randrange(len(legal))])


def _by_name(g: Game, seat: int) -> dict[str, Any]:
    """Seat ``seat``'s view of ``g``, field by field by name (view_of builds it by
    position, for speed: this pins every field to its meaning)."""
    elim = g.rules.scoring.bust_eliminates
    w = g.winner
    return {
        "rules": g.rules, "names": tuple(g.names), "hand_sizes": tuple(len(h) for h in g.hands),
        "total": g.total, "direction": g.direction, "to_move": g.to_move,
        "owes_two": g.owes_two, "plays_left": g.plays_left, "played_99": g.played_99,
        "discard": tuple(g.discard), "draw_pile": len(g.draw_pile),
        "laid_down": tuple(
            tuple(h) if elim and not g.alive[s] else () for s, h in enumerate(g.hands)
        ),
        "alive": tuple(g.alive), "active": tuple(g.active), "out": tuple(g.out),
        "round_out": tuple(g.round_out),
        "tokens": None if g.tokens is None else tuple(g.tokens),
        "scores": None if g.scores is None else tuple(g.scores),
        "round": g.round, "winner": tuple(w) if isinstance(w, list) else w,
        "pending_draw": g.pending_draw, "reshuffles": g.reshuffles,
        "out_rounds": tuple(g.out_rounds),
        "seat": seat, "hand": tuple(g.hands[seat]), "legal": g.legal_actions(seat),
        "bust_mode": g.must_bust_play and seat == g.to_move,
    }  # fmt: skip


@given(config=config_st, data=st.data())
def test_view_fields_hold_what_their_names_say(
    config: tuple[str, dict[str, Any]], data: st.DataObject
) -> None:
    """R-SET-1, R-END-1: every field of every seat's view, at every step of random games,
    is the game's public fact of that name (or the seat's own hand and moves)."""
    preset, options = config
    rules = make_rules(preset, options)
    players = data.draw(st.integers(rules.min_players, rules.max_players), label="players")
    g = Game(rules, players, seed=data.draw(st.integers(0, 2**32), label="seed"), events=False)
    rng = random.Random(data.draw(st.integers(0, 2**32), label="policy"))
    while True:
        for seat in range(players):
            v = view_of(g, seat)
            want = _by_name(g, seat)
            assert {f: getattr(v, f) for f in want} == want
            assert len(dataclasses.fields(v)) == len(want)
        if g.is_over:
            break
        legal = g.legal_actions()
        g.apply(legal[rng.randrange(len(legal))])


@given(config=config_st, data=st.data())
def test_views_equal_for_deals_differing_in_hidden_cards(
    config: tuple[str, dict[str, Any]], data: st.DataObject
) -> None:
    """R-SET-1: two games dealt explicitly, differing only in the cards hidden from
    seat i (the other hands and the draw pile), give seat i equal views."""
    preset, options = config
    rules = make_rules(preset, options)
    players = data.draw(st.integers(rules.min_players, rules.max_players), label="players")
    seat = data.draw(st.integers(0, players - 1), label="seat")
    seed = data.draw(st.integers(0, 2**32), label="seed")
    rng = random.Random(seed)
    deck = deck_list(rules)
    rng.shuffle(deck)
    mine = deck[:4]
    rest = deck[4:]
    deals = []
    for _ in range(2):
        rng.shuffle(rest)
        pool = list(rest)
        hands = [mine if s == seat else [pool.pop() for _ in range(4)] for s in range(players)]
        deals.append((hands, pool))
    a = Game(rules, players, seed=seed, deals=[deals[0]], events=False)
    b = Game(rules, players, seed=seed, deals=[deals[1]], events=False)
    if a.round == b.round == 1:  # nobody busted at once
        assert view_of(a, seat) == view_of(b, seat)


@pytest.mark.parametrize(("preset", "options"), CONFIGS, ids=IDS)
def test_many_random_games(preset: str, options: dict[str, Any]) -> None:
    """R-END-4: a few hundred random games of each preset and mode, 2..max players,
    every state checked; each ends with a winner and replays from its record."""
    rules = make_rules(preset, options)
    for i in range(250):
        players = rules.min_players + i % (rules.max_players - rules.min_players + 1)
        g = play_random(rules, players, seed=i, policy=10_000 + i)
        _assert_finished(g)
        if i % 25 == 0:
            assert state_json(replay(to_record(g), events=False)) == state_json(g)


@pytest.mark.slow
@pytest.mark.parametrize(("preset", "options"), CONFIGS, ids=IDS)
def test_ten_thousand_games_end(preset: str, options: dict[str, Any]) -> None:
    """R-END-4: 10,000 random games of each preset and mode (2..max players) each end
    with a winner."""
    rules = make_rules(preset, options)
    deck = Counter(deck_list(rules))
    span = rules.max_players - rules.min_players + 1
    for i in range(10_000):
        g = play_random(rules, rules.min_players + i % span, seed=7 + i, policy=i, check=False)
        _assert_finished(g)
        _check_state(g, deck)
