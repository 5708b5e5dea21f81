"""The bot arena: tournaments with rotated seats, seeded games, several backends.

>>> from ono99.arena import run_tournament
>>> res = run_tournament(["greedy", "random"], games=4, seed=1, workers=1)
>>> res["bots"]["greedy"]["games"], res["games"]
(4, 4)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
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
    bots: Sequence[str],
    players: int | None = None,
    rules: str = "mattel2022",
    options: Mapping[str, Any] | None = None,
    games: int = 100,
    seed: int = 0,
    backend: str = "local",
    workers: int | None = None,
    progress: Progress | None = None,
) -> dict[str, Any]:
    """Play a tournament and return its JSON-ready result (see :func:`tally`)."""
    spec = make_spec(bots, players, rules, options, games, seed)
    results = run_games(spec, backend, workers, progress)
    out = tally(spec, results)
    out["backend"] = backend
    out["workers"] = workers or default_workers()
    return out
