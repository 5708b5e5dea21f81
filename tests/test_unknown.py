"""The real-cards mode of the engine (ono99.unknown): a known-card game replayed move by
move with every hand unknown gives the same public state after every move."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ono99.cards import DRAW, action_code
from ono99.errors import IllegalAction
from ono99.game import Game
from ono99.scoring import CARD_POINTS
from ono99.unknown import BUST, UNKNOWN, TrackError, UnknownGame
from test_properties import CONFIGS

#: the public state both games must share after every move
KEYS = ("total", "direction", "to_move", "owes_two", "out", "tokens", "scores", "round",
        "winner", "plays_left", "pending_draw", "round_out", "hand_sizes", "draw_pile")  # fmt: skip


def public(g: Game) -> dict[str, Any]:
    v = g.public_view()
    return {k: getattr(v, k) for k in KEYS} | {"discard": len(v.discard)}


def _tell_round(unk: UnknownGame, hands: list[list[int]], rng: random.Random) -> None:
    """R-END-3: the round's end told as the hands left, or as each hand's points."""
    if rng.random() < 0.5:
        unk.tell_round(hands=[h if unk.alive[s] else None for s, h in enumerate(hands)])
    else:
        pts = [
            sum(CARD_POINTS[c] for c in h) if unk.alive[s] else None for s, h in enumerate(hands)
        ]
        unk.tell_round(points=pts)


def _tell_bust(unk: UnknownGame, real: Game, seat: int, rng: random.Random) -> None:
    """The bust the known engine made by itself, told: "no safe card", or (out of the game,
    R-END-1) the player's own number card over the limit."""
    assert unk.to_move == seat
    numbers = [c for c in real.hands[seat] if c <= 10]
    if real.rules.scoring.bust_eliminates and numbers and rng.random() < 0.5:
        unk.apply(action_code(rng.choice(numbers)))
    else:
        unk.apply(BUST)


def follow(rules: str, n: int, seed: int, options: dict[str, Any]) -> tuple[int, UnknownGame]:
    """Play a random known-card game and replay it on an UnknownGame; returns the moves
    and the UnknownGame at the end."""
    rng = random.Random(seed)
    dealer = seed % n
    real = Game(rules, n, options=options, seed=seed, dealer=dealer)
    unk = UnknownGame(rules, n, options=options, dealer=dealer)
    assert all(c == UNKNOWN for h in unk.hands for c in h)
    start = mark = 0
    moves = 0
    while True:
        events = (real.events or [])[start:]
        start = len(real.events or [])
        busts = [
            e.seat for e in events if e.kind == "bust" and e.card is None and e.seat is not None
        ]
        ends = [e.info for e in events if e.kind == "round_end" and e.info and "scores" in e.info]
        done = 0
        for seat in busts:
            got = [e.seat for e in (unk.events or [])[mark:] if e.kind == "bust" and e.card is None]
            if done < len(got):
                done += 1  # no card left anywhere was safe for them: a bust by itself
                continue
            if unk.waiting:
                _tell_round(unk, ends.pop(0)["hands"], rng)
            _tell_bust(unk, real, seat, rng)
            done += 1
            if real.rules.scoring.bust_eliminates and rng.random() < 0.5 and seat in unk.out:
                unk.lay(seat, real.hands[seat])  # R-END-1: the hand typed in as laid
        if unk.waiting:
            _tell_round(unk, ends.pop(0)["hands"], rng)
        assert public(unk) == public(real), (moves, public(unk), public(real))
        if real.is_over:
            return moves, unk
        acting = real.acting()
        seat = rng.choice(sorted(acting))
        action = rng.choice(acting[seat])
        real.apply(action)
        mark = len(unk.events or [])
        unk.apply(action_code(action))
        moves += 1


