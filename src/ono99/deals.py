"""A record's deal of one round (R-REC), validated on its own: shared by the engines and
the record reader.

>>> from ono99.rules import make_rules
>>> parse_deal(make_rules("mattel2022"), 2, 0, ([["7", "P2", "0", "3"], []], ["99"]))
([[7, 13, 0, 3], []], [15])
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ono99.cards import action_code, parse_card
from ono99.errors import RecordError
from ono99.i18n import N_
from ono99.rules import Rules

__all__ = ["Deal", "parse_deal"]

#: A deal: each seat's hand, and the draw pile top card first.
Deal = tuple[list[list[int]], list[int]]


def parse_deal(rules: Rules, players: int, index: int, deal: Any) -> Deal:
    """Validate the deal of round ``index + 1`` on its own (R-REC): a hand (4 cards, mini 2, or
    none for a seat already out) for every one of ``players`` seats, cards as ints or
    codes, every card from the preset's deck and no more copies than it holds. Returns
    it as card ints. (Whether its empty hands are the seats really out is checked when
    the round is dealt.)"""
    rnd = index + 1
    try:
        if isinstance(deal, Mapping):  # the record form {"hands": ..., "draw": ...}
            raw_hands, raw_draw = deal["hands"], deal.get("draw", [])
        else:
            raw_hands, raw_draw = deal
        hands = [list(h) for h in raw_hands]
        draw = list(raw_draw)
    except (TypeError, ValueError, KeyError):
        raise RecordError(
            N_("deal for round {round} must be (hands, draw pile top first)"), round=rnd
        ) from None
    if len(hands) != players:
        raise RecordError(
            N_("deal for round {round} has {hands} hands for {players} players"),
            round=rnd, hands=len(hands), players=players,
        )  # fmt: skip
    for s, hand in enumerate(hands):
        if len(hand) not in (0, rules.hand_size):
            raise RecordError(
                N_("deal for round {round}: seat {seat} must get {want} cards (or none), not {count}"),
                round=rnd, seat=s, want=rules.hand_size, count=len(hand),
            )  # fmt: skip
    counts = list(rules.deck)
    parsed: list[list[int]] = []
    for cards in [*hands, draw]:
        out: list[int] = []
        for card in cards:
            if isinstance(card, str):
                card = parse_card(card)
            if isinstance(card, bool) or not isinstance(card, int) or not 0 <= card < 16:
                raise RecordError(
                    N_("deal for round {round} names {card}, which is not a card"),
                    round=rnd, card=repr(card),
                )  # fmt: skip
            if counts[card] == 0:
                raise RecordError(
                    N_("deal for round {round} names more copies of {card} ({preset} deck)")
                    if rules.deck[card]
                    else N_("deal for round {round} names a card the deck lacks: {card} ({preset} deck)"),
                    round=rnd, card=repr(action_code(card)), preset=rules.preset,
                )  # fmt: skip
            counts[card] -= 1
            out.append(card)
        parsed.append(out)
    return parsed[:-1], parsed[-1]
