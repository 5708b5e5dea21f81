"""The words of the game for one reader (all translated): the front ends' one source.

The terminal game and the web table both word cards, presets, options, the rules, whose
turn it is and why a card cannot be played with these functions, so no front end (and no
JavaScript) holds a rule fact of its own. Announcements about the reader use "you"
(``narrate(..., you=seat)``); reasons why a card cannot be played are worked out from the
reader's :class:`~ono99.view.PlayerView`, never from the engine's private state.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

from ono99.cards import DRAW, FOUR_99, Card, action_code
from ono99.events import Event
from ono99.i18n import _, get_language, ngettext
from ono99.moves import why_illegal
from ono99.narrate import card_name, narrate
from ono99.rules import (
    CHOICES,
    OPTIONS,
    POINTS_OPTIONS,
    TARGET_LIMIT,
    Rules,
    make_rules,
    option_defaults,
)
from ono99.view import PlayerView, PublicView

__all__ = ["tell", "why_not", "rules_help", "preset_title", "direction_text", "turn_text",
           "standing_text", "score_text", "winner_text", "move_name", "final_order", "final_places",
           "final_standings", "card_legend", "option_label", "choice_label", "card_names",
           "preset_words", "view_words", "owes_text"]  # fmt: skip

_M10, _REV, _P2, _HOLD, _99 = (int(c) for c in (Card.MINUS10, Card.REVERSE, Card.PLAY2,
                                                 Card.HOLD, Card.NINETY_NINE))  # fmt: skip


def move_name(action: int, rules: Rules) -> str:
    """A card or move in words."""
    if action == FOUR_99:
        return _("four ONO 99 cards")
    if action == DRAW:
        # TRANSLATORS: the move of taking your pending card (draw penalty rule)
        return _("draw")
    return card_name(action, rules)


def preset_title(rules: Rules) -> str:
    if rules.preset == "mattel2022":
        return _("ONO 99 (Mattel 2022)")
    if rules.preset == "gamerules":
        return _("O'NO 99 (1980, exceeding 99 loses)")
    if rules.preset == "mini" and rules.options.get("size") == "large":
        return _(
            "ONO 99 mini, large (research variant: {cards} cards, limit {limit}, hands of {hand})"
        ).format(cards=rules.deck_size, limit=rules.limit, hand=rules.hand_size)
    if rules.preset == "mini":
        return _("ONO 99 mini (research variant)")
    return _("O'NO 99 (1980)")


def direction_text(direction: int) -> str:
    return _("clockwise") if direction == 1 else _("counterclockwise")


def tell(event: Event, names: Sequence[str], rules: Rules, you: int = 0) -> str | None:
    """One announcement line for ``event``, or None when there is nothing to say."""
    info = event.info or {}
    count = int(info.get("count", 1))
    if event.kind == "draw" and count != 0:
        if event.seat != you and count == 1:
            return None  # bots draw at once: not worth a line
        if event.seat == you and not info.get("cards"):
            return None
    return narrate(event, names, rules, you=you)


def winner_text(
    winner: int | tuple[int, ...] | list[int] | None, names: Sequence[str], you: int | None = 0
) -> str:
    """Who won, in one line, told to seat ``you`` (the terminal game's human is seat 0;
    None: a spectator)."""
    if winner is None:
        return _("No winner yet")
    if isinstance(winner, int):
        if winner == you:
            return _("You win the game!")
        return _("{name} wins the game!").format(name=names[winner])
    return _("{names} share the win").format(names=", ".join(names[s] for s in winner))


def why_not(action: int, view: PlayerView) -> str | None:
    """Why the viewer cannot make ``action`` now (translated), or None if they can."""
    if action in view.legal:
        return None
    r = view.rules
    if view.to_move is None:
        return _("The game is over")
    if action == DRAW:
        return _("You have no card to draw now")
    if view.to_move != view.seat:
        return _("It is not your turn: {name} plays now").format(name=view.names[view.to_move])
    name = card_name(action, r) if 0 <= action < 16 else str(action)
    why = why_illegal(
        r, action, hand=view.hand, total=view.total, plays_left=view.plays_left,
        played_99=view.played_99, bust_mode=view.bust_mode,
    )  # fmt: skip
    k = why.kind
    if k == "no_four_99":
        return _("These rules have no four-card ONO 99 discard")
    if k == "four_99_short":
        return _("You need four ONO 99 cards to discard them together")
    if k in ("not_in_hand", "not_in_deck"):
        return _("You have no {card} in your hand").format(card=name)
    if k == "bust_card":
        return _(
            "You have no safe card: give up one of your number cards "
            "(it is not counted and you are out of the round)"
        )
    if k == "one_99_per_turn":
        return _("Only one {card} card may be played per turn").format(card=name)
    if k == "99_zero_ending":
        return _("{card} may be played only when the total ends in 0").format(card=name)
    if k == "99_never":
        return _("The {card} card can never be played: it stays in your hand").format(card=name)
    if k == "play2_first":
        return _("A {card} cannot be the first of your two cards").format(card=name)
    if k == "over_limit":
        if r.limit < 99:
            return _("{card} would take the total to {total}: reaching {limit} loses").format(
                card=name, total=why.new_total, limit=r.limit
            )
        if r.limit > 99:
            return _("{card} would take the total to {total}: going over 99 loses").format(
                card=name, total=why.new_total
            )
        return _("{card} would take the total to {total}: reaching 99 loses").format(
            card=name, total=why.new_total
        )
    return _("You cannot play {card} now").format(card=name)


def turn_text(view: PublicView) -> str:
    """Whose move it is, with the Play 2 obligation and a pending draw, told to the
    view's seat (a :class:`PublicView`: to a spectator)."""
    names = view.names
    seat = view.seat if isinstance(view, PlayerView) else None
    if view.to_move is None:
        return winner_text(view.winner, names, seat)
    if not isinstance(view, PlayerView) or view.to_move != view.seat:
        if seat is not None and view.pending_draw == seat:
            return _("Draw your card before {name} plays!").format(name=names[view.to_move])
        if view.owes_two == view.to_move:
            return _("{name} must play two cards").format(name=names[view.to_move])
        return _("{name} is playing…").format(name=names[view.to_move])
    if view.bust_mode:
        return _("No safe card: choose a number card to give up")
    if view.pending_draw == view.seat:
        return _("Draw your card, then play your second card")
    if view.owes_two == view.seat:
        if view.plays_left == 2:
            return _("Your turn: play two cards (first card)")
        return _("Your turn: play your second card")
    return _("Your turn: play a card")


