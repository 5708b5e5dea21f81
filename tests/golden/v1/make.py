"""Write the version-1 golden records (``NAME.json``, no deals, no ``rng`` key) and their
final states (``NAME.expected.json``) in this folder.

They were written once, on 2026-12-06, by the engine of main c46a905, before the deal
generator had versions (R-REC): every one of them replays only through the version-1
generator (``random.Random(f"{seed}:{purpose}:{n}")``). Do not regenerate them: they pin
that generator. Each game is careful random play (``random.Random(seed)`` picks: mostly the card
that raises the total least, sometimes any legal one), the first
seed from the one given that reshuffles at least once where five
or more play classic1980 or gamerules (fewer players, or mattel2022's one round, do not
get through the draw pile), so deals and reshuffles are both
pinned, in every preset, option and scoring mode, with 2 to 8 players.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent

GAMES: list[tuple[str, str, dict[str, Any], int, int]] = [
    # (name, preset, options, players, first seed to try)
    ("mattel_2p", "mattel2022", {}, 2, 0),
    ("mattel_4p", "mattel2022", {}, 4, 11),
    ("mattel_6p", "mattel2022", {}, 6, 2**255 + 7),
    ("classic_tokens_2p", "classic1980", {}, 2, 21),
    ("classic_tokens_5p_zero99", "classic1980", {"zero_ending_99": True}, 5, 31),
    ("classic_tokens_8p_draw_penalty", "classic1980", {"draw_penalty": True}, 8, 41),
    ("classic_tokens_3p_zero99_draw_penalty", "classic1980",
     {"zero_ending_99": True, "draw_penalty": True}, 3, 2**256 - 1000),
    ("classic_points_4p", "classic1980", {"scoring": "points"}, 4, 51),
    ("classic_points_6p_lowest", "classic1980",
     {"scoring": "points", "points_mode": "lowest", "target": 60}, 6, 61),
    ("classic_points_3p_all_options", "classic1980",
     {"scoring": "points", "target": 40, "zero_ending_99": True, "draw_penalty": True}, 3, 71),
    ("classic_points_7p_lowest_draw_penalty", "classic1980",
     {"scoring": "points", "points_mode": "lowest", "draw_penalty": True}, 7, 2**128 + 81),
    ("gamerules_3p", "gamerules", {}, 3, 91),
    ("gamerules_8p", "gamerules", {}, 8, 101),
    ("gamerules_5p_draw_penalty", "gamerules", {"draw_penalty": True}, 5, 111),
]  # fmt: skip


def _raise(action: int) -> int:
    """How much ``action`` may raise the total: a pending draw first (R-DRAW-1), then the
    specials, then numbers, a 99 last."""
    if action == 17:
        return -2
    return -1 if 11 <= action <= 14 else (action if action <= 10 else 100)


def build(preset: str, options: dict[str, Any], n: int, seed: int, want_reshuffle: bool) -> Any:
    from ono99 import Game

    for s in range(seed, seed + 1000):
        kwargs: dict[str, Any] = {"rng": 1} if "rng" in Game.__init__.__code__.co_varnames else {}
        g = Game(preset, n, options=options, seed=s, **kwargs)
        pick = random.Random(s)
        while not g.is_over:
            legal = g.legal_actions()
            if pick.random() < 0.95:  # careful: rounds last, so the piles run out
                g.apply(min(legal, key=_raise))
            else:
                g.apply(legal[pick.randrange(len(legal))])
        if g.reshuffles or not want_reshuffle:
            return g
    raise AssertionError("no game with a reshuffle")


def main() -> None:
    from ono99 import state_json, to_record

    for name, preset, options, n, seed in GAMES:
        g = build(preset, options, n, seed, preset != "mattel2022" and n >= 5)
        rec = to_record(g)
        del rec["deals"]  # a seeded record: the deals come from the generator
        rec.pop("rng", None)  # version 1: no key
        (HERE / f"{name}.json").write_text(json.dumps(rec) + "\n", encoding="utf-8")
        (HERE / f"{name}.expected.json").write_text(
            json.dumps(state_json(g), indent=1) + "\n", encoding="utf-8"
        )
        print(name, "moves", len(g.moves), "rounds", g.round, "reshuffles", g.reshuffles,
              file=sys.stderr)  # fmt: skip


if __name__ == "__main__":
    main()
