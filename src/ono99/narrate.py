"""Engine events told in words, as a person at the table would announce them.

Events of the seat ``you`` (the reader's own seat, e.g. the human of the terminal
game, who is named "You") are told in the second person: "You play 7 — total 17".
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any

from ono99.cards import Card
from ono99.events import Event
from ono99.i18n import LANGUAGES, _, ngettext, translator
from ono99.rules import Rules

__all__ = ["card_name", "narrate", "you_seat"]

Info = dict[str, Any]


def card_name(card: int, rules: Rules) -> str:
    """A card's name in the current language (numbers stay digits)."""
    if card <= 10:
        return str(card)
    if card == Card.MINUS10:
        # TRANSLATORS: the Minus Ten card, as printed on it
        return _("-10")
    if card == Card.REVERSE:
        return _("Reverse")
    if card == Card.PLAY2:
        return _("Play 2") if rules.play2_first_ok else _("Double Play")
    if card == Card.HOLD:
        return _("Hold")
    return _("ONO 99") if rules.four_99 else _("O'NO 99")


@functools.cache
def _you_names() -> frozenset[str]:
    """The word "You" in every language: the name the terminal game gives the human."""
    names = {"you"}
    for lang in LANGUAGES:
        try:
            names.add(translator(lang).gettext("You").casefold())
        except OSError:  # a catalog missing from a broken install
            continue
    return frozenset(names)


def you_seat(names: Sequence[str]) -> int | None:
    """The one seat named "You" (in any of the languages: records of the terminal
    game name the human so), or None."""
    seats = [s for s, name in enumerate(names) if name.strip().casefold() in _you_names()]
    return seats[0] if len(seats) == 1 else None


def narrate(event: Event, names: Sequence[str], rules: Rules, you: int | None = None) -> str | None:
    """One line for ``event``, or None for events not worth announcing.

    Events of seat ``you`` are told in the second person ("You play 7 — total 17"), and
    wherever that seat is named (the scores of a round, a shared win) it is "You" in the
    reader's language, whatever name the record gave it."""
    if you is not None:
        names = [_("You") if s == you else name for s, name in enumerate(names)]
        info = event.info or {}
        if event.kind == "game_over" and info.get("winner") == you:
            return _("You win the game!")
        if event.seat == you and event.kind not in ("reverse", "round_end", "game_over"):
            return _narrate_you(event, rules)
    who = names[event.seat] if event.seat is not None else ""
    info = event.info or {}
    simple = _SIMPLE.get(event.kind)
    if simple is not None:
        return simple().format(name=who, total=event.total, round=info.get("round"))
    tell = _TELL.get(event.kind)
    return None if tell is None else tell(event, who, names, info, rules)


def _play(e: Event, who: str, names: Sequence[str], info: Info, rules: Rules) -> str:
    assert e.card is not None
    # TRANSLATORS: {card} is a card name (a number, Reverse, Play 2, Hold...);
    # {total} is the new running total of the discard pile
    return _("{name} plays {card} — total {total}").format(
        name=who, card=card_name(e.card, rules), total=e.total
    )


def _draw(e: Event, who: str, names: Sequence[str], info: Info, rules: Rules) -> str | None:
    count = int(info.get("count", 1))
    if count == 0:
        return _("{name} cannot draw: no cards are left").format(name=who)
    if rules.draw_penalty or count != 1:
        return ngettext("{name} draws {count} card", "{name} draws {count} cards", count).format(
            name=who, count=count
        )
    return None


def _reverse(e: Event, who: str, names: Sequence[str], info: Info, rules: Rules) -> str:
    if info.get("direction") == 1:
        return _("Play now goes clockwise")
    return _("Play now goes counterclockwise")


def _bust(e: Event, who: str, names: Sequence[str], info: Info, rules: Rules) -> str:
    if e.card is not None:
        return _("{name} has no safe card and plays {card}").format(
            name=who, card=card_name(e.card, rules)
        )
    return _("{name} has no safe card").format(name=who)


