"""Is the review's win chance a real chance? Positions valued at p should be won at p.

Bots drawn from a mix (``--bots``, a seat's bot drawn at random for every game) play whole
games. At up to ``--per-game`` decisions with a choice of each game (drawn at random), the
evaluator (:mod:`ono99.bots.evaluate`, as ``ono99 review`` runs it: the seat's view, its
previous decision for the hand reading, ``--samples`` worlds) values the card the bot played;
the game's outcome is the seat's share of the win. Positions are binned by value: in each bin
the share of positions won should match the mean value. Printed: the bins with a 95 % Wilson
interval of the win rate, the weighted mean absolute gap (expected calibration error), the
largest gap of a bin with at least ``--min-bin`` positions, and the logistic fit of outcome on
value (a slope of 1 and an intercept of 0 are calibrated).

The values assume the heuristic plays every seat from the position on; the mix should hold bots
about as strong (greedy and heuristic are within 2 % of each other in 2-player mattel2022,
docs/strength.md). Several positions of one game share its outcome: the intervals
treat them as independent, so they are a little narrow.

Usage::

    python benchmarks/review_calibration.py --games 500 --players 2 --seed 1 \\
        --out benchmarks/results/review-calibration.json --chart docs/images/review-calibration.svg

Prints a table and one JSON object on the last line (also written to ``--out``).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from ono99 import Game
from ono99.bots import compiled, make_bot
from ono99.bots.evaluate import DEFAULT_SAMPLES, Evaluator, wilson
from ono99.view import PlayerView


def _game(args: tuple[int, str, int, list[str], int, int, int, bool]) -> list[dict[str, Any]]:
    """One game of the mix and its sampled positions: value, outcome, who played (and,
    with ``twice``, a second value of the same card from other worlds)."""
    index, rules, players, mix, per_game, samples, seed, twice = args
    compiled.FAST_ROLLOUTS = True
    rng = random.Random(f"calibration:{seed}:{index}")
    names = [rng.choice(mix) for _ in range(players)]
    bots = [make_bot(n, rng.getrandbits(32)) for n in names]
    g = Game(rules, players, seed=rng.getrandbits(64), events=False)
    last: dict[int, tuple[PlayerView, int]] = {}
    decisions: list[tuple[int, PlayerView, int, tuple[PlayerView, int] | None]] = []
    while not g.is_over:
        p = g.to_move
        assert p is not None
        view = g.view(p)
        action = bots[p].act(view)
        if len(view.legal) > 1:
            decisions.append((len(g.moves), view, action, last.get(p)))
        last[p] = (view, action)
        g.apply(action)
    winners = g.winner if isinstance(g.winner, list) else [g.winner]
    rows = []
    for move, view, action, previous in rng.sample(decisions, min(per_game, len(decisions))):
        ev = Evaluator(view, seed=seed + index, previous=previous)
        ev.add(samples)
        seat = view.seat
        row = {
            "game": index,
            "move": move,
            "bot": names[seat],
            "value": ev.values().option(action).win,
            "won": 1.0 / len(winners) if seat in winners else 0.0,
        }
        if twice:
            # independent worlds (another seed): an unbiased value of the same card, not
            # the one the position was binned by (docs/review.md "Calibration")
            again = Evaluator(view, seed=seed + index + (1 << 40), previous=previous)
            again.add(samples)
            row["value2"] = again.values().option(action).win
        rows.append(row)
    return rows


def _logistic(xs: list[float], ys: list[float]) -> tuple[float, float]:
    """Intercept and slope of outcome on logit(value), by Newton's method (no SciPy)."""
    eps = 1e-3
    zs = [math.log(min(max(x, eps), 1 - eps) / (1 - min(max(x, eps), 1 - eps))) for x in xs]
    a, b = 0.0, 1.0
    for _ in range(50):
        g0 = g1 = h00 = h01 = h11 = 0.0
        for z, y in zip(zs, ys, strict=True):
            p = 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, a + b * z))))
            w = p * (1 - p)
            g0 += y - p
            g1 += (y - p) * z
            h00 += w
            h01 += w * z
            h11 += w * z * z
        det = h00 * h11 - h01 * h01
        if det <= 0:
            break
        da = (h11 * g0 - h01 * g1) / det
        db = (h00 * g1 - h01 * g0) / det
        a, b = a + da, b + db
        if abs(da) + abs(db) < 1e-9 or abs(b) > 1e3:  # converged, or separable (few points)
            break
    return a, b


