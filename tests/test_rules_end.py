"""Game modes and the end (R-END): elimination, tokens, points."""

from __future__ import annotations

from engine_helpers import (
    all_cards,
    codes,
    deck_counter,
    hand_codes,
    kinds,
    make,
    play,
    scripted,
)
from ono99 import Card, hand_points, state_json, view_of

RAMP_89 = "10 9 8 10 9 8 10 9 8 2 3 3"  # twelve plays, three players: 89, seat 0 to move
RAMP_95 = "10 9 8 10 9 8 10 9 8 4 5 5"  # the same to 95 (fits the 1980 deck)


def test_elimination_2022() -> None:
    """R-END-1: a mattel2022 player who busts plays no card, lays their hand face up
    (hands still shows it), is skipped, and the last player left wins."""
    g = scripted("mattel2022", RAMP_89, ["9 2 3 4", "10 10 99 99", "10 10 5 99"])
    discard_before = len(g.discard)
    g.apply("9")  # 98: seat 1 busts, then seat 2 busts, seat 0 is left
    assert g.out == [1, 2]
    assert g.is_over and g.winner == 0 and g.to_move is None
    assert len(g.discard) == discard_before + 1  # the busted players played no card
    assert hand_codes(g, 1) == sorted(["10", "10", "99", "99"])
    assert state_json(g)["hands"][2] == ["10", "10", "5", "99"]
    v = view_of(g, 0)
    assert sorted(v.laid_down[1]) == sorted(g.hands[1])  # face up: everyone sees it
    assert v.laid_down[0] == ()
    assert kinds(g).count("bust") == 2 and kinds(g)[-1] == "game_over"


def test_tokens_lose_one_per_lost_round_out_on_the_fourth() -> None:
    """R-END-2: a bust ends the round and costs a token; a player survives three lost
    rounds and is eliminated on the fourth; the cards are dealt again to the players
    still in the game, total 0, clockwise; the loser starts (if eliminated, the next
    player clockwise); the last player left wins."""
    nines = "99 99 99 99"
    deals = [(["2 3 4 5", nines, "6 7 8 9"], "") for _ in range(3)]
    deals.append((["2 3 4 5", "", "6 7 8 9"], ""))
    g = make("classic1980", ["R 2 3 4", nines, "10 5 6 7"], "9 9", more_deals=deals)
    play(g, "R")
    assert g.direction == -1 and g.to_move == 2
    g.apply("10")  # seat 1 is next (counterclockwise) and busts
    # rounds 2, 3 and 4 start with seat 1 (the loser) holding only 99s: it busts
    # at once each time; the fourth loss eliminates it
    assert g.tokens == [3, 0, 3]
    assert g.out == [1]
    assert g.round == 5
    assert g.hands[1] == [] and len(g.hands[0]) == len(g.hands[2]) == 4
    assert g.total == 0 and g.direction == 1
    assert g.to_move == 2  # seat 1 is out: the next player clockwise starts
    assert all_cards(g) == deck_counter(g) and g.discard == []
    assert kinds(g).count("token_lost") == 3 and kinds(g).count("eliminated") == 1
    g.apply("6")
    assert g.to_move == 0  # seat 1 skipped


def test_tokens_last_player_left_wins() -> None:
    """R-END-2: with two players, the other player's fourth lost round ends the game."""
    nines = "99 99 99 99"
    g = make("classic1980", [nines, "2 3 4 5"], more_deals=[([nines, "2 3 4 5"], "")] * 3)
    assert g.is_over and g.winner == 1 and g.out == [0] and g.tokens == [0, 3]
    assert g.round == 4


def test_tokens_loser_starts_next_round() -> None:
    """R-END-2: the player who lost the round starts the next one."""
    g = scripted(
        "gamerules",
        "10 9 8 10 9 8 10 9 8 4 5 5",
        ["99 2 3 4", "10 10 5 6", "10 2 3 4"],
        more_deals=[(["2 3 4 5", "6 7 8 9", "2 3 4 5"], "")],
    )
    assert g.total == 95 and g.to_move == 0
    g.apply("99")  # 99: seat 1 has nothing <= 0 and busts
    assert g.tokens == [3, 2, 3] and g.round == 2 and g.to_move == 1


def _points_round(options: dict[str, object], more: list[tuple[list[str], str]] | None = None):  # type: ignore[no-untyped-def]
    """Three players of classic1980 points at 95, seat 0 to move with no safe card.

    Seat 0 plays 7 unsafe (out first), draws 6 -> 4 10 99 6 = 40 + 25 = 65;
    seat 1 plays 3 (98), draws 99 -> H R P2 99 = 65;
    seat 2 has only 10s and a 99: plays a 10 unsafe, draws 2 -> 10 10 99 2 = 42 + 25 = 67.
    """
    g = scripted(
        "classic1980",
        RAMP_95,
        ["4 7 10 99", "H R P2 3", "10 10 10 99"],
        "6 99 2",
        options={"scoring": "points", **options},
        more_deals=more or [],
    )
    assert g.total == 95 and g.to_move == 0
    assert g.must_bust_play and codes(g.legal_actions()) == ["4", "7", "10"]  # never 99
    g.apply("7")
    assert g.total == 95 and g.round_out == [0] and g.to_move == 1
    assert hand_codes(g, 0) == sorted(["4", "10", "99", "6"])  # drew by itself
    g.apply("3")
    assert g.total == 98
    assert codes(g.legal_actions()) == ["10"] and g.must_bust_play
    g.apply("10")
    return g


