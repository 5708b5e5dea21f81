"""The companion's tracker against many real games (issue 14): each random game is told
to the tracker tap by tap, as a person at the table would (tests/tracking_helpers.py), and
its public state compared with the real game's after every move.

Usage: python benchmarks/companion_scan.py FIRST_SEED LAST_SEED [CONFIG,...]

Seeds FIRST..LAST-1 in each of the configurations below (2 to 6 players: 2 + seed % 5).
Prints one line per game that differs, then a summary; exit status 1 if any differs.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from ono99.tracking import Tracker
from tracking_helpers import CONFIGS, FIELDS, MORE, feed, real_game  # type: ignore[import-not-found]


def follow(rules: str, n: int, seed: int, options: dict[str, Any] | None) -> str | None:
    """None when the tracker followed the whole game, else what went wrong first."""
    first = seed % n
    t = Tracker(rules, [f"P{i}" for i in range(n)], first, options)
    for i, mv in enumerate(real_game(rules, n, seed, options, first)):
        try:
            feed(mv, t.tap, t.state, t.enter_hands)
        except Exception as e:  # the scan reports every failure and goes on
            return f"move {i} {mv.code!r} busts={mv.busts}: {type(e).__name__}: {e}"
        got = t.state()
        for key in (*FIELDS, *MORE, "scores"):
            if got[key] != mv.state[key]:
                return f"move {i} {mv.code!r}: {key} {got[key]} != {mv.state[key]}"
    return None


def main(argv: list[str]) -> int:
    lo, hi = int(argv[0]), int(argv[1])
    which = [int(x) for x in argv[2].split(",")] if len(argv) > 2 else range(len(CONFIGS))
    start = time.perf_counter()
    games = bad = 0
    for ci in which:
        rules, options = CONFIGS[ci]
        for seed in range(lo, hi):
            players = 2 + seed % 5
            why = follow(rules, players, seed, options)
            games += 1
            if why:
                bad += 1
                print(f"{rules} {options} players={players} seed={seed}: {why}", flush=True)
    seconds = time.perf_counter() - start
    print(f"games {games}, differing {bad}, {seconds:.0f} s")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
