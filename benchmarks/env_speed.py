"""ono99's RL environments against RLCard's UNO, side by side in one run (issue 25's floors).

Every contestant plays uniformly random legal actions and produces, after every decision,
the observation and action mask of the agent to act (RLCard's ``env.step`` extracts its
state at every step too). Runs alternate: each repetition runs every contestant once, in an
order rotated by one per repetition, and the median steps/s of each is reported with its
ratio to RLCard UNO (a markdown table, then one JSON object on the last line).

- ``rlcard-uno``: ``rlcard.make("uno")`` played by its plain loop (``env.reset()``, then
  ``env.step`` with a random legal action from ``state["legal_actions"]`` until
  ``env.is_over()``); a step is one ``env.step``. (``env.run`` with ``RandomAgent``s is
  about 1.6 times slower: not the figure to compare with.)
- ``aec-default``: ``ono99.envs.aec_env()`` as CONTRACTS.md names it (the engine it picks
  by default); ``aec-reference`` / ``aec-fast``: ``aec_env(engine=...)``. PettingZoo's
  loop (``agent_iter``, ``last``, ``step``), the action drawn from the mask with
  ``random.Random``.
- ``fast-engine``: ``ono99 bench --engine fast`` (``run_bench(engine="fast")``): the compiled loop,
  no observations.
- ``vec:B``: ``ono99.fast.vec.FastVecEnv`` with ``B`` games, actions from
  ``random_legal`` (compiled, one NumPy draw per row); a step is one decision.
- ``vec-numpy:B``: the same with the actions drawn in NumPy,
  ``(mask * rng.random(mask.shape)).argmax(axis=1)``.
- ``vec-opp:B``: ``ono99.envs.fast_vec.OpponentVecEnv``, a learner in seat 0 against
  ``--opponents`` (compiled bots inside the simulator); a step is one learner decision.

RLCard is a benchmark-only dependency: ``pip install rlcard`` (not a dependency of ono99).
Without it the ratios are left out (one line says so). The fast contestants need
``pip install 'ono99[rl,fast]'``.

    nice -n 5 python benchmarks/env_speed.py                     # 4 players, 3 x 3 s each
    nice -n 5 python benchmarks/env_speed.py --only rlcard-uno --only aec-fast --reps 5
    nice -n 5 python benchmarks/env_speed.py --batches 64,256,1024,4096 --only vec
    nice -n 5 python benchmarks/env_speed.py --clock cpu --only vec --batches 256,512,1024

``--clock cpu`` rates each run by the CPU time the process used in it (``time.process_time``)
instead of the wall time: on a shared machine, where the wall clock also counts the time
other processes had the cores, it is the steadier figure (every contestant is one thread).
Both rates are in the JSON.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable
from functools import partial

from vs_rlcard import make_rlcard_runner  # benchmarks/ is on sys.path as the script's folder

Runner = Callable[[float, int], tuple[int, float]]  # (seconds, seed) -> (steps, elapsed)


def rlcard_runner(players: int) -> Runner | None:
    """RLCard UNO's random games, as ``vs_rlcard.py`` plays them (None without rlcard)."""
    run = make_rlcard_runner(players)
    if run is None:
        return None

    def steps(seconds: float, seed: int) -> tuple[int, float]:
        r = run(seconds, seed)
        return int(r["steps"]), float(r["seconds"])

    return steps


def aec_runner(rules: str, players: int, engine: str | None) -> Runner:
    from ono99.envs import aec_env

    def run(seconds: float, seed: int) -> tuple[int, float]:
        env = aec_env(rules, players) if engine is None else aec_env(rules, players, engine=engine)
        env.reset(seed=seed)
        pick = random.Random(seed).random
        steps = 0
        clock = time.perf_counter
        start = clock()
        while clock() - start < seconds:
            env.reset()
            for _agent in env.agent_iter():
                obs, _reward, terminated, truncated, _info = env.last()
                if terminated or truncated:
                    env.step(None)
                    continue
                legal = obs["action_mask"].nonzero()[0]
                env.step(int(legal[int(pick() * len(legal))]))
                steps += 1
        return steps, clock() - start

    return run


def fast_engine_runner(rules: str, players: int) -> Runner:
    from ono99.bench import run_bench

    def run(seconds: float, seed: int) -> tuple[int, float]:
        r = run_bench(rules, players, seconds, seed=seed, engine="fast")
        return int(r["steps"]), float(r["seconds"])

    return run


def vec_runner(rules: str, players: int, batch: int, policy: str) -> Runner:
    import numpy as np

    from ono99.fast.vec import FastVecEnv, random_legal

    def run(seconds: float, seed: int) -> tuple[int, float]:
        env = FastVecEnv(rules, players=players, batch=batch, seed=seed)
        rng = np.random.default_rng(seed)
        step = env.step(random_legal(env.reset().mask, rng))  # compiled and warm
        steps = 0
        clock = time.perf_counter
        start = clock()
        while clock() - start < seconds:
            if policy == "compiled":
                actions = random_legal(step.mask, rng)
            else:
                actions = (step.mask * rng.random(step.mask.shape)).argmax(axis=1)
            step = env.step(actions)
            steps += batch
        return steps, clock() - start

    return run


