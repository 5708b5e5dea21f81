"""The table companion's tracking engine (ono99.tracking): real games fed to it card by
card come out the same, whatever the preset, the option and the number of players."""

from __future__ import annotations

from typing import Any

import pytest

from ono99.errors import IllegalAction, Ono99Error
from ono99.tracking import Tracker, TrackError, is_tracking_record
from tracking_helpers import FIELDS, MORE, feed, real_game

CONFIGS: list[tuple[str, dict[str, Any] | None]] = [
    ("mattel2022", None),
    ("classic1980", None),
    ("gamerules", None),
    ("classic1980", {"scoring": "points"}),
    ("classic1980", {"scoring": "points", "points_mode": "lowest", "target": 150}),
    ("classic1980", {"zero_ending_99": True, "draw_penalty": True}),
    ("gamerules", {"draw_penalty": True}),
]


def _follow(rules: str, n: int, seed: int, options: dict[str, Any] | None) -> Tracker:
    first = seed % n
    t = Tracker(rules, [f"P{i}" for i in range(n)], first, options)
    for i, mv in enumerate(real_game(rules, n, seed, options, first)):
        feed(mv, t.tap, t.state)
        if mv.hands is not None:
            t.enter_hands(mv.hands)  # R-END-3: the cards left in hand, for the scores
        got = t.state()
        for key in (*FIELDS, *MORE, "scores"):
            assert got[key] == mv.state[key], (i, mv, key)
    assert t.is_over
    return t


@pytest.mark.parametrize(("rules", "options"), CONFIGS)
def test_tracked_games_match_real_games(rules: str, options: dict[str, Any] | None) -> None:
    """R-TURN-1, R-TURN-2, R-TURN-3, R-REV-1, R-REV-2, R-M10-1, R-P2-1, R-P2-2, R-P2-3,
    R-P2-4, R-P2-5, R-P2-6, R-99-2, R-99-3, R-99-5, R-LIM-1, R-LIM-2, R-END-1, R-END-2,
    R-END-3, R-DRAW-1: a real game (random legal moves) told to the tracker tap by tap
    gives the same public state after every move: total, direction, who moves, who owes
    two, who is out, tokens, scores (hands entered at each points round's end), round,
    winner, hand sizes and the draw pile."""
    for seed in range(12):
        _follow(rules, 2 + seed % 5, seed, options)


def test_undo_to_the_start_and_redo_to_the_end() -> None:
    """Undo any number of steps, back to the start, and redo them all: every state comes
    back exactly (R-END-2 rounds and token losses included)."""
    t = _follow("classic1980", 3, 4, None)
    states = []
    while t.taps:
        states.append(t.state())
        t.undo()
    start = t.state()
    assert start["total"] == 0 and start["round"] == 1 and start["steps"] == 0
    assert not start["can_undo"] and start["can_redo"]
    for want in reversed(states):
        t.redo()
        got = t.state()
        for key in (*FIELDS, *MORE):
            assert got[key] == want[key]
    with pytest.raises(TrackError):
        t.redo()


def test_a_new_tap_after_undo_drops_the_redo_list() -> None:
    t = Tracker("mattel2022", ["Ana", "Bo"])
    t.tap("7")
    t.tap("5")
    t.undo()
    assert t.state()["can_redo"]
    t.tap("8")
    assert not t.state()["can_redo"] and t.state()["total"] == 15


def test_record_round_trip_and_form() -> None:
    """A tracked game's record (docs/companion.md) rebuilds the same game."""
    t = _follow("classic1980", 3, 5, {"scoring": "points"})
    rec = t.record()
    assert is_tracking_record(rec) and rec["players"] == ["P0", "P1", "P2"]
    assert rec["moves"] == t.taps and rec["hands"]
    again = Tracker.from_record(rec)
    assert again.state() == t.state()


