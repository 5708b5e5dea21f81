"""Errors, the arena table and narration in every language (docs/i18n.md "Errors").

The engine raises English errors built from ``N_`` templates; every front end prints
them translated (``ono99.i18n.translate_error``), while ``str(err)`` and the JSON of
``ono99 replay --json`` stay English (CONTRACTS.md).
"""

from __future__ import annotations

import json
import os
import pickle
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from rich.cells import cell_len

from engine_helpers import make, play, scripted
from ono99 import i18n
from ono99.cards import FOUR_99, Card, parse_action, parse_card
from ono99.cli.arena import _table
from ono99.cli.options import parse_options
from ono99.errors import IllegalAction, Ono99Error, RecordError, RulesError
from ono99.events import Event
from ono99.game import Game
from ono99.i18n import N_, translate_error, translator
from ono99.narrate import narrate, you_seat
from ono99.records import ReplayError, apply_move, load_record, parse_record, replay
from ono99.rules import make_rules

TRANSLATED = [lang for lang in i18n.LANGUAGES if lang != "en"]

#: a record whose move 3 is illegal: seat 1 has no 9 (R-TURN-1)
ILLEGAL = {
    "rules": "mattel2022",
    "players": 2,
    "deals": [{"hands": [["1", "2", "3", "4"], ["5", "6", "7", "8"]], "draw": ["9"]}],
    "moves": ["1", "5", "9", "9"],
}
ILLEGAL_ENGLISH = "move 3 ('9'): Player 2 (seat 1) has no '9' in hand (R-TURN-1)"


@pytest.fixture
def english() -> Iterator[None]:
    yield
    i18n.set_language("en")


def run(*args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("LC_", "LANG"))}
    env.update(LC_ALL="C.UTF-8", LANG="C.UTF-8", PYTHONIOENCODING="utf-8")
    return subprocess.run(
        [sys.executable, "-m", "ono99", *args],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        encoding="utf-8",
        env=env,
        timeout=120,
    )


def error_line(p: subprocess.CompletedProcess[str]) -> str:
    """The one-line error (exit status 2, no traceback), without ``ono99: error: ``."""
    assert p.returncode == 2, (p.returncode, p.stdout, p.stderr)
    assert "Traceback" not in p.stderr
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1, p.stderr
    assert lines[0].startswith("ono99: error: ")
    return lines[0].removeprefix("ono99: error: ")


def tr(lang: str, message: str) -> str:
    text = translator(lang).gettext(message)
    assert text != message, f"{message!r} is not translated into {lang}"
    return text


# ---------------------------------------------------------------- the error type


def test_str_is_english_and_translated_is_not(english: None) -> None:
    """R-TURN-1: ``str`` is the English sentence with the rule ID; ``translated`` puts
    the template through the catalog, nested errors too, and keeps the rule ID."""
    inner = IllegalAction(
        N_("{name} (seat {seat}) has no {card} in hand"), "R-TURN-1", name="Ana", seat=0, card="'9'"
    )
    outer = ReplayError(N_("move {index} ({move}): {reason}"), 4, index=4, move="'9'", reason=inner)
    assert str(inner) == "Ana (seat 0) has no '9' in hand (R-TURN-1)"
    assert str(outer) == "move 4 ('9'): Ana (seat 0) has no '9' in hand (R-TURN-1)"
    assert outer.move == 4 and inner.rule == "R-TURN-1" and outer.params["reason"] is inner
    assert translate_error(outer) == str(outer)  # English
    i18n.set_language("kn")
    kn = translate_error(outer)
    want_inner = tr("kn", "{name} (seat {seat}) has no {card} in hand").format(
        name="Ana", seat=0, card="'9'"
    )
    want = tr("kn", "move {index} ({move}): {reason}").format(
        index=4, move="'9'", reason=want_inner + " (R-TURN-1)"
    )
    assert kn == want and kn.endswith(" (R-TURN-1)") and "has no" not in kn
    assert str(outer) == "move 4 ('9'): Ana (seat 0) has no '9' in hand (R-TURN-1)"


def test_plain_string_errors_still_work(english: None) -> None:
    """Backwards compatible: a plain message (braces included) is shown as it is."""
    err = RulesError("a {literal} message")
    assert str(err) == "a {literal} message" and err.rule is None and err.params == {}
    i18n.set_language("ta")
    assert translate_error(err) == "a {literal} message"
    assert translate_error(ValueError("not ours")) == "not ours"