def opponent_runner(rules: str, players: int, batch: int, opponents: str) -> Runner:
    import numpy as np

    from ono99.envs.fast_vec import OpponentVecEnv
    from ono99.fast.vec import random_legal

    def run(seconds: float, seed: int) -> tuple[int, float]:
        env = OpponentVecEnv(rules, players=players, batch=batch, opponents=opponents, seed=seed)
        rng = np.random.default_rng(seed)
        step = env.step(random_legal(env.reset().mask, rng))
        steps = 0
        clock = time.perf_counter
        start = clock()
        while clock() - start < seconds:
            step = env.step(random_legal(step.mask, rng))
            steps += batch
        return steps, clock() - start

    return run


def contestants(args: argparse.Namespace) -> dict[str, Runner]:
    """The runners asked for (``--only``), built only then (each imports what it needs)."""
    rules, n = args.rules, args.players
    make: dict[str, Callable[[], Runner | None]] = {
        "rlcard-uno": lambda: rlcard_runner(n),
        "aec-default": lambda: aec_runner(rules, n, None),
        "aec-reference": lambda: aec_runner(rules, n, "reference"),
        "aec-fast": lambda: aec_runner(rules, n, "fast"),
        "fast-engine": lambda: fast_engine_runner(rules, n),
    }
    for b in args.batches:
        make[f"vec:{b}"] = partial(vec_runner, rules, n, b, "compiled")
        make[f"vec-numpy:{b}"] = partial(vec_runner, rules, n, b, "numpy")
        make[f"vec-opp:{b}"] = partial(opponent_runner, rules, n, b, args.opponents)
    wanted = [
        k for k in make if not args.only or any(k == o or k.startswith(o + ":") for o in args.only)
    ]
    out: dict[str, Runner] = {}
    for k in wanted:
        runner = make[k]()
        if runner is not None:
            out[k] = runner
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rules", default="mattel2022", help="ono99 preset (mattel2022)")
    ap.add_argument("--players", type=int, default=4, help="players in every game (4)")
    ap.add_argument("--seconds", type=float, default=3.0, help="seconds per run (3)")
    ap.add_argument("--reps", type=int, default=3, help="runs of each contestant (3)")
    ap.add_argument("--batches", default="1024", help="FastVecEnv batch sizes, comma list")
    ap.add_argument("--opponents", default="heuristic", help="vec-opp's bots (heuristic)")
    ap.add_argument("--only", action="append", help="a contestant (repeatable; vec: all batches)")
    ap.add_argument(
        "--clock", choices=("wall", "cpu"), default="wall",
        help="rate runs by wall time or by this process's CPU time (wall)",
    )  # fmt: skip
    args = ap.parse_args(argv)
    if args.reps < 1 or args.seconds <= 0:
        ap.error("--reps must be at least 1 and --seconds positive")
    try:
        args.batches = [int(b) for b in args.batches.split(",")]
    except ValueError:
        ap.error(f"--batches must be a comma list of integers, not {args.batches!r}")
    runners = contestants(args)
    if "rlcard-uno" not in runners:
        print("rlcard is not installed (pip install rlcard): no ratios", file=sys.stderr)
    for run in runners.values():  # compile (or load) every kernel outside the runs
        run(0.05, 0)
    names = list(runners)
    rates: dict[str, list[float]] = {n: [] for n in names}
    cpu_rates: dict[str, list[float]] = {n: [] for n in names}
    load_before = os.getloadavg()[0]
    for rep in range(args.reps):
        order = names[rep % len(names) :] + names[: rep % len(names)]
        for name in order:
            gc.collect()
            cpu = time.process_time()
            steps, elapsed = runners[name](args.seconds, rep)
            cpu = time.process_time() - cpu
            rates[name].append(steps / elapsed)
            cpu_rates[name].append(steps / cpu)
            print(
                f"  rep {rep} {name:14} {steps / elapsed:>13,.0f} steps/s"
                f" {steps / cpu:>13,.0f} per CPU s",
                file=sys.stderr,
            )
    wall_med = {n: statistics.median(v) for n, v in rates.items()}
    cpu_med = {n: statistics.median(v) for n, v in cpu_rates.items()}
    med = cpu_med if args.clock == "cpu" else wall_med
    base = med.get("rlcard-uno")
    print(
        f"\n{args.rules}, {args.players} players, median of {args.reps} runs of {args.seconds:g} s"
        f" ({args.clock} clock)\n"
    )
    print("| contestant | decisions/s (median) | × RLCard UNO |")
    print("|---|---:|---:|")
    for n in names:
        ratio = f"{med[n] / base:.1f}×" if base else "n/a"
        print(f"| `{n}` | {med[n]:,.0f} | {ratio} |")
    result = {
        "rules": args.rules, "players": args.players, "seconds": args.seconds,
        "reps": args.reps, "clock": args.clock, "median_steps_per_s": med,
        "median_steps_per_s_wall": wall_med, "median_steps_per_s_cpu": cpu_med,
        "ratio_to_rlcard_uno": {n: med[n] / base for n in names} if base else None,
        "runs": rates, "runs_cpu": cpu_rates, "python": platform.python_version(), "cpus": os.cpu_count(),
        "load_average_before": load_before, "load_average_after": os.getloadavg()[0],
        "date": time.strftime("%Y-%m-%d %H:%M"),
    }  # fmt: skip
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