def test_cards_the_rules_forbid_are_refused() -> None:
    """R-99-1: the ONO 99 card is never played (2022); R-P2-3: a Double Play is never the
    first of two (1980); a card whose every copy is on the discard pile cannot be held;
    a bust at a total where every hand holds a safe card is refused (R-LIM-2)."""
    t = Tracker("mattel2022", ["Ana", "Bo", "Cy"])
    with pytest.raises(IllegalAction, match="R-99-1"):
        t.tap("99")
    with pytest.raises(IllegalAction, match="R-99-3"):
        Tracker("classic1980", ["Ana", "Bo"]).tap("99x4")
    with pytest.raises(Ono99Error):
        t.tap("H")  # no Hold in the 2022 deck
    t.tap("7")
    with pytest.raises(TrackError):
        t.tap("bust")  # total 7: every four-card hand has a safe card
    assert t.state()["total"] == 7 and t.state()["steps"] == 1
    c = Tracker("classic1980", ["Ana", "Bo", "Cy"])
    c.tap("P2")
    with pytest.raises(IllegalAction, match="R-P2-3"):
        c.tap("P2")
    g = Tracker("gamerules", ["Ana", "Bo"])
    for _ in range(3):
        g.tap("2")
    with pytest.raises(TrackError, match="discard pile"):
        g.tap("2")  # all three 2s of the 1980 deck are on the discard pile


def test_a_card_over_the_limit_is_the_players_bust() -> None:
    """R-LIM-1, R-END-1, R-END-2, R-END-3, R-99-2: tapping a card that takes the total to
    99 or more (over 99 in gamerules) tells who loses and applies it."""
    t = Tracker("mattel2022", ["Ana", "Bo", "Cy"])
    for code in ["10"] * 9:
        t.tap(code)
    assert t.state()["total"] == 90 and t.state()["to_move"] == 0
    t.tap("9")  # 99: Ana is out (R-END-1)
    s = t.state()
    assert s["out"] == [0] and s["total"] == 90 and s["to_move"] == 1 and s["busted"] == [0]
    k = Tracker("classic1980", ["Ana", "Bo"])
    for code in ["10", "10", "10", "10", "10", "10", "10", "10", "10"]:
        k.tap(code)
    k.tap("9")  # 99 in classic1980: Bo loses a token, new round, Bo starts (R-END-2)
    s = k.state()
    assert s["tokens"] == [3, 2] and s["round"] == 2 and s["total"] == 0 and s["to_move"] == 1
    gr = Tracker("gamerules", ["Ana", "Bo"])
    gr.tap("99")  # R-99-2: the total is 99, and that is fine
    assert gr.state()["total"] == 99 and gr.state()["round"] == 1
    gr.tap("2")  # over 99: Bo loses a token
    assert gr.state()["tokens"] == [3, 2]
    p = Tracker("classic1980", ["Ana", "Bo", "Cy"], options={"scoring": "points"})
    for code in ["10"] * 9:
        p.tap(code)
    p.tap("10")  # R-END-3: Ana gives up the 10, the total stays, she is out of the round
    s = p.state()
    assert s["total"] == 90 and s["round_out"] == [0] and s["to_move"] == 1


def test_setup_errors() -> None:
    """R-SET-5, R-SET-6: player counts and options as the preset allows."""
    with pytest.raises(Ono99Error, match="R-SET-5"):
        Tracker("mattel2022", ["a"] * 7)
    with pytest.raises(Ono99Error):
        Tracker("mattel2022", ["a", "b"], options={"scoring": "points"})
    with pytest.raises(Ono99Error):
        Tracker("mattel2022", ["a", "b"], first=2)
    t = Tracker("classic1980", ["a", "b", "c"], first=2)
    assert t.state()["to_move"] == 2


def test_ono99_replay_tells_a_tracked_game(tmp_path: Any) -> None:
    """R-REC: ``ono99 replay`` takes a tracked game's record (docs/companion.md): told move
    by move, its final state with --json (hands unknown), a bad move named by its index."""
    import json
    import subprocess
    import sys

    t = _follow("classic1980", 3, 5, {"scoring": "points"})
    path = tmp_path / "tracked.json"
    path.write_text(json.dumps(t.record()), encoding="utf-8")
    run = [sys.executable, "-m", "ono99", "replay", str(path)]
    told = subprocess.run(run, capture_output=True, text=True, check=True).stdout
    assert "P0 plays" in told and "wins the game" in told
    final = json.loads(subprocess.run([*run, "--json"], capture_output=True, text=True).stdout)
    want = t.state()
    assert final["tracking"] is True and final["hands"] == [None, None, None]
    for key in ("total", "out", "scores", "round", "winner"):
        assert final[key] == want[key]
    bad = tmp_path / "bad.json"
    rec = {"tracking": True, "rules": "mattel2022", "players": ["a", "b"], "moves": ["7", "99"]}
    bad.write_text(json.dumps(rec), encoding="utf-8")
    out = subprocess.run([*run[:-1], str(bad), "--json"], capture_output=True, text=True)
    assert out.returncode == 2 and json.loads(out.stdout)["move"] == 1
