"""Pin the engine's behaviour: hash the final states of fixed seeded random games.

A speed-up of the engine must not change a single game. This script plays the same
random legal games (fixed seeds, fixed random choices) under every preset and mode,
hashes each game's final ``state_json``, its moves and its event log, and prints one
digest per configuration. Save the digests before a change and check them after:

    python benchmarks/check_same_games.py --save /tmp/before.json
    # ... edit the engine ...
    python benchmarks/check_same_games.py --check /tmp/before.json

The same games are also played with ``events=False`` (the bench and search path)
and must end in the same state. Exit status 1 when anything differs.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
from typing import Any

from ono99 import Game, make_rules, state_json

#: (label, preset, options, player counts)
CONFIGS: list[tuple[str, str, dict[str, Any], tuple[int, ...]]] = [
    ("mattel2022", "mattel2022", {}, (2, 3, 4, 6)),
    ("classic1980-tokens", "classic1980", {}, (2, 4, 8)),
    ("classic1980-points", "classic1980", {"scoring": "points"}, (2, 4, 8)),
    (
        "classic1980-points-lowest-z99",
        "classic1980",
        {"scoring": "points", "points_mode": "lowest", "target": 60, "zero_ending_99": True},
        (3, 5),
    ),
    ("classic1980-draw", "classic1980", {"draw_penalty": True, "zero_ending_99": True}, (2, 5)),
    (
        "classic1980-points-draw",
        "classic1980",
        {"scoring": "points", "draw_penalty": True},
        (3, 4),
    ),
    ("gamerules", "gamerules", {}, (2, 4, 7)),
    ("gamerules-draw", "gamerules", {"draw_penalty": True}, (3,)),
]


def play(preset: str, options: dict[str, Any], players: int, seed: int, events: bool) -> Game:
    """One random legal game; the choices come from ``seed`` too. Pending draws are
    sometimes left for a later move (so lost draws are exercised)."""
    g = Game(make_rules(preset, options), players, seed=seed, events=events)
    rng = random.Random(f"check:{seed}")
    while not g.is_over:
        legal = g.legal_actions()
        g.apply(legal[rng.randrange(len(legal))])
    return g


def digest_config(
    preset: str, options: dict[str, Any], counts: tuple[int, ...], games: int
) -> tuple[str, int]:
    """``"<states and moves digest>/<event log digest>"`` and the number of moves."""
    h = hashlib.sha256()
    he = hashlib.sha256()
    steps = 0
    for i in range(games):
        players = counts[i % len(counts)]
        g = play(preset, options, players, i, events=True)
        fast = play(preset, options, players, i, events=False)
        state = state_json(g)
        if state_json(fast) != state or fast.moves != g.moves:
            raise SystemExit(f"{preset} {options} seed {i}: events=False changes the game")
        assert g.events is not None
        h.update(json.dumps(state, sort_keys=True).encode())
        h.update(bytes(g.moves))
        he.update(json.dumps([list(e) for e in g.events], sort_keys=True).encode())
        steps += len(g.moves)
    return f"{h.hexdigest()}/{he.hexdigest()}", steps


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=250, help="games per configuration (250)")
    ap.add_argument("--save", metavar="FILE", help="write the digests to FILE")
    ap.add_argument("--check", metavar="FILE", help="compare with digests saved in FILE")
    args = ap.parse_args(argv)
    result: dict[str, Any] = {"games_per_config": args.games, "digests": {}}
    total_steps = 0
    for label, preset, options, counts in CONFIGS:
        digest, steps = digest_config(preset, options, counts, args.games)
        result["digests"][label] = digest
        total_steps += steps
        print(f"{label:32} {digest[:12]}/{digest[65:77]}  ({steps} moves)")
    games = args.games * len(CONFIGS)
    print(f"{games} games, {total_steps} moves")
    if args.save:
        with open(args.save, "w", encoding="utf-8") as f:
            json.dump(result, f, indent=1)
    if args.check:
        with open(args.check, encoding="utf-8") as f:
            saved = json.load(f)
        if saved.get("games_per_config") != args.games:
            print(f"{args.check} holds {saved.get('games_per_config')} games per config")
            return 1
        bad = []
        for k, v in result["digests"].items():
            was = saved["digests"].get(k, "/")
            parts = [
                n
                for n, a, b in zip(("states", "events"), v.split("/"), was.split("/"), strict=True)
                if a != b
            ]
            if parts:
                bad.append(f"{k} ({' and '.join(parts)})")
        if bad:
            print("DIFFERENT: " + ", ".join(bad))
            return 1
        print("same games as " + args.check)
    return 0


if __name__ == "__main__":
    sys.exit(main())
