"""Issue 37, mini one size up: the option ``size`` of the research variant ``mini``
(docs/rules.md "The research variant mini"). ``"small"`` (the default) is the solved game,
unchanged; ``"large"`` deals hands of 3 from 11 cards (``1``-``4`` twice, -10, Reverse,
Play 2) to a limit of 12, never reshuffled, for the approximate methods of docs/mini.md."""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cli_helpers import one_line_error, run
from ono99 import Game, make_rules
from ono99.bots import make_bot
from ono99.cards import Card
from ono99.errors import Ono99Error, RulesError
from ono99.i18n import LANGUAGES, speaking, translator
from ono99.records import replay, to_record
from ono99.rules import option_defaults
from ono99.texts import (
    card_names,
    choice_label,
    option_label,
    preset_title,
    preset_words,
    rules_help,
)
from test_play_plain import CODES, check_prompts, run_play

LARGE = make_rules("mini", {"size": "large"})
SMALL = make_rules("mini")
M10, REV, P2 = int(Card.MINUS10), int(Card.REVERSE), int(Card.PLAY2)
#: the large deck by card (R-SET-1 of mini large)
LARGE_DECK = Counter({1: 2, 2: 2, 3: 2, 4: 2, M10: 1, REV: 1, P2: 1})


def deck_of(rules: Any) -> Counter[int]:
    return Counter({c: n for c, n in enumerate(rules.deck) if n})


# ------------------------------------------------------------------ the option (R-SET-6)


def test_large_is_one_size_up() -> None:
    """R-SET-1, R-SET-5, R-LIM-1, R-TURN-3: large deals 3 cards each from 11 (1-4 twice,
    -10, Reverse, Play 2) to a limit of 12, for 2 or 3 players, never reshuffled; the rest
    of mini's mechanics as they are (R-M10-1 the floor at 0, R-P2-3 answers, R-END-1)."""
    assert deck_of(LARGE) == LARGE_DECK and LARGE.deck_size == 11
    assert (LARGE.limit, LARGE.hand_size, LARGE.reshuffle) == (12, 3, False)
    assert (LARGE.min_players, LARGE.max_players, LARGE.mode) == (2, 3, "elimination")
    assert LARGE.floor_zero and LARGE.play2_first_ok and not LARGE.four_99
    assert LARGE.answers == SMALL.answers == frozenset((REV, P2))
    assert not LARGE.standard_deal
    assert dict(LARGE.options) == {"size": "large"}
    with pytest.raises(RulesError, match="2 to 3 players, not 4"):
        Game("mini", 4, options={"size": "large"})


def test_small_is_todays_game() -> None:
    """R-SET-6: the default size is the game as it was before the option: its resolved
    options stay ``{}`` (records, stored tables, the optimal bot's table and the
    OpenSpiel game are unchanged); ``size="small"`` given resolves to the same game."""
    assert dict(SMALL.options) == {}
    assert make_rules("mini", {"size": "small"}) == SMALL
    assert deck_of(SMALL) == Counter({1: 2, 2: 2, 3: 2, REV: 1, P2: 1})
    assert (SMALL.limit, SMALL.hand_size) == (10, 2)
    assert option_defaults("mini") == {"size": "small"}
    a = Game("mini", 2, seed=11)
    b = Game("mini", 2, options={"size": "small"}, seed=11)
    assert a.hands == b.hands and a.draw_pile == b.draw_pile
    assert to_record(b)["options"] == {}


@pytest.mark.parametrize("value", ["huge", "Large", 3, True, None, ["large"]])
def test_a_bad_size_is_one_line_naming_the_choices(value: Any) -> None:
    """R-SET-6: a size that is not one of the choices: one line naming them."""
    with pytest.raises(RulesError) as e:
        make_rules("mini", {"size": value})
    text = str(e.value)
    assert "\n" not in text
    assert text.startswith("mini option 'size' must be one of 'small', 'large', not ")


def test_size_belongs_to_mini_only() -> None:
    """R-SET-6: another preset refuses the option; mini refuses the others'."""
    for preset in ("classic1980", "gamerules"):
        with pytest.raises(RulesError, match="does not take option 'size'"):
            make_rules(preset, {"size": "large"})
    with pytest.raises(RulesError, match="takes no options"):
        make_rules("mattel2022", {"size": "large"})
    with pytest.raises(RulesError, match="mini does not take option 'draw_penalty'"):
        make_rules("mini", {"size": "large", "draw_penalty": True})


