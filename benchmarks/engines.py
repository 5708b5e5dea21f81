"""The fast engine against the reference engine, side by side on this machine.

Both play the same uniformly random legal games (``ono99 bench``: the fast engine
plays the very games the reference plays, seed for seed) for the same wall time,
several times, alternating which goes first; the median decision steps per second of
each and their ratio are reported per setting, as a markdown table, then one JSON
object on the last line.

    python benchmarks/engines.py                       # 4 settings, 3 x 5 s each
    python benchmarks/engines.py --seconds 2 --reps 5 --save benchmarks/results/engines.json
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from ono99.bench import run_bench

#: (label, preset, players, options)
SETTINGS: list[tuple[str, str, int, dict[str, Any]]] = [
    ("mattel2022, 4 players", "mattel2022", 4, {}),
    ("mattel2022, 2 players", "mattel2022", 2, {}),
    ("classic1980 tokens, 3 players", "classic1980", 3, {}),
    ("classic1980 points, 3 players", "classic1980", 3, {"scoring": "points"}),
]


def measure(seconds: float, reps: int, settings: list[int]) -> dict[str, Any]:
    rows = []
    for i in settings:
        label, preset, players, options = SETTINGS[i]
        runs: dict[str, list[float]] = {"reference": [], "fast": []}
        for rep in range(reps):
            order = ["reference", "fast"] if rep % 2 == 0 else ["fast", "reference"]
            for name in order:
                r = run_bench(preset, players, seconds, options, seed=rep, engine=name)
                runs[name].append(r["steps_per_s"])
                print(f"{label}: {name} {r['steps_per_s']:,.0f} steps/s", file=sys.stderr)
        ref, fast = statistics.median(runs["reference"]), statistics.median(runs["fast"])
        rows.append({"setting": label, "reference": ref, "fast": fast, "ratio": fast / ref,
                     "runs": runs})  # fmt: skip
    return {
        "seconds": seconds,
        "reps": reps,
        "python": platform.python_version(),
        "cpus": os.cpu_count(),
        "load_average": os.getloadavg()[0],
        "date": time.strftime("%Y-%m-%d"),
        "rows": rows,
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=5.0, help="seconds per run")
    ap.add_argument("--reps", type=int, default=3, help="runs of each engine per setting")
    ap.add_argument("--only", type=int, action="append", help="setting index (repeatable)")
    ap.add_argument("--save", type=Path, help="also write the JSON to this file")
    args = ap.parse_args(argv)
    result = measure(args.seconds, args.reps, args.only or list(range(len(SETTINGS))))
    print("| setting | reference steps/s | fast steps/s | ratio |")
    print("|---|---:|---:|---:|")
    for row in result["rows"]:
        print(f"| {row['setting']} | {row['reference']:,.0f} | {row['fast']:,.0f} "
              f"| **{row['ratio']:.1f}×** |")  # fmt: skip
    text = json.dumps(result)
    if args.save:
        args.save.write_text(text + "\n", encoding="utf-8")
    print(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
