"""The rules analysis behind ``ono99 analyze`` (docs/analyze.md).

- :mod:`~ono99.analysis.collect`: play games (through the arena's backends) and read
  each one's facts from its events and record;
- :mod:`~ono99.analysis.stats`: the figures, pure functions of those facts;
- :mod:`~ono99.analysis.report` (with :mod:`~ono99.analysis.svg`): the HTML page;
- :mod:`~ono99.analysis.output`: the files.

>>> from ono99.analysis import analyze
>>> from ono99.arena import make_spec
>>> summary, games = analyze(make_spec(["greedy"], 2, games=4, seed=1), workers=1)
>>> summary["games"], sum(r["hits"] for r in summary["seats"]["wins"])
(4, 4.0)
"""

from __future__ import annotations

from functools import partial
from typing import Any

from ono99.analysis.collect import REVIEW_SAMPLES, GameData, play_analysis_games
from ono99.analysis.stats import summarize
from ono99.arena import ArenaSpec
from ono99.arena.backends import Progress, default_workers, run_chunks

__all__ = ["analyze", "GameData"]


def analyze(
    spec: ArenaSpec,
    backend: str = "local",
    workers: int | None = None,
    progress: Progress | None = None,
    review: int = 0,
    samples: int = REVIEW_SAMPLES,
) -> tuple[dict[str, Any], list[GameData]]:
    """Play the games of ``spec`` (see :func:`~ono99.arena.make_spec`, which raises
    ValueError / Ono99Error in one line for bad arguments) and return the summary and
    each game's facts; ``review`` of the games (spread over the run) are reviewed from
    every seat's view with ``samples`` worlds a decision (the report's "how much is
    skill")."""
    play = partial(play_analysis_games, review=review, samples=samples)
    data = run_chunks(spec, play, backend, workers, progress)
    meta = {
        "rules": spec.rules,
        "options": dict(spec.options),
        "players": spec.players,
        "lineup": [spec.bots[e] for e in spec.lineup],
        "seed": spec.seed,
        "engine": "reference",
        "backend": backend,
        "workers": workers or default_workers(),
        "review": {"games": min(review, spec.games), "samples": samples},
    }
    return summarize(data, meta), data
