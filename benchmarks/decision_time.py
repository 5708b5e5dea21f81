"""Decision time of a bot level (default ``hard``) on this machine.

Plays ``--games`` games per configuration with the measured bot in a rotating seat
against heuristic players, times every decision it is asked for (draws excluded), and
prints the distribution as JSON. Usage::

    python3 benchmarks/decision_time.py --bot hard --games 60
    python3 benchmarks/decision_time.py --bot expert --games 30 --clock cpu --only mattel2022/4p

``--clock wall`` (the default) times each decision by the wall clock, what a person
waits; ``--clock cpu`` by the CPU time of the thread, which other programs running on the
same cores (or ``nice``) do not inflate: on a shared machine it is the figure that
replicates. ``--only`` measures some of the configurations (``mattel2022/2p``,
``mattel2022/4p``, ``classic1980/3p`` with tokens, ``classic1980/3p-points``).

With Numba installed (``ono99[fast]``) the compiled rollouts are loaded from Numba's cache (or
compiled) before the clock starts, and the output gives how long that took
(``compiled_load_s``): the figures are those of a warm process. ``--cold`` leaves it to the
bots' default, as a fresh process plays: the first decisions play the Python search while a
background process loads the compiled one.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
import zlib
from typing import Any

from ono99 import Game
from ono99.bots import compiled, make_bot
from ono99.cards import DRAW

CONFIGS: list[tuple[str, int, dict[str, Any]]] = [
    ("mattel2022", 2, {}),
    ("mattel2022", 4, {}),
    ("classic1980", 3, {}),
    ("classic1980", 3, {"scoring": "points"}),
]


def label(rules: str, n: int, options: dict[str, Any]) -> str:
    """``mattel2022/4p``, ``classic1980/3p-points``."""
    return f"{rules}/{n}p" + "".join(f"-{v}" for v in options.values())


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * (len(xs) - 1) + 0.5))] if xs else 0.0


def summary(xs: list[float]) -> dict[str, float]:
    return {
        "decisions": len(xs),
        "mean": round(statistics.fmean(xs), 3) if xs else 0.0,
        **{f"p{int(q * 100)}": round(pct(xs, q), 3) for q in (0.1, 0.5, 0.75, 0.9, 0.99)},
        "max": round(max(xs), 3) if xs else 0.0,
    }


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--bot", default="hard")
    ap.add_argument("--games", type=int, default=60)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--clock", choices=["wall", "cpu"], default="wall")
    ap.add_argument("--only", action="append", help="a configuration (repeatable)")
    ap.add_argument("--cold", action="store_true", help="do not load the compiled rollouts first")
    args = ap.parse_args(argv)
    clock = time.perf_counter if args.clock == "wall" else time.thread_time
    out: dict[str, Any] = {"bot": args.bot, "clock": args.clock, "configs": {}}
    if not args.cold:
        default, compiled.FAST_ROLLOUTS = compiled.FAST_ROLLOUTS, True
        t0 = time.perf_counter()
        out["compiled"] = compiled.module() is not None  # loaded (or compiled) here
        out["compiled_load_s"] = round(time.perf_counter() - t0, 2)
        compiled.FAST_ROLLOUTS = default
    every: list[float] = []
    every_choice: list[float] = []
    for rules, n, options in CONFIGS:
        if args.only and label(rules, n, options) not in args.only:
            continue
        times: list[float] = []
        choice: list[float] = []  # decisions with two or more legal actions
        for i in range(args.games):
            g = Game(
                rules,
                n,
                options=options,
                seed=zlib.crc32(f"dt:{args.seed}:{i}".encode()),
                events=False,
            )
            me = i % n
            bots = [make_bot(args.bot if s == me else "heuristic", 1000 * i + s) for s in range(n)]
            while not g.is_over:
                pending = g.pending_draw
                seat = pending if pending is not None and pending != g.to_move else g.to_move
                assert seat is not None
                view = g.view(seat)
                t0 = clock()
                a = bots[seat].act(view)
                dt = (clock() - t0) * 1000
                if seat == me and a != DRAW:
                    times.append(dt)
                    if len(view.legal) > 1:
                        choice.append(dt)
                g.apply(a)
        out["configs"][label(rules, n, options)] = {
            "all": summary(times),
            "with_a_choice": summary(choice),
        }
        every += times
        every_choice += choice
    out["all"] = summary(every)
    out["with_a_choice"] = summary(every_choice)
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
