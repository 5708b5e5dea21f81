"""``POST /api/replay``: a finished game's record, as the state after every move.

The page's replay viewer posts a record (R-REC, e.g. from
``GET /api/tables/{ID}/record`` or a file) and steps through the answer forward and
back. Everything comes from the engine's public API (:func:`ono99.parse_record`,
``Game.apply``, :func:`ono99.state_json`): the viewer computes nothing. A record is
public once its game is over, so every hand is shown. Each event carries its
announcement (``text``, the server's narration in the language of ``?lang=``), so the
page tells a replay in the same words as the live game.

A seed beyond 2^53 (a 128-bit seed is the rule) loses digits in a browser's
``JSON.parse``; the page keeps it exact, and a seed sent as a string of digits is taken
as that integer, so either form replays.

>>> rec = {"rules": "mattel2022", "players": ["Ana", "Bo"], "seed": 1, "moves": []}
>>> steps = replay_steps(rec)
>>> len(steps), steps[0]["move"], steps[0]["state"]["total"]
(1, None, 0)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ono99 import parse_record, state_json
from ono99.cards import action_code
from ono99.errors import Ono99Error, RecordError
from ono99.events import Event
from ono99.i18n import N_
from ono99.narrate import narrate
from ono99.records import ReplayError, apply_move, record_json
from ono99.rules import Rules
from ono99.web.announce import catalog, request_language, speaking, translate

if TYPE_CHECKING:
    from fastapi import APIRouter

__all__ = ["MAX_MOVES", "replay_steps", "event_json", "parse_body", "digit_seed", "make_router"]

#: longest record the endpoint replays (a long points game has a few thousand moves)
MAX_MOVES = 20_000


def _codes(value: Any) -> Any:
    if isinstance(value, list | tuple):
        return [_codes(v) for v in value]
    if isinstance(value, int) and not isinstance(value, bool):
        return action_code(value)
    return value


def event_json(
    event: Event, names: Sequence[str] | None = None, rules: Rules | None = None
) -> dict[str, Any]:
    """An engine event as JSON, cards as codes (drawn cards included: the record is
    public); with ``names`` and ``rules`` also its announcement ``text`` for a spectator,
    in the language of the ``speaking`` block around the call."""
    info = None
    if event.info is not None:
        info = {k: _codes(v) if k in ("cards", "hands") else v for k, v in event.info.items()}
    out: dict[str, Any] = {
        "kind": event.kind,
        "seat": event.seat,
        "card": None if event.card is None else action_code(event.card),
        "total": event.total,
        "info": info,
    }
    if names is not None and rules is not None:
        out["text"] = narrate(event, names, rules, you=None)
    return out


def digit_seed(record: Any) -> Any:
    """``record`` with a seed given as a string of digits made an integer."""
    if isinstance(record, dict):
        seed = record.get("seed")
        if isinstance(seed, str) and 0 < len(seed) <= 100 and seed.isascii() and seed.isdigit():
            return {**record, "seed": int(seed)}
    return record


def replay_steps(record: Any, lang: str = "en") -> list[dict[str, Any]]:
    """The state before the first move and after each move of ``record``:
    ``[{"index", "move", "seat", "state", "events"}]`` (``state`` as R-REC's replay JSON,
    ``events`` the announcements of that move, told in ``lang``). Raises
    :class:`ono99.RecordError` or :class:`ono99.ReplayError` (a bad record, an illegal
    move) like ``ono99 replay``.

    >>> rec = {"rules": "mattel2022", "players": ["Ana", "Bo"], "seed": str(2**127), "moves": []}
    >>> replay_steps(rec, "ta")[0]["events"][0]["text"]
    'சுற்று 1: Ana தொடங்குகிறார்'
    """
    with speaking(lang):
        return _steps(parse_record(digit_seed(record)))


def _steps(parsed: Any) -> list[dict[str, Any]]:
    if len(parsed.moves) > MAX_MOVES:
        raise RecordError(
            N_("a record of at most {count} moves can be replayed here"), count=MAX_MOVES
        )
    game = parsed.new_game(events=True)
    names, rules = game.names, game.rules
    events = game.events if game.events is not None else []
    seen = len(events)
    steps: list[dict[str, Any]] = [
        {
            "index": 0,
            "move": None,
            "seat": None,
            "state": state_json(game),
            "events": [event_json(e, names, rules) for e in events[:seen]],
        }
    ]
    for i, move in enumerate(parsed.moves):
        seat = apply_move(game, i, move)
        events = game.events if game.events is not None else []
        steps.append(
            {
                "index": i + 1,
                "move": str(move),
                "seat": seat,
                "state": state_json(game),
                "events": [event_json(e, names, rules) for e in events[seen:]],
            }
        )
        seen = len(events)
    return steps


def parse_body(body: bytes) -> Any:
    """A posted record's JSON, every failure a :class:`RecordError` worded as
    ``ono99 replay`` words a file's (the catalogs translate it), never Python's own English.

    >>> parse_body(b'\\xef\\xbb\\xbf{"players": 2}')  # a byte order mark is ignored
    {'players': 2}
    >>> parse_body(b'{"players": 2,')
    Traceback (most recent call last):
    ...
    ono99.errors.RecordError: not valid JSON (line 1, column 15)
    """
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        raise RecordError(N_("the record is not UTF-8 text")) from None
    return record_json(text)


def make_router() -> APIRouter:
    """A FastAPI router with ``POST /api/replay`` (body: a record; 200 ``{"steps": [...]}``,
    400 ``{"error", "move"}`` for a bad record or an illegal move). Mount it with
    ``app.include_router(make_router())``."""
    from fastapi import APIRouter
    from fastapi.responses import JSONResponse
    from starlette.requests import Request

    from ono99.web.guards import RECORD_LIMIT, TOO_LARGE

    router = APIRouter()

    async def post_replay(request: Request) -> JSONResponse:
        lang = request_language(request)
        body = await request.body()
        if len(body) > RECORD_LIMIT:  # the router mounted without the guard: the same answer
            return JSONResponse({"error": catalog(lang).gettext(TOO_LARGE), "move": None}, 413)
        try:
            steps = replay_steps(parse_body(body), lang)
        except ReplayError as e:
            return JSONResponse({"error": translate(e, lang)[:300], "move": e.move}, 400)
        except (Ono99Error, ValueError, TypeError, RecursionError) as e:
            return JSONResponse({"error": translate(e, lang)[:300], "move": None}, 400)
        return JSONResponse({"steps": steps})

    # a plain Starlette route: the request is passed as it is (no annotation lookups)
    router.add_route("/api/replay", post_replay, methods=["POST"])
    return router
