"""The table companion's tracking engine (ono99.tracking): real games fed to it card by
card come out the same, whatever the preset, the option and the number of players."""

from __future__ import annotations

from typing import Any

import pytest

from ono99.cards import action_code
from ono99.errors import IllegalAction, Ono99Error
from ono99.game import Game
from ono99.tracking import Tracker, TrackError, is_tracking_record
from tracking_helpers import CONFIGS, FIELDS, MORE, feed, real_game


def _follow(rules: str, n: int, seed: int, options: dict[str, Any] | None) -> Tracker:
    first = seed % n
    t = Tracker(rules, [f"P{i}" for i in range(n)], first, options)
    for i, mv in enumerate(real_game(rules, n, seed, options, first)):
        feed(mv, t.tap, t.state, t.enter_hands)  # R-END-3: hands told when a round ends
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


@pytest.mark.parametrize(
    ("rules", "options", "players", "seed"),
    [
        # the drawer of a Double Play draws an ONO 99 and busts holding only 99s (R-DRAW-1)
        ("classic1980", {"scoring": "points", "draw_penalty": True}, 4, 32),
        # one player throws a card (R-END-3), the next holds only 99s: the 99s go to them
        ("classic1980", {"scoring": "points"}, 6, 79),
        # the last safe cards of the deck: the next player, not the actor, must get them
        ("classic1980", None, 2, 55),
        ("classic1980", None, 2, 145),
        ("classic1980", None, 3, 136),
        ("classic1980", None, 5, 163),
    ],
)
def test_games_that_once_failed(
    rules: str, options: dict[str, Any] | None, players: int, seed: int
) -> None:
    """R-DRAW-1, R-END-3, R-99-4, R-LIM-2: games found by a scan of random games (each
    failed before its fix): the same public state after every move."""
    _follow(rules, players, seed, options)


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


def _four_99s_for(rules: str, players: int, seat: int) -> list[list[str]]:
    """A round's hands: ``seat`` holds the four ONO 99s, the rest 4 cards each."""
    plain = ["10", "9", "8", "7", "6", "5", "4", "3", "2", "-10", "R", "H"]
    hands = [plain[4 * (k % 3) : 4 * (k % 3) + 4] for k in range(players)]
    hands[seat] = ["99"] * 4
    return hands


def _follow_deals(rules: str, n: int, seed: int, options: dict[str, Any] | None,
                  deals: list[Any]) -> Tracker:  # fmt: skip
    t = Tracker(rules, [f"P{i}" for i in range(n)], 0, options)
    moves = 0
    for i, mv in enumerate(real_game(rules, n, seed, options, 0, deals=deals)):
        feed(mv, t.tap, t.state, t.enter_hands)
        got = t.state()
        for key in (*FIELDS, *MORE, "scores"):
            assert got[key] == mv.state[key], (i, mv, key)
        moves += 1
    assert t.is_over and moves > 1
    return t


@pytest.mark.parametrize("options", [None, {"scoring": "points"}])
def test_a_bust_before_the_first_card_of_a_round(options: dict[str, Any] | None) -> None:
    """R-99-4, R-LIM-2, R-END-2, R-END-3: a player dealt four ONO 99s (classic1980) has no
    card to play before any card of the round is played: "bust" then applies (a token
    lost and a new round, or out of the round without playing); at the game's start, twice
    in a row, and at a later round's start; undo takes it back."""
    for seed in range(4):
        # the game's first round, and (tokens: P0 starts it again) the second
        deals = [(_four_99s_for("classic1980", 3, 0), [])] * (2 if options is None else 1)
        _follow_deals("classic1980", 3, seed, options, deals)
    t = Tracker("classic1980", ["Ana", "Bo", "Cy"], options=options)
    t.tap("bust")
    s = t.state()
    assert s["busted"] == [0] and s["total"] == 0
    if options is None:
        assert s["tokens"] == [2, 3, 3] and s["round"] == 2 and s["to_move"] == 0
    else:
        assert s["round_out"] == [0] and s["to_move"] == 1 and s["hand_sizes"][0] == 4
    t.undo()
    assert t.state()["round"] == 1 and t.state()["steps"] == 0 and t.state()["busted"] == []
    with pytest.raises(TrackError, match="not possible"):
        Tracker("mattel2022", ["Ana", "Bo"]).tap("bust")  # R-99-3: four 99s are a play
    with pytest.raises(TrackError, match="not possible"):
        Tracker("classic1980", ["Ana", "Bo"], options={"zero_ending_99": True}).tap("bust")


