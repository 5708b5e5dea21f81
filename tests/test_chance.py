"""The seeded shuffle (R-REC ``rng``, docs/records.md) and the one seed domain.

Version 2 is specified in docs/records.md with test vectors; this file checks them against
both engines, checks version 1 against ``random.shuffle``, and the versions and seeds a
record and a game accept (everything else is a one-line error)."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ono99 import Game, RecordError, chance, load_record, parse_record, replay, to_record
from ono99.cards import action_code
from ono99.fast import FastGame
from ono99.fast.game import replay as replay_fast
from ono99.records import KEYS, state_json

DOCS = Path(__file__).resolve().parent.parent / "docs" / "records.md"


def _vectors() -> dict[str, Any]:
    text = DOCS.read_text(encoding="utf-8")
    block = re.search(r"```json rng-v2-vectors\n(.*?)\n```", text, re.S)
    assert block is not None, "docs/records.md lost its test vectors"
    return json.loads(block.group(1))  # type: ignore[no-any-return]


def _number(v: int | str) -> int:
    return v if isinstance(v, int) else {"2**256 - 1": 2**256 - 1, "2**128 + 1": 2**128 + 1}[v]


VECTORS = _vectors()


@pytest.mark.parametrize("vec", VECTORS["streams"], ids=lambda v: v["key"][:2] + str(v["seed"]))
def test_stream_vectors(vec: dict[str, Any]) -> None:
    """docs/records.md: the key's bytes, its first words and a shuffle of 20 items."""
    key = chance.stream_key(vec["purpose"], _number(vec["seed"]), vec["number"])
    assert key.hex() == vec["key"]
    assert [f"{w:016x}" for w in chance.words(key, 3)] == vec["words"]
    x = list(range(20))
    chance.shuffle(key, x)
    assert x == vec["shuffle20"]


@pytest.mark.parametrize("vec", VECTORS["deals"], ids=lambda v: v["rules"])
def test_deal_vectors_on_both_engines(vec: dict[str, Any]) -> None:
    """R-SET-1, docs/records.md: a seed's first deal, the same on both engines."""
    for engine in (Game, FastGame):
        g = engine(vec["rules"], vec["players"], seed=_number(vec["seed"]))
        assert [[action_code(c) for c in h] for h in g.hands] == vec["hands"]
        assert [action_code(c) for c in g.draw_pile[::-1][:10]] == vec["draw"]


def test_bot_vector() -> None:
    """docs/records.md: the heuristic's key of a view, its words, a float, a bounded draw."""
    from ono99.bots.heuristic import _position_key
    from ono99.view import view_of

    vec = VECTORS["bot"]
    cards = (1 + 1) << 56 | (8 + 1) << 48 | (14 + 1) << 40
    seats = (4 + 64) << 56 | (4 + 64) << 48 | (3 + 64) << 40
    fields = (0, 1, 0, 45, 1, 1, -1, 0, 7, cards, seats)
    key = chance.fields_key(chance.BOT, fields)
    assert key.hex() == vec["key"]
    assert [f"{w:016x}" for w in chance.words(key, 2)] == vec["words"]
    s = chance.Stream(key)
    assert (s.random(), s.below(100)) == (vec["float"], vec["below100"])
    # the heuristic keys a real view the same way: fields as the page lists them
    g = Game("mattel2022", 3, seed=11, events=False)
    view = view_of(g, g.to_move)
    hand = sorted(view.hand)
    assert _position_key(view) == chance.fields_key(
        chance.BOT,
        (
            view.seat, 1, 0, 0, 1, 1, -1, 0, 0,
            sum((c + 1) << (56 - 8 * i) for i, c in enumerate(hand)),
            sum((4 + 64) << (56 - 8 * s) for s in range(3)),
        ),
    )  # fmt: skip


