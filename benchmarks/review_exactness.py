"""The review's evaluator against exact values, in the solved research variant ``mini``.

``mini`` is solved (docs/mini.md): for every view the bot ``optimal``'s table holds each legal
action's exact value under equilibrium play (:func:`ono99.bots.optimal.action_values`, as a
win chance (value + 1) / 2). This script plays 2-player ``mini`` games between bots drawn from
a mix (``--bots``, a seat's bot drawn for every game), and at every decision with a choice asks
the evaluator (:mod:`ono99.bots.evaluate`, as ``ono99 review`` runs it: the seat's view, its
previous decision, ``--samples`` worlds) for each legal action's win chance. Compared:

- every option's value with its exact value: mean absolute difference, root mean square,
  mean signed difference (the evaluator's bias), correlation;
- each decision's best action: how often the evaluator's best is an exact best, and the exact
  win chance its best gives up against the exact best (its exact regret at that decision);
- each move played: the loss the review charges it against its exact loss, and the review's
  mistakes (docs/review.md) against the moves whose exact loss is 5 points or more.

The two do not value the same thing: the exact values assume both players then play the
equilibrium, the evaluator that both play the heuristic, from worlds read from the others'
plays with the heuristic as their model. The differences measure both at once.

Usage::

    python benchmarks/review_exactness.py --games 300 --samples 200 --seed 5 \\
        --out benchmarks/results/review-exactness.json

Prints a summary and one JSON object on the last line (also written to ``--out``).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from ono99 import Game
from ono99.bots import make_bot
from ono99.bots.evaluate import DEFAULT_SAMPLES, Evaluator
from ono99.bots.optimal import action_values
from ono99.bots.review import MISTAKE, Decision
from ono99.rules import make_rules
from ono99.view import PlayerView

#: two exact values closer than this are the same (the table's values are rounded)
TIE = 1e-6


def _game(index: int, mix: list[str], samples: int, seed: int) -> list[dict[str, Any]]:
    """One game of the mix; every decision with a choice, valued both ways."""
    rng = random.Random(f"exactness:{seed}:{index}")
    names = [rng.choice(mix) for _ in range(2)]
    bots = [make_bot(n, rng.getrandbits(32)) for n in names]
    for b in bots:
        b.check_game(make_rules("mini"), 2)
    g = Game("mini", 2, seed=rng.getrandbits(64), events=False)
    last: dict[int, tuple[PlayerView, int]] = {}
    rows = []
    while not g.is_over:
        p = g.to_move
        assert p is not None
        view = g.view(p)
        action = bots[p].act(view)
        if len(view.legal) > 1:
            ev = Evaluator(view, seed=seed + index, previous=last.get(p))
            ev.add(samples)
            values = ev.values()
            exact = {a: (v + 1) / 2 for a, v in action_values(view).items()}
            decision = Decision(len(g.moves), p, action, values)
            top = max(exact.values())
            rows.append(
                {
                    "game": index,
                    "bot": names[p],
                    "options": [[o.win, exact[o.action]] for o in values.options],
                    "best_exact_loss": top - exact[values.best.action],
                    "best_is_exact_best": exact[values.best.action] >= top - TIE,
                    "loss": decision.loss,
                    "exact_loss": top - exact[action],
                    "mistake": decision.mistake,
                }
            )
        last[p] = (view, action)
        g.apply(action)
    return rows


def _corr(xs: list[float], ys: list[float]) -> float:
    """Pearson's correlation; 0 where either side is constant (a bot whose every move is
    exactly best, say), where it is undefined."""
    try:
        return statistics.correlation(xs, ys)
    except statistics.StatisticsError:
        return 0.0


def summarize(rows: list[dict[str, Any]]) -> dict[str, Any]:
    pairs = [o for r in rows for o in r["options"]]
    est = [e for e, _ in pairs]
    ex = [x for _, x in pairs]
    diffs = [e - x for e, x in pairs]
    big = [r for r in rows if r["exact_loss"] >= MISTAKE - 1e-9]
    flagged = [r for r in rows if r["mistake"]]
    return {
        "decisions": len(rows),
        "options": len(pairs),
        "mean_abs_diff": statistics.fmean(abs(d) for d in diffs),
        "rms_diff": math.sqrt(statistics.fmean(d * d for d in diffs)),
        "mean_signed_diff": statistics.fmean(diffs),
        "correlation": _corr(est, ex),
        "best_is_exact_best": statistics.fmean(r["best_is_exact_best"] for r in rows),
        "best_exact_loss": statistics.fmean(r["best_exact_loss"] for r in rows),
        "played_loss": statistics.fmean(r["loss"] for r in rows),
        "played_exact_loss": statistics.fmean(r["exact_loss"] for r in rows),
        "loss_correlation": _corr([r["loss"] for r in rows], [r["exact_loss"] for r in rows]),
        "exact_mistakes": len(big),
        "review_mistakes": len(flagged),
        "mistake_recall": (sum(r["mistake"] for r in big) / len(big)) if big else None,
        "mistake_precision": (
            sum(r["exact_loss"] >= MISTAKE - 1e-9 for r in flagged) / len(flagged)
            if flagged
            else None
        ),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bots", default="optimal,heuristic,random")
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--samples", type=int, default=DEFAULT_SAMPLES)
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--out", type=Path)
    args = ap.parse_args(argv)
    mix = args.bots.split(",")
    start, cpu = time.perf_counter(), time.process_time()
    rows: list[dict[str, Any]] = []
    for i in range(args.games):
        rows += _game(i, mix, args.samples, args.seed)
    summary = summarize(rows)
    by_bot = {b: summarize([r for r in rows if r["bot"] == b]) for b in mix}
    for k, v in summary.items():
        print(f"{k:>20}: {v:.4f}" if isinstance(v, float) else f"{k:>20}: {v}")
    for b, s in by_bot.items():
        print(f"{b}: played loss {s['played_loss']:.4f} (exact {s['played_exact_loss']:.4f}), "
              f"{s['decisions']} decisions")  # fmt: skip
    result = {
        "command": "python benchmarks/review_exactness.py " + " ".join(argv or sys.argv[1:]),
        "bots": mix, "games": args.games, "samples": args.samples, "seed": args.seed,
        "seconds": time.perf_counter() - start, "cpu_seconds": time.process_time() - cpu,
        **summary, "by_bot": by_bot,
    }  # fmt: skip
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(result, indent=1) + "\n")
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