def owes_text(view: PublicView) -> str | None:
    """Who owes two cards (R-P2-6), told to the view's seat; None when nobody does."""
    if view.owes_two is None or view.to_move is None:
        return None
    if isinstance(view, PlayerView) and view.owes_two == view.seat:
        return _("You must play two cards")
    return _("{name} must play two cards").format(name=view.names[view.owes_two])


def score_text(view: PlayerView, seat: int) -> str:
    """A player's tokens or score ("" in elimination games)."""
    parts: list[str] = []
    if view.tokens is not None:
        parts.append(
            ngettext("{count} token", "{count} tokens", view.tokens[seat]).format(
                count=view.tokens[seat]
            )
        )
    if view.scores is not None:
        parts.append(
            ngettext("{count} point", "{count} points", view.scores[seat]).format(
                count=view.scores[seat]
            )
        )
    return ", ".join(parts)


def standing_text(view: PlayerView, seat: int) -> str:
    """A player's tokens or score, and whether they won or are out (the winner first: in
    a points game where every score passed the target, the winner is out too, R-END-3)."""
    parts = [score_text(view, seat)] if score_text(view, seat) else []
    w = view.winner
    if w == seat or (isinstance(w, tuple) and seat in w):
        parts.append(_("winner"))
    elif not view.alive[seat]:
        parts.append(_("out of the game"))
    elif not view.active[seat]:
        parts.append(_("out of this round"))
    return ", ".join(parts)


#: the names printed on the cards (the English of :func:`~ono99.narrate.card_name`)
_PRINTED = {_REV: "Reverse", _HOLD: "Hold"}


