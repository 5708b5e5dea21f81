"""The page's words come from the engine (issue 23): ``GET /api/presets``, the presets in
``GET /api/i18n/{lang}`` and the ``texts`` of every ``state`` message are the engine's
rules (``ono99.rules``) worded by ``ono99.texts``, in every language, and a seat's texts
come from its own view only."""

from __future__ import annotations

import json
import random
from typing import Any

import httpx
import pytest
from server_helpers import Client, Server, arun, create, join, play_to_end, start

from ono99 import Game, parse_record
from ono99.cards import action_code
from ono99.errors import RulesError
from ono99.i18n import LANGUAGES, speaking
from ono99.narrate import card_name
from ono99.records import apply_move
from ono99.rules import CHOICES, OPTIONS, POINTS_OPTIONS, PRESETS, make_rules, option_defaults
from ono99.texts import rules_help, view_words
from ono99.web.protocol import PresetOut, PresetsOut, StateMsg


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_presets_are_the_engines_rules_in_every_language(server: Server, lang: str) -> None:
    """R-SET-5, R-SET-6: each preset's player range is the one the engine accepts (one
    player fewer or more is refused), its options and their defaults and choices are
    rules.py's, its card names and rules help are the engine's words in ``lang``; the
    catalog the page loads carries the same presets."""
    body = httpx.get(f"{server.url}/api/presets", params={"lang": lang}).json()
    PresetsOut.model_validate(body)
    assert [p["name"] for p in body["presets"]] == list(PRESETS)
    for p in body["presets"]:
        rules = make_rules(p["name"])
        lo, hi = p["players"]
        assert (lo, hi) == (rules.min_players, rules.max_players)
        Game(p["name"], lo, seed=0)
        Game(p["name"], hi, seed=0)
        for wrong in (lo - 1, hi + 1):
            with pytest.raises(RulesError):
                Game(p["name"], wrong, seed=0)
        options = {o["name"]: o for o in p["options"]}
        assert list(options) == list(OPTIONS[p["name"]])
        assert {k: o["default"] for k, o in options.items()} == option_defaults(p["name"])
        for name, o in options.items():
            if o["type"] == "choice":
                assert [c["value"] for c in o["choices"]] == list(CHOICES[name])
            assert (o["needs"] is not None) == (name in POINTS_OPTIONS)
        with speaking(lang):
            cards = {action_code(c): card_name(c, rules) for c, n in enumerate(rules.deck) if n}
            assert p["help"] == rules_help(rules)
        assert {k: v for k, v in p["cards"].items() if k in cards} == cards
        assert set(p["cards"]) - set(cards) <= {"99x4", "draw"}
        assert ("99x4" in p["cards"]) == rules.four_99
    if lang != "en":  # really translated, not the English fallback
        english = httpx.get(f"{server.url}/api/presets", params={"lang": "en"}).json()
        assert body["presets"][0]["help"] != english["presets"][0]["help"]
    catalog = httpx.get(f"{server.url}/api/i18n/{lang}").json()
    assert catalog["presets"] == body["presets"]


def test_one_presets_help_follows_its_options_and_bad_options_are_refused(
    server: Server,
) -> None:
    """R-SET-6, R-END-3: ``GET /api/presets/{P}?options=`` words the rules help for
    those options (a points target of 150 is in it); bad options, an unknown preset or
    options that are not a JSON object get a one-line 400 and nothing else."""
    options = {"scoring": "points", "target": 150}
    r = httpx.get(
        f"{server.url}/api/presets/classic1980",
        params={"options": json.dumps(options), "lang": "uz"},
    )
    assert r.status_code == 200, r.text
    PresetOut.model_validate(r.json())
    with speaking("uz"):
        assert r.json()["help"] == rules_help(make_rules("classic1980", options))
    assert any("150" in line for line in r.json()["help"])
    for preset, text in [
        ("classic1980", '{"scoring": "many"}'),
        ("mattel2022", '{"draw_penalty": true}'),
        ("nope", "{}"),
        ("classic1980", "[1, 2]"),
        ("classic1980", "{not json"),
        ("classic1980", json.dumps({"x": "y" * 2000})),
    ]:
        r = httpx.get(f"{server.url}/api/presets/{preset}", params={"options": text})
        assert r.status_code == 400, (preset, text, r.text)
        assert set(r.json()) == {"error"} and "\n" not in r.json()["error"]


def _expected(record: dict[str, Any], seat: int | None, lang: str) -> dict[int, dict[str, Any]]:
    """The engine's words for ``seat`` (None: a spectator) after each number of moves."""
    game = parse_record(record).new_game(events=False)
    out: dict[int, dict[str, Any]] = {}

    def words() -> dict[str, Any]:
        with speaking(lang):
            return view_words(game.public_view() if seat is None else game.view(seat))

    out[0] = words()
    for i, move in enumerate(record["moves"]):
        apply_move(game, i, move)
        out[i + 1] = words()
    return out


@pytest.mark.parametrize(
    ("rules", "options", "lang"),
    [
        ("mattel2022", {}, "ta"),
        ("classic1980", {"draw_penalty": True}, "kn"),
        ("mini", {"size": "large"}, "gu"),
    ],
)
def test_every_state_carries_the_texts_of_the_seats_own_view(
    server: Server, rules: str, options: dict[str, Any], lang: str
) -> None:
    """R-SET-1, R-LIM-2, R-DRAW-1: through a whole game, every ``state`` a player gets
    carries exactly the engine's words for that seat's own view (card names, whose turn,
    why each of its cards, the draw and the four-99 discard cannot be made) in the
    connection's language; a spectator's have no reasons. Replayed from the record, so
    nothing another seat holds can have shaped them."""

    async def run() -> None:
        t = create(server, rules=rules, options=options, players=3, bots="easy", seed=23,
                   bot_delay=0, draw_window=0.2)  # fmt: skip
        tid = t["table"]
        ana, bo = join(server, tid, "Ana"), join(server, tid, "Bo")
        a = await Client.open(server, tid, ana["token"], lang=lang, seat=0)
        b = await Client.open(server, tid, bo["token"], lang=lang, seat=1)
        spectator = await Client.open(server, tid, lang=lang)
        for c in (a, b, spectator):
            await c.next_state()
        start(server, tid, ana["token"])
        await play_to_end([a, b], random.Random(9), think=0.015)
        await spectator.drain(0.5)
        record = httpx.get(f"{server.url}/api/tables/{tid}/record").json()
        checked = 0
        for c in (a, b, spectator):
            expected = _expected(record, c.seat, lang)
            for msg in c.messages:
                if msg["type"] != "state" or msg["view"]["phase"] == "lobby":
                    continue
                StateMsg.model_validate(msg)
                texts, view = msg["texts"], msg["view"]
                assert texts == expected[view["moves"]], (c.seat, view["moves"])
                assert not set(texts["why_not"]) & set(view["legal"])
                assert set(texts["why_not"]) <= set(view["hand"]) | {"draw", "99x4"}
                checked += 1
            await c.close()
        assert checked > 20
        # the words are the language's own, not English
        assert a.messages[-1]["texts"]["cards"]["R"] != "Reverse"

    arun(run())
