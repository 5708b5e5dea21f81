"""ono99's engine against RLCard's UNO environment, side by side on this machine.

Both play uniformly random legal games for the same wall time, several times,
alternating which goes first, and the median decision steps per second of each is
reported with their ratio (a markdown table, then one JSON object on the last line).

- ono99: :func:`ono99.bench.run_bench` — the function behind ``ono99 bench --json``
  (reference engine, full rules, no observation encoding). A step is one decision
  applied (a card, ``99x4`` or ``draw``).
- RLCard: ``rlcard.make("uno")`` played by its plain loop (``env.reset()``, then
  ``env.step`` with a uniformly random legal action until ``env.is_over()``); a step is
  one ``env.step``, which extracts the next state (the observation) as it goes.

    python benchmarks/vs_rlcard.py                      # 4 players, 5 x 3 s each
    python benchmarks/vs_rlcard.py --seconds 5 --reps 7 --json-only

Without rlcard installed (``pip install rlcard``) only ono99 is measured and a one-line
note says RLCard was skipped; the exit status is still 0.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import json
import platform
import random
import statistics
import sys
import time
from typing import Any

from ono99.bench import run_bench


def bench_ono99(rules: str, players: int, seconds: float, seed: int) -> dict[str, float]:
    r = run_bench(rules, players, seconds, seed=seed)
    return {"games": r["games"], "steps": r["steps"], "seconds": r["seconds"]}


def make_rlcard_runner(players: int) -> Any:
    """A function(seconds, seed) that plays RLCard UNO games with its plain loop, or None
    without rlcard.

    The plain loop is what a researcher writes: ``state, player = env.reset()``, then
    ``env.step(action)`` with a uniformly random legal action until ``env.is_over()``;
    every ``env.step`` extracts the next state (observation and legal actions), as our
    environments do. ``env.run`` with ``RandomAgent``s (what earlier versions measured)
    adds the agents' and the trajectories' overhead, about 1.6 times slower (issue 38):
    it flattered our ratios."""
    try:
        rlcard = importlib.import_module("rlcard")
    except ImportError:
        return None

    def run(seconds: float, seed: int) -> dict[str, float]:
        env = rlcard.make("uno", config={"seed": seed, "game_num_players": players})
        pick = random.Random(seed).random
        steps = 0
        games = 0
        clock = time.perf_counter
        start = clock()
        deadline = start + seconds
        while True:
            state, _player = env.reset()
            while not env.is_over():
                legal = list(state["legal_actions"])
                state, _player = env.step(legal[int(pick() * len(legal))])
                steps += 1
            games += 1
            if clock() >= deadline:
                break
        return {"games": games, "steps": steps, "seconds": clock() - start}

    return run


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="ono99 bench vs RLCard UNO, side by side.")
    ap.add_argument("--rules", default="mattel2022", help="ono99 preset (mattel2022)")
    ap.add_argument("--players", type=int, default=4, help="players in both games (4)")
    ap.add_argument("--seconds", type=float, default=3.0, help="seconds per run (3)")
    ap.add_argument("--reps", type=int, default=5, help="runs of each, alternating (5)")
    ap.add_argument("--json-only", action="store_true", help="print only the JSON line")
    args = ap.parse_args(argv)
    if args.reps < 1 or args.seconds <= 0:
        ap.error("--reps must be at least 1 and --seconds positive")

    rl_run = make_rlcard_runner(args.players)
    if rl_run is None:
        print("rlcard is not installed (pip install rlcard): measuring ono99 only", file=sys.stderr)
    ours: list[float] = []
    theirs: list[float] = []
    runs: list[dict[str, Any]] = []
    for rep in range(args.reps):
        # Alternate the order so neither side always runs first (warm caches, load spikes).
        order = ["ono99", "rlcard"] if rep % 2 == 0 else ["rlcard", "ono99"]
        for name in order:
            if name == "rlcard" and rl_run is None:
                continue
            gc.collect()
            if name == "ono99":
                r = bench_ono99(args.rules, args.players, args.seconds, seed=rep)
                ours.append(r["steps"] / r["seconds"])
            else:
                r = rl_run(args.seconds, seed=rep)
                theirs.append(r["steps"] / r["seconds"])
            runs.append({"rep": rep, "engine": name, **r})
            if not args.json_only:
                print(
                    f"  rep {rep} {name:6} {r['games']:>7} games {r['steps']:>9} steps "
                    f"{r['steps'] / r['seconds']:>11,.0f} steps/s",
                    file=sys.stderr,
                )

    med_ours = statistics.median(ours)
    med_theirs = statistics.median(theirs) if theirs else None
    ratio = med_ours / med_theirs if med_theirs else None
    result: dict[str, Any] = {
        "rules": args.rules,
        "players": args.players,
        "seconds_per_run": args.seconds,
        "reps": args.reps,
        "ono99_steps_per_s": round(med_ours, 1),
        "rlcard_uno_steps_per_s": None if med_theirs is None else round(med_theirs, 1),
        "ratio": None if ratio is None else round(ratio, 2),
        "python": platform.python_version(),
        "runs": runs,
    }
    if not args.json_only:
        print(f"\n{args.players} players, median of {args.reps} runs of {args.seconds:g} s each\n")
        print("| engine | decision steps/s (median) | ratio |")
        print("|---|---:|---:|")
        print(f"| ono99 reference, `{args.rules}` | {med_ours:,.0f} | {ratio or 0:.1f}× |")
        if med_theirs is None:
            print("| RLCard UNO, plain loop | skipped: rlcard not installed | |")
        else:
            print(f"| RLCard UNO, plain loop | {med_theirs:,.0f} | 1.0× |")
        print()
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
