"""The three presets and their options (RULES.md table of presets, R-SET-5, R-SET-6).

A preset is data: :func:`make_rules` validates a preset name and options once and
returns a frozen :class:`Rules` whose flags the engine reads on its hot path.

>>> r = make_rules("classic1980", {"scoring": "points"})
>>> r.mode, r.target, r.points_mode
('points', 100, 'elimination')
>>> sum(make_rules("mattel2022").deck)
112
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ono99.cards import HAND_SIZE, Card
from ono99.errors import RulesError
from ono99.i18n import N_
from ono99.scoring import Elimination, Points, Scoring, Tokens
from ono99.termsafe import short_repr

__all__ = ["Rules", "make_rules", "PRESETS", "deck_list", "OPTIONS", "CHOICES", "POINTS_OPTIONS",
           "option_defaults"]  # fmt: skip

PRESETS = ("mattel2022", "classic1980", "gamerules", "mini")
#: R-SET-6: the options each preset takes, in the order a form shows them
OPTIONS: dict[str, tuple[str, ...]] = {
    "mattel2022": (),
    "classic1980": ("scoring", "target", "points_mode", "zero_ending_99", "draw_penalty"),
    "gamerules": ("draw_penalty",),
    "mini": ("size",),
}
#: the values an option of fixed choices takes, the default first (R-SET-6)
CHOICES: dict[str, tuple[str, ...]] = {
    "scoring": ("tokens", "points"),
    "points_mode": ("elimination", "lowest"),
    #: mini's size: "small" is the solved game (docs/mini.md), "large" one size up
    "size": ("small", "large"),
}
#: options that count only with scoring "points" (R-END-3)
POINTS_OPTIONS = ("target", "points_mode")
#: the highest points target (R-SET-6): a points game must end (R-END-4)
TARGET_LIMIT = 1_000_000

# Card counts indexed by card int (0..15).
_DECK_2022 = (8, 6, 6, 6, 6, 6, 6, 6, 6, 6, 10, 10, 10, 10, 0, 10)
_DECK_1980 = (0, 0, 3, 3, 3, 3, 3, 3, 3, 3, 10, 4, 6, 2, 4, 4)
#: the research variant ``mini`` (docs/rules.md "The research variant mini"): sized by
#: measuring the game tree (docs/mini.md) so that exact CFR and best response solve it
_DECK_MINI = (0, 2, 2, 2, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 0, 0)
#: mini's limit and hand size: a card is safe while the total stays below 10
MINI_LIMIT = 10
MINI_HAND = 2
#: mini's option ``size="large"``: ``1``-``4`` twice each, one -10, one Reverse, one Play 2
#: (11 cards), a limit of 12 and hands of 3. One size up from the solved game: too big for
#: the exact tree methods (hundreds of millions of histories), the test bed of the
#: approximate ones (sampled CFR, learned policies, docs/mini.md)
_DECK_MINI_LARGE = (0, 2, 2, 2, 2, 0, 0, 0, 0, 0, 0, 1, 1, 1, 0, 0)
MINI_LARGE_LIMIT = 12
MINI_LARGE_HAND = 3


@dataclass(frozen=True, slots=True)
class Rules:
    """A validated preset with its options resolved into flags."""

    preset: str
    options: Mapping[str, Any] = field(hash=False)
    min_players: int
    max_players: int
    #: copies of each card (index = card int)
    deck: tuple[int, ...]
    #: R-LIM-1: a card is safe when the total after it is below this: 99 (reaching 99
    #: loses), or 100 in gamerules (99 itself is fine; only going over 99 loses)
    limit: int
    #: R-M10-1: the total never goes below 0
    floor_zero: bool
    #: R-99-3: four ONO 99 cards may be discarded together
    four_99: bool
    #: R-99-2: the 99 card sets the total to 99
    ninety_nine_sets: bool
    #: R-99-5
    zero_ending_99: bool
    #: R-P2-3: cards that answer a Play 2 as a single play
    answers: frozenset[int]
    #: R-P2-3: whether a Play 2 may be the first of two plays
    play2_first_ok: bool
    #: what a bust costs and how the game is won (R-END): one policy object per mode
    scoring: Scoring
    draw_penalty: bool
    #: R-SET-1: cards dealt to each player (mini: fewer)
    hand_size: int = HAND_SIZE
    #: R-TURN-3: an empty draw pile is refilled from the discard pile; mini: never, the
    #: players play on without drawing (so every game of it ends within the deck)
    reshuffle: bool = True

    @property
    def mode(self) -> str:
        """The scoring mode's name: "elimination" (2022), "tokens" or "points"."""
        return self.scoring.name

    @property
    def target(self) -> int:
        """The points target (R-END-3), 0 outside points scoring."""
        return self.scoring.target if isinstance(self.scoring, Points) else 0

    @property
    def points_mode(self) -> str:
        """What the points target does ("elimination" or "lowest"), "" outside points scoring."""
        return self.scoring.end if isinstance(self.scoring, Points) else ""

    @property
    def standard_deal(self) -> bool:
        """Four cards a hand and an empty draw pile refilled from the discard pile: every
        preset but ``mini``, and the only shape the fast engine (:mod:`ono99.fast`) plays."""
        return self.hand_size == HAND_SIZE and self.reshuffle

    @property
    def deck_size(self) -> int:
        return sum(self.deck)

    def card_in_deck(self, card: int) -> bool:
        return 0 <= card < len(self.deck) and self.deck[card] > 0

    def check_players(self, count: int) -> None:
        """R-SET-5: :class:`RulesError` unless the preset is played by ``count`` players
        (the one wording of it, for the engine and every front end)."""
        if not self.min_players <= count <= self.max_players:
            raise RulesError(
                N_("{preset} is for {low} to {high} players, not {count}"),
                rule="R-SET-5", preset=self.preset, low=self.min_players,
                high=self.max_players, count=count,
            )  # fmt: skip


