"""Helpers of the companion's tests: real games told as the taps a person would make."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from ono99.cards import action_code
from ono99.game import Deal, Game

#: the presets and options the companion is checked in (tests/test_tracking.py,
#: benchmarks/companion_scan.py)
CONFIGS: list[tuple[str, dict[str, Any] | None]] = [
    ("mattel2022", None),
    ("classic1980", None),
    ("gamerules", None),
    ("classic1980", {"scoring": "points"}),
    ("classic1980", {"scoring": "points", "points_mode": "lowest", "target": 150}),
    ("classic1980", {"zero_ending_99": True, "draw_penalty": True}),
    ("gamerules", {"draw_penalty": True}),
    ("classic1980", {"scoring": "points", "points_mode": "lowest", "draw_penalty": True}),
    ("classic1980", {"scoring": "points", "draw_penalty": True}),
]
#: the public fields a tracked game shares with the real one after every move
FIELDS = ("total", "direction", "to_move", "owes_two", "out", "tokens", "round", "winner")
#: more public fields the tracker gets right too
MORE = ("plays_left", "pending_draw", "round_out", "hand_sizes", "draw_pile")


def public(game: Game) -> dict[str, Any]:
    v = game.public_view()
    w = v.winner
    return {
        "total": v.total, "direction": v.direction, "to_move": v.to_move,
        "owes_two": v.owes_two, "out": list(v.out),
        "tokens": None if v.tokens is None else list(v.tokens),
        "scores": None if v.scores is None else list(v.scores),
        "round": v.round, "winner": list(w) if isinstance(w, tuple) else w,
        "plays_left": v.plays_left, "pending_draw": v.pending_draw,
        "round_out": list(v.round_out), "hand_sizes": list(v.hand_sizes),
        "draw_pile": v.draw_pile,
    }  # fmt: skip


@dataclass
class Move:
    """One move of a real game: its code, the seats the engine busted by itself after it,
    the public state after it, and (points) the hands left when it ended a round."""

    code: str
    busts: list[int]
    state: dict[str, Any]
    hands: list[list[str]] | None


def real_game(
    rules: str, players: int, seed: int, options: dict[str, Any] | None = None,
    first: int = 0, max_moves: int = 3000, deals: list[Deal] | None = None,
) -> Iterator[Move]:  # fmt: skip
    """A real game with random legal moves (under the draw penalty, whoever acts first).
    When the deal busts a player before any card is played, the first Move has the code
    ``""`` (nothing tapped) and those busts."""
    rng = random.Random(seed)
    names = [f"P{i}" for i in range(players)]
    g = Game(rules, names, options=options, seed=seed, dealer=(first - 1) % players, deals=deals)
    start = [e.seat for e in g.events or [] if e.kind == "bust" and e.card is None]
    if start:
        yield Move("", [b for b in start if b is not None], public(g), None)
    moves = 0
    while not g.is_over and moves < max_moves:
        acting = g.acting()
        seat = rng.choice(sorted(acting))
        action = rng.choice(acting[seat])
        start = len(g.events or [])
        g.apply(action)
        moves += 1
        events = (g.events or [])[start:]
        busts = [e.seat for e in events if e.kind == "bust" and e.card is None]
        ends = [e for e in events if e.kind == "round_end" and "hands" in (e.info or {})]
        hands = None
        if ends:
            hands = [[action_code(c) for c in h] for h in (ends[0].info or {})["hands"]]
        yield Move(action_code(action), [b for b in busts if b is not None], public(g), hands)


def matches(got: dict[str, Any], want: dict[str, Any], keys: tuple[str, ...]) -> bool:
    return all(got.get(k) == want[k] for k in keys)


def feed(
    move: Move, tap: Callable[[str], Any], state: Callable[[], dict[str, Any]],
    enter: Callable[[list[list[str]]], Any] | None = None,
) -> int:  # fmt: skip
    """Tap ``move`` as a person at the table would: the card, then "bust" for each player
    the engine busted that the tracker has not busted by itself (it does so when no safe
    card is left anywhere for them: ``state()["busted"]``; a bust at a round's start is
    always tapped: the tracker deals no hand it was not told). A points round that ends
    waits for its hands (R-END-3): they are told with ``enter`` as soon as it asks, before
    the next tap. Returns the taps made."""
    taps = 0

    def tell_hands() -> None:
        if enter is not None and move.hands is not None and state()["hands_needed"]:
            enter(move.hands)

    if move.code:  # "": the deal itself busted someone (real_game)
        tap(move.code)
        taps = 1
    tell_hands()
    for k in range(len(move.busts)):
        busted = state()["busted"]
        if len(busted) > k and busted[: k + 1] == move.busts[: k + 1]:
            continue
        tap("bust")
        taps += 1
        tell_hands()
    return taps
