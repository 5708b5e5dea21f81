"""The research variant ``mini`` (docs/rules.md "The research variant mini", docs/mini.md):
ONO 99's rules on a small deck, a small limit and hand, the draw pile never reshuffled."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ono99 import Game, make_rules
from ono99.arena import make_spec, run_tournament
from ono99.bots import make_bot
from ono99.bots.optimal import action_values, load_table, view_key
from ono99.cards import Card, action_code, parse_action
from ono99.errors import IllegalAction, RecordError, RulesError
from ono99.records import replay, to_record
from ono99.texts import rules_help, why_not

MINI = make_rules("mini")


def test_the_preset() -> None:
    """R-SET-1, R-SET-5, R-SET-6: mini deals two cards each from an eight-card deck, is for
    2 or 3 players, takes no option but its size (issue 37, tests/test_mini_large.py);
    elimination scoring (R-END-1)."""
    assert MINI.deck_size == 8 and MINI.hand_size == 2 and MINI.limit == 10
    assert Counter({c: n for c, n in enumerate(MINI.deck) if n}) == Counter(
        {1: 2, 2: 2, 3: 2, int(Card.REVERSE): 1, int(Card.PLAY2): 1}
    )
    assert (MINI.min_players, MINI.max_players, MINI.mode) == (2, 3, "elimination")
    assert not MINI.reshuffle and not MINI.standard_deal
    assert all(make_rules(p).standard_deal for p in ("mattel2022", "classic1980", "gamerules"))
    with pytest.raises(RulesError, match="mini does not take option 'draw_penalty'"):
        make_rules("mini", {"draw_penalty": True})
    with pytest.raises(RulesError, match="2 to 3 players, not 4"):
        Game("mini", 4)


def test_deal_and_limit() -> None:
    """R-SET-1 (two cards each), R-LIM-1 (a card is safe below 10), R-LIM-2 (a player with
    no safe card busts: R-END-1, out of the game)."""
    g = Game("mini", 2, seed=1, deals=[([[3, 3], [2, 2]], [1, 1, 13, 12])])
    assert [len(h) for h in g.hands] == [2, 2] and len(g.draw_pile) == 4
    for card in ("3", "2", "3"):  # total 3, 5, 8; each player draws back to two
        g.apply(card)
    assert g.total == 8 and g.hands[0] == [1, 13] and len(g.hands[1]) == 2
    assert g.legal_actions() == (1,)  # seat 1 holds 1 and 2: only the 1 is safe (8 + 2 = 10)
    g.apply("1")  # 9; seat 0 holds 1 and 13 (P2)
    assert g.legal_actions() == (13,)
    with pytest.raises(IllegalAction, match="R-LIM-1"):
        g.apply("1")


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 2**64), st.sampled_from([2, 3]))
def test_every_game_ends_within_the_deck(seed: int, players: int) -> None:
    """R-TURN-3 (mini: never reshuffled, players play on short), R-END-4: every game ends
    before the deck's cards are all played; no hand ever holds more than two cards, the
    total stays below the limit (R-LIM-1) and the cards are the deck's."""
    g = Game("mini", players, seed=seed)
    bot = make_bot("random", seed % 1000)
    plays = 0
    while not g.is_over:
        assert max(len(h) for h in g.hands) <= 2 and g.total < 10
        assert Counter(c for h in g.hands for c in h) + Counter(g.draw_pile) + Counter(
            g.discard
        ) == Counter({c: n for c, n in enumerate(MINI.deck) if n})
        p = g.to_move
        assert p is not None
        g.apply(bot.act(g.view(p)))
        plays += 1
    assert plays <= MINI.deck_size and g.reshuffles == 0
    assert len(g.out) == players - 1


def test_records_replay() -> None:
    """R-REC: a mini game's record (with its deals of two cards) replays to the same end;
    a deal of four cards is refused in one line."""
    g = Game("mini", ["Ana", "Bo"], seed=5)
    bot = make_bot("greedy", 1)
    while not g.is_over:
        g.apply(bot.act(g.view(g.to_move or 0)))
    rec = json.loads(json.dumps(to_record(g)))
    again = replay(rec)
    assert again.winner == g.winner and again.moves == g.moves
    rec["deals"][0]["hands"][0] = ["1", "1", "2", "3"]
    with pytest.raises(RecordError, match="must get 2 cards"):
        replay(rec)