def card_legend(rules: Rules) -> list[str]:
    """For the help screen: the special cards' names in this language with the English
    printed on the cards, e.g. "Teskari (Reverse)"; nothing in English."""
    printed = dict(_PRINTED)
    printed[_P2] = "Play 2" if rules.play2_first_ok else "Double Play"
    pairs = []
    for card in (_REV, _P2, _HOLD):
        if not rules.deck[card]:
            continue
        name = card_name(card, rules)
        if name != printed[card]:
            # TRANSLATORS: a card's name in this language, then as printed on the card
            pairs.append(_("{name} ({printed})").format(name=name, printed=printed[card]))
    if not pairs:
        return []
    return [_("The cards are printed in English: {cards}.").format(cards=", ".join(pairs))]


def final_places(view: PublicView) -> list[tuple[int, int]]:
    """``(place, seat)`` for every player once the game is over, first place first: the
    winner (or the players sharing the win, all first), then those still in the game by
    their score (points games that end at the target; equal points share a place), then
    those who went out, the last one out first. Players put out at the same round's end
    of a points game are placed among themselves by their points, fewest best, equal
    points sharing a place (R-END-3); the ``out`` list keeps them in seat order. The one
    ranking of the terminal's standings, the web table's and the analysis report's.

    >>> from ono99 import Game
    >>> g = Game("classic1980", 4, options={"scoring": "points", "target": 30}, seed=0)
    >>> while not g.is_over:
    ...     _ = g.apply(g.legal_actions()[0])
    >>> v = g.public_view()  # all four reach 30 at the end of round 1; seat 3 has fewest
    >>> v.out, v.scores, v.winner
    ((0, 1, 2, 3), (90, 70, 68, 46), 3)
    >>> final_places(v)
    [(1, 3), (2, 2), (3, 1), (4, 0)]
    """
    w = view.winner
    winners = [] if w is None else ([w] if isinstance(w, int) else sorted(w))
    groups: list[list[int]] = [winners] if winners else []
    scores, tokens = view.scores, view.tokens
    rest = [s for s in range(view.players) if s not in winners and s not in view.out]
    if scores is not None:
        groups += _equal_runs(sorted(rest, key=lambda s: scores[s]), scores)
    elif tokens is not None:
        groups += _equal_runs(sorted(rest, key=lambda s: -tokens[s]), tokens)
    else:
        groups += [[s] for s in rest]
    rounds = dict(zip(view.out, view.out_rounds, strict=False))
    ends: list[list[int]] = []  # the last one out first; a points round's end together
    for seat in reversed([s for s in view.out if s not in winners]):
        last = ends[-1][0] if ends else None
        if scores is not None and last in rounds and rounds[last] == rounds.get(seat):
            ends[-1].append(seat)
        else:
            ends.append([seat])
    for end in ends:
        groups += (
            [end] if scores is None else _equal_runs(sorted(end, key=lambda s: scores[s]), scores)
        )
    places: list[tuple[int, int]] = []
    for group in groups:
        first = len(places) + 1
        places += [(first, seat) for seat in sorted(group)]
    return places


def _equal_runs(seats: list[int], key: Sequence[int]) -> list[list[int]]:
    """``seats`` (sorted by ``key``) cut into runs of equal ``key``: the seats of a run
    share a place."""
    runs: list[list[int]] = []
    for seat in seats:
        if runs and key[runs[-1][0]] == key[seat]:
            runs[-1].append(seat)
        else:
            runs.append([seat])
    return runs


def final_order(view: PublicView) -> list[int]:
    """The seats from first place to last once the game is over (:func:`final_places`)."""
    return [seat for _place, seat in final_places(view)]


def final_standings(view: PlayerView) -> list[tuple[int, int, str]]:
    """``(place, seat, standing)`` for every player, first place first (see
    :func:`final_places`); players sharing the win share first place."""
    w = view.winner
    winners = set() if w is None else ({w} if isinstance(w, int) else set(w))
    rows: list[tuple[int, int, str]] = []
    for place, seat in final_places(view):
        if seat in winners:
            parts = [_("winner")]
            if score_text(view, seat):
                parts.append(score_text(view, seat))
            rows.append((1, seat, ", ".join(parts)))
        else:
            rows.append((place, seat, standing_text(view, seat) or _("still in the game")))
    return rows