_DECK_CARDS: dict[tuple[int, ...], tuple[int, ...]] = {}


def deck_list(rules: Rules) -> list[int]:
    """The preset's whole deck as a list of card ints, in card order (a new list)."""
    cards = _DECK_CARDS.get(rules.deck)
    if cards is None:  # built once per deck: every round of every game starts here
        cards = tuple(card for card, count in enumerate(rules.deck) for _ in range(count))
        _DECK_CARDS[rules.deck] = cards
    return list(cards)


def _shown(value: Any, limit: int = 40) -> str:
    """An option's value in an error message as it is written in ``--option`` and in a
    record, JSON (``true``, ``null``, ``[1, 2]``), not Python (``True``, ``None``); a
    string in quotes, a long value cut.

    >>> [_shown(v) for v in (True, None, [True, "a"], {"a": 1}, 1.5, "x", 10**200)]
    ['true', 'null', '[true, "a"]', '{"a": 1}', '1.5', "'x'", '≈10**200']
    """
    if isinstance(value, str) or (isinstance(value, int) and not isinstance(value, bool)):
        return short_repr(value, limit)
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):  # not JSON (a caller's own object): Python's spelling
        return short_repr(value, limit)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _bool(preset: str, name: str, value: Any) -> bool:
    if not isinstance(value, bool):
        raise RulesError(
            N_("{preset} option {option} must be true or false, not {value}"),
            preset=preset, option=repr(name), value=_shown(value),
        )  # fmt: skip
    return value


def _choice(preset: str, name: str, value: Any, choices: tuple[str, ...]) -> str:
    if value not in choices:
        raise RulesError(
            N_("{preset} option {option} must be one of {choices}, not {value}"),
            preset=preset, option=repr(name), choices=", ".join(map(repr, choices)),
            value=_shown(value),
        )  # fmt: skip
    return str(value)


