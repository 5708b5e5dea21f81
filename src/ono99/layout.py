"""The observation vector's layout, declared once.

The environments' encoder (:mod:`ono99.envs.encoding`, from a view) and the compiled one
(:mod:`ono99.fast.obs`, from the fast engine's state) both write by these names;
:func:`ono99.envs.encoding.field_names` (and docs/envs.md) name every index from them. Plain
ints, so compiled code reads them as constants.

>>> SEATS_AT, PER_SEAT, SEATS_AT + PER_SEAT + ALIVE  # the next seat's alive flag
(54, 9, 64)
"""

from __future__ import annotations

from ono99 import cards

__all__ = [
    "NUM_CARDS", "GLOBAL_FIELDS", "SEAT_FIELDS", "GLOBAL_AT", "DISCARD_AT", "LAID_AT",
    "SEATS_AT", "PER_SEAT", "TOTAL_LOW", "TOTAL_HIGH", "SCORE_SLACK",
    "TOTAL", "DIRECTION", "PLAYS_LEFT", "PLAYED_99", "BUST_MODE", "DRAW_PILE",
    "HAND_SIZE", "ALIVE", "ACTIVE", "TO_MOVE", "OWES_TWO", "PENDING_DRAW", "WINNER", "TOKENS",
    "SCORE",
]  # fmt: skip

#: card types 0..15 (``ono99.cards.Card``): the hand, the discard pile and the laid-down hands
#: are counted per card type
NUM_CARDS = cards.NUM_CARDS
#: the public counters, after the observer's hand
GLOBAL_FIELDS = ("total", "direction", "plays_left", "played_99", "bust_mode", "draw_pile")
#: the per-seat fields, in order, repeated for every seat (relative to the observer)
SEAT_FIELDS = (
    "hand_size", "alive", "active", "to_move", "owes_two", "pending_draw", "winner", "tokens",
    "score",
)  # fmt: skip

# where each block starts: hand (0), counters, discard pile, laid-down hands, seats
GLOBAL_AT = NUM_CARDS
DISCARD_AT = GLOBAL_AT + len(GLOBAL_FIELDS)
LAID_AT = DISCARD_AT + NUM_CARDS
SEATS_AT = LAID_AT + NUM_CARDS
PER_SEAT = len(SEAT_FIELDS)

#: the total is clipped to [TOTAL_LOW, TOTAL_HIGH] (the 1980 decks let it go negative,
#: R-M10-1; far below -100 has never been seen)
TOTAL_LOW = -990
TOTAL_HIGH = cards.NINETY_NINE
#: scores are clipped to target + SCORE_SLACK (a round adds far less, R-END-3)
SCORE_SLACK = 1000

# the counters' indices
TOTAL = GLOBAL_AT + GLOBAL_FIELDS.index("total")
DIRECTION = GLOBAL_AT + GLOBAL_FIELDS.index("direction")
PLAYS_LEFT = GLOBAL_AT + GLOBAL_FIELDS.index("plays_left")
PLAYED_99 = GLOBAL_AT + GLOBAL_FIELDS.index("played_99")
BUST_MODE = GLOBAL_AT + GLOBAL_FIELDS.index("bust_mode")
DRAW_PILE = GLOBAL_AT + GLOBAL_FIELDS.index("draw_pile")
# a field's place within a seat's block
HAND_SIZE = SEAT_FIELDS.index("hand_size")
ALIVE = SEAT_FIELDS.index("alive")
ACTIVE = SEAT_FIELDS.index("active")
TO_MOVE = SEAT_FIELDS.index("to_move")
OWES_TWO = SEAT_FIELDS.index("owes_two")
PENDING_DRAW = SEAT_FIELDS.index("pending_draw")
WINNER = SEAT_FIELDS.index("winner")
TOKENS = SEAT_FIELDS.index("tokens")
SCORE = SEAT_FIELDS.index("score")