# ------------------------------------------------------------------ whole games


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 2**64), st.sampled_from([2, 3]))
def test_random_large_games_keep_the_cards_and_end(seed: int, players: int) -> None:
    """R-SET-1 (hands of 3), R-LIM-1 (a safe play keeps the total below 12), R-TURN-3
    (never reshuffled: the cards of the deck are all in hands, the draw pile and the
    discard pile), R-END-4 (every game ends within the deck's 11 cards)."""
    g = Game("mini", players, options={"size": "large"}, seed=seed)
    assert [len(h) for h in g.hands] == [3] * players
    assert len(g.draw_pile) == 11 - 3 * players
    bot = make_bot("random", seed % 1000)
    plays = 0
    while not g.is_over:
        assert (
            Counter(c for h in g.hands for c in h) + Counter(g.draw_pile) + Counter(g.discard)
            == LARGE_DECK
        )
        assert max(len(h) for h in g.hands) <= 3
        p = g.to_move
        assert p is not None
        busts = len(g.out)
        g.apply(bot.act(g.view(p)))
        plays += 1
        if len(g.out) == busts:  # a safe play (R-LIM-1)
            assert 0 <= g.total < 12
    assert plays <= 11 and g.reshuffles == 0
    assert len(g.out) == players - 1


def test_record_round_trip(tmp_path: Path) -> None:
    """R-REC: a large game's record says its size, replays to the same end in Python and
    with ``ono99 replay --json``; its deals hold hands of 3."""
    g = Game("mini", ["Ana", "Bo", "Cy"], options={"size": "large"}, seed=8)
    bot = make_bot("heuristic", 2)
    while not g.is_over:
        g.apply(bot.act(g.view(g.to_move or 0)))
    rec = json.loads(json.dumps(to_record(g)))
    assert rec["rules"] == "mini" and rec["options"] == {"size": "large"}
    assert all(len(h) == 3 for h in rec["deals"][0]["hands"])
    again = replay(rec)
    assert again.winner == g.winner and again.moves == g.moves and again.total == g.total
    path = tmp_path / "large.json"
    path.write_text(json.dumps(rec), encoding="utf-8")
    out = run("replay", str(path), "--json")
    assert out.returncode == 0, out.stderr
    final = json.loads(out.stdout)
    assert final["winner"] == g.winner and final["total"] == g.total
    told = run("replay", str(path))
    assert told.returncode == 0 and "Ana" in told.stdout
    rec["options"] = {"size": "medium"}
    path.write_text(json.dumps(rec), encoding="utf-8")
    bad = run("replay", str(path), "--json")
    assert bad.returncode != 0 and "must be one of 'small', 'large'" in bad.stdout


def test_old_small_records_replay() -> None:
    """R-REC: a mini record written before the option (``"options": {}``) replays, and
    a new small game's record is written exactly so."""
    g = Game("mini", ["Ana", "Bo"], seed=5)
    bot = make_bot("greedy", 1)
    while not g.is_over:
        g.apply(bot.act(g.view(g.to_move or 0)))
    rec = to_record(g)
    assert rec["options"] == {}
    assert replay(json.loads(json.dumps(rec))).winner == g.winner


# ------------------------------------------------------------------ the CLI


def test_play_plain_large_to_the_end_and_replay(tmp_path: Path) -> None:
    """``ono99 play --rules mini --option size=large``: hands of 3 on the prompt, a whole
    game to its end, its record replayed by ``ono99 replay``."""
    record = tmp_path / "game.json"
    answers = "\n".join(CODES * 20) + "\n"
    r = run_play("--rules", "mini", "--option", "size=large", "--players", "2", "--seed", "4",
                 "--bots", "easy", "--record", str(record), answers=answers)  # fmt: skip
    assert r.returncode == 0, r.stderr
    assert check_prompts(r.stdout) > 0
    hands = re.findall(r"^hand:((?: \S+)*)$", r.stdout, re.M)
    assert len(hands[0].split()) == 3
    rec = json.loads(record.read_text(encoding="utf-8"))
    assert rec["options"] == {"size": "large"}
    final = run("replay", str(record), "--json")
    assert final.returncode == 0 and json.loads(final.stdout)["winner"] is not None


@pytest.mark.parametrize("command", ["play", "arena", "bench"])
def test_a_bad_size_on_the_command_line(command: str) -> None:
    """R-SET-6: ``--option size=huge``: one line, exit status 2, whatever the command."""
    extra = {"play": ["--plain"], "arena": ["--bots", "random,random"], "bench": []}[command]
    p = run(command, "--rules", "mini", "--players", "2", "--option", "size=huge", *extra,
            stdin="quit\n")  # fmt: skip
    line = one_line_error(p)
    assert line == "ono99: error: mini option 'size' must be one of 'small', 'large', not 'huge'"


