"""Seeded records of version 1 (no ``rng`` key, no deals) replay unchanged (R-REC).

tests/golden/v1/ holds games written before the deal generator had versions
(tests/golden/v1/make.py): long games with reshuffles, every preset, option and scoring
mode, 2 to 8 players, seeds from 0 to 2**256 - 1000. Their deals and reshuffles come from
the version-1 generator alone, so these pin it on both engines.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ono99 import load_record, make_rules, replay, state_json

V1 = Path(__file__).resolve().parent / "golden" / "v1"
RECORDS = sorted(p for p in V1.glob("*.json") if not p.name.endswith(".expected.json"))


def _expected(path: Path) -> object:
    return json.loads(path.with_suffix(".expected.json").read_text(encoding="utf-8"))


def test_v1_set_covers_every_preset_and_option() -> None:
    """The set spans every preset, every option and scoring mode, 2 to 8 players, and
    reshuffles (R-TURN-3) in classic1980 and gamerules."""
    data = [json.loads(p.read_text(encoding="utf-8")) for p in RECORDS]
    assert all("rng" not in d and "deals" not in d for d in data)
    assert {d["rules"] for d in data} == {"mattel2022", "classic1980", "gamerules"}
    options = {(d["rules"], k, str(v)) for d in data for k, v in d["options"].items()}
    for preset in ("classic1980", "gamerules"):
        for name, value in make_rules(preset, {"draw_penalty": True}).options.items():
            if name in ("draw_penalty", "zero_ending_99"):
                assert (preset, name, str(value)) in options
    assert {("classic1980", "points_mode", m) for m in ("elimination", "lowest")} <= options
    assert {("classic1980", "scoring", m) for m in ("tokens", "points")} <= options
    assert {d["players"] for d in data} == set(range(2, 9))
    for preset in ("classic1980", "gamerules"):
        assert any(replay(d, events=False).reshuffles for d in data if d["rules"] == preset)


@pytest.mark.parametrize("path", RECORDS, ids=[p.stem for p in RECORDS])
def test_v1_record_replays_unchanged(path: Path) -> None:
    """R-REC: a version-1 seeded record replays to its checked-in final state."""
    game = replay(load_record(path.read_text(encoding="utf-8")), events=False)
    assert state_json(game) == _expected(path)


@pytest.mark.parametrize("path", RECORDS, ids=[p.stem for p in RECORDS])
def test_v1_record_replays_unchanged_on_fast_engine(path: Path) -> None:
    """R-REC: the fast engine reaches the same final state from a version-1 record."""
    from ono99.fast.game import replay as replay_fast

    game = replay_fast(load_record(path.read_text(encoding="utf-8")))
    assert game.state_json() == _expected(path)
