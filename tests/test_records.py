"""Game records (R-REC): reading, validation, replay, writing."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest

from engine_helpers import make, play
from ono99 import (
    Game,
    RecordError,
    ReplayError,
    RulesError,
    load_record,
    parse_record,
    replay,
    state_json,
    to_record,
)
from ono99.records import apply_move
from ono99.rules import deck_list

EXAMPLE = {
    "rules": "mattel2022",
    "options": {},
    "players": 3,
    "seed": 7,
    "dealer": 2,
    "deals": [
        {
            "hands": [["10", "5", "R", "99"], ["7", "P2", "0", "3"], ["-10", "1", "2", "4"]],
            "draw": ["8", "9", "10", "6"],
        }
    ],
    "moves": ["10", "7", "P2", "R", "5"],
}


def test_minimal_form_is_accepted() -> None:
    """R-REC: the minimal record form of RULES.md is accepted. (Its moves are only an
    illustration: seat 2 holds no P2, so replay stops at move 2.)"""
    rec = parse_record(EXAMPLE)
    g = rec.new_game()
    assert g.to_move == 0 and [len(h) for h in g.hands] == [4, 4, 4]
    with pytest.raises(ReplayError) as info:
        replay(EXAMPLE)
    assert info.value.move == 2
    legal = dict(EXAMPLE, moves=["10", "7", "-10", "R", "1"])
    g = replay(legal)
    # 10, 17, 7; seat 0's Reverse turns play counterclockwise: seat 2, then seat 1
    assert g.total == 8 and g.direction == -1 and g.to_move == 1
    assert sorted(g.hands[0]) == [5, 6, 8, 15]  # 5 99 + drew 8 and 6
    assert sorted(g.hands[1]) == [0, 3, 9, 13]  # 0 3 P2 + drew 9


def test_named_draw_pile_top_first_rest_underneath() -> None:
    """R-REC: a deal names each hand and the top of the draw pile, top card first; the
    deck's remaining cards are shuffled from the seed and lie under the named ones."""
    g = make("mattel2022", ["1 2 3 4", "5 6 7 8"], "9 0 10")
    play(g, "1", "5", "2")
    assert sorted(g.hands[0]) == [3, 4, 9, 10]
    assert sorted(g.hands[1]) == [0, 6, 7, 8]
    everything = Counter(g.draw_pile) + Counter(g.discard) + Counter(c for h in g.hands for c in h)
    assert everything == Counter(deck_list(g.rules))
    # the same seed gives the same cards underneath
    h = make("mattel2022", ["1 2 3 4", "5 6 7 8"], "9 0 10")
    play(h, "1", "5", "2")
    assert h.draw_pile == g.draw_pile


def test_players_names_seed_dealer() -> None:
    """R-REC: players is a count or a list of names; dealer is optional (R-SET-3);
    rounds without a deal come from the seed, the same seed giving the same deal."""
    g = replay({"rules": "classic1980", "players": ["Ana", "Bo"], "seed": 3})
    assert g.names == ["Ana", "Bo"] and g.to_move == 0
    g2 = replay({"rules": "classic1980", "players": 2, "seed": 3, "dealer": 0})
    assert g2.to_move == 1 and g2.hands == g.hands
    assert replay({"players": 2, "seed": 4}).hands != g.hands


def _deal(hands: list[str], draw: str = "") -> dict[str, Any]:
    return {"hands": [h.split() for h in hands], "draw": draw.split()}