def _token_lost(e: Event, who: str, names: Sequence[str], info: Info, rules: Rules) -> str:
    n = int(info["tokens"])
    return ngettext(
        "{name} loses a token ({count} left)", "{name} loses a token ({count} left)", n
    ).format(name=who, count=n)


def _round_end(e: Event, who: str, names: Sequence[str], info: Info, rules: Rules) -> str:
    if "scores" in info:
        scores = ", ".join(f"{names[s]} {info['scores'][s]}" for s in range(len(names)))
        return _("Round {round} ends. Scores: {scores}").format(round=info["round"], scores=scores)
    return _("Round {round} ends").format(round=info["round"])


def _game_over(e: Event, who: str, names: Sequence[str], info: Info, rules: Rules) -> str | None:
    w = info.get("winner")
    if isinstance(w, list):
        return _("{names} share the win").format(names=", ".join(names[s] for s in w))
    if w is None:
        return None
    return _("{name} wins the game!").format(name=names[w])


#: the kinds told by one message of {name}, {total} and {round}
_SIMPLE: dict[str, Callable[[], str]] = {
    "four99": lambda: _("{name} discards four ONO 99 cards — total {total}"),
    "round_start": lambda: _("Round {round}: {name} starts"),
    "reshuffle": lambda: _("The discard pile is shuffled into a new draw pile"),
    "owes_two": lambda: _("{name} must play two cards"),
    "out_of_round": lambda: _("{name} is out of the round"),
    "eliminated": lambda: _("{name} is out of the game"),
    "draw_lost": lambda: _("{name} did not draw in time and loses that card"),
}
#: the other kinds told of a seat other than the reader's (None: not announced)
_TELL: dict[str, Callable[[Event, str, Sequence[str], Info, Rules], str | None]] = {
    "play": _play,
    "draw": _draw,
    "reverse": _reverse,
    "bust": _bust,
    "token_lost": _token_lost,
    "round_end": _round_end,
    "game_over": _game_over,
}


def _narrate_you(event: Event, rules: Rules) -> str | None:
    """``narrate`` for the reader's own seat: the second person."""
    k = event.kind
    info = event.info or {}
    simple = _SIMPLE_YOU.get(k)
    if simple is not None:
        return simple().format(total=event.total, round=info.get("round"))
    if k == "play":
        assert event.card is not None
        return _("You play {card} — total {total}").format(
            card=card_name(event.card, rules), total=event.total
        )
    if k == "draw":
        count = int(info.get("count", 1))
        cards = info.get("cards")
        if count == 0:
            return _("You cannot draw: no cards are left")
        if cards:  # the terminal game shows the human the cards drawn
            shown = " ".join(card_name(c, rules) for c in cards)
            return ngettext("You draw {cards}", "You draw {cards}", len(cards)).format(cards=shown)
        if rules.draw_penalty or count != 1:
            return ngettext("You draw {count} card", "You draw {count} cards", count).format(
                count=count
            )
        return None
    if k == "bust":
        if event.card is not None:
            return _("You have no safe card and give up {card}").format(
                card=card_name(event.card, rules)
            )
        return _("You have no safe card")
    if k == "token_lost":
        n = int(info["tokens"])
        return ngettext(
            "You lose a token ({count} left)", "You lose a token ({count} left)", n
        ).format(count=n)
    return None


#: the reader's own events told by one message of {total} and {round}
_SIMPLE_YOU: dict[str, Callable[[], str]] = {
    "four99": lambda: _("You discard four ONO 99 cards — total {total}"),
    "round_start": lambda: _("Round {round}: you start"),
    "owes_two": lambda: _("You must play two cards"),
    "out_of_round": lambda: _("You are out of the round"),
    "eliminated": lambda: _("You are out of the game"),
    "draw_lost": lambda: _("You did not draw in time and lose that card"),
}
