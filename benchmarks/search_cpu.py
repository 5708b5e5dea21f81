"""CPU per game of the strength table's search rows, compiled or all Python.

    python benchmarks/search_cpu.py                 # compiled (ono99[fast]), 2 games a row
    python benchmarks/search_cpu.py --python        # everything in Python
    python benchmarks/search_cpu.py --games 4 --save benchmarks/results/search-cpu.json

Plays the first games of each search row's first seed (``benchmarks/strength.sh``) exactly
as ``ono99 arena`` plays them, in this one process, and reports the process CPU time per
game. Both ways play the same moves (``benchmarks/check_same_bots.py``), so the ratio of the
two is what the compiled rollouts save. The compiled parts are loaded (or compiled) before the
clock starts.
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time

from ono99.arena.tournament import make_spec, play_game
from ono99.bots import compiled

#: (row, bots, players, rules, options, first seed): benchmarks/strength.sh's search rows
ROWS: list[tuple[str, list[str], int, str, dict[str, str], int]] = [
    ("m2-ismcts-heuristic", ["ismcts:120:heuristic:infer:z2", "heuristic"], 2, "mattel2022", {}, 15121),
    ("m4-ismcts-heuristic", ["ismcts:120:heuristic:infer:z2", "heuristic"], 4, "mattel2022", {}, 15221),
    ("c3t-ismcts-heuristic", ["ismcts:120:heuristic:infer", "heuristic"], 3, "classic1980", {"scoring": "tokens"}, 15501),
    ("c3p-ismcts-heuristic", ["ismcts:300", "heuristic"], 3, "classic1980", {"scoring": "points"}, 15421),
]  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--python", action="store_true", help="everything in Python")
    ap.add_argument("--games", type=int, default=2, help="games per row (default 2)")
    ap.add_argument("--only", metavar="TEXT", help="only the rows whose name holds TEXT")
    ap.add_argument("--save", metavar="FILE", help="write the figures to FILE (JSON)")
    args = ap.parse_args(argv)
    default, compiled.FAST_ROLLOUTS = compiled.FAST_ROLLOUTS, not args.python
    try:
        return _measure(args)
    finally:
        compiled.FAST_ROLLOUTS = default


def _measure(args: argparse.Namespace) -> int:
    if not args.python and compiled.module() is None:
        print("the compiled rollouts need numba: pip install 'ono99[fast]'", file=sys.stderr)
        return 1
    out: dict[str, float] = {}
    for name, bots, players, rules, options, seed in ROWS:
        if args.only and args.only not in name:
            continue
        spec = make_spec(bots, players, rules, options, max(args.games, players), seed)
        t0 = time.process_time()
        for i in range(args.games):
            play_game(spec, i, timed=False)
        out[name] = (time.process_time() - t0) / args.games
        print(f"{name:24} {out[name]:7.2f} s CPU a game", flush=True)
    if args.save:
        result = {
            "mode": "python" if args.python else "compiled",
            "games": args.games,
            "cpu_seconds_per_game": out,
            "python": platform.python_version(),
            "date": time.strftime("%Y-%m-%d"),
        }
        with open(args.save, "w", encoding="utf-8") as f:
            json.dump(result, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