def test_words() -> None:
    """R-LIM-1: the rules help and the reason a card is refused name mini's limit (10), its
    hand of two and its numbers (1 to 3); no -10 or 99 line for cards it does not have."""
    lines = rules_help(MINI)
    assert lines[0] == "ONO 99 mini (research variant)"
    assert "to 10 or more loses" in lines[1] and "back to 2 cards" in lines[2]
    assert "1 to 3: add their value." in lines and not any("-10" in x for x in lines)
    g = Game("mini", 2, seed=1, deals=[([[3, 3], [2, 2]], [1, 1, 13, 12])])
    for card in ("3", "2", "3"):
        g.apply(card)
    assert why_not(2, g.view(1)) == "2 would take the total to 10: reaching 10 loses"


def test_fast_engine_refuses_mini() -> None:
    """The fast engine plays the standard deal only: mini is a one-line error there (the
    CLI: exit status 2), and the search bots roll out on the reference engine."""
    pytest.importorskip("numba")
    from ono99.fast import FastGame

    with pytest.raises(RulesError, match="fast engine does not play mini"):
        FastGame("mini", 2, seed=1)
    run = subprocess.run(
        [sys.executable, "-m", "ono99", "bench", "--rules", "mini", "--engine", "fast"],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert run.returncode == 2
    assert run.stderr.strip() == (
        "ono99: error: the fast engine does not play mini; use --engine reference"
    )


def test_optimal_bot_reads_its_view() -> None:
    """The optimal bot plays only mini with 2 players (one line before any game), and
    every move it makes is legal and has a probability in the table."""
    table = load_table()
    assert table["nash_conv"] < 0.01
    bot = make_bot("optimal", 1)
    with pytest.raises(ValueError, match="plays only mini with 2 players"):
        bot.check_game(make_rules("mattel2022"), 2)
    with pytest.raises(ValueError, match="plays only mini with 2 players"):
        bot.check_game(MINI, 3)
    for seed in range(30):
        g = Game("mini", 2, seed=seed)
        while not g.is_over:
            view = g.view(g.to_move or 0)
            probs = table["policy"][view_key(view.seat, view.hand, view.discard)]
            assert {parse_action(c) for c in probs} == set(view.legal)
            assert set(action_values(view)) == set(view.legal)
            a = bot.act(view)
            assert probs[action_code(a)] > 0
            g.apply(a)


def test_optimal_in_the_arena() -> None:
    """The arena plays optimal by name in mini; another preset is refused before a game."""
    res = run_tournament(make_spec(["optimal", "random"], rules="mini", games=20, seed=3),
                         workers=1)  # fmt: skip
    assert sum(b["wins"] for b in res["bots"].values()) == 20
    with pytest.raises(ValueError, match="plays only mini"):
        run_tournament(make_spec(["optimal", "random"], games=2, seed=3), workers=1)


@pytest.mark.parametrize(("options", "players"), [({}, 2), ({"size": "large"}, 3)])
def test_environments_play_mini(options: dict[str, str], players: int) -> None:
    """R-END-4: the PettingZoo and Gymnasium environments play whole mini games, of either
    size; the AEC environment's default engine ("auto") is the reference engine for mini,
    which the fast engine does not play."""
    pytest.importorskip("pettingzoo")
    from ono99.envs import GymEnv, aec_env

    rules = make_rules("mini", options)
    env = aec_env("mini", players=players, **options)
    assert env.unwrapped.engine == "reference"
    env.reset(seed=1)
    steps = 0
    for _agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        env.step(None if term or trunc else int(obs["action_mask"].nonzero()[0][0]))
        steps += 1
    assert 0 < steps <= 2 * rules.deck_size + players  # every play, each seat's last turn
    gym = GymEnv(rules="mini", players=2, opponents="heuristic", **options)
    gym.reset(seed=1)
    done = False
    while not done:
        action = int(gym.action_masks().nonzero()[0][0])
        _, _, term, trunc, _ = gym.step(action)
        done = term or trunc
