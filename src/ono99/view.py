"""What one player may know: :class:`PlayerView` (RULES.md R-SET-1, hidden hands).

A view is built from the game for one seat and holds nothing hidden from that
seat: its own hand, hand sizes of the others, the public piles and counters.
A :class:`PublicView` is what everyone may know (a spectator's view): no hand at
all. Bots and front ends receive views, never the game.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Any, Literal, cast

from ono99.cards import action_code
from ono99.rules import Rules

if TYPE_CHECKING:
    from ono99.engine import ViewedGame

__all__ = [
    "VIEW_JSON", "JsonKey", "PublicView", "PlayerView", "view_of", "public_view", "lobby_view",
]  # fmt: skip


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
    #: the round each seat of ``out`` left the game in, in ``out``'s order (the places of
    #: R-END-3, :func:`ono99.texts.final_places`; not part of the view's JSON)
    out_rounds: tuple[int, ...]

    @property
    def players(self) -> int:
        return len(self.names)

    @property
    def is_over(self) -> bool:
        return self.to_move is None

    def to_json(self) -> dict[str, Any]:
        """The view as JSON-ready data with card codes, key by key as :data:`VIEW_JSON`
        declares (a spectator's: ``seat`` null, ``hand`` and ``legal`` empty)."""
        return _PUBLIC_JSON(self)


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
        """The view as JSON-ready data with card codes, as :data:`VIEW_JSON` declares."""
        return _PLAYER_JSON(self)


def _public_fields(game: ViewedGame) -> tuple[Any, ...]:
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
        tuple(game.out_rounds),
    )


def public_view(game: ViewedGame) -> PublicView:
    """What everyone may know of ``game`` (a spectator's view)."""
    return PublicView(*_public_fields(game))


def lobby_view(rules: Rules, names: Sequence[str]) -> PublicView:
    """The public view of a table before its first deal (R-SET-1 not yet done): its seats,
    no cards, nobody to move."""
    n = len(names)
    return PublicView(
        rules, tuple(names), (0,) * n, 0, 1, None, None, 1, False, (), 0, ((),) * n,
        (True,) * n, (True,) * n, (), (), None, None, 0, None, None, 0, (),
    )  # fmt: skip


def view_of(game: ViewedGame, seat: int) -> PlayerView:
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


# ------------------------------------------------------------------ the view as JSON
# The one declaration of what a view looks like as JSON: every front end that sends a view
# (the web table, the environments' info) writes it with ``to_json``, the web protocol's
# message type (``ono99.web.protocol.ViewOut``) and its JSON Schema are built from these
# keys, and docs/protocol.md lists them (tests/web/test_web_schema.py holds all to this).


def _same(v: Any) -> Any:
    return v


@dataclass(frozen=True, slots=True)
class JsonKey:
    """One key of a view's JSON: where it comes from, how it is written, its JSON type
    (for the schema) and what it means."""

    name: str
    type: Any
    doc: str
    write: Callable[[Any], Any] = _same
    #: the view's attribute it is written from (default: ``name``)
    source: str = ""
    #: its value where the view has no such attribute (a spectator's view has no seat)
    missing: Any = None

    def __post_init__(self) -> None:
        if not self.source:
            object.__setattr__(self, "source", self.name)


def _listed(v: Any) -> Any:
    return None if v is None else list(v)


def _codes(cards: Any) -> list[str]:
    return [action_code(c) for c in cards]


VIEW_JSON: tuple[JsonKey, ...] = (
    JsonKey("seat", int | None, "this view's seat; null for a spectator"),
    JsonKey("rules", str, "the preset", lambda r: r.preset),
    JsonKey("options", dict[str, Any], "the preset's options that differ",
            lambda r: dict(r.options), "rules"),
    JsonKey("names", list[str], "the players' names, by seat", list),
    JsonKey("hand", list[str], "this seat's cards (card codes); [] for a spectator",
            _codes, missing=()),
    JsonKey("hand_sizes", list[int], "how many cards each seat holds", list),
    JsonKey("total", int, "the running total (R-TURN-1)"),
    JsonKey("direction", Literal[1, -1], "1 clockwise, -1 counter-clockwise (R-REV-1)"),
    JsonKey("to_move", int | None, "the seat to move; null once the game is over"),
    JsonKey("owes_two", int | None, "the seat that owes a second card (Play 2, R-P2)"),
    JsonKey("plays_left", int, "plays the seat to move still owes this turn"),
    JsonKey("legal", list[str], "the action codes this seat may make now", _codes,
            missing=()),
    JsonKey("bust_mode", bool, "the legal cards are unsafe plays of a points bust (R-END-3)",
            missing=False),
    JsonKey("discard", list[str], "the discard pile, bottom first", _codes),
    JsonKey("draw_pile", int, "cards left in the draw pile"),
    JsonKey("laid_down", list[list[str]], "hands laid face up (R-END-1), per seat",
            lambda hands: [_codes(h) for h in hands]),
    JsonKey("out", list[int], "seats out of the game, in order", list),
    JsonKey("round_out", list[int], "seats out of this round, in order", list),
    JsonKey("tokens", list[int] | None, "each seat's tokens (R-END-2); null without them",
            _listed),
    JsonKey("scores", list[int] | None, "each seat's points (R-END-3); null without them",
            _listed),
    JsonKey("round", int, "the round, from 1"),
    JsonKey("winner", int | list[int] | None,
            "the winning seat, the seats of a shared win, or null",
            lambda w: list(w) if isinstance(w, tuple) else w),
    JsonKey("pending_draw", int | None, "the seat whose draw is pending (R-DRAW-1)"),
)  # fmt: skip


def _json_writer(cls: type) -> Callable[[Any], dict[str, Any]]:
    """``to_json`` of ``cls``, written out from :data:`VIEW_JSON` once (as dataclasses
    writes ``__init__``): the plain dict display a hand-written one would be, since it
    runs for every connection at every move of a web table."""
    have = {f.name for f in fields(cls)}
    ns: dict[str, Any] = {}
    items = []
    for i, k in enumerate(VIEW_JSON):
        ns[f"w{i}"], ns[f"m{i}"] = k.write, k.missing
        value = f"self.{k.source}" if k.source in have else f"m{i}"
        items.append(f"{k.name!r}: {value if k.write is _same else f'w{i}({value})'}")
    exec(f"def to_json(self):\n    return {{{', '.join(items)}}}\n", ns)
    return cast("Callable[[Any], dict[str, Any]]", ns["to_json"])


_PUBLIC_JSON = _json_writer(PublicView)
_PLAYER_JSON = _json_writer(PlayerView)
