"""What one player may know: :class:`PlayerView` (RULES.md R-SET-1, hidden hands).

A view is built from the game for one seat and holds nothing hidden from that
seat: its own hand, hand sizes of the others, the public piles and counters.
A :class:`PublicView` is what everyone may know (a spectator's view): no hand at
all. Bots and front ends receive views, never the game.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ono99.cards import action_code
from ono99.rules import Rules

if TYPE_CHECKING:
    from ono99.game import Game

__all__ = ["PublicView", "PlayerView", "view_of", "public_view"]


@dataclass(frozen=True, slots=True)
class PublicView:
    """What every player and spectator may know: no hand, no draw order."""

    rules: Rules
    names: tuple[str, ...]
    hand_sizes: tuple[int, ...]
    total: int
    direction: int
    to_move: int | None
    owes_two: int | None
    #: plays the player to move still owes this turn (2 before the first of two)
    plays_left: int
    #: an ONO 99 card was played this turn (R-99-5)
    played_99: bool
    #: the discard pile, bottom first (public: every card was played face up)
    discard: tuple[int, ...]
    draw_pile: int
    #: hands laid face up by eliminated players (R-END-1); empty tuples otherwise
    laid_down: tuple[tuple[int, ...], ...]
    alive: tuple[bool, ...]
    #: taking turns in this round
    active: tuple[bool, ...]
    out: tuple[int, ...]
    round_out: tuple[int, ...]
    tokens: tuple[int, ...] | None
    scores: tuple[int, ...] | None
    round: int
    winner: int | tuple[int, ...] | None
    pending_draw: int | None
    #: number of reshuffles so far (the discard pile returned to the draw pile)
    reshuffles: int

    @property
    def players(self) -> int:
        return len(self.names)

    @property
    def is_over(self) -> bool:
        return self.to_move is None

    def to_json(self) -> dict[str, Any]:
        """The view as JSON-ready data with card codes (``seat`` null, ``hand`` and
        ``legal`` empty: a spectator's view)."""
        w = self.winner
        return {
            "seat": None,
            "rules": self.rules.preset,
            "options": dict(self.rules.options),
            "names": list(self.names),
            "hand": [],
            "hand_sizes": list(self.hand_sizes),
            "total": self.total,
            "direction": self.direction,
            "to_move": self.to_move,
            "owes_two": self.owes_two,
            "plays_left": self.plays_left,
            "legal": [],
            "bust_mode": False,
            "discard": [action_code(c) for c in self.discard],
            "draw_pile": self.draw_pile,
            "laid_down": [[action_code(c) for c in h] for h in self.laid_down],
            "out": list(self.out),
            "round_out": list(self.round_out),
            "tokens": None if self.tokens is None else list(self.tokens),
            "scores": None if self.scores is None else list(self.scores),
            "round": self.round,
            "winner": list(w) if isinstance(w, tuple) else w,
            "pending_draw": self.pending_draw,
        }


@dataclass(frozen=True, slots=True)
class PlayerView(PublicView):
    """What seat ``seat`` may know: the public view and its own hand and moves."""

    seat: int
    hand: tuple[int, ...]
    #: the actions this seat may make now (empty when it may not act)
    legal: tuple[int, ...]
    #: the legal cards are unsafe plays of a points-mode bust (R-END-3)
    bust_mode: bool

    @property
    def is_my_turn(self) -> bool:
        return bool(self.legal)

    def to_json(self) -> dict[str, Any]:
        """The view as JSON-ready data with card codes."""
        out = PublicView.to_json(self)
        out["seat"] = self.seat
        out["hand"] = [action_code(c) for c in self.hand]
        out["legal"] = [action_code(a) for a in self.legal]
        out["bust_mode"] = self.bust_mode
        return out


def _public_fields(game: Game) -> tuple[Any, ...]:
    """The :class:`PublicView` fields of ``game``, in field order (positional: views are
    built at every decision of every player in the search bots' rollouts)."""
    n = game.n
    alive = game.alive
    if game.rules.scoring.bust_eliminates and not all(alive):  # R-END-1: face up
        laid = tuple(tuple(h) if not alive[s] else () for s, h in enumerate(game.hands))
    else:
        laid = ((),) * n
    w = game.winner
    tokens = game.tokens
    scores = game.scores
    return (
        game.rules,
        tuple(game.names),
        tuple([len(h) for h in game.hands]),
        game.total,
        game.direction,
        game.to_move,
        game.owes_two,
        game.plays_left,
        game.played_99,
        tuple(game.discard),
        len(game.draw_pile),
        laid,
        tuple(alive),
        tuple(game.active),
        tuple(game.out),
        tuple(game.round_out),
        None if tokens is None else tuple(tokens),
        None if scores is None else tuple(scores),
        game.round,
        tuple(w) if isinstance(w, list) else w,
        game.pending_draw,
        game.reshuffles,
    )


def public_view(game: Game) -> PublicView:
    """What everyone may know of ``game`` (a spectator's view)."""
    return PublicView(*_public_fields(game))


def view_of(game: Game, seat: int) -> PlayerView:
    """Build seat ``seat``'s view of ``game``."""
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < game.n:
        raise ValueError(f"no seat {seat!r} in a {game.n}-player game")
    own = (
        seat,
        tuple(game.hands[seat]),
        game.legal_actions(seat),
        game.must_bust_play and seat == game.to_move,
    )
    return PlayerView(*(_public_fields(game) + own))