def test_broken_translation_falls_back_to_english() -> None:
    err = RecordError(N_("unknown card code {code}"), code="'J'")
    assert err.translated(lambda m: "{nope}") == "unknown card code 'J'"
    assert err.translated(lambda m: "{code} ?") == "'J' ?"


def test_errors_survive_pickling() -> None:
    """Arena workers send errors back to the parent process: template, params, rule and
    the move index come along."""
    inner = IllegalAction(N_("no draw is pending"), "R-DRAW-1")
    outer = ReplayError(
        N_("move {index} ({move}): {reason}"), 2, index=2, move="'draw'", reason=inner
    )
    back = pickle.loads(pickle.dumps(outer))
    assert type(back) is ReplayError and str(back) == str(outer) and back.move == 2
    assert back.template == outer.template and str(back.params["reason"]) == str(inner)
    assert back.translated(translator("uz").gettext) == outer.translated(translator("uz").gettext)


# ------------------------------------------------- every engine error is in the catalog


def _bust_mode_game() -> Game:
    """R-END-3: classic1980 with points; seat 0 at 91 holds 10 9 8 99: no safe card."""
    return scripted(
        "classic1980",
        "10 9 10 9 10 8 10 8 10 7",
        ["10 9 8 99", "2 3 4 5"],
        options={"scoring": "points"},
    )


def _game_over() -> Game:
    g = scripted("mattel2022", "10 9 10 9 10 9 10 9 10 3", ["10 10 99 99", "2 3 5 6"])
    assert g.is_over
    return g


def _eliminated_seat_gets_cards() -> None:
    nines = ["99", "99", "99", "99"]
    keep = {"hands": [["2", "3", "4", "5"], nines, ["6", "7", "8", "9"]]}
    rec = {
        "rules": "classic1980",
        "players": 3,
        "deals": [keep] * 4 + [{"hands": [["2", "3", "4", "5"], ["6", "6", "7", "7"], ["6", "7", "8", "9"]]}],
        "moves": ["2"],
    }  # fmt: skip
    apply_move(parse_record(rec).new_game(), 0, "2")


def _p2_then(preset: str, hands: list[str], *moves: str, **options: Any) -> Callable[[], object]:
    return lambda: play(make(preset, hands, "8 9 10 10", options=options), *moves)


_CLASSIC_Z = {"zero_ending_99": True}

