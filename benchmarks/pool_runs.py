"""Pool several ``ono99 arena --json`` runs of the same bots (different seeds) into one result.

A long tournament is run as several arena commands with different ``--seed`` values (so a run
cut short by a time limit loses one chunk, not everything). Games are independent across
seeds, so the chunks pool exactly: wins and games add up, and the paired comparison of two
bots (the arena's ``pairs``: the mean difference of their win shares over rotation blocks)
pools as a block-weighted mean with its standard error.

Usage::

    python benchmarks/pool_runs.py benchmarks/results/m2-h-*.json [--json]
"""

from __future__ import annotations

import argparse
import json
import math
from pathlib import Path
from typing import Any

from ono99.arena.tournament import wilson


def pool(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """The pooled result of ``runs`` (arena ``--json`` objects with the same bots)."""
    first = runs[0]
    for r in runs[1:]:
        same = (r["rules"], r["options"], r["players"], sorted(r["bots"]))
        if same != (first["rules"], first["options"], first["players"], sorted(first["bots"])):
            raise SystemExit("pool_runs: the runs do not have the same rules, players and bots")
    if len({r["seed"] for r in runs}) < len(runs):
        raise SystemExit("pool_runs: two runs have the same seed (the same games)")
    bots: dict[str, Any] = {}
    for name in first["bots"]:
        entries = [r["bots"][name] for r in runs]
        games = sum(b["games"] for b in entries)
        wins = sum(b["wins"] for b in entries)
        lo, hi = wilson(wins, games)
        decisions = sum(b["decision_ms"]["decisions"] for b in entries)
        bots[name] = {
            "bot": name,
            "games": games,
            "wins": wins,
            "win_rate": round(wins / games, 6),
            "ci95": [round(lo, 6), round(hi, 6)],
            # percentiles do not pool exactly: the decision-weighted mean of each run's
            "decision_ms": {
                k: round(
                    sum(b["decision_ms"][k] * b["decision_ms"]["decisions"] for b in entries)
                    / max(1, decisions),
                    4,
                )
                for k in ("p50", "p99")
            }
            | {"decisions": decisions},
            "seats": [sum(s) for s in zip(*(b["seats"] for b in entries), strict=True)],
        }
    pairs = []
    for k, pair in enumerate(first["pairs"]):
        blocks = [r["pairs"][k]["blocks"] for r in runs]
        total = sum(blocks)
        diff = sum(b * r["pairs"][k]["diff"] for b, r in zip(blocks, runs, strict=True)) / total
        var = sum((b * r["pairs"][k]["se"]) ** 2 for b, r in zip(blocks, runs, strict=True))
        se = math.sqrt(var) / total
        pairs.append(
            {
                "a": pair["a"],
                "b": pair["b"],
                "diff": round(diff, 6),
                "se": round(se, 6),
                "z": round(diff / se, 3) if se else None,
                "blocks": total,
            }
        )
    return {
        "bots": bots,
        "pairs": pairs,
        "rules": first["rules"],
        "options": first["options"],
        "players": first["players"],
        "games": sum(r["games"] for r in runs),
        "seeds": [r["seed"] for r in runs],
        "pooled_from": len(runs),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("files", nargs="+", type=Path)
    ap.add_argument("--json", action="store_true", help="print the pooled result as JSON")
    args = ap.parse_args()
    runs = [json.loads(f.read_text()) for f in args.files]
    out = pool(runs)
    if args.json:
        print(json.dumps(out))
        return
    print(f"{out['rules']}, {out['players']} players, {out['games']} games, seeds {out['seeds']}")
    for name, b in out["bots"].items():
        lo, hi = b["ci95"]
        print(f"  {name:28} {b['win_rate']:.4f} [{lo:.4f}, {hi:.4f}] over {b['games']} games")
    for p in out["pairs"]:
        print(f"  {p['a']} vs {p['b']}: diff {p['diff']:+.4f} ± {p['se']:.4f}, z = {p['z']}")


if __name__ == "__main__":
    main()
