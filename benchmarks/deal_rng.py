"""The seeded shuffle's cost: version 2 (ours, docs/records.md) against version 1 (the
first generator, ``random.Random(f"{seed}:deal:{n}")`` and its Fisher-Yates walk), for
what the engine does at every deal: seed a stream and shuffle a deck (108 cards: classic1980
and gamerules; 112: mattel2022).

    python benchmarks/deal_rng.py                 # 7 runs of 20,000 deals each, alternating
    python benchmarks/deal_rng.py --runs 9 --deals 50000 --cards 112

The two alternate run by run (v1 first in even runs, v2 first in odd ones) so that neither
always goes first and both see the same background load; each run shuffles ``--deals``
decks with seeds 0, 1, 2, ... and reports microseconds per deal. Prints the median of each
and their ratio, then one JSON line with every run.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections.abc import Callable

from ono99.chance import deal_key, shuffle, shuffle_v1


def _v1(seed: int, deck: list[int]) -> None:
    shuffle_v1(seed, "deal", 1, deck)


def _v2(seed: int, deck: list[int]) -> None:
    shuffle(deal_key(seed, 1), deck)


def _run(deal: Callable[[int, list[int]], None], deals: int, cards: int) -> float:
    """Microseconds per deal (a fresh deck each time, as the engine builds one)."""
    base = list(range(cards))
    start = time.perf_counter()
    for seed in range(deals):
        deal(seed, base[:])
    return (time.perf_counter() - start) / deals * 1e6


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--deals", type=int, default=20_000)
    ap.add_argument("--cards", type=int, default=108)
    args = ap.parse_args()
    times: dict[str, list[float]] = {"v1": [], "v2": []}
    for r in range(args.runs):
        order = ("v1", "v2") if r % 2 == 0 else ("v2", "v1")
        for name in order:
            times[name].append(_run(_v1 if name == "v1" else _v2, args.deals, args.cards))
    med = {k: statistics.median(v) for k, v in times.items()}
    print(f"{args.cards} cards, {args.runs} runs of {args.deals} deals, median µs per deal:")
    print(f"  version 1 (random.Random, string seed): {med['v1']:.1f}")
    print(f"  version 2 (SHAKE-256 of the key):       {med['v2']:.1f}")
    print(f"  version 2 / version 1: {med['v2'] / med['v1']:.2f}")
    print(json.dumps({"cards": args.cards, "deals": args.deals, "median_us": med, "runs": times}))


if __name__ == "__main__":
    main()