#: (what the bad input is, the rule ID its message names or None, the call that raises)
BAD: list[tuple[str, str | None, Callable[[], object]]] = [
    ("unknown preset", None, lambda: make_rules("uno")),
    ("mattel2022 option", None, lambda: make_rules("mattel2022", {"bogus": 1})),
    ("option not taken", None, lambda: make_rules("gamerules", {"scoring": "points"})),
    ("bad choice", None, lambda: make_rules("classic1980", {"scoring": "goals"})),
    ("bad target", None, lambda: make_rules("classic1980", {"scoring": "points", "target": 0})),
    ("target without points", None, lambda: make_rules("classic1980", {"target": 50})),
    ("not a bool", None, lambda: make_rules("classic1980", {"draw_penalty": "yes"})),
    ("player count", "R-SET-5", lambda: Game("mattel2022", 7)),
    ("players type", None, lambda: Game("mattel2022", "four")),  # type: ignore[arg-type]
    ("options with Rules", None, lambda: Game(make_rules(), 2, options={"x": 1})),
    ("seed type", None, lambda: Game("mattel2022", 2, seed=1.5)),  # type: ignore[arg-type]
    ("dealer", None, lambda: Game("mattel2022", 2, dealer=2)),
    ("move type", None, lambda: parse_action(7)),  # type: ignore[arg-type]
    ("card code", None, lambda: parse_action("J")),
    ("not a card", None, lambda: parse_card("draw")),
    ("deal shape", None, lambda: Game("mattel2022", 2, deals=[5])),  # type: ignore[list-item]
    ("deal hands", None, lambda: Game("classic1980", 2, deals=[([["2", "3", "4", "5"]], [])])),
    ("deal hand size", None, lambda: make("classic1980", ["2 3 4", "5 6 7 8"])),
    ("deal int", None, lambda: Game("classic1980", 2, deals=[([[2, 3, 4, 99], [5, 6, 7, 8]], [])])),
    ("deal copies", None, lambda: make("classic1980", ["2 2 2 2", "5 6 7 8"])),
    ("deck lacks", None, lambda: make("mattel2022", ["H 2 3 4", "5 6 7 8"])),
    ("later deal", None, _eliminated_seat_gets_cards),
    ("record type", None, lambda: parse_record([1])),
    ("rules type", None, lambda: parse_record({"rules": 5, "players": 2})),
    ("options type", None, lambda: parse_record({"players": 2, "options": []})),
    ("no players", None, lambda: parse_record({})),
    ("players value", None, lambda: parse_record({"players": "two"})),
    ("player names", None, lambda: parse_record({"players": [1, 2]})),
    ("seed value", None, lambda: parse_record({"players": 2, "seed": 1.5})),
    ("dealer value", None, lambda: parse_record({"players": 2, "dealer": "x"})),
    ("deals type", None, lambda: parse_record({"players": 2, "deals": {}})),
    ("deal type", None, lambda: parse_record({"players": 2, "deals": [1]})),
    ("deal without hands", None, lambda: parse_record({"players": 2, "deals": [{}]})),
    ("hand type", None, lambda: parse_record({"players": 2, "deals": [{"hands": [5]}]})),
    ("card type", None, lambda: parse_record({"players": 2, "deals": [{"hands": [[5]]}]})),
    ("moves type", None, lambda: parse_record({"players": 2, "moves": "7"})),
    ("bad JSON", None, lambda: load_record('{"players": 2,')),
    ("deep JSON", None, lambda: load_record("[" * 200_000)),
    ("illegal move", "R-TURN-1", lambda: replay(ILLEGAL)),
    ("unknown move", None, lambda: replay({**ILLEGAL, "moves": ["1", "X"]})),
    ("not in hand", "R-TURN-1", lambda: make("mattel2022", ["1 2 3 4", "5 6 7 8"]).apply("9")),
    ("not in deck", None, lambda: make("classic1980", ["2 3 4 5", "5 6 7 8"]).apply("0")),
    ("not an action", None, lambda: make("mattel2022", ["1 2 3 4", "5 6 7 8"]).apply(99)),
    ("no draw pending", "R-DRAW-1", lambda: make("mattel2022", ["1 2 3 4", "5 6 7 8"]).apply("draw")),
    ("game over", "R-END", lambda: _game_over().apply("2")),
    ("over the limit", "R-LIM-2", lambda: scripted("mattel2022", "10 9 10 9 10 9 10 9 10 3", ["10 9 0 R", "2 3 5 6"]).apply("10")),
    ("99 never", "R-99-1", lambda: make("mattel2022", ["99 1 2 3", "5 6 7 8"]).apply("99")),
    ("99 never 1980", "R-99-4", lambda: make("classic1980", ["99 2 3 4", "5 6 7 8"]).apply("99")),
    ("no four-99", "R-99-3", lambda: make("classic1980", ["2 3 4 5", "5 6 7 8"]).apply(FOUR_99)),
    ("four-99 not held", "R-99-3", lambda: make("mattel2022", ["99 99 99 2", "5 6 7 8"]).apply(FOUR_99)),
    ("99 not at 0", "R-99-5", _p2_then("classic1980", ["5 2 3 4", "99 6 7 8"], "5", "99", **_CLASSIC_Z)),
    ("second 99", "R-99-5", _p2_then("classic1980", ["P2 -10 3 4", "99 99 10 5"], "P2", "99", "99", **_CLASSIC_Z)),
    ("Double Play first", "R-P2-3", _p2_then("classic1980", ["P2 2 3 4", "P2 5 6 7"], "P2", "P2")),
    ("bust card", "R-END-3", lambda: _bust_mode_game().apply("99")),
    ("option syntax", None, lambda: parse_options(["bogus"])),
]  # fmt: skip


def _templates(err: Ono99Error) -> Iterator[str]:
    yield err.template
    for value in err.params.values():
        if isinstance(value, Ono99Error):
            yield from _templates(value)