def test_arena_and_bench_play_large() -> None:
    """The arena and the benchmark take the option and say it in their JSON."""
    p = run("arena", "--bots", "random,heuristic", "--rules", "mini", "--option", "size=large",
            "--players", "3", "--games", "6", "--seed", "1", "--json")  # fmt: skip
    assert p.returncode == 0, p.stderr
    res = json.loads(p.stdout)
    assert res["options"] == {"size": "large"}
    assert sum(b["wins"] for b in res["bots"].values()) == pytest.approx(6)
    b = run("bench", "--rules", "mini", "--option", "size=large", "--players", "2",
            "--seconds", "0.2", "--json")  # fmt: skip
    assert b.returncode == 0 and json.loads(b.stdout)["options"] == {"size": "large"}


def test_fast_engine_refuses_large() -> None:
    """The fast engine plays the standard deal only: large is refused as small is."""
    pytest.importorskip("numba")
    from ono99.fast import FastGame

    with pytest.raises(RulesError, match="fast engine does not play mini"):
        FastGame("mini", 2, options={"size": "large"}, seed=1)
    p = run("bench", "--rules", "mini", "--option", "size=large", "--players", "2",
            "--engine", "fast")  # fmt: skip
    assert (
        one_line_error(p)
        == "ono99: error: the fast engine does not play mini; use --engine reference"
    )


# ------------------------------------------------------------------ optimal


def test_optimal_refuses_large() -> None:
    """The optimal bot was solved for small mini with 2 players: large is one line, before
    any game, in the bot and in the arena (exit status 2), in every language."""
    bot = make_bot("optimal", 1)
    bot.check_game(SMALL, 2)
    with pytest.raises(Ono99Error, match="plays only mini with 2 players and size 'small'"):
        bot.check_game(LARGE, 2)
    template = "the optimal bot plays only {preset} with 2 players and {option} {value}, the game it solved"
    for lang in LANGUAGES:
        p = run("arena", "--bots", "optimal,random", "--rules", "mini", "--option", "size=large",
                "--games", "2", "--lang", lang)  # fmt: skip
        line = one_line_error(p)
        want = template if lang == "en" else translator(lang).gettext(template)
        assert lang == "en" or want != template, lang
        assert line == "ono99: error: " + want.format(preset="mini", option="size", value="'small'")


# ------------------------------------------------------------------ words


def test_words_say_the_deck_limit_and_hand() -> None:
    """R-LIM-1: large's title says its deck, limit and hand; its help its limit (12), its
    hand of 3, its numbers (1 to 4) and the -10 floored at 0; the option and its values
    have labels; the card names are large's deck."""
    with speaking("en"):
        assert preset_title(LARGE) == (
            "ONO 99 mini, large (research variant: 11 cards, limit 12, hands of 3)"
        )
        assert preset_title(SMALL) == "ONO 99 mini (research variant)"
        lines = rules_help(LARGE)
        assert "to 12 or more loses" in lines[1] and "back to 3 cards" in lines[2]
        assert "1 to 4: add their value." in lines
        assert "-10: subtract ten (the total never goes below 0)." in lines
        assert option_label("size") == "Size"
        assert choice_label("size", "small") == "small (8 cards, limit 10, hands of 2)"
        assert choice_label("size", "large") == "large (11 cards, limit 12, hands of 3)"
        assert set(card_names(LARGE)) == {"1", "2", "3", "4", "-10", "R", "P2"}
        assert set(card_names(SMALL)) == {"1", "2", "3", "R", "P2"}
        words = preset_words("mini", {"size": "large"})
        assert words["title"] == preset_title(LARGE)
        (size,) = words["options"]
        assert (size["name"], size["type"], size["default"]) == ("size", "choice", "small")
        assert [c["value"] for c in size["choices"]] == ["small", "large"]


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_words_are_translated(lang: str) -> None:
    """The option's label, its values and large's title in every language, not English."""
    with speaking("en"):
        english = [option_label("size"), choice_label("size", "small"),
                   choice_label("size", "large"), preset_title(LARGE)]  # fmt: skip
    with speaking(lang):
        words = [option_label("size"), choice_label("size", "small"),
                 choice_label("size", "large"), preset_title(LARGE)]  # fmt: skip
    for mine, theirs in zip(words, english, strict=True):
        assert mine != theirs
    assert "12" in words[3] and "11" in words[3] and "3" in words[3]


