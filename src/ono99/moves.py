"""The rule arithmetic of one play, as pure functions (RULES.md R-LIM, R-M10, R-99, R-P2).

What a card does to the total, whether it is safe, and why a move is not legal: the
engine, the bots and the front ends all ask here, so each rule is written once. (The
engine's legal-move test is a bit-mask form of :func:`is_safe`, pinned to it by
``tests/test_moves.py``.)

>>> from ono99.rules import make_rules
>>> r = make_rules("mattel2022")
>>> total_after(r, 5, 11), is_safe(r, 9, 90, first_of_two=False, played_99=False)
(0, False)
>>> why_illegal(r, 9, hand=(9, 2), total=90, plays_left=1, played_99=False, bust_mode=False)
Why(kind='over_limit', rule='R-LIM-1, R-LIM-2', new_total=99)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from ono99.cards import FOUR_99, MAX_NUMBER, MINUS_TEN, NINETY_NINE, Card
from ono99.rules import Rules

__all__ = ["total_after", "is_safe", "is_escape", "Why", "why_illegal"]

_M10 = int(Card.MINUS10)
_REV = int(Card.REVERSE)
_P2 = int(Card.PLAY2)
_HOLD = int(Card.HOLD)
_99 = int(Card.NINETY_NINE)


def total_after(rules: Rules, total: int, card: int) -> int:
    """The running total after ``card`` is played on ``total`` (R-TURN-1, R-M10-1, R-99-2)."""
    if card <= MAX_NUMBER:
        return total + card
    if card == _M10:
        t = total - MINUS_TEN
        return 0 if (t < 0 and rules.floor_zero) else t
    if card == _99 and rules.ninety_nine_sets:
        return NINETY_NINE
    return total  # Reverse, Play 2, Hold, and the 99 of R-99-5 add 0


def is_safe(rules: Rules, card: int, total: int, first_of_two: bool, played_99: bool) -> bool:
    """R-LIM-1, R-99, R-P2-3: may ``card`` be played as a safe card at ``total``?
    (``first_of_two``: the first of the two plays a Play 2 asks for.)"""
    if card <= MAX_NUMBER:
        return total + card < rules.limit
    if card == _99:
        return rules.ninety_nine_sets or (
            rules.zero_ending_99 and not played_99 and total % 10 == 0
        )
    if card == _P2:
        return rules.play2_first_ok or not first_of_two
    return True  # -10, Reverse, Hold


#: the cards that are safe whatever the total (and the 99 where it sets the total)
ESCAPE_CARDS = (int(Card.N0), _M10, _REV, _P2, _HOLD)


def is_escape(rules: Rules, card: int) -> bool:
    """A card that is safe whatever the total: -10, R, P2, H, 0 (and the gamerules 99)."""
    return card in ESCAPE_CARDS or (card == _99 and rules.ninety_nine_sets)


class Why(NamedTuple):
    """Why a move is not legal: a ``kind`` (below), the rule it breaks, and for
    ``over_limit`` the total the card would make. Front ends put it into words.

    Kinds: ``no_four_99`` (the preset has no four-99 discard), ``four_99_short`` (fewer
    than four 99s held), ``not_in_deck``, ``not_in_hand``, ``bust_card`` (not a card
    that may be given up in a points-mode bust), ``one_99_per_turn``, ``99_zero_ending``
    (R-99-5: the total does not end in 0), ``99_never``, ``play2_first`` (a Double Play
    as the first of two), ``over_limit``, ``not_now``."""

    kind: str
    rule: str | None = None
    new_total: int | None = None


def why_illegal(
    rules: Rules,
    action: int,
    *,
    hand: Sequence[int],
    total: int,
    plays_left: int,
    played_99: bool,
    bust_mode: bool,
) -> Why:
    """Why the player to move, holding ``hand``, may not make ``action`` (a card or
    ``FOUR_99``) — to be asked only about an action that is not legal now."""
    if action == FOUR_99:
        if not rules.four_99:
            return Why("no_four_99", "R-99-3")
        return Why("four_99_short", "R-99-3")
    if not rules.card_in_deck(action):
        return Why("not_in_deck")
    if action not in hand:
        return Why("not_in_hand", "R-TURN-1")
    if bust_mode:
        return Why("bust_card", "R-END-3")
    if action == _99:
        if rules.zero_ending_99:
            if played_99:
                return Why("one_99_per_turn", "R-99-5")
            return Why("99_zero_ending", "R-99-5")
        return Why("99_never", "R-99-4" if rules.preset == "classic1980" else "R-99-1")
    if action == _P2 and plays_left == 2 and not rules.play2_first_ok:
        return Why("play2_first", "R-P2-3")
    if action <= 10:
        return Why("over_limit", "R-LIM-1, R-LIM-2", total_after(rules, total, action))
    return Why("not_now")