@settings(max_examples=60, deadline=None)
@given(
    config=st.sampled_from(CONFIGS),
    players=st.integers(min_value=2, max_value=6),
    seed=st.integers(min_value=0, max_value=2**32),
)
def test_unknown_hands_agree_with_the_known_engine(
    config: tuple[str, dict[str, Any]], players: int, seed: int
) -> None:
    """R-SET-1, R-TURN-1, R-TURN-2, R-TURN-3, R-TURN-4, R-LIM-1, R-LIM-2, R-99-1, R-99-2,
    R-99-3, R-99-4, R-99-5, R-REV-1, R-REV-2, R-M10-1, R-H-1, R-P2-1, R-P2-2, R-P2-3, R-P2-4,
    R-P2-5, R-P2-6, R-END-1, R-END-2, R-END-3, R-DRAW-1, R-DRAW-2: a random known-card game
    of any preset and option, replayed as its moves with every hand unknown (the busts the
    engine made by itself told as "no safe card" where a card left could have been safe,
    the hands or points told at each points round's end), gives the same public state
    after every move: total, direction, who moves, who owes two, who is out, tokens,
    scores, round, winner, hand sizes, the draw pile and the discard pile."""
    rules, options = config
    follow(rules, players, seed, options)


@pytest.mark.parametrize(("rules", "options"), CONFIGS)
def test_many_games_agree(rules: str, options: dict[str, Any]) -> None:
    """R-END-4 and all the rules above: a dozen whole games per preset and option."""
    assert sum(follow(rules, 2 + seed % 5, seed, options)[0] for seed in range(12)) > 0


def test_a_card_becomes_one_of_the_unknown_cards() -> None:
    """R-TURN-1, R-TURN-2, R-TURN-3: a card played is one of the mover's unknown cards; a
    draw gives an unknown card; a reshuffle turns the discard pile into unknown cards."""
    g = UnknownGame("gamerules", 2)
    g.apply("2")
    assert g.hands[0] == [UNKNOWN] * 4 and g.discard == [2] and g.unseen()[2] == 2
    for _ in range(2):
        g.apply("2")
    with pytest.raises(TrackError, match="discard pile"):
        g.apply("2")  # all three 2s of the 1980 deck are on the discard pile
    reshuffled = [unk for seed in range(10) for unk in [follow("classic1980", 2 + seed % 5, seed, {})[1]]
                  if unk.reshuffles]  # fmt: skip
    assert reshuffled and all(c == UNKNOWN for g in reshuffled for c in g.draw_pile)


def test_rule_refusals_and_declared_busts() -> None:
    """R-99-1, R-P2-3, R-LIM-2, R-99-3, R-99-4, R-99-5, R-END-3, R-DRAW-2: the rules'
    refusals stay the engine's; a bust is accepted only where the hand could hold nothing
    the player can play."""
    g = UnknownGame("mattel2022", 3)
    with pytest.raises(IllegalAction, match="R-99-1"):
        g.apply("99")
    with pytest.raises(TrackError, match="not possible"):
        g.apply(BUST)  # R-99-3: four ONO 99s would be a play
    g.apply("7")
    with pytest.raises(TrackError, match="not possible"):
        g.apply("bust")  # total 7: every card but the 99 is safe
    assert g.total == 7 and g.to_move == 1
    c = UnknownGame("classic1980", 3)
    c.apply("P2")
    with pytest.raises(IllegalAction, match="R-P2-3"):
        c.apply("P2")
    t = UnknownGame("classic1980", 3)
    t.apply(BUST)  # R-99-4: dealt four ONO 99s
    assert t.tokens == [2, 3, 3] and t.round == 2 and t.to_move == 0
    with pytest.raises(TrackError, match="not possible"):
        UnknownGame("classic1980", 2, options={"zero_ending_99": True}).apply(BUST)
    p = UnknownGame("classic1980", 3, options={"scoring": "points"})
    for _ in range(9):
        p.apply("10")
    p.apply(BUST)  # only ONO 99s: nothing to give up, out of the round without playing
    assert p.round_out == [0] and p.total == 90 and len(p.hands[0]) == 4
    d = UnknownGame("classic1980", 3, options={"draw_penalty": True})
    for card in ["10"] * 8 + ["P2", "9"]:
        d.apply(card)
        if d.pending_draw is not None and d.pending_draw != d.to_move:
            d.apply(DRAW)
    assert d.to_move == d.pending_draw  # between the two plays of a Double Play
    with pytest.raises(TrackError, match="not possible"):
        d.apply(BUST)  # R-DRAW-2: they draw first