def test_a_bust_at_a_later_rounds_start() -> None:
    """R-END-2: the round's loser starts the next round and is dealt four ONO 99s: its
    start is a bust too, told after the card that ended the round."""
    found = 0
    for seed in range(30):
        g = list(real_game("classic1980", 3, seed))
        ends = [k for k, mv in enumerate(g) if mv.state["round"] == 2]
        if not ends:
            continue
        starter = g[ends[0]].state["to_move"]
        first = Game("classic1980", [f"P{i}" for i in range(3)], seed=seed, dealer=2)
        hands, draw = first.dealt[0]
        deals = [(hands, draw), (_four_99s_for("classic1980", 3, starter), [])]
        t = _follow_deals("classic1980", 3, seed, None, deals)
        found += 1
        assert t.record()["moves"].count("bust") >= 1
        if found == 3:
            break
    assert found == 3


def test_a_hand_laid_face_up_can_be_typed_in() -> None:
    """R-END-1, R-LIM-2: the hand a mattel2022 player lays face up when out, typed in, is
    no longer anyone's to play; it must hold the card tapped for the bust and no safe
    card; it goes with the record; a new branch after undo drops it."""
    t = Tracker("mattel2022", ["Ana", "Bo", "Cy", "Di"])
    for code in ["10"] * 9 + ["9"]:
        t.tap(code)
    assert t.state()["out"] == [1] and t.state()["laid_open"] == {"seat": 1, "size": 4}
    with pytest.raises(TrackError, match="R-LIM-2"):
        t.enter_laid(1, ["-10", "9", "9", "9"])  # -10 is safe at 90
    with pytest.raises(TrackError, match="among the cards"):
        t.enter_laid(1, ["8", "8", "8", "7"])  # Bo's 9 is in it
    with pytest.raises(TrackError, match="4 cards"):
        t.enter_laid(1, ["9", "9"])
    with pytest.raises(TrackError, match="not out"):
        t.enter_laid(2, ["9", "9", "9", "9"])
    with pytest.raises(TrackError, match="mattel2022"):
        Tracker("classic1980", ["Ana", "Bo"]).enter_laid(0, None)
    assert t.state()["steps"] == 10 and t.laid == {}  # refusals change nothing
    t.enter_laid(1, ["9", "9", "9", "9"])
    s = t.state()
    assert s["laid"] == {"1": ["9", "9", "9", "9"]} and s["laid_open"] is None
    assert s["total"] == 90 and s["to_move"] == 2
    for code in ["-10", "9", "9"]:
        t.tap(code)
    with pytest.raises(TrackError, match="laid face up"):
        t.tap("9")  # six 9s: two on the discard pile, four face up
    again = Tracker.from_record(t.record())
    assert again.laid == {1: [9, 9, 9, 9]} and again.state() == t.state()
    for _ in range(4):
        t.undo()
    assert t.state()["out"] == [] and t.laid  # taken back, not forgotten: redo restores it
    t.tap("8")  # a new branch: Bo is not out there
    assert t.laid == {}


def test_a_refused_hand_entry_keeps_every_tap() -> None:
    """R-END-3: hands that do not fit the game are refused and the game stays exactly as
    it was (the tap that ended the round included)."""
    t = Tracker("classic1980", ["P0", "P1", "P2"], 0, {"scoring": "points"})
    for mv in real_game("classic1980", 3, 5, {"scoring": "points"}, 0):
        feed(mv, t.tap, t.state)
        if mv.hands is not None:
            before = t.state()
            bad = [None if h is None else ["10"] * len(h) for h in mv.hands]
            with pytest.raises(TrackError):
                t.enter_hands(bad)
            assert t.state() == before
            return
    raise AssertionError("the game had no points round end")