@pytest.mark.parametrize(("what", "rule", "call"), BAD, ids=[b[0] for b in BAD])
def test_engine_errors_are_in_the_catalog(
    what: str, rule: str | None, call: Callable[[], object]
) -> None:
    """R-SET-5, R-SET-6, R-REC, R-TURN-1, R-LIM-2, R-99-1..5, R-P2-3, R-DRAW-1,
    R-END-3: each error the engine raises for a bad input is a template with params,
    translated in every language, naming its rule in every language."""
    with pytest.raises(Ono99Error) as info:
        call()
    err = info.value
    assert err.params or err.template == str(err).removesuffix(f" ({err.rule})")
    if rule is not None:
        assert rule in str(err)
    for lang in TRANSLATED:
        gettext = translator(lang).gettext
        for template in _templates(err):
            assert gettext(template) != template, f"{lang}: {template!r} is not translated"
        text = err.translated(gettext)
        assert text != str(err)
        if err.rule:
            assert text.endswith(f" ({err.rule})")


# ------------------------------------------------------------------ the CLI boundary


@pytest.mark.parametrize("lang", TRANSLATED)
def test_play_bad_option_is_translated(lang: str) -> None:
    """R-SET-6: ``ono99 play --plain --lang L --option bogus=1``: one translated line."""
    line = error_line(run("play", "--plain", "--lang", lang, "--option", "bogus=1"))
    assert "takes no options" not in line
    want = tr(lang, "{preset} takes no options (got {options})")
    assert line == want.format(preset="mattel2022", options="'bogus'")


@pytest.mark.parametrize("lang", TRANSLATED)
def test_play_unknown_preset_is_translated(lang: str) -> None:
    """R-SET-6: ``ono99 play --lang L --rules foo``: one translated line."""
    line = error_line(run("play", "--lang", lang, "--rules", "foo"))
    assert "unknown rules preset" not in line
    want = tr(lang, "unknown rules preset {preset} (choose {choices})")
    assert line == want.format(preset="'foo'", choices="mattel2022, classic1980, gamerules, mini")


@pytest.mark.parametrize("lang", TRANSLATED)
def test_replay_illegal_move_is_translated_json_stays_english(lang: str, tmp_path: Path) -> None:
    """R-REC, R-TURN-1: the replay error line is translated, engine part included (the
    rule ID stays); ``--json`` keeps the English ``{"error": ..., "move": k}``."""
    path = tmp_path / "illegal.json"
    path.write_text(json.dumps(ILLEGAL), encoding="utf-8")
    line = error_line(run("replay", str(path), "--lang", lang))
    assert "has no" not in line and "seat" not in line and "move 3" not in line
    reason = tr(lang, "{name} (seat {seat}) has no {card} in hand")
    reason = reason.format(name="Player 2", seat=1, card="'9'") + " (R-TURN-1)"
    want = tr(lang, "move {index} ({move}): {reason}").format(index=3, move="'9'", reason=reason)
    assert line == want
    p = run("replay", str(path), "--json", "--lang", lang)
    assert error_line(p) == want
    assert json.loads(p.stdout) == {"error": ILLEGAL_ENGLISH, "move": 3}


def test_replay_bad_record_json_stays_english(tmp_path: Path) -> None:
    """R-REC: a bad record: translated on stderr, English in the JSON (move null)."""
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({"rules": "uno", "players": 2}), encoding="utf-8")
    p = run("replay", str(path), "--json", "--lang", "my")
    english = "unknown rules preset 'uno' (choose mattel2022, classic1980, gamerules, mini)"
    assert json.loads(p.stdout) == {"error": english, "move": None}
    assert "unknown rules preset" not in error_line(p)


# --------------------------------------------------------------------- arena table

ARENA_RESULT: dict[str, Any] = {
    "rules": "mattel2022", "options": {}, "players": 2, "games": 20, "seed": 3,
    "backend": "local", "workers": 2,
    "bots": {
        name: {"games": 20, "wins": w, "win_rate": w / 20, "ci95": [0.1, 0.9],
               "decision_ms": {"p50": 0.01, "p99": 0.2}}
        for name, w in (("greedy", 14.0), ("random", 6.0))
    },
    "pairs": [{"a": "greedy", "b": "random", "diff": 0.4, "se": 0.1, "ci95": [0.19, 0.61],
               "z": 4.0, "blocks": 10}],
}  # fmt: skip