def rules_help(rules: Rules) -> list[str]:
    """The rules in a few short paragraphs, for ``?`` and ``help``."""
    r = rules
    lines: list[str] = [preset_title(r)]
    if r.limit > 99:
        lines.append(
            _(
                "Take turns playing one card onto the pile and say the new total. "
                "A card that takes the total over 99 loses; 99 itself is fine."
            )
        )
    elif r.limit == 99:
        lines.append(
            _(
                "Take turns playing one card onto the pile and say the new total. "
                "A card that takes the total to 99 or more loses."
            )
        )
    else:
        lines.append(
            _(
                "Take turns playing one card onto the pile and say the new total. "
                "A card that takes the total to {limit} or more loses."
            ).format(limit=r.limit)
        )
    if r.standard_deal:
        lines.append(
            _(
                "You must play a safe card if you have one. After playing you draw back to four cards."
            )
        )
    else:
        lines.append(
            ngettext(
                "You must play a safe card if you have one. After playing you draw back to "
                "{count} card while the draw pile lasts; it is never reshuffled.",
                "You must play a safe card if you have one. After playing you draw back to "
                "{count} cards while the draw pile lasts; it is never reshuffled.",
                r.hand_size,
            ).format(count=r.hand_size)
        )
    if r.draw_penalty:
        lines.append(
            _(
                "Draw penalty: drawing is your own move. If anyone plays a card before you "
                "draw, that card is lost and you play on with fewer cards."
            )
        )
    lines.append(_(r.scoring.help).format(target=r.target))
    lines.append(_("Cards:"))
    numbers = [c for c in range(11) if r.deck[c]]
    if numbers == list(range(11)):
        lines.append(_("0 to 10: add their value."))
    else:
        lines.append(
            _("{low} to {high}: add their value.").format(low=numbers[0], high=numbers[-1])
        )
    if r.deck[_M10] and r.floor_zero:
        lines.append(_("-10: subtract ten (the total never goes below 0)."))
    elif r.deck[_M10]:
        lines.append(_("-10: subtract ten (the total may go below 0)."))
    lines.append(
        _("{card}: reverse the direction of play (with two players: the other plays again).")
        .format(card=card_name(_REV, r))
    )  # fmt: skip
    if r.play2_first_ok:
        lines.append(
            _(
                "{card}: the next player must play two cards, unless they answer with "
                "{reverse} or {card}, which passes the duty on."
            ).format(card=card_name(_P2, r), reverse=card_name(_REV, r))
        )
    else:
        lines.append(
            _(
                "{card}: the next player must play two cards, unless they answer with "
                "{reverse} or {hold}, which passes the duty on."
            ).format(card=card_name(_P2, r), reverse=card_name(_REV, r), hold=card_name(_HOLD, r))
        )
    if r.deck[_HOLD]:
        lines.append(_("{card}: adds 0.").format(card=card_name(_HOLD, r)))
    if r.deck[_99]:  # mini has none
        if r.ninety_nine_sets:
            lines.append(_("{card}: sets the total to 99.").format(card=card_name(_99, r)))
        elif r.zero_ending_99:
            lines.append(
                _("{card}: adds 0, only when the total ends in 0 (one per turn).").format(
                    card=card_name(_99, r)
                )
            )
        else:
            lines.append(_("{card}: can never be played.").format(card=card_name(_99, r)))
    if r.four_99:
        lines.append(
            _("Four {card} cards can be discarded together as your play.").format(
                card=card_name(_99, r)
            )
        )
    return lines


# ---------------------------------------------------------------- presets, options, views
# What a front end shows of the presets (R-SET-5, R-SET-6) and of one view, as JSON-ready
# data: the web table's page draws exactly this (docs/protocol.md), the terminal game's
# new-game screen takes its labels from here.


def option_label(name: str) -> str:
    """An option of R-SET-6 as a form labels it."""
    if name == "scoring":
        return _("Scoring")
    if name == "target":
        return _("Points target")
    if name == "points_mode":
        return _("At the target")
    if name == "zero_ending_99":
        # the 1980 presets' 99 card: zero_ending_99 is classic1980's option (R-99-5)
        return _("{card} on totals ending in 0").format(
            card=card_name(int(Card.NINETY_NINE), make_rules("classic1980"))
        )
    if name == "draw_penalty":
        return _("Draw penalty")
    if name == "size":
        # TRANSLATORS: mini's option: how big its deck, limit and hands are
        return _("Size")
    return name


