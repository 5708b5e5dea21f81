"""``POST /api/review``: a finished game's record, reviewed (docs/review.md).

The replay viewer posts the record it shows and draws the answer: each seat's win chance
over the game, its mistakes marked. The values are :func:`ono99.bots.review.review_game`'s,
each from the deciding seat's own view, the same as ``ono99 review --json`` gives, plus
``mistake`` on each decision. A record is public once its game is over, so nothing here is
hidden from anyone.

A review takes seconds (about 10 s for a 2-player game with Numba, a minute without), so it
runs in a worker thread, off the event loop, and a process reviews one game at a time: a
second request meanwhile is told the server is busy (503), never queued without bound.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Any

from ono99 import parse_record
from ono99.bots.review import review_game
from ono99.errors import Ono99Error, RecordError
from ono99.i18n import N_
from ono99.records import ReplayError
from ono99.web.announce import catalog, request_language, translate
from ono99.web.replay_api import MAX_MOVES, digit_seed, parse_body

if TYPE_CHECKING:
    from fastapi import APIRouter

__all__ = ["REVIEW_SAMPLES", "make_router", "review_json"]

#: worlds a decision (docs/review.md's default: a 2-player game in about 10 s with Numba)
REVIEW_SAMPLES = 200
#: the longest record reviewed here (every decision is valued: a long game is minutes)
MAX_REVIEW_MOVES = 600

BUSY = N_("the server is reviewing another game: try again in a minute")
TOO_LONG = N_("a record of at most {count} moves can be reviewed here")


def review_json(record: Any, samples: int = REVIEW_SAMPLES, seed: int = 0) -> dict[str, Any]:
    """The review of ``record`` (a record's JSON value) as ``ono99 review --json`` prints
    it, each decision also with ``mistake`` (docs/review.md "Loss and mistakes"). Raises
    :class:`RecordError` / :class:`ReplayError` for a bad record, before any valuing."""
    parsed = parse_record(digit_seed(record))
    if len(parsed.moves) > min(MAX_MOVES, MAX_REVIEW_MOVES):
        raise RecordError(TOO_LONG, count=MAX_REVIEW_MOVES)
    review = review_game(parsed, seed=seed, samples=samples)
    out = review.to_json()
    out["decisions"] = [{**d.to_json(), "mistake": d.mistake} for d in review.decisions]
    out["samples"] = samples
    return out


def make_router() -> APIRouter:
    """A FastAPI router with ``POST /api/review`` (body: a record; 200 the review, 400
    ``{"error", "move"}`` for a bad record or an illegal move, 503 while this process
    reviews another game)."""
    from fastapi import APIRouter
    from fastapi.responses import JSONResponse
    from starlette.concurrency import run_in_threadpool
    from starlette.requests import Request

    from ono99.web.guards import RECORD_LIMIT, TOO_LARGE

    router = APIRouter()
    one_at_a_time = threading.Lock()

    def _review(record: Any) -> dict[str, Any]:
        try:
            return review_json(record)
        finally:
            one_at_a_time.release()

    async def post_review(request: Request) -> JSONResponse:
        lang = request_language(request)
        body = await request.body()
        if len(body) > RECORD_LIMIT:
            return JSONResponse({"error": catalog(lang).gettext(TOO_LARGE), "move": None}, 413)
        try:
            record = parse_body(body)
        except (Ono99Error, ValueError, TypeError, RecursionError) as e:
            return JSONResponse({"error": translate(e, lang)[:300], "move": None}, 400)
        if not one_at_a_time.acquire(blocking=False):
            return JSONResponse({"error": catalog(lang).gettext(BUSY), "move": None}, 503)
        try:
            # the lock is released by the worker when its review ends
            review = await run_in_threadpool(_review, record)
        except ReplayError as e:
            return JSONResponse({"error": translate(e, lang)[:300], "move": e.move}, 400)
        except (Ono99Error, ValueError, TypeError, RecursionError) as e:
            return JSONResponse({"error": translate(e, lang)[:300], "move": None}, 400)
        return JSONResponse(review)

    router.add_route("/api/review", post_review, methods=["POST"])
    return router