def test_points_bust_play_scoring_and_next_round() -> None:
    """R-END-3: with no safe card a points player must play one of their unsafe cards
    (never a 99), the total stays, they draw by themselves and are out of the round;
    the round goes on until one is left; hands score (number = face value, 99 = 20,
    H/R/-10/P2 = 15, +25 out of the round) and add up; the first player out starts the
    next round (total 0, clockwise)."""
    g = _points_round({}, [(["2 3 4 5", "6 7 8 9", "2 3 4 5"], "")])
    assert g.scores == [65, 65, 67]
    assert g.round == 2 and g.to_move == 0 and g.total == 0 and g.direction == 1
    assert g.out == [] and g.winner is None
    assert g.moves[-3:] == [7, 3, 10]  # no "draw" moves
    ev = [e for e in g.events or [] if e.kind == "round_end"]
    assert ev[0].info is not None and ev[0].info["gained"] == [65, 65, 67]


def test_points_worked_example_44() -> None:
    """R-END-3: the seed's worked example: 99, P2, 4, 5 = 20 + 15 + 9 = 44; each card
    short of four adds 15."""
    assert hand_points([Card.NINETY_NINE, Card.PLAY2, Card.N4, Card.N5]) == 44
    assert hand_points([Card.HOLD, Card.REVERSE, Card.MINUS10, Card.N10]) == 55
    assert hand_points([Card.N2, Card.N3]) == 5 + 30
    assert hand_points([]) == 60


def test_points_out_without_playing() -> None:
    """R-END-3: a player with no unsafe card to play either (only ONO 99 cards) is out
    of the round without playing; they score 4 x 20 + 25."""
    g = make(
        "classic1980",
        ["5 R 3 4", "99 99 99 99"],
        "9 9 9 2",
        options={"scoring": "points", "target": 200},
        more_deals=[(["2 3 4 5", "6 7 8 9"], "")],
    )
    g.apply("5")
    assert g.scores == [15 + 3 + 4 + 9, 105]
    assert g.round == 2 and g.to_move == 1  # the first out starts


def test_points_lowest_ties_share() -> None:
    """R-END-3 lowest: the round in which anyone reaches the target ends the game; the
    fewest points win and ties share (winner is the list of seats)."""
    g = _points_round({"target": 60, "points_mode": "lowest"})
    assert g.is_over and g.winner == [0, 1] and state_json(g)["winner"] == [0, 1]
    assert g.out == []


def test_points_elimination_everyone_over_target() -> None:
    """R-END-3 elimination: all at or over the target are eliminated (seat order); if
    no one is left, the fewest points among those eliminated that round win (shared)."""
    g = _points_round({"target": 60})
    assert g.out == [0, 1, 2]
    assert g.is_over and g.winner == [0, 1]


def test_points_elimination_fewest_of_that_round_only() -> None:
    """R-END-3 elimination: a player eliminated earlier stops scoring; when no one is
    left, only the players eliminated in that round compete for the fewest points; the
    first player out starts the next round (the next clockwise if eliminated)."""
    g = _points_round(
        {"target": 66},
        [(["99 99 99 99", "2 3 4 5", ""], ""), (["2 3 4 5", "6 7 8 9", ""], "")],
    )
    # round 1: seat 2 (67) is out of the game; round 2 starts with seat 0 (first out)
    # who holds only 99s: out without playing, then seat 1 is alone
    assert g.out == [2, 0, 1]
    assert g.scores == [65 + 105, 65 + 14, 67]
    assert g.winner == 1  # 79 < 170; seat 2 (67) was eliminated in an earlier round
    assert g.is_over


def test_points_elimination_last_left_wins() -> None:
    """R-END-3 elimination: at the end of a round those at or over the target are out;
    the last player left wins."""
    g = make("classic1980", ["99 99 99 99", "2 3 4 5"], options={"scoring": "points"})
    assert g.scores == [105, 14]
    assert g.out == [0] and g.is_over and g.winner == 1


def test_points_first_out_eliminated_next_clockwise_starts() -> None:
    """R-END-3: the first player out starts the next round; if they were eliminated,
    the next player clockwise still in the game does (the engine's reading, as in
    R-END-2)."""
    g = scripted(
        "classic1980",
        RAMP_95,
        ["4 7 10 99", "H R P2 3", "10 10 10 99"],
        "10 99 2",
        options={"scoring": "points", "target": 68},
        more_deals=[(["", "2 3 4 5", "6 7 8 9"], "")],
    )
    play(g, "7", "3", "10")
    # seat 0: 4 10 99 10 + 25 = 69 (out); seat 1: 65; seat 2: 67
    assert g.scores == [69, 65, 67] and g.out == [0]
    assert g.round == 2 and g.to_move == 1 and g.hands[0] == []


def test_points_bust_play_never_double_play_first() -> None:
    """R-END-3 with R-P2-3: a points player owing two with no safe first card must
    play an unsafe card -- never a 99, never a Double Play as the first of two -- and
    the player after them owes nothing (R-P2-4)."""
    g = scripted(
        "classic1980",
        "10 9 10 9 10 9 10 8 10 4",
        ["P2 2 3 4", "P2 10 10 99"],
        "5 H",
        options={"scoring": "points", "target": 500},
    )
    assert g.total == 89 and g.to_move == 0
    g.apply("P2")
    assert g.owes_two == 1 and g.must_bust_play
    assert codes(g.legal_actions()) == ["10"]
    g.apply("10")
    # two players: seat 1 out of the round ends it; seat 0 holds 2 3 4 + drawn 5,
    # seat 1 holds P2 10 99 + drawn H, +25 for being out
    assert g.round == 2 and g.owes_two is None
    assert g.scores == [2 + 3 + 4 + 5, 15 + 10 + 20 + 15 + 25]