@pytest.mark.parametrize(
    ("rules", "deal", "match"),
    [
        ("mattel2022", _deal(["H 2 3 4", "5 6 7 8"]), "lacks"),
        ("classic1980", _deal(["1 2 3 4", "5 6 7 8"]), "lacks"),
        ("classic1980", _deal(["0 2 3 4", "5 6 7 8"]), "lacks"),
        ("classic1980", _deal(["99 99 99 4", "5 6 7 8"], "99 99"), "more copies"),
        ("mattel2022", _deal(["P2 P2 P2 P2", "P2 P2 P2 P2"], "P2 P2 P2"), "more copies"),
        ("classic1980", _deal(["2 2 2 2", "5 6 7 8"]), "more copies"),
        ("classic1980", _deal(["2 3 4", "5 6 7 8"]), "4 cards"),
        ("classic1980", _deal(["2 3 4 5 6", "5 6 7 8"]), "4 cards"),
        ("classic1980", _deal(["2 3 4 5"]), "hands"),
        ("classic1980", _deal(["2 3 4 5", "5 6 7 8", "6 7 8 9"]), "hands"),
        ("classic1980", _deal(["2 3 4 5", "5 6 7 11"]), "unknown card code"),
        ("classic1980", _deal(["2 3 4 5", "5 6 7 99x4"]), "not a card"),
        ("classic1980", {"hands": [[2, 3, 4, 5], ["5", "6", "7", "8"]]}, "card code"),
        ("classic1980", {"draw": []}, "hands"),
        ("classic1980", _deal(["", "5 6 7 8"]), "4 cards"),
    ],
)
def test_bad_deals_are_rejected(rules: str, deal: dict[str, Any], match: str) -> None:
    """R-REC: a deal naming a card the deck lacks, more copies than the deck holds, an
    unknown code, a hand missing or of the wrong size, is an error (RecordError)."""
    rec = {"rules": rules, "players": 2, "deals": [deal]}
    with pytest.raises(RecordError, match=match):
        replay(rec)


def test_bad_later_deal_is_rejected_up_front() -> None:
    """R-REC: every deal of the record is checked before any move is made."""
    good = _deal(["2 3 4 5", "5 6 7 8"])
    rec = {"rules": "classic1980", "players": 2, "deals": [good, _deal(["H H H H", "H 6 7 8"])]}
    with pytest.raises(RecordError, match="round 2"):
        parse_record(rec).new_game()


def test_deal_for_eliminated_seat_must_be_empty() -> None:
    """R-REC: a deal lists a hand for every seat; seats already eliminated get []. A
    deal that gives cards to an eliminated seat is a bad record (not a bad move), and
    the game is left as it was before the move that would deal it."""
    nines = ["99", "99", "99", "99"]
    deals = [{"hands": [nines, ["2", "3", "4", "5"]], "draw": []}] * 4
    ok = {"rules": "classic1980", "players": 2, "deals": deals}
    g = replay(ok)
    assert g.is_over and g.winner == 1  # four lost rounds for seat 0
    three = {
        "rules": "classic1980",
        "players": 3,
        "deals": [
            {"hands": [["2", "3", "4", "5"], nines, ["6", "7", "8", "9"]]},
            {"hands": [["2", "3", "4", "5"], nines, ["6", "7", "8", "9"]]},
            {"hands": [["2", "3", "4", "5"], nines, ["6", "7", "8", "9"]]},
            {"hands": [["2", "3", "4", "5"], nines, ["6", "7", "8", "9"]]},
            {"hands": [["2", "3", "4", "5"], ["6", "6", "7", "7"], ["6", "7", "8", "9"]]},
        ],
        "moves": ["2"],
    }
    g = parse_record(three).new_game()
    # seat 1 busts at once in rounds 2, 3, 4 (it starts them): after the first move
    # it loses the fourth round and is eliminated, and round 5's deal gives it cards
    before = state_json(g)
    n_events = len(g.events or [])
    with pytest.raises(RecordError, match="seat 1 must get 0 cards"):
        apply_move(g, 0, "2")
    assert state_json(g) == before and len(g.events or []) == n_events
    with pytest.raises(RecordError):
        replay(three)


