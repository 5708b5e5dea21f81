"""Engine events told in words, as a person at the table would announce them."""

from __future__ import annotations

from collections.abc import Sequence

from ono99.cards import Card
from ono99.events import Event
from ono99.i18n import _, ngettext
from ono99.rules import Rules

__all__ = ["card_name", "narrate", "action_name"]


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
        return _("Play 2") if rules.preset == "mattel2022" else _("Double Play")
    if card == Card.HOLD:
        return _("Hold")
    return _("ONO 99") if rules.preset == "mattel2022" else _("O'NO 99")


def action_name(action: int, rules: Rules) -> str:
    """A card, or the four-99 discard, or the draw, in words."""
    if action == 16:
        return _("four ONO 99 cards")
    if action == 17:
        # TRANSLATORS: the move of taking your pending card (draw penalty rule)
        return _("draw")
    return card_name(action, rules)


def narrate(event: Event, names: Sequence[str], rules: Rules) -> str | None:
    """One line for ``event``, or None for events not worth announcing."""
    k = event.kind
    who = names[event.seat] if event.seat is not None else ""
    info = event.info or {}
    if k == "play":
        assert event.card is not None
        # TRANSLATORS: {card} is a card name (a number, Reverse, Play 2, Hold...);
        # {total} is the new running total of the discard pile
        return _("{name} plays {card} — total {total}").format(
            name=who, card=card_name(event.card, rules), total=event.total
        )
    if k == "four99":
        return _("{name} discards four ONO 99 cards — total {total}").format(
            name=who, total=event.total
        )
    if k == "round_start":
        return _("Round {round}: {name} starts").format(round=info["round"], name=who)
    if k == "draw":
        count = int(info.get("count", 1))
        if count == 0:
            return _("{name} cannot draw: no cards are left").format(name=who)
        if rules.draw_penalty or count != 1:
            return ngettext(
                "{name} draws {count} card", "{name} draws {count} cards", count
            ).format(name=who, count=count)
        return None
    if k == "reshuffle":
        return _("The discard pile is shuffled into a new draw pile")
    if k == "reverse":
        if info.get("direction") == 1:
            return _("Play now goes clockwise")
        return _("Play now goes counterclockwise")
    if k == "owes_two":
        return _("{name} must play two cards").format(name=who)
    if k == "bust":
        if event.card is not None:
            return _("{name} has no safe card and plays {card}").format(
                name=who, card=card_name(event.card, rules)
            )
        return _("{name} has no safe card").format(name=who)
    if k == "out_of_round":
        return _("{name} is out of the round").format(name=who)
    if k == "token_lost":
        n = int(info["tokens"])
        return ngettext(
            "{name} loses a token ({count} left)", "{name} loses a token ({count} left)", n
        ).format(name=who, count=n)
    if k == "eliminated":
        return _("{name} is out of the game").format(name=who)
    if k == "draw_lost":
        return _("{name} did not draw in time and loses that card").format(name=who)
    if k == "round_end":
        if "scores" in info:
            scores = ", ".join(f"{names[s]} {info['scores'][s]}" for s in range(len(names)))
            return _("Round {round} ends. Scores: {scores}").format(
                round=info["round"], scores=scores
            )
        return _("Round {round} ends").format(round=info["round"])
    if k == "game_over":
        w = info.get("winner")
        if isinstance(w, list):
            return _("{names} share the win").format(names=", ".join(names[s] for s in w))
        if w is None:
            return None
        return _("{name} wins the game!").format(name=names[w])
    return None
