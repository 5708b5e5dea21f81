"""The batched fast simulator against the reference engine, observations included.

Both sides play uniformly random legal actions and produce, after every decision, what an
RL learner needs: the observation and action mask of the seat to move (the encoding of
``ono99.envs``), and the rewards when a game ends.

- fast: ``ono99.fast.vec.FastVecEnv`` with ``--batch`` games; the random choice is made
  with NumPy over the whole batch (``argmax(mask * uniform)``) and counted in the time.
- reference: one ``ono99.Game`` at a time: ``apply``, ``take_draws`` (pending draws at once),
  ``encode(game.view(seat))`` and ``action_mask`` -- the core of the PettingZoo and Gymnasium
  environments' step, without their wrappers.

A step is one decision. Runs alternate; the median steps/s of each and the ratio are
reported, a markdown table then one JSON object on the last line.

    python benchmarks/vec_env.py                         # mattel2022 4 players, 3 x 5 s
    python benchmarks/vec_env.py --rules classic1980 --players 3 --batch 4096
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time
from typing import Any

import numpy as np

from ono99 import Game
from ono99.envs.encoding import action_mask, encode, outcome
from ono99.fast.vec import FastVecEnv


def run_fast(rules: str, players: int, seconds: float, batch: int, seed: int) -> float:
    env = FastVecEnv(rules, players=players, batch=batch, seed=seed)
    step = env.reset()
    rng = np.random.default_rng(seed)
    step = env.step((step.mask * rng.random(step.mask.shape)).argmax(axis=1))  # compiled, warm
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        step = env.step((step.mask * rng.random(step.mask.shape)).argmax(axis=1))
        steps += batch
    return steps / (time.perf_counter() - start)


def run_reference(rules: str, players: int, seconds: float, seed: int) -> float:
    rng = np.random.default_rng(seed)
    steps = games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        g = Game(rules, players, seed=seed + games, events=False)
        g.take_draws()
        while True:
            seat = g.to_move
            assert seat is not None
            view = g.view(seat)
            obs, mask = encode(view), action_mask(view)
            assert obs.size
            g.apply(int((mask * rng.random(mask.shape)).argmax()))
            g.take_draws()
            steps += 1
            if g.is_over:
                outcome(g)
                break
        games += 1
    return steps / (time.perf_counter() - start)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rules", default="mattel2022")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--batch", type=int, default=1024)
    ap.add_argument("--seconds", type=float, default=5.0)
    ap.add_argument("--reps", type=int, default=3)
    args = ap.parse_args(argv)
    runs: dict[str, list[float]] = {"reference": [], "fast": []}
    for rep in range(args.reps):
        for name in ["reference", "fast"] if rep % 2 == 0 else ["fast", "reference"]:
            if name == "fast":
                r = run_fast(args.rules, args.players, args.seconds, args.batch, rep)
            else:
                r = run_reference(args.rules, args.players, args.seconds, rep)
            runs[name].append(r)
            print(f"{name}: {r:,.0f} steps/s", file=sys.stderr)
    ref, fast = statistics.median(runs["reference"]), statistics.median(runs["fast"])
    result: dict[str, Any] = {
        "rules": args.rules, "players": args.players, "batch": args.batch,
        "seconds": args.seconds, "reps": args.reps, "reference_steps_per_s": ref,
        "fast_steps_per_s": fast, "ratio": fast / ref, "runs": runs,
        "python": platform.python_version(), "load_average": os.getloadavg()[0],
        "date": time.strftime("%Y-%m-%d"),
    }  # fmt: skip
    print("| simulator | steps/s with observations | ratio |")
    print("|---|---:|---:|")
    print(f"| reference `Game` + `encode` | {ref:,.0f} | 1.0× |")
    print(f"| `FastVecEnv`, batch {args.batch} | {fast:,.0f} | **{fast / ref:.0f}×** |")
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