def test_moves_codes_four99_draw_and_points_bust() -> None:
    """R-REC: moves are card codes, ``99x4`` (R-99-3), ``draw`` (R-DRAW-1) by the
    player whose draw is pending, and a points bust names the card played."""
    rec = {
        "rules": "mattel2022",
        "players": 2,
        "deals": [_deal(["99 99 99 99", "2 3 4 5"], "1 2 3 4 5")],
        "moves": ["99x4", "2"],
    }
    g = replay(rec)
    assert g.total == 2 and g.to_move == 0
    rec = {
        "rules": "classic1980",
        "options": {"draw_penalty": True},
        "players": 2,
        "deals": [_deal(["2 3 4 5", "5 6 7 8"], "9")],
        "moves": ["2", "draw", "5"],
    }
    g = replay(rec)
    assert sorted(g.hands[0]) == [3, 4, 5, 9]
    bad = dict(rec, moves=["2", "5", "draw", "draw"])
    with pytest.raises(ReplayError) as info:
        replay(bad)
    assert info.value.move == 3


def test_move_after_game_end_is_an_error() -> None:
    """R-REC: a move after the game has ended is an error."""
    rec = {
        "rules": "classic1980",
        "options": {"scoring": "points"},
        "players": 2,
        "deals": [_deal(["99 99 99 99", "2 3 4 5"])],
        "moves": ["2"],
    }
    with pytest.raises(ReplayError, match="over") as info:
        replay(rec)
    assert info.value.move == 0


def test_illegal_move_names_first_bad_move_nothing_changed() -> None:
    """R-REC: an illegal move stops the replay naming the first bad move (0-based);
    nothing else changed."""
    rec = {"rules": "mattel2022", "players": 2, "deals": [_deal(["1 2 3 4", "5 6 7 8"], "9 9")]}
    g = replay(dict(rec, moves=["1", "5"]))
    before = state_json(g)
    with pytest.raises(ReplayError) as info:
        apply_move(g, 2, "5")
    assert info.value.move == 2 and "move 2" in str(info.value)
    assert state_json(g) == before
    for bad, k in ((["1", "5", "9", "1"], 3), (["1", "Q"], 1), (["1", 7], 1), (["P2"], 0)):
        with pytest.raises(ReplayError) as info:
            replay(dict(rec, moves=bad))
        assert info.value.move == k


@pytest.mark.parametrize(
    "record",
    [
        [],
        "x",
        {"rules": 5, "players": 2},
        {"rules": "uno", "players": 2},
        {"players": 2, "options": {"colour": 1}},
        {"rules": "classic1980", "players": 2, "options": {"scoring": "points", "target": -1}},
        {"rules": "gamerules", "players": 9},
        {"players": True},
        {"players": [1, 2]},
        {"seed": 1},
        {"players": 2, "seed": 1.5},
        {"players": 2, "dealer": 5},
        {"players": 2, "dealer": "0"},
        {"players": 2, "deals": {}},
        {"players": 2, "deals": [[]]},
        {"players": 2, "moves": "10"},
        {"players": 2, "options": []},
    ],
)
def test_bad_records(record: Any) -> None:
    """R-REC, R-SET-5, R-SET-6: a bad record raises a one-line error (move null)."""
    with pytest.raises((RecordError, RulesError)) as info:
        replay(record)
    assert not isinstance(info.value, ReplayError)
    assert "\n" not in str(info.value)


def test_load_record_bad_json() -> None:
    """R-REC: malformed JSON is a RecordError with a one-line message."""
    for text in ("{", "[" * 100_000, "", "{'a': 1}"):
        with pytest.raises(RecordError, match="JSON"):
            load_record(text)


def test_state_json_fields_and_to_record_round_trip() -> None:
    """R-REC: replay prints the final state with the listed fields; a written record
    replays to the identical state."""
    g = Game("classic1980", ["Ana", "Bo", "Cy"], options={"scoring": "points"}, seed=5)
    while not g.is_over:
        g.apply(g.legal_actions()[-1])
    data = state_json(g)
    assert set(data) >= {"total", "direction", "to_move", "hands", "draw_pile", "out",
                         "tokens", "scores", "round", "winner", "owes_two"}  # fmt: skip
    assert data["to_move"] is None and data["winner"] is not None and data["tokens"] is None
    assert isinstance(data["draw_pile"], int) and data["round"] >= 1
    rec = to_record(g)
    assert json.loads(json.dumps(rec)) == rec
    assert state_json(replay(rec)) == data
    assert rec["players"] == ["Ana", "Bo", "Cy"]
