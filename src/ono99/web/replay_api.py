"""``POST /api/replay``: a finished game's record, as the state after every move.

The page's replay viewer posts a record (R-REC, e.g. from
``GET /api/tables/{ID}/record`` or a file) and steps through the answer forward and
back. Everything comes from the engine's public API (:func:`ono99.parse_record`,
``Game.apply``, :func:`ono99.state_json`): the viewer computes nothing. A record is
public once its game is over, so every hand is shown.

>>> rec = {"rules": "mattel2022", "players": ["Ana", "Bo"], "seed": 1, "moves": []}
>>> steps = replay_steps(rec)
>>> len(steps), steps[0]["move"], steps[0]["state"]["total"]
(1, None, 0)
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from ono99 import parse_record, state_json
from ono99.cards import action_code
from ono99.errors import Ono99Error
from ono99.events import Event
from ono99.records import ReplayError, apply_move

if TYPE_CHECKING:
    from fastapi import APIRouter

__all__ = ["MAX_MOVES", "replay_steps", "event_json", "make_router"]

#: longest record the endpoint replays (a long points game has a few thousand moves)
MAX_MOVES = 20_000


def _codes(value: Any) -> Any:
    if isinstance(value, list | tuple):
        return [_codes(v) for v in value]
    if isinstance(value, int) and not isinstance(value, bool):
        return action_code(value)
    return value


def event_json(event: Event) -> dict[str, Any]:
    """An engine event as JSON, cards as codes (drawn cards included: the record is public)."""
    info = None
    if event.info is not None:
        info = {k: _codes(v) if k in ("cards", "hands") else v for k, v in event.info.items()}
    return {
        "kind": event.kind,
        "seat": event.seat,
        "card": None if event.card is None else action_code(event.card),
        "total": event.total,
        "info": info,
    }


def replay_steps(record: Any) -> list[dict[str, Any]]:
    """The state before the first move and after each move of ``record``:
    ``[{"index", "move", "seat", "state", "events"}]`` (``state`` as R-REC's replay JSON,
    ``events`` the announcements of that move). Raises :class:`ono99.RecordError` or
    :class:`ono99.ReplayError` (a bad record, an illegal move) like ``ono99 replay``."""
    parsed = parse_record(record)
    if len(parsed.moves) > MAX_MOVES:
        raise ValueError(f"a record of at most {MAX_MOVES} moves can be replayed here")
    game = parsed.new_game(events=True)
    events = game.events if game.events is not None else []
    seen = len(events)
    steps: list[dict[str, Any]] = [
        {
            "index": 0,
            "move": None,
            "seat": None,
            "state": state_json(game),
            "events": [event_json(e) for e in events[:seen]],
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
                "events": [event_json(e) for e in events[seen:]],
            }
        )
        seen = len(events)
    return steps


def make_router() -> APIRouter:
    """A FastAPI router with ``POST /api/replay`` (body: a record; 200 ``{"steps": [...]}``,
    400 ``{"error", "move"}`` for a bad record or an illegal move). Mount it with
    ``app.include_router(make_router())``."""
    from fastapi import APIRouter
    from fastapi.responses import JSONResponse
    from starlette.requests import Request

    router = APIRouter()

    async def post_replay(request: Request) -> JSONResponse:
        body = await request.body()
        if len(body) > 1_000_000:
            return JSONResponse({"error": "the record is too large", "move": None}, 413)
        try:
            steps = replay_steps(json.loads(body))
        except ReplayError as e:
            return JSONResponse({"error": str(e), "move": e.move}, 400)
        except (Ono99Error, ValueError, TypeError, RecursionError) as e:
            return JSONResponse({"error": " ".join(str(e).split())[:300], "move": None}, 400)
        return JSONResponse({"steps": steps})

    # a plain Starlette route: the request is passed as it is (no annotation lookups)
    router.add_route("/api/replay", post_replay, methods=["POST"])
    return router
