"""Random legal play at full speed: the engines' throughput (``ono99 bench``).

The one entry point for either engine, :func:`run_bench`: the reference engine's loop is
here, the fast engine's compiled one in :mod:`ono99.fast.bench`; both play the very same
games and return their counts, which :func:`bench_result` writes out (CONTRACTS.md).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from typing import Any

from ono99.chance import PICK, SEED_LIMIT, Stream, stream_key
from ono99.game import Game
from ono99.rules import Rules, make_rules

__all__ = ["ENGINES", "run_bench", "bench_result"]

#: (rules, players, seconds, seed, games) -> (games played, decision steps, seconds taken)
Loop = Callable[[Rules, int, float, int, "int | None"], tuple[int, int, float]]


def _fast_loop(
    r: Rules, players: int, seconds: float, seed: int, games: int | None
) -> tuple[int, int, float]:
    from ono99.fast.bench import run_bench_fast  # MissingFast (one line) without numba

    return run_bench_fast(r, players, seconds, seed, games)


def run_bench(
    rules: str = "mattel2022",
    players: int = 4,
    seconds: float = 5.0,
    options: Mapping[str, Any] | None = None,
    seed: int = 0,
    games: int | None = None,
    engine: str = "reference",
) -> dict[str, Any]:
    """Play uniformly random legal games for about ``seconds`` (or exactly ``games``
    games) on ``engine`` (``"reference"`` or ``"fast"``); count games and steps.

    A step is one decision applied (a card, ``99x4`` or ``draw``). No events and no
    observation encoding: this measures the rules engine alone. Game ``g`` is dealt
    from seed ``seed + g`` (mod 2**256); each move is ``legal[int(u * len(legal))]``, ``u``
    the next float of the stream of purpose PICK for ``seed`` (:mod:`ono99.chance`). The
    fast engine plays the very same games (:mod:`ono99.fast.bench`).
    """
    if engine not in ENGINES:
        raise ValueError(f"engine must be 'reference' or 'fast', not {engine!r}")
    r = make_rules(rules, options)
    played, steps, elapsed = ENGINES[engine](r, players, seconds, seed, games)
    return bench_result(engine, r, players, played, steps, elapsed)


def _reference_loop(
    r: Rules, players: int, seconds: float, seed: int, games: int | None
) -> tuple[int, int, float]:
    """The reference engine's games of :func:`run_bench`."""
    pick = Stream(stream_key(PICK, seed, 0)).random  # uniform over the legal actions
    played = steps = 0
    clock = time.perf_counter
    start = clock()
    deadline = start + seconds
    while True:
        g = Game(r, players, seed=(seed + played) % SEED_LIMIT, events=False)
        legal_actions, apply = g.legal_actions, g.apply
        legal = legal_actions()
        while legal:  # no legal action: the game is over
            apply(legal[int(pick() * len(legal))])
            steps += 1
            legal = legal_actions()
        played += 1
        if played == games or (games is None and clock() >= deadline):
            break
    return played, steps, clock() - start


#: ``engine=``: each engine's loop over the same games
ENGINES: dict[str, Loop] = {"reference": _reference_loop, "fast": _fast_loop}


def bench_result(
    engine: str, rules: Rules, players: int, games: int, steps: int, elapsed: float
) -> dict[str, Any]:
    """``ono99 bench --json``'s object (CONTRACTS.md), for either engine."""
    return {
        "engine": engine,
        "rules": rules.preset,
        "options": dict(rules.options),
        "players": players,
        "games": games,
        "steps": steps,
        "seconds": round(elapsed, 4),
        "games_per_s": round(games / elapsed, 1),
        "steps_per_s": round(steps / elapsed, 1),
    }
