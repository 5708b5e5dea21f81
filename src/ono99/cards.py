"""Cards, actions and their text codes (RULES.md "Cards and codes").

Cards and actions are small ints so the engine can keep hands as plain lists and
index lookup tables with them; :class:`Card` names them for people.

>>> parse_action("P2") == Card.PLAY2
True
>>> action_code(Card.MINUS10)
'-10'
>>> action_code(FOUR_99)
'99x4'
"""

from __future__ import annotations

from enum import IntEnum

from ono99.errors import RecordError
from ono99.i18n import N_

__all__ = [
    "Card",
    "Action",
    "FOUR_99",
    "DRAW",
    "NUM_ACTIONS",
    "NUM_CARDS",
    "MAX_NUMBER",
    "HAND_SIZE",
    "FOUR_99_CARDS",
    "MINUS_TEN",
    "NINETY_NINE",
    "ACTION_CODES",
    "action_code",
    "parse_action",
    "parse_card",
]


class Card(IntEnum):
    """A card. Values 0..10 are the number cards with that face value."""

    N0 = 0
    N1 = 1
    N2 = 2
    N3 = 3
    N4 = 4
    N5 = 5
    N6 = 6
    N7 = 7
    N8 = 8
    N9 = 9
    N10 = 10
    MINUS10 = 11
    REVERSE = 12
    PLAY2 = 13
    HOLD = 14
    NINETY_NINE = 15


#: card types (the values of :class:`Card`, 0..15)
NUM_CARDS = len(Card)
#: the number cards are 0..MAX_NUMBER, each worth its face value
MAX_NUMBER = int(Card.N10)
#: R-SET-1: the cards dealt to each player (and the hand R-END-3 scores cards short of)
HAND_SIZE = 4
#: R-99-3: the ONO 99 cards discarded together (and the cards drawn for them)
FOUR_99_CARDS = 4
#: R-M10-1: what the Minus Ten card takes off the total
MINUS_TEN = 10
#: R-99-2: the total a 99 card sets (where it sets one)
NINETY_NINE = 99

#: An action is a card to play (0..15), :data:`FOUR_99` or :data:`DRAW`.
Action = int

#: R-99-3: discard four ONO 99 cards at once.
FOUR_99: Action = NUM_CARDS
#: R-DRAW-1: take the pending draw.
DRAW: Action = NUM_CARDS + 1
NUM_ACTIONS = NUM_CARDS + 2

ACTION_CODES: tuple[str, ...] = (
    "0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "10",
    "-10", "R", "P2", "H", "99", "99x4", "draw",
)  # fmt: skip

_PARSE: dict[str, int] = {code.lower(): i for i, code in enumerate(ACTION_CODES)}


def action_code(action: int) -> str:
    """The text code of a card or action, as used in records and the CLI."""
    return ACTION_CODES[action]


def parse_action(text: str) -> Action:
    """Parse a card code, ``99x4`` or ``draw`` (case-insensitive).

    Raises :class:`RecordError` for anything else.
    """
    if not isinstance(text, str):
        raise RecordError(N_("a move must be a string card code, not {value}"), value=repr(text))
    try:
        return _PARSE[text.strip().lower()]
    except KeyError:
        raise RecordError(N_("unknown card code {code}"), code=repr(text)) from None


def parse_card(text: str) -> int:
    """Parse a card code (not ``99x4`` or ``draw``)."""
    action = parse_action(text)
    if action >= FOUR_99:
        raise RecordError(N_("{code} is not a card"), code=repr(text))
    return action
