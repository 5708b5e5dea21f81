"""How a game is scored and won: one policy object per mode (RULES.md R-END).

A :class:`~ono99.rules.Rules` carries its :class:`Scoring`; the engine, the views, the
bots and the front ends ask it rather than branch on mode names. Exactly one of the
three bust flags is true:

- :class:`Elimination` (``mattel2022``, R-END-1): a bust puts the player out of the
  game, hand laid face up; the last player left wins.
- :class:`Tokens` (``classic1980`` default, ``gamerules``, R-END-2): a bust ends the
  round and costs a token; busting with none left puts the player out.
- :class:`Points` (``classic1980`` ``scoring="points"``, R-END-3): a player with no
  safe card throws an unsafe one and is out of the round; when one is left, the cards
  in hand score; ``end`` says what the target does (``"elimination"`` or ``"lowest"``).

>>> p = Points(target=100, end="lowest")
>>> p.bust_throws_card, p.start_scores(3), p.game_over([40, 101, 70], [0, 1, 2])
(True, [0, 0, 0], ([], 0))
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from ono99.cards import HAND_SIZE
from ono99.i18n import N_

__all__ = [
    "Scoring", "Elimination", "Tokens", "Points", "CARD_POINTS", "SHORT_CARD_POINTS",
    "hand_points",
]  # fmt: skip

#: R-END-3 points for each card left in hand (index = card int).
CARD_POINTS = (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 15, 15, 15, 15, 20)
#: R-END-3: points for each card a hand is short of HAND_SIZE
SHORT_CARD_POINTS = 15


def hand_points(hand: Sequence[int]) -> int:
    """R-END-3 score of a hand: card values plus 15 per card short of four.

    >>> hand_points([15, 13, 4, 5])  # 99, P2, 4, 5: the seed's worked example
    44
    """
    return sum(CARD_POINTS[c] for c in hand) + SHORT_CARD_POINTS * max(0, HAND_SIZE - len(hand))


@dataclass(frozen=True, slots=True)
class Scoring:
    """A scoring mode: what a bust costs and how the game is won."""

    #: the mode's name in records and options: "elimination", "tokens" or "points"
    name: ClassVar[str]
    #: R-END-1: a bust puts the player out of the game, hand laid face up
    bust_eliminates: ClassVar[bool] = False
    #: R-END-3: a player with no safe card throws an unsafe card, out of the round
    bust_throws_card: ClassVar[bool] = False
    #: R-END-3: the cards left in hand count against their holder
    counts_hand_points: ClassVar[bool] = False
    #: the mode in one sentence for the rules help (an English template, translated
    #: where shown; ``{target}`` is the points target)
    help: ClassVar[str]

    def start_tokens(self, players: int) -> list[int] | None:
        """Each seat's tokens at the start (R-SET-4), or None when the mode has none."""
        return None

    def start_scores(self, players: int) -> list[int] | None:
        """Each seat's score at the start, or None when the mode keeps no score."""
        return None


@dataclass(frozen=True, slots=True)
class Elimination(Scoring):
    name: ClassVar[str] = "elimination"
    bust_eliminates: ClassVar[bool] = True
    help: ClassVar[str] = N_(
        "A player with no safe card is out of the game. The last player left wins."
    )


@dataclass(frozen=True, slots=True)
class Tokens(Scoring):
    name: ClassVar[str] = "tokens"
    help: ClassVar[str] = N_(
        "A player with no safe card loses the round and a token; with no tokens "
        "left they are out. The last player left wins."
    )
    #: tokens each player starts with (R-SET-4)
    tokens: int = 3

    def start_tokens(self, players: int) -> list[int] | None:
        return [self.tokens] * players


@dataclass(frozen=True, slots=True)
class Points(Scoring):
    name: ClassVar[str] = "points"
    bust_throws_card: ClassVar[bool] = True
    counts_hand_points: ClassVar[bool] = True
    help: ClassVar[str] = N_(
        "A player with no safe card gives up a number card and is out of the round. "
        "When one player is left, everyone scores the cards in hand (numbers: face "
        "value, 99: 20, other cards: 15, out of the round: 25). At {target} points "
        "a player is out; fewest points wins."
    )
    #: R-END-3 points per player that end the game or put a player out
    target: int = 100
    #: "elimination": at the target a player is out; "lowest": the game ends
    end: str = "elimination"
    #: points for being out of the round
    OUT_OF_ROUND: ClassVar[int] = 25

    def start_scores(self, players: int) -> list[int] | None:
        return [0] * players

    def round_points(self, hand: Sequence[int], out_of_round: bool) -> int:
        """What one player still in the game scores at the end of a round (R-END-3)."""
        return hand_points(hand) + (self.OUT_OF_ROUND if out_of_round else 0)

    def game_over(
        self, scores: Sequence[int], alive: Sequence[int]
    ) -> tuple[list[int], int | list[int] | None]:
        """After a round's scores are added: the seats now eliminated (in seat order) and
        the winner (a seat, a list of seats for a shared win, or None to play on).
        ``alive`` lists the seats in the game before this round's eliminations."""
        if self.end == "lowest":
            if any(scores[s] >= self.target for s in alive):
                return [], _fewest(scores, alive)
            return [], None
        over = [s for s in alive if scores[s] >= self.target]
        left = [s for s in alive if s not in over]
        if len(left) == 1:
            return over, left[0]
        if not left:
            return over, _fewest(scores, over)
        return over, None


def _fewest(scores: Sequence[int], seats: Sequence[int]) -> int | list[int]:
    best = min(scores[s] for s in seats)
    winners = [s for s in seats if scores[s] == best]
    return winners[0] if len(winners) == 1 else winners