def test_a_number_over_the_limit_is_the_players_bust() -> None:
    """R-LIM-1, R-END-1, R-END-2, R-END-3: a number card over the limit is the mover's
    bust: out of the game with the card in the face-up hand, a token lost, or the card
    given up and out of the round."""
    g = UnknownGame("mattel2022", 3)
    for _ in range(9):
        g.apply("10")
    g.apply("9")
    assert g.out == [0] and g.total == 90 and g.hands[0].count(9) == 1
    with pytest.raises(TrackError, match="among the cards"):
        g.lay(0, [8, 8, 8, 7])
    with pytest.raises(TrackError, match="R-LIM-2"):
        g.lay(0, [9, 11, 9, 9])  # -10 was safe
    g.lay(0, [9, 9, 9, 9])
    for card in ["-10", "9", "9"]:
        g.apply(card)
    with pytest.raises(TrackError, match="laid face up"):
        g.apply("9")
    p = UnknownGame("classic1980", 3, options={"scoring": "points"})
    for _ in range(9):
        p.apply("10")
    p.apply("10")
    assert p.total == 90 and p.round_out == [0] and p.to_move == 1 and p.discard[-1] == 10


def test_points_wait_for_what_is_told() -> None:
    """R-END-3: a points round's end scores nothing until the hands or points are told;
    hands or points that do not fit are refused and change nothing."""
    g = UnknownGame("classic1980", 2, options={"scoring": "points", "target": 50})
    for card in ["10"] * 9 + ["9"]:
        g.apply(card)
    assert g.waiting and g.scores == [0, 0] and g.winner is None and g.out == []
    with pytest.raises(TrackError, match="cannot make"):
        g.tell_round(points=[7, 30])
    with pytest.raises(TrackError, match="card count"):
        g.tell_round(hands=[[2, 3], [2, 3, 4, 5]])
    with pytest.raises(TrackError, match="discard pile"):
        g.tell_round(hands=[[10, 10, 2, 3], [4, 5, 6, 7]])  # nine 10s are on the pile
    assert g.waiting and g.told_points == {} and g.told_hands == {}
    g.tell_round(hands=[[2, 3, 4, 5], [14, 14, 12, 15]])  # H, H, R, 99: 65, and 25 out
    assert g.scores == [14, 90] and g.out == [1] and g.winner == 0


def test_a_hand_held_before_a_reshuffle_cannot_hold_the_cards_turned_over() -> None:
    """R-TURN-3, R-LIM-2, R-END-2: the draw that turns the discard pile over gives its
    drawer one of those cards, but a hand held before it was dealt from the cards not
    yet played: with no safe card among those, the next player busts by themselves."""
    g = UnknownGame("classic1980", 2)
    rest = [12] + [10] * 3 + [15] * 4  # the last Reverse, three 10s, the four ONO 99s
    discard = list(g.rules.deck)
    for c in rest:
        discard[c] -= 1
    g.discard = [c for c, k in enumerate(discard) for _ in range(k)]
    g.draw_pile, g.total = [], 97
    g.resettle()
    assert g.legal_actions() == (12,)  # seat 0 may hold the last Reverse
    g.apply("R")  # a Hold with two players; seat 0's draw turns the discard pile over
    assert g.reshuffles == 1 and g.tokens == [3, 2] and g.round == 2 and g.to_move == 1