@pytest.mark.parametrize("lang", ["en", *TRANSLATED])
def test_arena_table_headers_translated_and_aligned(lang: str, english: None) -> None:
    """The human table of ``ono99 arena`` speaks the language, and its columns line up
    in terminal cells (Tamil, Burmese... take fewer cells than characters)."""
    i18n.set_language(lang)
    lines = _table(ARENA_RESULT).splitlines()
    headers = ("bot", "games", "wins", "win rate", "95% CI (Wilson)", "95% CI (paired t)")
    for header in headers:
        assert i18n._(header) in "\n".join(lines)
    if lang != "en":
        assert "win rate" not in "\n".join(lines) and "95% CI" not in "\n".join(lines)
        assert tr(lang, "win rate") in lines[2]
    blank = [i for i, line in enumerate(lines) if not line]
    assert blank == [1, 5]
    for block in (lines[2:5], lines[6:8]):
        widths = {cell_len(line) for line in block}
        assert len(widths) == 1, block  # right-aligned columns: every line as wide
    # the numbers of each bot end where their header ends
    header, first = lines[2], lines[3]
    win_rate = i18n._("win rate")
    end = cell_len(header[: header.index(win_rate) + len(win_rate)])
    assert first[:end].endswith("0.700")  # ASCII: characters are cells


# ---------------------------------------------------------------------- narration


def test_you_seat_in_any_language() -> None:
    assert you_seat(["You", "Ana"]) == 0
    assert you_seat(["Ana", "you"]) == 1
    assert you_seat(["Ana", translator("ta").gettext("You")]) == 1
    assert you_seat(["Ana", translator("my").gettext("You"), "Bo"]) == 1
    assert you_seat(["Ana", "Bo"]) is None
    assert you_seat(["You", "You"]) is None


def test_narration_of_you_is_second_person(english: None) -> None:
    """R-TURN-1: the seat named "You" is told "You play 7 — total 17", others as before."""
    rules = make_rules("mattel2022")
    names = ["You", "Ana"]
    play7 = Event("play", seat=0, card=7, total=17)
    assert narrate(play7, names, rules) == "You plays 7 — total 17"  # no viewer: third person
    assert narrate(play7, names, rules, you=0) == "You play 7 — total 17"
    assert narrate(Event("play", seat=1, card=7, total=24), names, rules, you=0) == (
        "Ana plays 7 — total 24"
    )
    assert narrate(Event("round_start", seat=0, info={"round": 2}), names, rules, you=0) == (
        "Round 2: you start"
    )
    assert narrate(Event("owes_two", seat=0), names, rules, you=0) == "You must play two cards"
    over = Event("game_over", seat=None, info={"winner": 0})
    assert narrate(over, names, rules, you=0) == "You win the game!"
    penalty = make_rules("gamerules", {"draw_penalty": True})
    drew = Event("draw", seat=0, info={"count": 1})
    assert narrate(drew, names, penalty, you=0) == "You draw 1 card"
    assert (
        narrate(Event("draw", seat=0, info={"count": 3}), names, rules, you=0) == "You draw 3 cards"
    )
    i18n.set_language("ta")
    want = tr("ta", "You play {card} — total {total}").format(card=7, total=17)
    assert narrate(play7, ["நீங்கள்", "Ana"], rules, you=0) == want


def test_replay_narrates_you_in_second_person(tmp_path: Path) -> None:
    """R-TURN-1, R-REC: a record of the terminal game (the human is "You") is told
    "You play 1 — total 1" by ``ono99 replay``, in English and in Kannada."""
    rec = {**ILLEGAL, "players": ["You", "Ana"], "moves": ["1", "5", "9"]}
    path = tmp_path / "you.json"
    path.write_text(json.dumps(rec), encoding="utf-8")
    p = run("replay", str(path))
    assert p.returncode == 0, p.stderr
    lines = p.stdout.splitlines()
    assert lines[:4] == [
        "Round 1: you start",
        "You play 1 — total 1",
        "Ana plays 5 — total 6",
        "You play 9 — total 15",
    ]
    p = run("replay", str(path), "--lang", "kn")
    assert p.returncode == 0, p.stderr
    want = tr("kn", "You play {card} — total {total}").format(card=1, total=1)
    assert want in p.stdout.splitlines() and "You" not in p.stdout


def test_card_names_in_errors_stay_codes() -> None:
    """Card codes are never translated (docs/i18n.md): the error names 'P2', not Play 2."""
    g = make("mattel2022", ["1 2 3 4", "5 6 7 8"])
    with pytest.raises(IllegalAction) as info:
        g.apply(Card.PLAY2)
    for lang in TRANSLATED:
        assert "'P2'" in info.value.translated(translator(lang).gettext)


