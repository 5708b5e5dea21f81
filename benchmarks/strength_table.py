"""Print the markdown strength table of docs/strength.md from benchmarks/results/*.json.

For each table, adjacent levels are compared on the same games: the arena's ``pairs``
entry (the difference of their win shares per seat held, averaged over rotation blocks
of the duplicate format, with its standard error over blocks), or without it the
multinomial variance (p_a + p_b - d^2) / n. A level "beats" the one below with 95 %
confidence when z = d / se > 1.645 (one-sided).
"""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path

ORDER = ["ismcts", "heuristic", "greedy", "random"]
RESULTS = Path(__file__).parent / "results"


def level(name: str) -> int:
    base = name.split("#")[0].split(":")[0]
    return ORDER.index(base) if base in ORDER else len(ORDER)


def main() -> None:
    files = sorted(RESULTS.glob("*.json")) if len(sys.argv) < 2 else [Path(a) for a in sys.argv[1:]]
    print(
        "| run | preset | players | games | bot | seats/game | win rate | 95% CI (Wilson) | p50 / p99 ms | beats next level below |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|")
    for f in files:
        data = json.loads(f.read_text())
        if "bots" not in data:
            continue  # not an arena result (decision times)
        n = data["games"]
        bots = sorted(data["bots"].items(), key=lambda kv: level(kv[0]))
        players = data["players"]
        opts = data["options"]
        shown = {k: v for k, v in opts.items() if v not in (False, "tokens")}
        preset = data["rules"] + "".join(f" {k}={v}" for k, v in shown.items())
        if opts.get("scoring") == "tokens":
            preset += " (tokens)"
        for i, (name, b) in enumerate(bots):
            seats = sum(b["seats"]) / n
            verdict = ""
            if i + 1 < len(bots):
                lower, lb = bots[i + 1]
                # compare per-seat shares when an entry holds several seats
                sa, sb = seats, sum(lb["seats"]) / n
                pa, pb = b["win_rate"] / sa, lb["win_rate"] / sb
                d = pa - pb
                var = (b["win_rate"] / sa**2 + lb["win_rate"] / sb**2 - d * d) / n
                z = d / math.sqrt(var) if var > 0 else float("inf")
                for pair in data.get("pairs", []):  # block-paired test (duplicate format)
                    if {pair["a"], pair["b"]} == {name, lower} and pair["z"] is not None:
                        z = pair["z"] if pair["a"] == name else -pair["z"]
                ok = "yes" if z > 1.645 else "**no**"
                verdict = f"{ok}: vs {lower}, z = {z:.1f}"
            lo, hi = b["ci95"]
            dm = b["decision_ms"]
            print(
                f"| {f.stem} | {preset} | {players} | {n} | {name} | {seats:g} | {b['win_rate']:.3f} "
                f"| [{lo:.3f}, {hi:.3f}] | {dm['p50']:.2f} / {dm['p99']:.1f} | {verdict} |"
            )


if __name__ == "__main__":
    main()
