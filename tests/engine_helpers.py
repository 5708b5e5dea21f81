"""Helpers for rule tests: games from explicit deals written as card codes."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any

from ono99 import Game, action_code, parse_action
from ono99.rules import deck_list


def hand(text: str) -> list[str]:
    """``"10 5 R 99"`` -> ``["10", "5", "R", "99"]``."""
    return text.split()


def make(
    preset: str,
    hands: Iterable[str],
    draw: str = "",
    *,
    options: Mapping[str, Any] | None = None,
    more_deals: Iterable[tuple[Iterable[str], str]] = (),
    seed: int = 0,
    dealer: int | None = None,
    players: list[str] | None = None,
) -> Game:
    """A game whose first round is dealt exactly as given (hands, draw pile top first)."""
    hands = list(hands)
    deals = [([hand(h) for h in hands], hand(draw))]
    deals += [([hand(h) for h in hs], hand(d)) for hs, d in more_deals]
    return Game(
        preset,
        players if players is not None else len(hands),
        options=options,
        seed=seed,
        dealer=dealer,
        deals=deals,  # type: ignore[arg-type]
    )


def codes(actions: Iterable[int]) -> list[str]:
    return [action_code(a) for a in actions]


def hand_codes(g: Game, seat: int) -> list[str]:
    return sorted(action_code(c) for c in g.hands[seat])


def play(g: Game, *moves: str) -> None:
    """Apply moves given as codes, in order."""
    for m in moves:
        g.apply(parse_action(m))


def all_cards(g: Game) -> Counter[int]:
    """Every card of the game: hands, draw pile and discard pile."""
    c: Counter[int] = Counter(g.draw_pile)
    c.update(g.discard)
    for h in g.hands:
        c.update(h)
    return c


def deck_counter(g: Game) -> Counter[int]:
    return Counter(deck_list(g.rules))


def kinds(g: Game) -> list[str]:
    assert g.events is not None
    return [e.kind for e in g.events]


def scripted(
    preset: str,
    plays: str,
    finals: list[str],
    rest: str = "",
    *,
    options: Mapping[str, Any] | None = None,
    more_deals: Iterable[tuple[Iterable[str], str]] = (),
    players: list[str] | None = None,
) -> Game:
    """A game driven to a known position by number/Hold ``plays`` made round-robin
    from seat 0 (no Reverse, no Play 2), after which seat ``i`` holds ``finals[i]``.

    The deal is built so that each seat holds, and then draws, exactly the cards it
    plays, followed by its final hand; ``rest`` lies under those in the draw pile.
    """
    n = len(finals)
    cards = plays.split()
    seqs: list[list[str]] = [[] for _ in range(n)]
    for t, c in enumerate(cards):
        seqs[t % n].append(c)
    seqs = [seqs[i] + hand(finals[i]) for i in range(n)]
    hands = [" ".join(s[:4]) for s in seqs]
    draw = [seqs[t % n][4 + t // n] for t in range(len(cards))] + hand(rest)
    g = make(preset, hands, " ".join(draw), options=options, more_deals=more_deals, players=players)
    if g.rules.draw_penalty:  # each player takes their draw at once
        play(g, *(m for c in cards for m in (c, "draw")))
    else:
        play(g, *cards)
    for i in range(n):
        assert sorted(hand_codes(g, i)) == sorted(hand(finals[i])), (i, g.hands[i])
    return g