def choice_label(name: str, value: str) -> str:
    """One value of an option of fixed choices (:data:`~ono99.rules.CHOICES`) in words."""
    labels = {
        ("scoring", "tokens"): _("tokens"),
        ("scoring", "points"): _("points"),
        ("points_mode", "elimination"): _("reaching it puts a player out"),
        ("points_mode", "lowest"): _("the game ends, fewest points wins"),
    }
    if name == "size" and value in CHOICES["size"]:
        r = make_rules("mini", {"size": value})
        # TRANSLATORS: the sizes of mini, each with its deck, limit and hand
        label = (
            _("small ({cards} cards, limit {limit}, hands of {hand})")
            if value == "small"
            else _("large ({cards} cards, limit {limit}, hands of {hand})")
        )
        return label.format(cards=r.deck_size, limit=r.limit, hand=r.hand_size)
    return labels.get((name, value), value)


def card_names(rules: Rules) -> dict[str, str]:
    """Every card code of the preset's deck, and the moves it has besides (``99x4``,
    ``draw``), with its name in the current language: the numbers stay digits."""
    # a server words them for every connection after every move: once per preset, options
    # (mini's size changes the deck) and language
    options = tuple(sorted(rules.options.items()))
    return dict(_card_names(rules.preset, options, get_language()))


@functools.cache
def _card_names(
    preset: str, options: tuple[tuple[str, Any], ...], lang: str
) -> tuple[tuple[str, str], ...]:
    rules = make_rules(preset, dict(options))
    names = [(action_code(c), card_name(c, rules)) for c, n in enumerate(rules.deck) if n]
    if rules.four_99:
        names.append((action_code(FOUR_99), move_name(FOUR_99, rules)))
    if "draw_penalty" in OPTIONS[preset]:
        names.append((action_code(DRAW), move_name(DRAW, rules)))
    return tuple(names)


def _option_json(name: str, default: Any) -> dict[str, Any]:
    kind = "bool" if isinstance(default, bool) else "int" if isinstance(default, int) else "choice"
    return {
        "name": name,
        "label": option_label(name),
        "type": kind,
        "default": default,
        "choices": (
            [{"value": v, "label": choice_label(name, v)} for v in CHOICES[name]]
            if kind == "choice"
            else None
        ),
        # R-SET-6: the points target is a positive integer up to the limit
        "min": 1 if kind == "int" else None,
        "max": TARGET_LIMIT if kind == "int" else None,
        "needs": {"scoring": "points"} if name in POINTS_OPTIONS else None,
    }


def preset_words(preset: str, options: dict[str, Any] | None = None) -> dict[str, Any]:
    """A preset as a front end shows it: its title, player range, the options it takes
    (with their defaults, labels and choices), its card names and the rules in short
    paragraphs for ``options`` (default: none). Raises :class:`~ono99.errors.RulesError`
    for a bad preset or options, as :func:`~ono99.rules.make_rules` does."""
    rules = make_rules(preset, options)
    return {
        "name": preset,
        "title": preset_title(rules),
        "players": [rules.min_players, rules.max_players],
        "options": [_option_json(k, v) for k, v in option_defaults(preset).items()],
        "cards": card_names(rules),
        "help": rules_help(rules),
    }


def view_words(view: PublicView) -> dict[str, Any]:
    """What the reader of ``view`` is told beside it: the card names of the preset, whose
    turn it is, who owes two cards, and why each move this seat might try (its cards, the draw, the four-99
    discard) is not possible now — from the seat's own view only; a spectator has no
    moves."""
    reasons: dict[str, str] = {}
    if isinstance(view, PlayerView):
        tries = {*view.hand, DRAW, FOUR_99} if view.rules.four_99 else {*view.hand, DRAW}
        for action in tries:
            reason = why_not(action, view)
            if reason is not None:
                reasons[action_code(action)] = reason
    return {
        "cards": card_names(view.rules),
        "turn": turn_text(view),
        "owes": owes_text(view),
        "why_not": reasons,
        "places": [{"place": p, "seat": s} for p, s in final_places(view)] if view.is_over else [],
    }