def test_points_scores_wait_for_the_hands() -> None:
    """R-END-3: a points round's end scores nothing until the hands (or the points of the
    cards in each hand) are told: the scores are unknown, nobody is put out, no winner,
    and a tap is refused (nothing changes); told, the engine scores them (15 per card
    short of four, 25 out of the round), and they go with the record."""
    t = Tracker("classic1980", ["Ana", "Bo"], 0, {"scoring": "points"})
    for code in ["10"] * 9 + ["9"]:  # Bo: 90 + 9 goes over, Bo gives the 9 up
        t.tap(code)
    s = t.state()
    assert s["scores"] == [None, None] and s["scores_known"] == [0, 0]
    assert s["out"] == [] and s["winner"] is None and s["to_move"] is None
    assert s["hands_needed"] == {"tap": 9, "round": 1, "sizes": [4, 4]}
    with pytest.raises(TrackError, match="R-END-3"):
        t.tap("5")
    with pytest.raises(TrackError, match="cannot make"):
        t.enter_points([7, 30])  # four 1980 cards make at least 8 points
    with pytest.raises(TrackError, match="2 hands"):
        t.enter_points([12])
    assert t.state() == s  # refusals change nothing
    told = t.enter_points([12, 30])
    ends = [e for e in told if e.kind == "round_end"]
    assert ends and (ends[0].info or {})["scores"] == [12, 55]
    s = t.state()
    assert s["scores"] == [12, 55] and s["round"] == 2 and s["to_move"] == 1
    assert s["out"] == [] and s["winner"] is None and s["hands_needed"] is None
    again = Tracker.from_record(t.record())
    assert again.state() == s
    t.undo()
    assert t.state()["scores"] == [0, 0] and t.state()["hands_needed"] is None
    t.redo()
    assert t.state()["scores"] == [12, 55]
    t.undo()
    t.tap("8")  # a new branch: round 1 did not end there, its points go
    assert t.points == {}
    # the points told instead of the hands are corrected like hands: the round re-scored
    t = Tracker("classic1980", ["Ana", "Bo"], 0, {"scoring": "points", "target": 50})
    for code in ["10"] * 9 + ["9"]:
        t.tap(code)
    t.enter_points([12, 30])
    assert t.state()["out"] == [1] and t.state()["winner"] == 0  # 55 reaches 50
    t.enter_points([12, 20], round=1)
    assert t.state()["out"] == [] and t.state()["scores"] == [12, 45]


def test_a_record_with_taps_after_an_untold_round_keeps_them_for_redo() -> None:
    """R-END-3, R-REC: a tracked record whose points round ended without its hands and
    went on (the tracker once invented the scores) loads up to that round's end; the taps
    after it wait on the redo list until the hands are told."""
    rec = {"tracking": True, "rules": "classic1980", "options": {"scoring": "points"},
           "players": ["Ana", "Bo"], "moves": ["10"] * 9 + ["9", "5", "7"]}  # fmt: skip
    t = Tracker.from_record(rec, stop_at_error=True)
    assert t.state()["steps"] == 10 and t.redo_taps == ["7", "5"]
    t.enter_points([12, 30])
    t.redo()
    t.redo()
    assert t.state()["total"] == 12 and t.state()["steps"] == 12


def test_a_hand_laid_face_up_after_a_bust_on_the_second_card() -> None:
    """R-END-1, R-P2-4: a player out on the second card of a Play 2 drew a card after the
    first: that card is among the cards laid face up, and the hand as laid is accepted
    (real games, every hand laid face up typed in)."""
    typed = 0
    for seed in (2, 6, 7, 28):
        n = 2 + seed % 5
        names = [f"P{i}" for i in range(n)]
        g = Game("mattel2022", names, seed=seed, dealer=(seed % n - 1) % n)
        t = Tracker("mattel2022", names, seed % n)
        for mv in real_game("mattel2022", n, seed, None, seed % n):
            feed(mv, t.tap, t.state)
            if mv.code:
                g.apply(mv.code)
            open_ = t.state()["laid_open"]
            if open_ and t.state()["winner"] is None:
                seat = open_["seat"]
                t.enter_laid(seat, [action_code(c) for c in g.hands[seat]])
                typed += 1
                for key in (*FIELDS, *MORE):
                    assert t.state()[key] == mv.state[key]
    assert typed >= 4


def test_a_forgotten_card_goes_in_where_it_was_played() -> None:
    """R-TURN-1, R-TURN-2, R-99-1: a card nobody tapped goes in before a later tap; the
    taps after it fall to the players whose turn it really was, the total follows; one
    that makes a later tap impossible is refused and nothing changes."""
    t = Tracker("mattel2022", ["Ana", "Bo", "Cy"])
    for code in ["7", "5", "3"]:
        t.tap(code)
    t.insert(1, "10")  # Bo's 10 was forgotten: the 5 was Cy's, the 3 Ana's
    s = t.state()
    assert t.taps == ["7", "10", "5", "3"] and s["total"] == 25 and s["to_move"] == 1
    assert [(r["tap"], r["seat"], r["total"]) for r in s["recent"]] == [
        ("7", 0, 7), ("10", 1, 17), ("5", 2, 22), ("3", 0, 25)
    ]  # fmt: skip
    with pytest.raises(TrackError, match="R-99-1"):
        t.insert(0, "99")
    with pytest.raises(TrackError, match="no tap"):
        t.insert(9, "5")
    assert t.state() == s
    # classic1980 has two Double Plays: a third one put in, the last tap no longer fits
    t = Tracker("classic1980", ["Ana", "Bo", "Cy"])
    for code in ["P2", "5", "6", "P2"]:
        t.tap(code)
    before = t.state()
    with pytest.raises(TrackError, match="does not fit"):
        t.insert(3, "P2")
    assert t.state() == before and t.taps == ["P2", "5", "6", "P2"]
