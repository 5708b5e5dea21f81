"""The rules analysis behind ``ono99 analyze`` (docs/analyze.md).

- :mod:`~ono99.analysis.collect`: play games (through the arena's backends) and read
  each one's facts from its events and record;
- :mod:`~ono99.analysis.stats`: the figures, pure functions of those facts;
- :mod:`~ono99.analysis.report` (with :mod:`~ono99.analysis.svg`): the HTML page;
- :mod:`~ono99.analysis.output`: the files.

>>> from ono99.analysis import analyze
>>> summary, games = analyze(bots=["greedy"], players=2, games=4, seed=1, workers=1)
>>> summary["games"], sum(r["hits"] for r in summary["seats"]["wins"])
(4, 4.0)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ono99.analysis.collect import GameData, play_analysis_games
from ono99.analysis.stats import summarize
from ono99.arena import make_spec
from ono99.arena.backends import Progress, default_workers, run_chunks

__all__ = ["analyze", "GameData"]


def analyze(
    bots: Sequence[str] = ("heuristic",),
    players: int = 4,
    rules: str = "mattel2022",
    options: Mapping[str, Any] | None = None,
    games: int = 400,
    seed: int = 0,
    backend: str = "local",
    workers: int | None = None,
    progress: Progress | None = None,
) -> tuple[dict[str, Any], list[GameData]]:
    """Play the games and return the summary and each game's facts.

    Raises ValueError / Ono99Error (one line) for bad arguments, as ``ono99 arena``."""
    spec = make_spec(bots, players, rules, options, games, seed)
    data = run_chunks(spec, play_analysis_games, backend, workers, progress)
    meta = {
        "rules": spec.rules,
        "options": dict(spec.options),
        "players": spec.players,
        "lineup": [spec.bots[e] for e in spec.lineup],
        "seed": spec.seed,
        "engine": "reference",
        "backend": backend,
        "workers": workers or default_workers(),
    }
    return summarize(data, meta), data