def make_rules(preset: str = "mattel2022", options: Mapping[str, Any] | None = None) -> Rules:
    """Validate ``preset`` and ``options`` (R-SET-6) and return the :class:`Rules`.

    Raises :class:`RulesError` with a one-line reason for an unknown preset, an
    unknown option, an option the preset does not take, or a bad value.
    """
    opts = dict(options or {})
    if not isinstance(preset, str) or preset not in PRESETS:
        raise RulesError(
            N_("unknown rules preset {preset} (choose {choices})"),
            preset=_shown(preset), choices=", ".join(PRESETS),
        )  # fmt: skip
    if preset == "mattel2022":
        if opts:
            raise RulesError(
                N_("{preset} takes no options (got {options})"),
                preset=preset, options=", ".join(map(repr, opts)),
            )  # fmt: skip
        return Rules(
            preset=preset, options={}, min_players=2, max_players=6, deck=_DECK_2022,
            limit=99, floor_zero=True, four_99=True, ninety_nine_sets=False,
            zero_ending_99=False, answers=frozenset((Card.REVERSE, Card.PLAY2)),
            play2_first_ok=True, scoring=Elimination(), draw_penalty=False,
        )  # fmt: skip
    unknown = sorted(set(opts) - set(OPTIONS[preset]))
    if unknown:
        raise RulesError(
            N_("{preset} does not take option {option}"), preset=preset, option=repr(unknown[0])
        )
    if preset == "mini":
        return _mini(_choice(preset, "size", opts.get("size", CHOICES["size"][0]), CHOICES["size"]))
    scoring = _choice(
        preset, "scoring", opts.get("scoring", CHOICES["scoring"][0]), CHOICES["scoring"]
    )
    target, points_mode = 0, ""
    if scoring == "points":
        target = opts.get("target", 100)
        if isinstance(target, bool) or not isinstance(target, int) or target < 1:
            raise RulesError(
                N_("{preset} option {option} must be a positive integer, not {value}"),
                preset=preset, option=repr("target"), value=_shown(target),
            )  # fmt: skip
        if target > TARGET_LIMIT:
            raise RulesError(
                N_("{preset} option {option} must be at most {limit}, not {value}"),
                preset=preset, option=repr("target"), limit=TARGET_LIMIT, value=_shown(target),
            )  # fmt: skip
        points_mode = _choice(
            preset, "points_mode", opts.get("points_mode", CHOICES["points_mode"][0]),
            CHOICES["points_mode"],
        )  # fmt: skip
    else:
        for name in POINTS_OPTIONS:
            if name in opts:
                raise RulesError(
                    N_("{preset} option {option} needs scoring {scoring}"),
                    preset=preset, option=repr(name), scoring=repr("points"),
                )  # fmt: skip
    zero_ending = _bool(preset, "zero_ending_99", opts.get("zero_ending_99", False))
    draw_penalty = _bool(preset, "draw_penalty", opts.get("draw_penalty", False))
    resolved: dict[str, Any] = {"draw_penalty": draw_penalty}
    if preset == "classic1980":
        resolved = {"scoring": scoring}
        if scoring == "points":
            resolved.update(target=target, points_mode=points_mode)
        resolved.update(zero_ending_99=zero_ending, draw_penalty=draw_penalty)
    return Rules(
        preset=preset, options=resolved, min_players=2, max_players=8, deck=_DECK_1980,
        limit=100 if preset == "gamerules" else 99, floor_zero=False, four_99=False,
        ninety_nine_sets=preset == "gamerules", zero_ending_99=zero_ending,
        answers=frozenset((Card.REVERSE, Card.HOLD)), play2_first_ok=False,
        scoring=Points(target, points_mode) if scoring == "points" else Tokens(),
        draw_penalty=draw_penalty,
    )  # fmt: skip


def _mini(size: str) -> Rules:
    """The research variant: ONO 99's 2022 mechanics (elimination, the floor at 0, Play 2
    answered by Play 2 or Reverse) on a small deck with a small limit and hand, never
    reshuffled: small enough for OpenSpiel's exact algorithms (docs/mini.md); size
    "large" is one size up, for the approximate ones.

    The small game's options stay ``{}``, as before the option existed: its records,
    stored tables, the ``optimal`` bot's table and its OpenSpiel game are unchanged, and
    a record's ``{"size": "small"}`` resolves to the same game. Only ``large`` is said."""
    large = size == "large"
    return Rules(
        preset="mini", options={"size": size} if large else {}, min_players=2, max_players=3,
        deck=_DECK_MINI_LARGE if large else _DECK_MINI,
        limit=MINI_LARGE_LIMIT if large else MINI_LIMIT, floor_zero=True, four_99=False,
        ninety_nine_sets=False, zero_ending_99=False,
        answers=frozenset((Card.REVERSE, Card.PLAY2)), play2_first_ok=True,
        scoring=Elimination(), draw_penalty=False,
        hand_size=MINI_LARGE_HAND if large else MINI_HAND, reshuffle=False,
    )  # fmt: skip


def option_defaults(preset: str) -> dict[str, Any]:
    """The options ``preset`` takes with their defaults (R-SET-6), as :func:`make_rules`
    resolves them, in :data:`OPTIONS` order; with scoring, the points options too.

    >>> option_defaults("gamerules")
    {'draw_penalty': False}
    >>> option_defaults("classic1980")["target"]
    100
    >>> option_defaults("mini")
    {'size': 'small'}
    """
    # every choice option's default is its first choice (mini's small size is not
    # written in its options, so it is taken from here)
    resolved = {name: CHOICES[name][0] for name in OPTIONS.get(preset, ()) if name in CHOICES}
    resolved.update(make_rules(preset).options)
    if "scoring" in resolved:
        resolved.update(make_rules(preset, {"scoring": "points"}).options)
        resolved["scoring"] = CHOICES["scoring"][0]
    return {name: resolved[name] for name in OPTIONS[preset]}