def summarize(rows: list[dict[str, Any]], bins: int, min_bin: int) -> dict[str, Any]:
    """The calibration table of ``rows``: bins of equal width over [0, 1]."""
    table = []
    for i in range(bins):
        lo, hi = i / bins, (i + 1) / bins
        inside = [r for r in rows if lo <= r["value"] < hi or (i == bins - 1 and r["value"] == 1)]
        if not inside:
            continue
        n = len(inside)
        value = sum(r["value"] for r in inside) / n
        won = sum(r["won"] for r in inside) / n
        row = {"bin": [lo, hi], "positions": n, "value": value, "won": won,
               "ci95": list(wilson(won, n)), "gap": won - value}  # fmt: skip
        if all("value2" in r for r in inside):
            row["value2"] = sum(r["value2"] for r in inside) / n
            row["gap2"] = won - row["value2"]
        table.append(row)
    total = len(rows)
    ece = sum(abs(b["gap"]) * b["positions"] for b in table) / total if total else 0.0
    big = [b for b in table if b["positions"] >= min_bin]
    worst = max(big, key=lambda b: abs(b["gap"])) if big else None
    a, b = _logistic([r["value"] for r in rows], [r["won"] for r in rows]) if rows else (0, 1)
    twice = {}
    if rows and all("gap2" in b for b in table):
        worst2 = max(big, key=lambda b: abs(b["gap2"])) if big else None
        twice = {
            "ece2": sum(abs(b["gap2"]) * b["positions"] for b in table) / total,
            "worst_gap2": None if worst2 is None else worst2["gap2"],
            "worst_bin2": None if worst2 is None else worst2["bin"],
        }
    return {
        **twice,
        "positions": total,
        "mean_value": sum(r["value"] for r in rows) / total if total else 0.0,
        "mean_won": sum(r["won"] for r in rows) / total if total else 0.0,
        "ece": ece,
        "worst_gap": None if worst is None else worst["gap"],
        "worst_bin": None if worst is None else worst["bin"],
        "logistic": {"intercept": a, "slope": b},
        "bins": table,
    }


