"""Golden records and perft-like pinned numbers: any change in the rules shows up.

The golden records in tests/golden/ replay to the final states checked in next to
them (tests/golden/regenerate.py wrote both, after the games were checked by hand), on
the reference engine, the fast engine and the test oracle alike (one parametrised test).
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from ono99 import Game, load_record, make_rules, replay, state_json, to_record
from oracle import Oracle
from test_oracle import FIELDS as ORACLE_FIELDS

GOLDEN = Path(__file__).resolve().parent / "golden"
RECORDS = sorted(p for p in GOLDEN.glob("*.json") if not p.name.endswith(".expected.json"))


def test_golden_set_is_complete() -> None:
    """A dozen golden records or more, each with its expected state."""
    assert len(RECORDS) >= 12
    for path in RECORDS:
        assert path.with_suffix(".expected.json").is_file(), path.name
    presets = {json.loads(p.read_text())["rules"] for p in RECORDS}
    assert presets == {"mattel2022", "classic1980", "gamerules"}


def _on_reference(record: dict[str, Any]) -> dict[str, Any]:
    return state_json(replay(load_record(json.dumps(record))))


def _on_fast(record: dict[str, Any]) -> dict[str, Any]:
    from ono99.fast.game import replay as replay_fast

    return replay_fast(record).state_json()


def _on_oracle(record: dict[str, Any]) -> dict[str, Any]:
    """The oracle (tests/oracle.py, written from RULES.md alone) plays the record with the
    complete deals the engine dealt, in lockstep with the engine (which gives it each
    reshuffled order, R-TURN-3, and must agree after every move): its final state."""
    from oracle import from_record
    from test_oracle import Stats, compare_record

    full = {**record, "deals": to_record(replay(record, events=False))["deals"]}
    last: dict[str, Oracle] = {"oracle": from_record(full)}  # a record without moves

    def keep(k: int, move: str, engine: Game, oracle: Oracle) -> None:
        last["oracle"] = oracle

    compare_record(full, Stats(), keep)
    o = last["oracle"]
    return {**o.state(), "discard": o.discard, "pending_draw": o.pending}


#: each engine's final state of a record, and the fields of the R-REC state it knows (the
#: oracle keeps no names, options or move count: the engines write those from the record)
PLAYERS: dict[str, tuple[Callable[[dict[str, Any]], dict[str, Any]], tuple[str, ...] | None]] = {
    "reference": (_on_reference, None),
    "fast": (_on_fast, None),
    "oracle": (_on_oracle, (*ORACLE_FIELDS, "discard", "pending_draw")),
}


@pytest.mark.parametrize("engine", sorted(PLAYERS))
@pytest.mark.parametrize("path", RECORDS, ids=[p.stem for p in RECORDS])
def test_golden_playthrough(path: Path, engine: str) -> None:
    """R-REC: every golden playthrough (checked by hand) ends at its checked-in final state
    on the reference engine, on the fast engine and in the test oracle: the one set of
    playthroughs all three are held to."""
    record = json.loads(path.read_text(encoding="utf-8"))
    expected = json.loads(path.with_suffix(".expected.json").read_text(encoding="utf-8"))
    final, fields = PLAYERS[engine]
    got = final(record)
    if fields is not None:
        expected = {f: expected[f] for f in fields}
        got = {f: got[f] for f in fields}
    assert got == expected


def test_golden_highlights() -> None:
    """R-END-3, R-TURN-3, R-DRAW-1: what the golden set is there to pin."""

    def final(name: str) -> dict[str, Any]:
        return json.loads((GOLDEN / f"{name}.expected.json").read_text(encoding="utf-8"))

    assert final("points_lowest_tie")["winner"] == [0, 1]
    assert final("points_elimination_all_out_tie")["out"] == [0, 1, 2]
    assert final("points_draw_penalty")["scores"] == [39, 100]
    assert final("gamerules_99_draw_penalty")["hands"][0] == ["2", "3", "4"]
    g = replay(load_record((GOLDEN / "gamerules_reshuffle_8p.json").read_text()))
    assert g.reshuffles > 0
    g = replay(load_record((GOLDEN / "classic_tokens_seeded_reshuffle.json").read_text()))
    assert g.reshuffles > 0


def perft(g: Game, depth: int) -> int:
    """The number of legal action sequences of length ``depth`` (shorter where the
    game ends first)."""
    if depth == 0 or g.is_over:
        return 1
    total = 0
    for a in g.legal_actions():
        h = g.copy()
        h.apply(a)
        total += perft(h, depth - 1)
    return total


PERFT = [
    # (preset, options, players, seed, depth, count)
    ("mattel2022", {}, 3, 1, 10, 55154),
    ("mattel2022", {}, 6, 2, 9, 47534),
    ("classic1980", {}, 4, 2, 10, 176181),
    ("classic1980", {"zero_ending_99": True}, 2, 5, 9, 100622),
    ("classic1980", {"scoring": "points", "draw_penalty": True}, 3, 3, 9, 30577),
    ("gamerules", {"draw_penalty": True}, 2, 4, 9, 35036),
    ("gamerules", {}, 8, 6, 9, 43380),
]


@pytest.mark.parametrize(("preset", "options", "players", "seed", "depth", "count"), PERFT)
def test_perft(
    preset: str, options: dict[str, Any], players: int, seed: int, depth: int, count: int
) -> None:
    """Pinned counts of legal action sequences from fixed seeded deals (version 1 of the
    seeded shuffle, R-REC: the deals these counts were pinned on)."""
    g = Game(preset, players, options=options, seed=seed, events=False, rng=1)
    assert perft(g, depth) == count


SIGNATURES = {
    "mattel2022": "54c133be0c087b0f",
    "classic1980": "e504d86048f5873e",
    "classic1980-points": "9590908dcf5ba80a",
    "gamerules-draw_penalty": "395f5ab9188033ba",
}
SIG_CONFIGS = {
    "mattel2022": ("mattel2022", {}),
    "classic1980": ("classic1980", {"zero_ending_99": True}),
    "classic1980-points": ("classic1980", {"scoring": "points", "points_mode": "lowest"}),
    "gamerules-draw_penalty": ("gamerules", {"draw_penalty": True}),
}


@pytest.mark.parametrize("name", sorted(SIG_CONFIGS))
def test_fixed_random_games_signature(name: str) -> None:
    """Pinned digest of the final states of 40 fixed random games per preset/mode (dealt by
    version 1 of the seeded shuffle, R-REC, as when they were pinned)."""
    preset, options = SIG_CONFIGS[name]
    rules = make_rules(preset, options)
    digest = hashlib.sha256()
    for i in range(40):
        players = rules.min_players + i % (rules.max_players - rules.min_players + 1)
        g = Game(rules, players, seed=1000 + i, events=False, rng=1)
        rng = random.Random(i)
        while not g.is_over:
            legal = g.legal_actions()
            g.apply(legal[rng.randrange(len(legal))])
        digest.update(json.dumps(state_json(g), sort_keys=True).encode())
    assert digest.hexdigest()[:16] == SIGNATURES[name]