# ------------------------------------------------ Typer's and Click's own words, bots


@pytest.mark.parametrize("lang", TRANSLATED)
def test_help_words_of_click_translated(lang: str) -> None:
    """``ono99 --lang L --help``: "Usage:" and the help of --help in the language."""
    p = run("--lang", lang, "--help")
    assert p.returncode == 0, p.stderr
    assert p.stdout.startswith(tr(lang, "Usage:") + " ono99 ")
    assert tr(lang, "Show this message and exit.") in p.stdout
    assert "Usage:" not in p.stdout and "Show this message and exit." not in p.stdout


def test_help_words_of_click_stay_english_in_english() -> None:
    p = run("bench", "--help")
    assert p.returncode == 0, p.stderr
    assert p.stdout.startswith("Usage: ono99 bench [OPTIONS]")
    assert "Show this message and exit." in p.stdout


@pytest.mark.parametrize("lang", TRANSLATED)
def test_arena_unknown_bot_is_translated(lang: str) -> None:
    """``ono99 arena --lang L --bots bogus``: one translated line, exit status 2."""
    from ono99.bots import make_bot

    with pytest.raises(Ono99Error) as info:
        make_bot("bogus")
    assert str(info.value).startswith("unknown bot 'bogus' (choose ")
    line = error_line(run("arena", "--lang", lang, "--bots", "bogus"))
    assert "unknown bot" not in line and "choose" not in line
    assert line == info.value.translated(translator(lang).gettext)


@pytest.mark.parametrize("lang", TRANSLATED)
def test_play_unknown_bot_is_translated(lang: str) -> None:
    """``ono99 play --plain --lang L --bots bogus``: one translated line, exit status 2."""
    from ono99.bots import BOTS
    from ono99.tui.session import LEVELS

    line = error_line(run("play", "--plain", "--lang", lang, "--bots", "bogus"))
    assert "unknown bot" not in line and "choose" not in line
    want = tr(lang, "unknown bot level {level!r} (choose {choices})")
    choices = ", ".join([*sorted({*LEVELS, *BOTS}), "ismcts:N", "policy:PATH"])
    assert line == want.format(level="bogus", choices=choices)


@pytest.mark.parametrize("lang", TRANSLATED)
def test_replay_no_such_option_is_translated(lang: str) -> None:
    """``ono99 replay --lang L --bogus``: Click's "No such option" in the language."""
    line = error_line(run("replay", "--lang", lang, "--bogus"))
    assert "No such option" not in line and "see ono99" not in line
    message = tr(lang, "No such option: {option}").format(option="--bogus")
    want = tr(lang, "{message} (see {command} --help)")
    assert line == want.format(message=message, command="ono99 replay")


@pytest.mark.parametrize(
    ("spec", "start"),
    [
        ("bogus", "unknown bot 'bogus' (choose "),
        ("ismcts:x", "ismcts:N needs a whole number of iterations, not 'x'"),
        ("ismcts:0", "ismcts:N needs at least 1 iteration, not 0"),
    ],
)
def test_bot_name_errors_are_templates(spec: str, start: str) -> None:
    """Unknown bots and bad ``ismcts:N``: still ValueErrors, English in ``str``,
    translated in every language, and whole after pickling (arena workers)."""
    from ono99.arena import make_spec
    from ono99.bots import make_bot

    with pytest.raises(ValueError) as info:
        make_bot(spec)
    err = info.value
    assert isinstance(err, Ono99Error) and str(err).startswith(start)
    back = pickle.loads(pickle.dumps(err))
    assert str(back) == str(err)
    for lang in TRANSLATED:
        assert tr(lang, err.template)
        text = back.translated(translator(lang).gettext)
        assert text == err.translated(translator(lang).gettext) and start[:12] not in text
    with pytest.raises(Ono99Error):
        make_spec([spec, "random"], None, "mattel2022", {}, 2, 0)


def test_arena_backend_error_is_a_template() -> None:
    from ono99.arena import make_spec, run_games

    spec = make_spec(["random", "random"], None, "mattel2022", {}, 2, 0)
    with pytest.raises(Ono99Error) as info:
        run_games(spec, "cloud")
    assert str(info.value) == "--backend must be local or ray, not 'cloud'"
    for lang in TRANSLATED:
        assert "must be" not in info.value.translated(translator(lang).gettext)