def chart(summary: dict[str, Any], path: Path, title: str) -> None:
    """A reliability diagram: won against valued, with 95 % intervals and the ±3 % band."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    bins = summary["bins"]
    fig, (top, bottom) = plt.subplots(
        2, 1, figsize=(6, 6.5), gridspec_kw={"height_ratios": [3, 1]}, sharex=True
    )
    top.fill_between([0, 1], [-0.03, 0.97], [0.03, 1.03], color="0.88", label="±3 %")
    top.plot([0, 1], [0, 1], color="0.4", lw=1)
    xs = [b["value"] for b in bins]
    ys = [b["won"] for b in bins]
    err = [[b["won"] - b["ci95"][0] for b in bins], [b["ci95"][1] - b["won"] for b in bins]]
    if all("value2" in b for b in bins):
        # x: the bin's mean value from independent worlds (not those it was binned by)
        top.errorbar(
            [b["value2"] for b in bins],
            ys,
            yerr=err,
            fmt="o",
            color="#1f5fa8",
            capsize=3,
            label="won against an independent value (95 % interval)",
        )
        top.plot(xs, ys, "o", mfc="none", color="#c2452d",
                 label="won against the value binned by")  # fmt: skip
    else:
        top.errorbar(xs, ys, yerr=err, fmt="o", color="#1f5fa8", capsize=3,
                     label="won (95 % interval)")  # fmt: skip
    top.set_xlim(0, 1)
    top.set_ylim(0, 1)
    top.set_ylabel("share of positions won")
    top.set_title(title, fontsize=10)
    top.legend(loc="upper left", fontsize=8)
    bottom.bar([(b["bin"][0] + b["bin"][1]) / 2 for b in bins], [b["positions"] for b in bins],
               width=0.9 / len(bins) * (bins[0]["bin"][1] - bins[0]["bin"][0]) * len(bins),
               color="0.6")  # fmt: skip
    bottom.set_xlabel("win chance the review gave the move played")
    bottom.set_ylabel("positions")
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path)
    plt.close(fig)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rules", default="mattel2022")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--bots", default="greedy,heuristic")
    ap.add_argument("--games", type=int, default=500)
    ap.add_argument("--per-game", type=int, default=4)
    ap.add_argument("--samples", type=int, default=DEFAULT_SAMPLES)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--bins", type=int, default=10)
    ap.add_argument("--min-bin", type=int, default=50)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument(
        "--twice",
        action="store_true",
        help="value each position again from independent worlds (value2)",
    )
    ap.add_argument("--rows", type=Path, help="append each game's positions here (JSON lines)")
    ap.add_argument("--from-rows", type=Path, help="summarize the positions of this file only")
    ap.add_argument("--out", type=Path)
    ap.add_argument("--chart", type=Path)
    args = ap.parse_args(argv)
    mix = args.bots.split(",")
    jobs = [(i, args.rules, args.players, mix, args.per_game, args.samples, args.seed, args.twice)
            for i in range(args.games)]  # fmt: skip
    start = time.perf_counter()
    cpu = time.process_time()
    rows: list[dict[str, Any]] = []
    if args.from_rows:
        rows = [json.loads(line) for line in args.from_rows.read_text().splitlines() if line]
    else:
        pool = ProcessPoolExecutor(args.workers) if args.workers > 1 else None
        for part in pool.map(_game, jobs, chunksize=1) if pool else map(_game, jobs):
            rows += part
            if args.rows:
                with args.rows.open("a") as f:
                    f.writelines(json.dumps(r) + "\n" for r in part)
        if pool:
            pool.shutdown()
    summary = summarize(rows, args.bins, args.min_bin)
    by_bot = {b: summarize([r for r in rows if r["bot"] == b], args.bins, args.min_bin)
              for b in mix}  # fmt: skip
    for b in by_bot.values():
        del b["bins"]
    print(f"{'bin':>11} {'positions':>9} {'valued':>7} {'won':>7} {'95% interval':>17} {'gap':>7}"
          f" {'again':>7} {'gap':>7}")  # fmt: skip
    for b in summary["bins"]:
        lo, hi = b["ci95"]
        again = f" {b['value2']:>7.3f} {b['gap2']:>+7.3f}" if "value2" in b else ""
        print(f"{b['bin'][0]:.1f}–{b['bin'][1]:.1f} {b['positions']:>11} {b['value']:>7.3f} "
              f"{b['won']:>7.3f}   [{lo:.3f}, {hi:.3f}] {b['gap']:>+7.3f}{again}")  # fmt: skip
    print(f"positions {summary['positions']}, mean valued {summary['mean_value']:.3f}, "
          f"mean won {summary['mean_won']:.3f}, ECE {summary['ece']:.3f}, "
          f"largest gap (bins of {args.min_bin}+) {summary['worst_gap']}, logistic "
          f"{summary['logistic']}")  # fmt: skip
    result = {
        "command": "python benchmarks/review_calibration.py " + " ".join(argv or sys.argv[1:]),
        "rules": args.rules, "players": args.players, "bots": mix, "games": args.games,
        "per_game": args.per_game, "samples": args.samples, "seed": args.seed,
        "seconds": time.perf_counter() - start, "cpu_seconds_main": time.process_time() - cpu,
        **summary, "by_bot": by_bot,
    }  # fmt: skip
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(result, indent=1) + "\n")
    if args.chart:
        chart(summary, args.chart, f"{args.rules}, {args.players} players, bots {args.bots}: "
              f"{summary['positions']} positions, {args.samples} worlds each")  # fmt: skip
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