@pytest.mark.parametrize("length", [0, 1, 2, 54, 108, 112, 300])
def test_version_1_is_random_shuffle_of_the_seed_string(length: int) -> None:
    """R-REC version 1: ``random.Random(f"{seed}:{purpose}:{n}")`` and ``random.shuffle``."""
    for seed in (0, 7, 2**200):
        ours, theirs = list(range(length)), list(range(length))
        chance.shuffle_v1(seed, "reshuffle", 3, ours)
        random.Random(f"{seed}:reshuffle:3").shuffle(theirs)
        assert ours == theirs


def test_records_name_their_version() -> None:
    """R-REC: new records say ``"rng": 2``; a record without the key is version 1 and deals
    as the first generator did; both replay to the game they record."""
    g = Game("classic1980", 4, seed=5)
    rec = to_record(g)
    assert rec["rng"] == 2
    seeded = {k: v for k, v in rec.items() if k != "deals"}
    assert replay(seeded).hands == g.hands
    v1 = {k: v for k, v in seeded.items() if k != "rng"}
    old = Game("classic1980", 4, seed=5, rng=1)
    assert replay(v1).hands == old.hands != g.hands
    assert to_record(replay(v1))["rng"] == 1


@pytest.mark.parametrize("bad", [0, 3, -1, True, 2.0, "2", None, [2]])
def test_an_unknown_version_is_a_record_error(bad: object) -> None:
    """R-REC: ``rng`` is 1 or 2; anything else is one line naming it, on both engines."""
    data = {"players": 2, "seed": 1, "rng": bad}
    with pytest.raises(RecordError, match=r"^'rng' must be 1 or 2 .*, not "):
        parse_record(data)
    with pytest.raises(RecordError, match=r"'rng' must be 1 or 2"):
        replay_fast(data)
    with pytest.raises(RecordError, match=r"^rng must be 1 or 2"):
        Game("mattel2022", 2, seed=1, rng=bad)  # type: ignore[arg-type]


@pytest.mark.parametrize("key", ["comment", "Seed", "rngs", "names"])
def test_an_unknown_record_key_is_refused(key: str) -> None:
    """R-REC: a key the reader does not know is an error (it might change the replay)."""
    with pytest.raises(RecordError, match=f"^a game record has no key '{key}' "):
        parse_record({"players": 2, "seed": 1, key: 1})
    assert set(KEYS) >= set(to_record(Game("mattel2022", 2, seed=1)))


@pytest.mark.parametrize("bad", ["abc", "7", -1, 2**256, True, 1.5, b"7"])
def test_a_seed_outside_the_domain_is_refused(bad: object) -> None:
    """R-REC: one seed domain, integers 0 <= seed < 2**256: Game, FastGame and records."""
    with pytest.raises(RecordError, match=r"^seed must be an integer from 0 to 2²⁵⁶ - 1, not "):
        Game("mattel2022", 2, seed=bad)  # type: ignore[arg-type]
    with pytest.raises(RecordError, match=r"^seed must be an integer"):
        FastGame("mattel2022", 2, seed=bad)  # type: ignore[arg-type]
    with pytest.raises(RecordError, match=r"^'seed' must be an integer"):
        parse_record({"players": 2, "seed": bad})


@given(st.one_of(st.integers(0, 2**256 - 1), st.sampled_from([0, 2**128, 2**256 - 1])))
def test_every_seed_a_game_takes_round_trips(seed: int) -> None:
    """R-REC: every seed Game accepts makes a record that replays to the same game, with or
    without its deals, on both engines."""
    g = Game("gamerules", 3, seed=seed)
    rng = random.Random(seed)
    for _ in range(40):
        if g.is_over:
            break
        legal = g.legal_actions()
        g.apply(legal[rng.randrange(len(legal))])
    rec = to_record(g)
    seeded = {k: v for k, v in rec.items() if k != "deals"}
    for data in (rec, seeded):
        back = load_record(json.dumps(data))
        assert state_json(replay(back)) == state_json(g)
        assert replay_fast(back).state_json() == state_json(g)
