"""The bot arena: tournaments with rotated seats, seeded games, several backends.

>>> from ono99.arena import make_spec, run_tournament
>>> res = run_tournament(make_spec(["greedy", "random"], games=4, seed=1), workers=1)
>>> res["bots"]["greedy"]["games"], res["games"]
(4, 4)
"""

from __future__ import annotations

from typing import Any

from ono99.arena.backends import (
    BACKENDS,
    Progress,
    RayMissing,
    default_workers,
    run_chunks,
    run_games,
)
from ono99.arena.tournament import ArenaSpec, GameResult, make_spec, play_game, tally, wilson

__all__ = [
    "BACKENDS", "ArenaSpec", "GameResult", "RayMissing", "default_workers", "make_spec",
    "play_game", "run_chunks", "run_games", "run_tournament", "tally", "wilson",
]  # fmt: skip


def run_tournament(
    spec: ArenaSpec,
    backend: str = "local",
    workers: int | None = None,
    progress: Progress | None = None,
) -> dict[str, Any]:
    """Play the tournament ``spec`` (see :func:`make_spec`) and return its JSON-ready
    result (see :func:`tally`)."""
    out = tally(spec, run_games(spec, backend, workers, progress))
    out["backend"] = backend
    out["workers"] = workers or default_workers()
    return out