#: usage errors of Typer's Click (argv, what the English line says)
USAGE_CASES = [
    (["bench", "--jso"], "No such option: --jso (Possible options: --json)"),
    (["bench", "-x"], "No such option: -x"),
    (["bench", "--players"], "Option '--players' requires an argument."),
    (["bench", "--json=1"], "Option '--json' does not take a value."),
    (["arena"], "Missing option '--bots'."),
    (["replay"], "Missing argument 'FILE'."),
    (["bench", "--players", "x"], "Invalid value for '--players': Input should be a valid "
     "integer, unable to parse string as an integer"),
    (["bench", "--seconds", "x"], "Invalid value for '--seconds': Input should be a valid "
     "number, unable to parse string as a number"),
    (["serve", "--port", "-1"], "Invalid value for '--port': Input should be greater "
     "than or equal to 0"),
    (["bench", "a", "b"], "Got unexpected extra argument(s) (a b)"),
    (["benc"], "No such command 'benc'. Did you mean 'bench'?"),
    (["frob"], "No such command 'frob'."),
]  # fmt: skip
ENGLISH_WORDS = ("No such", "Missing", "Invalid value", "requires", "does not take",
                 "unexpected", "Did you mean", "Input should", "Possible", "see ono99")  # fmt: skip


def _main_error(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    from ono99.cli import main

    with pytest.raises(SystemExit) as exc:
        main(list(argv))
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and err.startswith("ono99: error: "), err
    return err.strip().removeprefix("ono99: error: ")


@pytest.mark.parametrize(("argv", "want"), USAGE_CASES, ids=[" ".join(c[0]) for c in USAGE_CASES])
def test_usage_errors_translated(
    argv: list[str], want: str, capsys: pytest.CaptureFixture[str], english: None
) -> None:
    """Every usage error a user can meet from ``ono99`` (as the installed Typer words
    it) is in the catalog: the English line is exactly Typer's, pointing to the help
    of the subcommand it is about, and each language has none of its English words left."""
    command = (
        "ono99 " + argv[0] if argv[0] in ("bench", "arena", "replay", "play", "serve") else "ono99"
    )
    assert _main_error(capsys, "--lang", "en", *argv) == f"{want} (see {command} --help)"
    for lang in TRANSLATED:
        line = _main_error(capsys, "--lang", lang, *argv)
        assert not [w for w in ENGLISH_WORDS if w in line], (lang, line)


def test_translate_usage_error_keeps_unknown_messages(english: None) -> None:
    from ono99.cli.typer_i18n import USAGE_ERRORS, translate_usage_error

    i18n.set_language("uz")
    assert translate_usage_error("Something new from Click") == "Something new from Click"
    for template in USAGE_ERRORS:
        assert tr("uz", template)
    nested = "Invalid value for '--x': Input should be greater than or equal to 3"
    want = tr("uz", "Invalid value for {name}: {reason}").format(
        name="'--x'",
        reason=tr("uz", "Input should be greater than or equal to {limit}").format(limit=3),
    )
    assert translate_usage_error(nested) == want
    i18n.set_language("en")
    assert translate_usage_error(nested) == nested


@pytest.mark.parametrize("lang", TRANSLATED)
def test_why_a_file_cannot_be_written_or_read_is_translated(lang: str, tmp_path: Path) -> None:
    """The reason of an operating-system error was the C library's English ("Not a
    directory") inside a translated line; it is the catalogs' (``i18n.os_reason``), and
    ``replay --json`` keeps its English."""
    out = "/dev/null/report"
    line = error_line(run("analyze", "--bots", "random", "--players", "2", "--games", "2",
                          "--out", out, "--lang", lang))  # fmt: skip
    want = tr(lang, "cannot write to {path}: {reason}")
    assert line == want.format(path=out, reason=tr(lang, "not a folder")), line
    assert "directory" not in line
    bad = tmp_path / "latin1.json"
    bad.write_bytes(b'{"players": 2, "name": "Ren\xe9"}')
    line = error_line(run("replay", str(bad), "--lang", lang))
    reason = tr(lang, "not UTF-8 text")
    assert line == tr(lang, "cannot read {path}: {reason}").format(path=bad, reason=reason)
    p = run("replay", str(bad), "--json", "--lang", lang)
    assert json.loads(p.stdout)["error"] == f"cannot read {bad}: not UTF-8 text"