# ------------------------------------------------------------------ environments


def test_environments_refuse_a_bad_size() -> None:
    """R-SET-6: the environments take mini's ``size`` like every rule option (their whole
    games of the large size: tests/test_mini.py), and refuse a bad one in one line."""
    pytest.importorskip("pettingzoo")
    from ono99.envs import aec_env

    with pytest.raises(RulesError, match="must be one of 'small', 'large'"):
        aec_env("mini", players=2, size="huge")


@pytest.mark.parametrize("players", [2, 3])
def test_openspiel_large_through_its_chance_nodes(players: int) -> None:
    """``python_ono99(rules=mini,size=large)``: the cards are its chance nodes (each
    outcome a card, as likely as its copies left; they sum to 1), random games end within
    the deck with returns summing to 0; both observations (the information state, with
    perfect recall, and the plain observation) are made at every decision. The tree itself
    is too big to walk (that is the point of large)."""
    pyspiel = pytest.importorskip("pyspiel")
    import ono99.envs.openspiel  # noqa: F401  (registers python_ono99)

    game = pyspiel.load_game("python_ono99", {"rules": "mini", "size": "large", "players": players})
    assert game.max_chance_outcomes() == 16 and game.max_game_length() == 22
    assert (
        pyspiel.load_game(f"python_ono99(players={players},rules=mini,size=large)").num_players()
        == players
    )
    first = dict(game.new_initial_state().chance_outcomes())
    assert first == pytest.approx({c: n / 11 for c, n in LARGE_DECK.items()})
    rng = random.Random(players)
    for _game in range(60):
        state = game.new_initial_state()
        moves = 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                assert sum(p for _, p in outcomes) == pytest.approx(1.0)
                actions, probs = zip(*outcomes, strict=True)
                state.apply_action(rng.choices(actions, probs)[0])
            else:
                p = state.current_player()
                assert state.information_state_string(p) and state.observation_string(p)
                assert (
                    len(state.information_state_tensor(p)) == game.information_state_tensor_size()
                )
                state.apply_action(rng.choice(state.legal_actions()))
            moves += 1
        assert moves <= game.max_game_length()
        assert sum(state.returns()) == pytest.approx(0.0)
        assert state.dealt().rules == LARGE
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)
    with pytest.raises(RulesError, match="must be one of 'small', 'large'"):
        pyspiel.load_game("python_ono99", {"rules": "mini", "size": "huge"})
    with pytest.raises(RulesError, match="does not take option 'size'"):
        pyspiel.load_game("python_ono99", {"rules": "classic1980", "size": "large"})


def test_openspiel_small_is_unchanged() -> None:
    """``python_ono99(rules=mini)`` (no size, or ``size=small``) is the small game."""
    pyspiel = pytest.importorskip("pyspiel")
    import ono99.envs.openspiel  # noqa: F401

    for params in ({"rules": "mini"}, {"rules": "mini", "size": "small"}):
        game = pyspiel.load_game("python_ono99", params)
        assert game.max_game_length() == 16
        state = game.new_initial_state()
        assert dict(state.chance_outcomes()) == pytest.approx(
            {1: 0.25, 2: 0.25, 3: 0.25, REV: 0.125, P2: 0.125}
        )


# ------------------------------------------------------------------ the terminal's setup


async def test_new_game_screen_offers_the_size() -> None:
    """R-SET-6: the new-game screen shows the size row for mini only, its two values in
    words; large chosen starts a large game (hands of 3)."""
    from textual.widgets import Select

    from ono99.i18n import set_language
    from ono99.tui.setup import NewGameScreen
    from test_tui_app import SIZE, STARTED, make_app, message, open_settings_in_game

    set_language("en")
    STARTED.clear()
    app, _saved = make_app("mattel2022", {}, 2, seed=2, bot_delay=60, draw_window=60)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await open_settings_in_game(app, pilot)
        screen = app.screen
        assert isinstance(screen, NewGameScreen)
        assert not screen.query_one("#row-size").display
        screen.query_one("#set-rules", Select).value = "mini"
        await pilot.pause()
        assert screen.query_one("#row-size").display
        assert not screen.query_one("#row-scoring").display
        size = screen.query_one("#set-size", Select)
        assert size.value == "small"
        size.value = "large"
        await pilot.pause()
        await pilot.click("#set-start")
        await pilot.pause()
        assert not isinstance(app.screen, NewGameScreen), message(app)
        assert STARTED[-1].rules == "mini" and dict(STARTED[-1].options) == {"size": "large"}
        assert app.session.rules == LARGE
