"""Pin the bots' behaviour: hash every move of fixed seeded arena games.

A speed-up of a bot (or of the engine paths the bots use) must not change a single
choice, or the strength table's part files, run over many sessions, would mix two bots
under one name. This script plays arena games exactly as ``ono99 arena`` does (same deal
and bot seeds), for the heuristic and for every search configuration the table and the
levels use (with fewer worlds, so that it runs in a few minutes), and prints one digest
of the moves per configuration. Save the digests before a change and check them after:

    python benchmarks/check_same_bots.py --save /tmp/bots-before.json
    # ... edit the bots ...
    python benchmarks/check_same_bots.py --check /tmp/bots-before.json

Exit status 1 when anything differs. The digests of the bots that played the strength
table (docs/strength.md) are pinned in ``benchmarks/results/bot-moves.json``, and
``tests/test_benchmarks.py`` checks them (the search configurations in the slow suite).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from typing import Any

from ono99.arena.tournament import bot_seed, deal_game, make_spec, next_actor
from ono99.bots import make_bot

#: (label, bots, players, rules, options, games)
CONFIGS: list[tuple[str, list[str], int, str, dict[str, Any], int]] = [
    ("m2-heuristic", ["heuristic", "greedy"], 2, "mattel2022", {}, 200),
    ("m4-heuristic", ["heuristic", "greedy"], 4, "mattel2022", {}, 120),
    ("c3t-heuristic", ["heuristic", "greedy", "random"], 3, "classic1980", {}, 90),
    ("c3p-heuristic", ["heuristic", "greedy"], 3, "classic1980", {"scoring": "points"}, 150),
    (
        "c4-heuristic-draw-z99",
        ["heuristic", "easy"],
        4,
        "classic1980",
        {"draw_penalty": True, "zero_ending_99": True},
        40,
    ),
    (
        "c3-heuristic-lowest",
        ["heuristic", "greedy"],
        3,
        "classic1980",
        {"scoring": "points", "points_mode": "lowest", "target": 60},
        60,
    ),
    ("g4-heuristic", ["heuristic", "greedy"], 4, "gamerules", {}, 40),
    ("m4-rollout-infer-z2", ["ismcts:12:heuristic:infer:z2", "heuristic"], 4, "mattel2022", {}, 8),
    ("m2-rollout-infer-z2", ["ismcts:12:heuristic:infer:z2", "heuristic"], 2, "mattel2022", {}, 12),
    ("c3t-rollout-infer", ["ismcts:12:heuristic:infer", "heuristic"], 3, "classic1980", {}, 6),
    ("c3p-tree", ["ismcts:60", "heuristic"], 3, "classic1980", {"scoring": "points"}, 9),
    ("m3-tree", ["ismcts:60", "greedy"], 3, "mattel2022", {}, 6),
    ("m2-particles", ["ismcts:12:heuristic:particles", "heuristic"], 2, "mattel2022", {}, 4),
    (
        "c3-tree-draw",
        ["ismcts:40:heuristic", "heuristic"],
        3,
        "classic1980",
        {"draw_penalty": True},
        3,
    ),
    ("m3-levels", ["hard", "expert", "medium"], 3, "mattel2022", {}, 3),
]


def digest(
    bots: list[str], players: int, rules: str, options: dict[str, Any], games: int
) -> tuple[str, int]:
    """The digest of every game's moves, and how many moves there were."""
    spec = make_spec(bots, players, rules, options, games, seed=42)
    h = hashlib.sha256()
    moves = 0
    for index in range(spec.games):
        seating = spec.seating(index)
        g = deal_game(spec, index)  # as the arena plays it (play_game), keeping the moves
        seats = [
            make_bot(spec.bots[e], bot_seed(spec.seed, index, s)) for s, e in enumerate(seating)
        ]
        while (seat := next_actor(g)) is not None:
            g.apply(seats[seat].act(g.view(seat)))
        h.update(bytes(g.moves))
        h.update(b"|")
        moves += len(g.moves)
    return h.hexdigest(), moves


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--save", metavar="FILE", help="write the digests to FILE")
    ap.add_argument("--check", metavar="FILE", help="compare with the digests in FILE")
    ap.add_argument("--only", metavar="TEXT", help="only the configurations whose label holds TEXT")
    args = ap.parse_args(argv)
    out: dict[str, str] = {}
    for label, bots, players, rules, options, games in CONFIGS:
        if args.only and args.only not in label:
            continue
        t0 = time.perf_counter()
        d, moves = digest(bots, players, rules, options, games)
        out[label] = d
        print(f"{label:24} {moves:6} moves {time.perf_counter() - t0:6.1f} s  {d[:16]}", flush=True)
    if args.save:
        with open(args.save, "w", encoding="utf-8") as f:
            json.dump(out, f, indent=1)
    if args.check:
        with open(args.check, encoding="utf-8") as f:
            before: dict[str, str] = json.load(f)
        bad = [k for k, v in out.items() if before.get(k) != v]
        if bad:
            print("DIFFERENT: " + ", ".join(bad))
            return 1
        print(f"same moves in all {len(out)} configurations")
    return 0


if __name__ == "__main__":
    sys.exit(main())
