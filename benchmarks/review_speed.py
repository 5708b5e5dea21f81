"""How long a review takes: a whole 2-player game, and one position's values (a hint).

Plays ``--games`` 2-player games (``random`` against ``heuristic``, seats alternating, fixed
seeds), then times :func:`~ono99.bots.review.review_game` of each at ``--samples`` worlds a
decision (what ``ono99 review`` does after reading the file) with the compiled rollouts, and
``--python-games`` of them with the Python rollouts (no Numba). Every decision with a choice of
those games is then timed alone as a hint (:func:`~ono99.bots.evaluate.evaluate` with the
seat's previous decision, as the review values it). Wall-clock and this process's CPU time are
both reported: on a shared machine the wall clock includes waiting for a core.

The compiled code is loaded (or compiled) before any clock starts.

Usage::

    python benchmarks/review_speed.py --games 10 --python-games 2 \\
        --out benchmarks/results/review-speed.json

Prints a summary and one JSON object on the last line (also written to ``--out``).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from ono99 import Game
from ono99.bots import compiled, make_bot
from ono99.bots.evaluate import DEFAULT_SAMPLES, evaluate
from ono99.bots.review import review_game
from ono99.cards import parse_action
from ono99.records import ParsedRecord, parse_record, to_record
from ono99.view import PlayerView


def _games(n: int, seed: int) -> list[ParsedRecord]:
    out = []
    for i in range(n):
        names = ["random", "heuristic"] if i % 2 == 0 else ["heuristic", "random"]
        bots = [make_bot(b, seed + i) for b in names]
        g = Game("mattel2022", 2, seed=seed + i, events=False)
        while not g.is_over:
            p = g.to_move
            assert p is not None
            g.apply(bots[p].act(g.view(p)))
        out.append(parse_record(to_record(g)))
    return out


def _positions(rec: ParsedRecord) -> list[tuple[PlayerView, tuple[PlayerView, int] | None]]:
    """Every decision with a choice: the view and the seat's previous decision."""
    g = rec.new_game(events=False)
    last: dict[int, tuple[PlayerView, int]] = {}
    out = []
    for move in rec.moves:
        p = g.to_move
        assert p is not None
        view = g.view(p)
        a = parse_action(move)
        if len(view.legal) > 1:
            out.append((view, last.get(p)))
        last[p] = (view, a)
        g.apply(a)
    return out


def _timed_reviews(records: list[ParsedRecord], samples: int) -> list[dict[str, Any]]:
    rows = []
    for i, rec in enumerate(records):
        wall, cpu = time.perf_counter(), time.process_time()
        review = review_game(rec, samples=samples, seed=i)
        rows.append(
            {
                "decisions": len(review.decisions),
                "wall_s": time.perf_counter() - wall,
                "cpu_s": time.process_time() - cpu,
            }
        )
    return rows


def _quantile(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, max(0, math.ceil(q * len(xs)) - 1))]


def _summary(rows: list[dict[str, Any]]) -> dict[str, Any]:
    if not rows:
        return {}
    return {
        "games": len(rows),
        "decisions_median": statistics.median(r["decisions"] for r in rows),
        "wall_s_median": statistics.median(r["wall_s"] for r in rows),
        "wall_s_max": max(r["wall_s"] for r in rows),
        "cpu_s_median": statistics.median(r["cpu_s"] for r in rows),
        "cpu_s_max": max(r["cpu_s"] for r in rows),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--python-games", type=int, default=2)
    ap.add_argument("--samples", type=int, default=DEFAULT_SAMPLES)
    ap.add_argument("--seed", type=int, default=36_000)
    ap.add_argument("--out", type=Path)
    args = ap.parse_args(argv)
    records = _games(args.games, args.seed)
    compiled.FAST_ROLLOUTS = True
    if compiled.module() is None:
        print("Numba is not installed: only the Python rollouts are timed", file=sys.stderr)
    fast = _timed_reviews(records, args.samples) if compiled.module() is not None else []
    hints: list[tuple[float, float]] = []
    for rec in records:
        for view, previous in _positions(rec):
            wall, cpu = time.perf_counter(), time.process_time()
            evaluate(view, samples=args.samples, seed=1, previous=previous)
            hints.append((time.perf_counter() - wall, time.process_time() - cpu))
    compiled.FAST_ROLLOUTS = False
    slow = _timed_reviews(records[: args.python_games], args.samples)
    result = {
        "command": "python benchmarks/review_speed.py " + " ".join(argv or sys.argv[1:]),
        "samples": args.samples,
        "load_average_at_end": os.getloadavg(),
        "cpus": os.cpu_count(),
        "compiled_review": _summary(fast),
        "python_review": _summary(slow),
        "hint": {
            "positions": len(hints),
            "wall_s_p50": _quantile([h[0] for h in hints], 0.5),
            "wall_s_p99": _quantile([h[0] for h in hints], 0.99),
            "cpu_s_p50": _quantile([h[1] for h in hints], 0.5),
            "cpu_s_p99": _quantile([h[1] for h in hints], 0.99),
        },
    }
    for name in ("compiled_review", "python_review"):
        s = result[name]
        if s:
            print(f"{name}: {s['games']} games, {s['decisions_median']} decisions (median): "
                  f"wall {s['wall_s_median']:.2f} s median, {s['wall_s_max']:.2f} s max; "
                  f"CPU {s['cpu_s_median']:.2f} s median, {s['cpu_s_max']:.2f} s max")  # fmt: skip
    h = result["hint"]
    print(
        f"hint: {h['positions']} positions: wall p50 {h['wall_s_p50']:.3f} s, p99 "
        f"{h['wall_s_p99']:.3f} s; CPU p50 {h['cpu_s_p50']:.3f} s, p99 {h['cpu_s_p99']:.3f} s"
    )
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(result, indent=1) + "\n")
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
