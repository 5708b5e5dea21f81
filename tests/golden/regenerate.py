"""Write the golden records (``NAME.json``) and their final states
(``NAME.expected.json``) in this folder.

Run ``python tests/golden/regenerate.py`` only after checking by hand that the engine
plays these games right: the expected files pin the engine's current behaviour.
Most games are the hand-checked scenarios of the rule tests (their comments give the
arithmetic); the long seeded games pin reshuffles and were checked for invariants
(cards conserved, totals in bounds) by tests/test_properties.py.
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from engine_helpers import make, play, scripted  # noqa: E402
from ono99 import Card, Game, replay, state_json, to_record  # noqa: E402

RAMP_89 = "10 9 8 10 9 8 10 9 8 2 3 3"
RAMP_95 = "10 9 8 10 9 8 10 9 8 4 5 5"
NINES = "99 99 99 99"


def mattel_elimination() -> Game:
    # 89, seat 0 plays 9 (98): seat 1 (10 10 99 99) and seat 2 (10 10 5 99) bust
    g = scripted("mattel2022", RAMP_89, ["9 2 3 4", "10 10 99 99", "10 10 5 99"])
    g.apply("9")
    return g


def mattel_play2_answers() -> Game:
    # seat 1 owes two: 99x4 (draws 1 2 3 0) then 0; seat 2 reverses (3 players: -1);
    # seat 1 plays 2, seat 0 plays 2 (4); seat 2 plays P2: seat 1 owes two and answers
    # with R (clockwise again), so seat 2 owes two: 4 and 5 (13); seat 0 to move
    g = make("mattel2022", ["P2 2 3 4", "99 99 99 99", "P2 R 4 5"], "5 1 2 3 0 R 6 7 9")
    play(g, "P2", "99x4", "0", "R", "2", "2", "P2", "R", "4", "5")
    assert (g.total, g.direction, g.to_move, g.owes_two) == (13, 1, 0, None)
    return g


def mattel_seeded_six_players() -> Game:
    return _random_game("mattel2022", {}, 6, seed=2)


def classic_tokens_seeded_reshuffle() -> Game:
    return _random_game("classic1980", {"zero_ending_99": True}, 5, seed=3, want_reshuffle=True)


def classic_tokens_three_players() -> Game:
    deals = [(["2 3 4 5", NINES, "6 7 8 9"], "") for _ in range(3)]
    deals.append((["2 3 4 5", "", "6 7 8 9"], ""))
    g = make("classic1980", ["R 2 3 4", NINES, "10 5 6 7"], "9 9", more_deals=deals)
    play(g, "R", "10", "6", "2")
    return g


def classic_tokens_two_players() -> Game:
    return make("classic1980", [NINES, "2 3 4 5"], more_deals=[([NINES, "2 3 4 5"], "")] * 3)


def classic_zero_ending() -> Game:
    g = make("classic1980", ["P2 -10 3 4", "99 99 10 5"], "6 7 8", options={"zero_ending_99": True})
    play(g, "P2", "99", "10", "-10", "99")
    return g


def _points(options: dict[str, object], rest: str = "6 99 2", more=()) -> Game:  # type: ignore[no-untyped-def]
    g = scripted(
        "classic1980",
        RAMP_95,
        ["4 7 10 99", "H R P2 3", "10 10 10 99"],
        rest,
        options={"scoring": "points", **options},
        more_deals=more,
    )
    play(g, "7", "3", "10")
    return g


def points_lowest_tie() -> Game:
    return _points({"target": 60, "points_mode": "lowest"})  # 65, 65, 67: [0, 1]


def points_elimination_all_out_tie() -> Game:
    return _points({"target": 60})  # all out, fewest 65 shared: [0, 1]


def points_elimination_fewest_that_round() -> Game:
    return _points({"target": 66}, more=[(["99 99 99 99", "2 3 4 5", ""], "")])


def points_draw_penalty() -> Game:
    g = make(
        "classic1980",
        ["2 3 4 5", "6 99 99 99"],
        "10 10",
        options={"scoring": "points", "target": 200, "draw_penalty": True},
    )
    play(g, "2", "6", "3")
    return g


def gamerules_99_draw_penalty() -> Game:
    g = make(
        "gamerules",
        ["99 2 3 4", "-10 5 6 7", "H 8 9 10"],
        "10 2 3",
        options={"draw_penalty": True},
    )
    play(g, "99", "-10", "draw", "H", "draw")
    return g


def gamerules_reshuffle_8p() -> Game:
    hands = ["2 3 4 5", "2 3 4 5", "2 3 4 5", "6 7 8 9", "6 7 8 9", "6 7 8 9",
             "-10 -10 -10 -10", "R R R R"]  # fmt: skip
    draw = "R R H H H H P2 P2 10 10 10 10 10 10 10 10 10 10 99 99 99 99"
    g = make("gamerules", hands, draw, seed=3)
    while not g.is_over:
        legal = g.legal_actions()
        g.apply(min(legal, key=lambda a: (a == Card.NINETY_NINE, g.total + (a if a <= 10 else 0))))
    return g


def classic_points_seeded() -> Game:
    return _random_game("classic1980", {"scoring": "points", "draw_penalty": True}, 4, seed=5)


def _random_game(
    preset: str, options: dict[str, object], n: int, seed: int, want_reshuffle: bool = False
) -> Game:
    for s in range(seed, seed + 1000):
        g = Game(preset, n, options=options, seed=s)
        rng = random.Random(s)
        while not g.is_over:
            legal = g.legal_actions()
            g.apply(legal[rng.randrange(len(legal))])
        if g.reshuffles or not want_reshuffle:
            return g
    raise AssertionError("no game with a reshuffle")


GAMES: dict[str, Callable[[], Game]] = {
    "mattel_elimination": mattel_elimination,
    "mattel_play2_answers": mattel_play2_answers,
    "mattel_seeded_six_players": mattel_seeded_six_players,
    "classic_tokens_seeded_reshuffle": classic_tokens_seeded_reshuffle,
    "classic_tokens_three_players": classic_tokens_three_players,
    "classic_tokens_two_players": classic_tokens_two_players,
    "classic_zero_ending": classic_zero_ending,
    "points_lowest_tie": points_lowest_tie,
    "points_elimination_all_out_tie": points_elimination_all_out_tie,
    "points_elimination_fewest_that_round": points_elimination_fewest_that_round,
    "points_draw_penalty": points_draw_penalty,
    "gamerules_99_draw_penalty": gamerules_99_draw_penalty,
    "gamerules_reshuffle_8p": gamerules_reshuffle_8p,
    "classic_points_seeded": classic_points_seeded,
}


def main() -> None:
    for name, build in GAMES.items():
        g = build()
        rec = to_record(g)
        state = state_json(g)
        assert state_json(replay(rec)) == state
        (HERE / f"{name}.json").write_text(json.dumps(rec) + "\n", encoding="utf-8")
        (HERE / f"{name}.expected.json").write_text(
            json.dumps(state, indent=1) + "\n", encoding="utf-8"
        )
        print(name, "moves", len(g.moves), "round", g.round, "winner", g.winner,
              "reshuffles", g.reshuffles)  # fmt: skip


if __name__ == "__main__":
    main()
