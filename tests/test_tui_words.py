"""The terminal game's words in every language: "You" in a record is the reader's word,
the new-game screen and the arena header translated, the cards' names in Burmese and Uzbek
with the printed English names on the help screen."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from textual.widgets import Static

from ono99.cards import Card
from ono99.events import Event
from ono99.i18n import LANGUAGES, set_language, translator
from ono99.narrate import card_name, narrate
from ono99.rules import make_rules
from ono99.texts import card_legend
from ono99.tui.screens import HelpScreen
from test_tui_app import SIZE, make_app, use_language


@pytest.fixture(autouse=True)
def english() -> Iterator[None]:
    set_language("en")
    yield
    set_language("en")


@pytest.mark.parametrize("lang", [x for x in LANGUAGES if x != "en"])
def test_you_in_a_record_is_the_readers_word(lang: str) -> None:
    """A round-score line names the human "You" in the reader's language, whatever
    language the record was played in (no "Scores: நீங்கள் 76" in English)."""
    use_language(lang)
    theirs = translator(lang).gettext("You")
    rules = make_rules("classic1980", {"scoring": "points"})
    end = Event("round_end", info={"round": 1, "scores": [76, 12], "gained": [76, 12]})
    set_language("en")
    line = narrate(end, ["You", "Ana"], rules, you=0) or ""
    assert line == "Round 1 ends. Scores: You 76, Ana 12"
    assert narrate(end, [theirs, "Ana"], rules, you=0) == line  # played in lang, read in en
    set_language(lang)
    mine = narrate(end, ["You", "Ana"], rules, you=0) or ""
    assert f"{theirs} 76" in mine and "Scores" not in mine and "You" not in mine


@pytest.mark.parametrize("lang", ["kn", "my", "uz"])
def test_seed_and_arena_header_are_translated(lang: str) -> None:
    """The new-game screen's Seed in kn, my, uz; the arena header in words of the language."""
    use_language(lang)
    t = translator(lang)
    assert t.gettext("Seed") != "Seed"
    header = t.gettext(
        "{rules} — players: {players}, games: {games}, seed: {seed}, "
        "backend: {backend}, workers: {workers}"
    )
    assert "backend:" not in header


@pytest.mark.parametrize("lang", ["my", "uz"])
def test_card_names_in_burmese_and_uzbek_with_the_english_on_the_help_screen(lang: str) -> None:
    use_language(lang)
    for preset in ("mattel2022", "classic1980"):
        r = make_rules(preset)
        for card, english in ((Card.PLAY2, ("Play 2", "Double Play")), (Card.HOLD, ("Hold",))):
            if r.deck[card]:
                name = card_name(int(card), r)
                assert name not in english
                if lang == "my":  # Myanmar script
                    assert not re.search(r"[A-Za-z]", name)
    legend = " ".join(card_legend(make_rules("classic1980")))
    assert "(Hold)" in legend and "(Double Play)" in legend and "(Reverse)" in legend
    assert "(Play 2)" in " ".join(card_legend(make_rules("mattel2022")))
    set_language("en")
    assert card_legend(make_rules("classic1980")) == []  # English needs no legend


async def test_help_screen_lists_the_printed_card_names() -> None:
    use_language("my")
    app, _saved = make_app("classic1980", {}, 3, seed=1, bot_delay=60, draw_window=60)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        text = " ".join(str(w.content) for w in app.screen.query(Static))
        assert "(Hold)" in text and "(Double Play)" in text
