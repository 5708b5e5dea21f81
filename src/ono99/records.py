"""Game records (RULES.md R-REC): read, write, replay.

A record is the preset, options, players, seed, optional deals and the moves;
the state is rebuilt by replaying. Reading validates everything and raises
:class:`~ono99.errors.RecordError` (bad record) or :class:`ReplayError` (an
illegal move, with its 0-based index).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ono99.cards import action_code, parse_action, parse_card
from ono99.chance import SEED_LIMIT
from ono99.deals import Deal, parse_deal
from ono99.engine import EngineGame
from ono99.errors import IllegalAction, Ono99Error, RecordError
from ono99.game import Game, check_rng, check_seed
from ono99.i18n import N_
from ono99.names import NAME_LIMIT
from ono99.termsafe import short_repr

__all__ = [
    "ReplayError",
    "apply_move",
    "parse_record",
    "parse_deal",
    "load_record",
    "record_json",
    "replay",
    "to_record",
    "state_json",
    "full_state_json",
    "is_move_code",
    "ParsedRecord",
    "SEED_LIMIT",
    "RECORD_LIMIT",
    "KEYS",
    "NAME_LIMIT",
    "check_seed",
    "parse_json_int",
]

#: a record's keys (R-REC); any other is refused, not ignored: a key this reader does not
#: know may change how the record replays (as ``rng`` did), so replaying without it could
#: silently give another game. ``hinted``: the moves ``ono99 play`` made after a hint
#: (docs/records.md); it does not change the replay
KEYS = ("rules", "options", "players", "seed", "rng", "dealer", "deals", "moves", "hinted")
#: the largest game record read, in bytes: ``ono99 replay`` and ``POST /api/replay`` alike
RECORD_LIMIT = 1_000_000
#: the most digits a number in a record's JSON may have (2**256 has 78)
DIGITS_LIMIT = 80


class ReplayError(Ono99Error):
    """An illegal move in a record; ``move`` is its 0-based index."""

    def __init__(self, message: str, move: int, /, **params: Any) -> None:
        super().__init__(message, **params)
        self.move = move


@dataclass(slots=True, eq=False)
class ParsedRecord:
    """A validated record, ready to replay."""

    rules: str
    options: dict[str, Any]
    players: int | list[str]
    seed: int
    dealer: int | None
    deals: list[Deal]
    moves: list[str]
    #: the version of the seeded shuffle (R-REC ``rng``; 1 when the record has no key)
    rng: int = 1

    def new_game(self, events: bool = True) -> Game:
        """The game before any move (raises RecordError/RulesError on a bad record)."""
        return Game(
            self.rules,
            self.players,
            options=self.options,
            seed=self.seed,
            dealer=self.dealer,
            deals=self.deals,
            events=events,
            rng=self.rng,
        )


def _card_list(value: Any, where: str) -> list[int]:
    if not isinstance(value, list):
        raise RecordError(N_("{where} must be a list of card codes"), where=where)
    return [parse_card(c) if isinstance(c, str) else _bad_card(c, where) for c in value]


def _bad_card(value: Any, where: str) -> int:
    raise RecordError(
        N_('{where}: {value} is not a card code (use strings such as "7")'),
        where=where, value=repr(value),
    )  # fmt: skip


def _check_name(name: str, seat: int) -> None:
    if not name.strip():
        raise RecordError(N_("the name of seat {seat} is empty"), seat=seat)
    if len(name) > NAME_LIMIT:
        raise RecordError(
            N_("the name of seat {seat} has {length} characters; at most {limit} are allowed"),
            seat=seat, length=len(name), limit=NAME_LIMIT,
        )  # fmt: skip
    # No other test: a record from elsewhere whose names hold control characters still
    # replays (every front end shows names through termsafe/escaping); the tables and the
    # companion refuse such names when they are typed (ono99.names), so ono99 writes none.


def parse_json_int(digits: str) -> int:
    """``parse_int`` for :func:`json.loads`: an integer of more than DIGITS_LIMIT digits
    is a RecordError before Python is asked to convert it (it refuses over 4300)."""
    if len(digits.lstrip("-")) > DIGITS_LIMIT:
        raise RecordError(
            N_("a number has {digits} digits; at most {limit} are allowed"),
            digits=len(digits.lstrip("-")), limit=DIGITS_LIMIT,
        )  # fmt: skip
    return int(digits)


def parse_record(data: Any) -> ParsedRecord:
    """Validate a decoded JSON record (R-REC); the first fault found is the one told."""
    if not isinstance(data, Mapping):
        raise RecordError(N_("a game record must be a JSON object"))
    unknown = [key for key in data if key not in KEYS]
    if unknown:
        raise RecordError(
            N_("a game record has no key {key} (it takes {keys})"),
            key=short_repr(unknown[0]), keys=", ".join(KEYS),
        )  # fmt: skip
    rules = data.get("rules", "mattel2022")
    if not isinstance(rules, str):
        raise RecordError(N_("'rules' must be a preset name, not {value}"), value=repr(rules))
    options = data.get("options", {})
    if options is None:
        options = {}
    if not isinstance(options, Mapping):
        raise RecordError(N_("'options' must be a JSON object"))
    players = _players(data)
    seed = check_seed(data.get("seed", 0), "'seed'")
    rng = check_rng(data.get("rng", 1), "'rng'")
    dealer = _dealer(data.get("dealer"), players if isinstance(players, int) else len(players))
    deals = _deals(data.get("deals"))
    moves = data.get("moves", [])
    if not isinstance(moves, list):
        raise RecordError(N_("'moves' must be a list of card codes"))
    return ParsedRecord(rules, dict(options), players, seed, dealer, deals, list(moves), rng)


def _players(data: Mapping[str, Any]) -> int | list[str]:
    if "players" not in data:
        raise RecordError(N_("the record has no 'players'"))
    players = data["players"]
    if isinstance(players, bool) or not isinstance(players, (int, list)):
        raise RecordError(N_("'players' must be a count or a list of names"))
    if isinstance(players, int) and not 0 <= players <= 99:
        raise RecordError(
            N_("'players' must be a count from 2 to 8 or a list of names, not {value}"),
            value=short_repr(players),
        )
    if isinstance(players, list):
        if not all(isinstance(p, str) for p in players):
            raise RecordError(N_("'players' names must be strings"))
        for seat, name in enumerate(players):
            _check_name(name, seat)
    return players


def _dealer(dealer: Any, count: int) -> int | None:
    if dealer is None:
        return None
    if isinstance(dealer, bool) or not isinstance(dealer, int):
        raise RecordError(
            N_("'dealer' must be a seat number, not {value}"), value=short_repr(dealer)
        )
    if not 0 <= dealer < max(count, 1):
        raise RecordError(
            N_("dealer must be a seat from 0 to {last}, not {value}"),
            last=max(count, 1) - 1, value=short_repr(dealer),
        )  # fmt: skip
    return dealer


def _deals(raw: Any) -> list[Deal]:
    if raw is None:
        return []
    if not isinstance(raw, list):
        raise RecordError(N_("'deals' must be a list"))
    deals: list[Deal] = []
    for i, d in enumerate(raw):
        where = f"deals[{i}]"
        if not isinstance(d, Mapping):
            raise RecordError(N_("{where} must be an object with 'hands' and 'draw'"), where=where)
        hands = d.get("hands")
        if not isinstance(hands, list):
            raise RecordError(N_("{where} needs 'hands', a list of card-code lists"), where=where)
        deals.append(
            (
                [_card_list(h, f"{where}.hands[{s}]") for s, h in enumerate(hands)],
                _card_list(d.get("draw", []), f"{where}.draw"),
            )
        )
    return deals


def record_json(text: str) -> Any:
    """A record's JSON text, parsed (a leading UTF-8 byte order mark is ignored); text that
    is not JSON is a :class:`RecordError` saying where."""
    try:
        data = json.loads(text.removeprefix("\ufeff"), parse_int=parse_json_int)
    except json.JSONDecodeError as e:
        raise RecordError(
            N_("not valid JSON (line {line}, column {column})"), line=e.lineno, column=e.colno
        ) from None
    except RecursionError:
        raise RecordError(N_("not valid JSON: nested too deeply")) from None
    if "\\u" in text and _lone_surrogate(data):
        # "\ud800" alone is JSON, but no text: it could be neither shown nor written out
        raise RecordError(N_("the record holds text that is not valid Unicode (a lone surrogate)"))
    return data


def _lone_surrogate(data: Any) -> bool:
    """Whether any string in ``data`` holds a lone UTF-16 surrogate."""
    try:
        json.dumps(data, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        return True
    except (ValueError, RecursionError):  # deeper than json.dumps goes: parsed, so fine
        return False
    return False


def load_record(text: str) -> ParsedRecord:
    """Parse record JSON text (a leading UTF-8 byte order mark is ignored)."""
    return parse_record(record_json(text))


def replay(record: ParsedRecord | Mapping[str, Any], events: bool = True) -> Game:
    """Replay a record to its final state.

    Raises RecordError (bad record) or ReplayError (first illegal move)."""
    rec = record if isinstance(record, ParsedRecord) else parse_record(record)
    game = rec.new_game(events=events)
    for i, move in enumerate(rec.moves):
        apply_move(game, i, move)
    return game


def apply_move(game: Game, index: int, move: Any) -> int:
    """Apply move ``index`` of a record to ``game``; returns the seat that made it.

    Raises ReplayError (naming ``index``) for a move that is not a move code or is
    illegal now, and RecordError when the move ends a round whose given deal does
    not fit the seats still in the game (the record is bad, not the move); either
    way the game is left as it was."""
    try:
        action = parse_action(move)
    except RecordError as e:
        raise ReplayError(
            N_("move {index} ({move}): {reason}"), index, index=index, move=repr(move), reason=e
        ) from None
    try:
        return game.apply(action)
    except IllegalAction as e:
        raise ReplayError(
            N_("move {index} ({move}): {reason}"), index, index=index, move=repr(move), reason=e
        ) from None


def to_record(game: Game) -> dict[str, Any]:
    """The record of ``game`` so far: replaying it rebuilds the same state."""
    default_names = [f"Player {i + 1}" for i in range(game.n)]
    return {
        "rules": game.rules.preset,
        "options": dict(game.rules.options),
        "players": game.n if game.names == default_names else list(game.names),
        "seed": game.seed,
        "rng": game.rng,
        "dealer": game.dealer,
        "deals": [
            {
                "hands": [[action_code(c) for c in h] for h in hands],
                "draw": [action_code(c) for c in draw],
            }
            for hands, draw in game.dealt
        ],
        "moves": [action_code(a) for a in game.moves],
    }


def state_json(game: Game) -> dict[str, Any]:
    """The full state (every hand) as the R-REC replay JSON."""
    return full_state_json(game, len(game.draw_pile), len(game.moves))


def full_state_json(game: EngineGame, draw_pile: int, moves: int) -> dict[str, Any]:
    """The R-REC replay JSON of either engine's game (the reference's :class:`Game`, the
    fast engine's ``FastGame``), given its draw pile's and moves' counts."""
    w = game.winner
    return {
        "rules": game.rules.preset,
        "options": dict(game.rules.options),
        "players": list(game.names),
        "total": game.total,
        "direction": game.direction,
        "to_move": game.to_move,
        "hands": [[action_code(c) for c in h] for h in game.hands],
        "draw_pile": draw_pile,
        "discard": [action_code(c) for c in game.discard],
        "out": list(game.out),
        "tokens": None if game.tokens is None else list(game.tokens),
        "scores": None if game.scores is None else list(game.scores),
        "round": game.round,
        "winner": list(w) if isinstance(w, list) else w,
        "owes_two": game.owes_two,
        "pending_draw": game.pending_draw,
        "moves": moves,
    }


def is_move_code(move: object) -> bool:
    """Whether ``move`` is written as a move (a card code, ``99x4``, ``draw``), legal or not."""
    try:
        parse_action(move)  # type: ignore[arg-type]
    except RecordError:
        return False
    return True
