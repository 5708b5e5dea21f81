"""Random legal play at full speed: the engine's throughput (``ono99 bench``)."""

from __future__ import annotations

import random
import time
from collections.abc import Mapping
from typing import Any

from ono99.game import Game
from ono99.rules import Rules, make_rules

__all__ = ["run_bench", "bench_result"]


def run_bench(
    rules: str = "mattel2022",
    players: int = 4,
    seconds: float = 5.0,
    options: Mapping[str, Any] | None = None,
    seed: int = 0,
    games: int | None = None,
) -> dict[str, Any]:
    """Play uniformly random legal games for about ``seconds`` (or exactly ``games``
    games); count games and steps.

    A step is one decision applied (a card, ``99x4`` or ``draw``). No events and no
    observation encoding: this measures the rules engine alone. Game ``g`` is dealt
    from seed ``seed + g``; the fast engine plays the very same games
    (:mod:`ono99.fast.bench`).
    """
    r = make_rules(rules, options)
    rng = random.Random(seed)
    pick = rng.random  # faster than randrange; uniform over the legal actions
    played = steps = 0
    clock = time.perf_counter
    start = clock()
    deadline = start + seconds
    while True:
        g = Game(r, players, seed=seed + played, events=False)
        legal_actions, apply = g.legal_actions, g.apply
        legal = legal_actions()
        while legal:  # no legal action: the game is over
            apply(legal[int(pick() * len(legal))])
            steps += 1
            legal = legal_actions()
        played += 1
        if played == games or (games is None and clock() >= deadline):
            break
    return bench_result("reference", r, players, played, steps, clock() - start)


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
