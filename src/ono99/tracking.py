"""Tracking a game played with real cards (the table companion, ``/companion``).

At a real table nobody's hand is known. A :class:`Tracker` follows such a game on
the engine itself: each tap ("Ana played 7") is applied for the player to move in a
*world* (:meth:`ono99.Game.world`) whose public state is the game's so far and whose
hidden cards are arranged so that the player holds the card tapped (and, for a bust,
only cards they cannot play). The engine decides everything the rules decide: the
total (R-TURN-1, R-M10-1, R-99-2), the direction (R-REV), who owes two (R-P2), who
busts and what a bust costs (R-LIM-2, R-END), the rounds and the winner. Only the
public state of a world is ever read; its invented hands are never shown.

A tap is a card code (``"7"``, ``"-10"``, ``"R"``, ``"P2"``, ``"H"``, ``"99"``),
``"99x4"`` (R-99-3), ``"draw"`` (R-DRAW-1) or ``"bust"`` (the player to move has no
safe card). A number card that takes the total to the limit (99, or over 99 in
``gamerules``) is that player's bust: in ``mattel2022`` they are out (R-END-1), with
tokens they lose a token and the round starts again (R-END-2), with points they give
that card up and are out of the round (R-END-3). At the end of a points round the
scores need the cards left in each hand (:meth:`Tracker.enter_hands`) or each player's
points (:meth:`Tracker.enter_points`): until then the round's end waits, its scores are
unknown (``None``), nobody is put out and no winner is declared; a tap is refused.

>>> t = Tracker("mattel2022", ["Ana", "Bo", "Cy"])
>>> for tap in ["7", "P2", "R", "10"]:
...     _ = t.tap(tap)
>>> s = t.state()
>>> s["total"], s["direction"], s["to_move"], s["owes_two"]
(17, -1, 1, 1)
>>> _ = t.undo(); t.state()["total"]
7
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ono99.cards import DRAW, FOUR_99, Card, action_code, parse_action
from ono99.errors import IllegalAction, Ono99Error, RecordError, RulesError
from ono99.events import Event
from ono99.game import CARD_POINTS, Deal, Game
from ono99.i18n import N_
from ono99.moves import is_safe, total_after
from ono99.rules import Rules, make_rules
from ono99.view import PublicView

__all__ = ["Tracker", "TrackError", "BUST", "is_tracking_record", "FORMAT"]

#: the tap of a player who has no safe card
BUST = "bust"
#: ``format`` of a tracked game's record (docs/companion.md)
FORMAT = "ono99-tracking/1"

_P2 = int(Card.PLAY2)
_99 = int(Card.NINETY_NINE)
#: arrangements tried for one tap before it is declared impossible
_ATTEMPTS = 10
_NOT_POSSIBLE = N_("that bust is not possible here")
_MISSING: Any = object()


class TrackError(Ono99Error):
    """A tap that cannot be applied (the game is unchanged)."""


@dataclass
class _Bust:
    seat: int
    #: the unsafe card tapped for this bust (it stays in hand: R-END-1, R-END-2)
    card: int | None = None
    #: a bust before any card of round ``round`` is played (the player was dealt only
    #: cards they cannot play, e.g. four ONO 99s in classic1980: R-99-4); None: a bust
    #: in the round of the entry's action
    round: int | None = None


@dataclass
class _Entry:
    """One engine action (or the start of the game) and the busts it leads to."""

    action: int | None  # None: the start of the game
    tap: int  # index of the tap that made it (-1: the start)
    before: Game | None
    after: Game
    events: list[Event]
    busts: list[_Bust] = field(default_factory=list)
    #: R-END-3: the hands entered for the round this entry ended
    hands: list[list[int] | None] | None = None
    #: R-END-3: this entry ended a points round whose hands are not entered yet
    hands_needed: dict[str, Any] | None = None


class _TableWorld(Game):
    """A world of the tracker: the hands at a points round's end are unknown (R-END-3).
    The round's end scores the hands only where they were entered (``hands_round``),
    else the points typed for that round (by round), else it waits (no score, nobody
    out): invented hands never score."""

    __slots__ = ("hands_round", "told")
    hands_round: int | None
    told: dict[int, list[int | None]]

    def round_gains(self) -> list[int] | None:
        if self.round == self.hands_round:
            return super().round_gains()  # the world holds the hands as entered
        points = self.told.get(self.round)
        if points is None:
            return None
        out = [0] * self.n
        for s, p in enumerate(points):
            if self.alive[s] and p is not None:
                out[s] = p + 15 * max(0, 4 - len(self.hands[s])) + 25 * (s in self.round_out)
        return out

    @classmethod
    def fresh(
        cls, told: dict[int, list[int | None]], rules: Rules, names: Sequence[str],
        seed: str, dealer: int, deals: Sequence[Deal],
    ) -> _TableWorld:  # fmt: skip
        """A fresh game (the start of a tracked game) that scores as a world does."""
        g = cls.__new__(cls)
        g.hands_round = None
        g.told = told
        Game.__init__(g, rules, names, seed=seed, dealer=dealer, deals=deals)
        return g


def _world(
    v: PublicView, hands: list[list[int]], pile: list[int], seed: int,
    deals: Sequence[Deal | None], hands_round: int | None, told: dict[int, list[int | None]],
) -> _TableWorld:  # fmt: skip
    w = _TableWorld.world(v, hands, pile, seed=seed, deals=deals)
    assert isinstance(w, _TableWorld)
    w.hands_round = hands_round
    w.told = told
    return w


def _counts(rules: Rules) -> list[int]:
    return list(rules.deck)


def _hidden_pool(view: PublicView, laid: Mapping[int, list[int]] | None = None) -> list[int]:
    """Copies of each card neither on the discard pile nor laid face up (index = card).
    A hand laid face up by an eliminated player (R-END-1) counts as unknown unless it
    was typed in (``laid``, by seat): such a player never plays again, so a world may
    deal them any cards."""
    counts = _counts(view.rules)
    for c in view.discard:
        counts[c] -= 1
    for seat, cards in (laid or {}).items():
        if seat in view.out:
            for c in cards:
                counts[c] -= 1
    return counts


def _good_order(rules: Rules) -> list[int]:
    """Cards from the most to the least often playable: safe at any total first."""
    escapes = [int(Card.MINUS10), int(Card.REVERSE), int(Card.HOLD), 0]
    if rules.ninety_nine_sets:
        escapes.append(_99)
    escapes.append(_P2)
    rest = [c for c in range(1, 11)]
    if not rules.ninety_nine_sets:
        rest.append(_99)
    return escapes + rest


@dataclass
class _Context:
    """What decides whether a card is safe for the seat that must play."""

    total: int
    first_of_two: bool
    played_99: bool


def _unsafe(rules: Rules, card: int, ctx: _Context, *, numbers_ok: bool) -> bool:
    """R-LIM-1, R-99, R-P2-3: ``card`` cannot be played as a safe card in ``ctx``;
    with ``numbers_ok`` false, no number card either (R-END-3: a points-mode bust
    with nothing to give up)."""
    if card <= 10 and not numbers_ok:
        return False
    return not is_safe(rules, card, ctx.total, ctx.first_of_two, ctx.played_99)


class Tracker:
    """A game at a real table, followed tap by tap on the engine.

    ``players``: the names in seat order (2 to 8, as the preset allows); ``first``: the
    seat that plays first (the dealer is the seat before it, R-SET-3).
    """

    def __init__(
        self,
        rules: str = "mattel2022",
        players: Sequence[str] = ("Player 1", "Player 2"),
        first: int = 0,
        options: Mapping[str, Any] | None = None,
    ) -> None:
        self.rules = make_rules(rules, options)
        if isinstance(players, str) or not isinstance(players, Sequence):
            raise RulesError(N_("players must be a list of names"))
        self.names = [str(p) for p in players]
        n = len(self.names)
        if not self.rules.min_players <= n <= self.rules.max_players:
            raise RulesError(
                N_("{preset} is for {low} to {high} players, not {count}"),
                rule="R-SET-5", preset=self.rules.preset, low=self.rules.min_players,
                high=self.rules.max_players, count=n,
            )  # fmt: skip
        if isinstance(first, bool) or not isinstance(first, int) or not 0 <= first < n:
            raise RulesError(
                N_("the first player must be a seat from 0 to {last}, not {value}"),
                last=n - 1, value=repr(first),
            )  # fmt: skip
        self.first = first
        self.taps: list[str] = []
        self.redo_taps: list[str] = []
        #: R-END-3 hands entered, by the tap index of the entry that ended the round
        self.hands: dict[int, list[list[int] | None]] = {}
        #: R-END-3 points typed in instead of the hands, by round: the points of the cards
        #: in each hand (None: a seat out of the game)
        self.points: dict[int, list[int | None]] = {}
        #: R-END-1 hands laid face up, by seat, as typed in (None: the players chose
        #: not to type them)
        self.laid: dict[int, list[int] | None] = {}
        self.entries: list[_Entry] = [self._start()]
        #: what the last tap, undo or redo made the engine announce
        self.last_events: list[Event] = self.entries[0].events

    # ------------------------------------------------------------------ public

    @property
    def game(self) -> Game:
        """The current world (its hands are invented: read only its public state)."""
        return self.entries[-1].after

    @property
    def is_over(self) -> bool:
        return self.game.is_over

    def tap(self, code: str) -> list[Event]:
        """Apply one tap for the player to move; returns what the engine announced.

        Raises :class:`TrackError` (or the engine's :class:`IllegalAction`) and changes
        nothing when the tap is not possible."""
        events = self._apply_tap(code, len(self.taps))
        self.taps.append(code)
        if self.redo_taps:
            # a new branch: the hands entered for the taps taken back go with them
            self.redo_taps.clear()
            for k in [k for k in self.hands if k >= len(self.taps)]:
                del self.hands[k]
            for r in [r for r in self.points if r not in self._scored_rounds()]:
                del self.points[r]
            out = self.game.public_view().out
            for seat in [seat for seat in self.laid if seat not in out]:
                del self.laid[seat]
        self.last_events = events
        return events

    def undo(self) -> list[Event]:
        """Take back the last tap (any number of times, back to the start)."""
        if not self.taps:
            raise TrackError(N_("there is nothing to undo"))
        code = self.taps.pop()
        self.redo_taps.append(code)
        self._rebuild()
        self.last_events = []
        return []

    def insert(self, at: int, code: str) -> list[Event]:
        """A card nobody tapped: ``code`` goes in before tap ``at`` (``len(taps)``: now),
        and every tap after it is told again on top of it (each then falls to the player
        whose turn it really was). Refused, changing nothing, when a tap after it no longer
        fits. Returns what the engine announced for the last tap."""
        if isinstance(at, bool) or not isinstance(at, int) or not 0 <= at <= len(self.taps):
            raise TrackError(N_("there is no tap {index} to put a card before"), index=repr(at))
        if not isinstance(code, str):
            raise TrackError(N_("{action} is not an action"), action=repr(code))
        if at == len(self.taps):
            redo = list(self.redo_taps)
            events = self.tap(code)
            self.redo_taps = redo  # a forgotten card is no new branch: the redo list stays
            return events
        old_taps, old_redo, old_hands = list(self.taps), list(self.redo_taps), dict(self.hands)
        self.taps = [*old_taps[:at], code, *old_taps[at:]]
        self.hands = {k + (k >= at): hs for k, hs in old_hands.items()}
        try:
            self._rebuild(strict_from=0)
        except Ono99Error as e:
            self.taps, self.redo_taps, self.hands = old_taps, old_redo, old_hands
            self._rebuild()
            raise TrackError(
                N_("{card} there does not fit the taps after it: {reason}"),
                card=repr(code), reason=e,
            ) from None  # fmt: skip
        self.redo_taps = old_redo
        self.last_events = list(self.entries[-1].events)
        return self.last_events

    def recent(self, count: int = 12) -> list[dict[str, Any]]:
        """The last ``count`` cards tapped: where each went in (``at``), the card, who
        played it and the total after it (for a quick fix: where to put a forgotten card)."""
        out: list[dict[str, Any]] = []
        for e in self.entries[-count:]:
            if e.before is None or e.action is None:
                continue
            bv = e.before.public_view()
            seat = bv.pending_draw if e.action == DRAW else bv.to_move
            total = next((x.total for x in reversed(e.events) if x.total is not None), bv.total)
            out.append({"at": e.tap, "tap": self.taps[e.tap] if e.tap < len(self.taps) else "",
                        "seat": seat, "total": total})  # fmt: skip
        return out

    def redo(self) -> list[Event]:
        """Make the last tap taken back again."""
        if not self.redo_taps:
            raise TrackError(N_("there is nothing to redo"))
        code = self.redo_taps[-1]
        events = self._apply_tap(code, len(self.taps))
        self.redo_taps.pop()
        self.taps.append(code)
        self.last_events = events
        return events

    def _laid_known(self) -> dict[int, list[int]]:
        return {s: cards for s, cards in self.laid.items() if cards is not None}

    def loser_of(self, code: str) -> int | None:
        """The seat that tapping ``code`` now busts by its own card: a number card that
        takes the total to the limit (R-LIM-1) for the player to move; else None."""
        v = self.game.public_view()
        try:
            action = parse_action(code)
        except RecordError:
            return None
        if (
            v.to_move is None
            or action > 10
            or total_after(self.rules, v.total, action) < self.rules.limit
        ):
            return None
        return v.to_move

    def enter_laid(self, seat: int, cards: Sequence[str] | None) -> None:
        """R-END-1: the cards ``seat`` laid face up when it went out of the game
        (``mattel2022``), or None when the players would rather not type them (the page
        stops asking). Known, those cards are no longer anyone's to play: a tap of a card
        whose every copy is on the discard pile or face up is refused. The game is
        rebuilt from that player's bust: cards that include a safe card there are
        refused (the player would not have been out)."""
        v = self.game.public_view()
        if not self.rules.scoring.bust_eliminates or self.rules.mode != "elimination":
            raise TrackError(
                N_("only {preset} players lay their hand face up"), preset="mattel2022"
            )
        if isinstance(seat, bool) or not isinstance(seat, int) or seat not in v.out:
            raise TrackError(N_("that player is not out of the game"))
        parsed: list[int] | None = None
        if cards is not None:
            if isinstance(cards, str) or not isinstance(cards, Sequence):
                raise TrackError(N_("give the cards as a list of card codes"))
            try:
                parsed = [_parse_card(c) for c in cards]
            except RecordError as e:
                raise TrackError(N_("bad card in a hand: {reason}"), reason=e) from None
            if len(parsed) != v.hand_sizes[seat]:
                raise TrackError(
                    N_("{name} laid {count} cards face up, not {given}"),
                    name=self.names[seat], count=v.hand_sizes[seat], given=len(parsed),
                )  # fmt: skip
        bust_tap = next(
            (
                e.tap
                for e in self.entries
                if any(x.kind == "eliminated" and x.seat == seat for x in e.events)
            ),
            None,
        )
        old = self.laid.get(seat, _MISSING)
        self.laid[seat] = parsed
        try:
            self._rebuild(strict_from=bust_tap if bust_tap is not None and bust_tap >= 0 else 0)
        except Ono99Error as e:
            if old is _MISSING:
                del self.laid[seat]
            else:
                self.laid[seat] = old
            self._rebuild()
            if isinstance(e, TrackError) and e.template == _NOT_POSSIBLE:
                raise TrackError(
                    N_("{name} could have played one of those cards, so was not out"),
                    rule="R-LIM-2", name=self.names[seat],
                ) from None  # fmt: skip
            raise
        self.last_events = []

    def enter_hands(
        self, hands: Sequence[Sequence[str] | None], tap: int | None = None
    ) -> list[Event]:
        """R-END-3: the cards left in each hand at the end of the points round that tap
        ``tap`` ended (default: the round waiting for them); ``None`` for a seat that is
        out of the game. The game is rebuilt with them: scores, eliminations and the
        winner follow; returns what the engine announced from the round's end on."""
        pending = [e for e in self.entries if e.hands_needed is not None or e.hands is not None]
        if tap is None:
            waiting = [e for e in pending if e.hands_needed is not None]
            if not waiting:
                raise TrackError(N_("no round is waiting for the cards left in hand"))
            tap = waiting[-1].tap
        entry = next((e for e in pending if e.tap == tap), None)
        if entry is None:
            raise TrackError(N_("no round is waiting for the cards left in hand"))
        if len(hands) != len(self.names):
            raise TrackError(
                N_("give the cards of {count} hands, one per player"), count=len(self.names)
            )
        parsed: list[list[int] | None] = []
        for h in hands:
            if h is None:
                parsed.append(None)
                continue
            try:
                parsed.append([_parse_card(c) for c in h])
            except RecordError as e:
                raise TrackError(N_("bad card in a hand: {reason}"), reason=e) from None
        old = self.hands.get(tap)
        self.hands[tap] = parsed
        try:
            self._rebuild(strict_from=tap)
        except Ono99Error:
            if old is None:
                del self.hands[tap]
            else:
                self.hands[tap] = old
            self._rebuild()
            raise
        return self._told_end(tap)

    def enter_points(self, points: Sequence[Any], round: int | None = None) -> list[Event]:
        """R-END-3: instead of the hands, the points of the cards left in each hand at the
        end of points round ``round`` (default: the round waiting for them), as the
        players counted them; ``None`` for a seat out of the game. The tracker adds 15
        per card short of four and 25 for a player out of the round. Returns what the
        engine announced from the round's end on (scores, who is out, the winner)."""
        ends = self._round_ends()
        if round is None:
            waiting = self.entries[-1].hands_needed
            if waiting is None:
                raise TrackError(N_("no round is waiting for the cards left in hand"))
            round = int(waiting["round"])
        entry = ends.get(round) if isinstance(round, int) and not isinstance(round, bool) else None
        if entry is None:
            raise TrackError(N_("no round is waiting for the cards left in hand"))
        sizes = self._sizes_at_end(entry)
        if isinstance(points, str) or not isinstance(points, Sequence) or len(points) != len(sizes):
            raise TrackError(
                N_("give the points of {count} hands, one per player"), count=len(self.names)
            )
        parsed: list[int | None] = []
        for seat, (p, k) in enumerate(zip(points, sizes, strict=True)):
            if k is None:
                parsed.append(None)
                continue
            if isinstance(p, bool) or not isinstance(p, int) or not self._can_score(p, k):
                raise TrackError(
                    N_("{name}'s {count} cards cannot make {points} points"),
                    rule="R-END-3", name=self.names[seat], count=k, points=repr(p),
                )  # fmt: skip
            parsed.append(p)
        old = self.points.get(round)
        old_hands = self.hands.pop(entry.tap, None)
        self.points[round] = parsed
        try:
            self._rebuild(strict_from=entry.tap)
        except Ono99Error:
            if old is None:
                del self.points[round]
            else:
                self.points[round] = old
            if old_hands is not None:
                self.hands[entry.tap] = old_hands
            self._rebuild()
            raise
        return self._told_end(entry.tap)

    def _can_score(self, points: int, cards: int) -> bool:
        """Whether ``cards`` cards of the preset's deck can be worth ``points`` (R-END-3)."""
        values = {CARD_POINTS[c] for c in range(16) if self.rules.deck[c]}
        sums = {0}
        for _ in range(cards):
            sums = {a + b for a in sums for b in values}
        return points in sums

    def _round_ends(self) -> dict[int, _Entry]:
        """The entry that ended each points round (scored or waiting), by round."""
        out: dict[int, _Entry] = {}
        for e in self.entries:
            for x in e.events:
                if x.kind == "round_end" and "hands" in (x.info or {}):
                    out.setdefault(int((x.info or {})["round"]), e)
        return out

    def _scored_rounds(self) -> set[int]:
        return {
            int((x.info or {})["round"])
            for e in self.entries
            for x in e.events
            if x.kind == "round_end" and "scores" in (x.info or {})
        }

    def _sizes_at_end(self, entry: _Entry) -> list[int | None]:
        before = entry.before.public_view() if entry.before is not None else None
        end = next(x for x in entry.events if x.kind == "round_end" and "hands" in (x.info or {}))
        hands = (end.info or {})["hands"]
        alive = before.alive if before is not None else [True] * len(self.names)
        return [len(h) if alive[s] else None for s, h in enumerate(hands)]

    def _told_end(self, tap: int) -> list[Event]:
        """What the entry of ``tap`` announced from its (now scored) round's end on."""
        entry = next((e for e in self.entries if e.tap == tap), None)
        self.last_events = []
        if entry is None:
            return []
        k = next((i for i, x in enumerate(entry.events) if x.kind == "round_end"), None)
        self.last_events = [] if k is None else entry.events[k:]
        return self.last_events

    def state(self) -> dict[str, Any]:
        """The public state as JSON-ready data (R-REC meanings), plus the companion's
        own fields (``steps``, ``can_undo``, ``can_redo``, ``hands_needed``...)."""
        v = self.game.public_view()
        w = v.winner
        waiting = [e for e in self.entries if e.hands_needed is not None]
        scores: list[int | None] | None = None if v.scores is None else list(v.scores)
        if waiting and scores is not None:
            # R-END-3: the round's points are unknown until its hands are told
            scores = [None if v.alive[s] else x for s, x in enumerate(scores)]
        return {
            "rules": self.rules.preset,
            "options": dict(self.rules.options),
            "names": list(self.names),
            "first": self.first,
            "total": v.total,
            "direction": v.direction,
            "to_move": v.to_move,
            "owes_two": v.owes_two,
            "plays_left": v.plays_left,
            "pending_draw": v.pending_draw,
            "out": list(v.out),
            "round_out": list(v.round_out),
            "active": list(v.active),
            "alive": list(v.alive),
            "tokens": None if v.tokens is None else list(v.tokens),
            "scores": scores,
            # the scores as known before the round waiting for its hands (else = scores)
            "scores_known": None if v.scores is None else list(v.scores),
            "round": v.round,
            "winner": list(w) if isinstance(w, tuple) else w,
            "hand_sizes": list(v.hand_sizes),
            "draw_pile": v.draw_pile,
            "discard": len(v.discard),
            "last_card": action_code(v.discard[-1]) if v.discard else None,
            "steps": len(self.taps),
            "can_undo": bool(self.taps),
            "can_redo": bool(self.redo_taps),
            "hands_needed": None
            if not waiting
            else {"tap": waiting[-1].tap, **(waiting[-1].hands_needed or {})},
            "cards": self.card_codes(),
            # R-END-1: the hands laid face up, as typed in (null: not typed), by seat
            "laid": {
                str(seat): None if cards is None else [action_code(c) for c in cards]
                for seat, cards in sorted(self.laid.items())
            },
            # the player just out whose face-up hand the page offers to type in
            "laid_open": self._laid_open(v),
            # the seats the engine busted (no safe card) after the last card tapped
            "busted": [
                e.seat for e in self.entries[-1].events if e.kind == "bust" and e.card is None
            ],
            # R-END-3: the cards the player to move may give up now, when out of safe cards
            "give_up": self._give_up(v),
            "recent": self.recent(),
            # R-END-3: the points typed in, by round (instead of the hands)
            "points": {str(r): list(p) for r, p in sorted(self.points.items())},
        }

    def _give_up(self, v: PublicView) -> list[str]:
        if self.rules.mode != "points" or v.to_move is None:
            return []
        pool = _hidden_pool(v)
        return [
            action_code(c)
            for c in range(11)
            if self.rules.deck[c] and pool[c] > 0
            and total_after(self.rules, v.total, c) >= self.rules.limit
        ]  # fmt: skip

    def _laid_open(self, v: PublicView) -> dict[str, Any] | None:
        if self.rules.mode != "elimination" or v.winner is not None or not v.out:
            return None
        seat = v.out[-1]
        if seat in self.laid:
            return None
        return {"seat": seat, "size": v.hand_sizes[seat]}

    def card_codes(self) -> list[str]:
        """The card buttons of the preset: its deck's card types, and ``99x4`` (2022)."""
        codes = [action_code(c) for c in range(16) if self.rules.deck[c]]
        if self.rules.four_99:
            codes.append(action_code(FOUR_99))
        return codes

    def record(self) -> dict[str, Any]:
        """The tracked game's record (docs/companion.md): the taps, hands unknown."""
        rec: dict[str, Any] = {
            "format": FORMAT,
            "tracking": True,
            "rules": self.rules.preset,
            "options": dict(self.rules.options),
            "players": list(self.names),
            "first": self.first,
            "moves": list(self.taps),
        }
        if self.hands:
            rec["hands"] = [
                {
                    "move": k,
                    "hands": [None if h is None else [action_code(c) for c in h] for h in hs],
                }
                for k, hs in sorted(self.hands.items())
                if k < len(self.taps)
            ]
        scored = self._scored_rounds()
        if self.points:
            rec["points"] = [
                {"round": r, "points": list(p)} for r, p in sorted(self.points.items())
                if r in scored or r == (self.entries[-1].hands_needed or {}).get("round")
            ]  # fmt: skip
        if self.laid:
            rec["laid"] = [
                {"seat": seat, "cards": None if cs is None else [action_code(c) for c in cs]}
                for seat, cs in sorted(self.laid.items())
            ]
        return rec

    @classmethod
    def from_record(cls, rec: Mapping[str, Any], *, stop_at_error: bool = False) -> Tracker:
        """Rebuild a tracked game from :meth:`record`'s form. A bad record raises
        :class:`RecordError`; a move that cannot be applied raises it naming the move
        (or, with ``stop_at_error``, ends the replay there)."""
        if not isinstance(rec, Mapping) or not rec.get("tracking"):
            raise RecordError(N_("not a tracked game's record"))
        players = rec.get("players")
        if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
            raise RecordError(N_("players must be a list of names"))
        first = rec.get("first", 0)
        options = rec.get("options") or {}
        if not isinstance(options, Mapping):
            raise RecordError(N_("options must be an object"))
        moves = rec.get("moves", [])
        if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
            raise RecordError(N_("moves must be a list of move codes"))
        t = cls(str(rec.get("rules", "mattel2022")), players, first, options)
        for item in rec.get("hands") or []:
            try:
                k = int(item["move"])
                hs = [None if h is None else [_parse_card(c) for c in h] for h in item["hands"]]
            except (KeyError, TypeError, ValueError) as e:
                raise RecordError(N_("bad hands in the record: {reason}"), reason=str(e)) from None
            t.hands[k] = hs
        for item in rec.get("points") or []:
            try:
                r = item["round"]
                pts = item["points"]
                if isinstance(r, bool) or not isinstance(r, int) or not isinstance(pts, list):
                    raise TypeError(f"round {r!r}")
                if not all(
                    p is None or (isinstance(p, int) and not isinstance(p, bool)) for p in pts
                ):
                    raise TypeError(f"points {pts!r}")
                t.points[r] = list(pts)
            except (KeyError, TypeError) as e:
                raise RecordError(N_("bad hands in the record: {reason}"), reason=str(e)) from None
        for item in rec.get("laid") or []:
            try:
                seat, cards = item["seat"], item["cards"]
                if isinstance(seat, bool) or not isinstance(seat, int):
                    raise TypeError(f"seat {seat!r}")
                t.laid[seat] = None if cards is None else [_parse_card(c) for c in cards]
            except (KeyError, TypeError, ValueError) as e:
                raise RecordError(N_("bad hands in the record: {reason}"), reason=str(e)) from None
        for i, m in enumerate(moves):
            try:
                events = t._apply_tap(m, i)
            except Ono99Error as e:
                if stop_at_error:
                    # the rest can be made again (e.g. once a round's hands are told)
                    t.redo_taps = list(reversed(moves[i:]))
                    break
                raise RecordError(
                    N_("move {index} ({move}): {reason}"), index=i, move=repr(m), reason=e
                ) from None
            t.taps.append(m)
            t.last_events = events
        return t

    def events_by_tap(self) -> list[tuple[int, list[Event]]]:
        """The announcements of each entry in order (tap index, events), to tell the game."""
        return [(e.tap, e.events) for e in self.entries]

    # ------------------------------------------------------------------ taps

    def _apply_tap(self, code: str, index: int) -> list[Event]:
        g = self.game
        waiting = self.entries[-1].hands_needed
        if waiting is not None:
            raise TrackError(
                N_("round {round} is over: enter the cards left in each hand (or the points) first"),
                rule="R-END-3", round=waiting.get("round"),
            )  # fmt: skip
        if g.is_over:
            raise TrackError(N_("the game is over"))
        p = g.to_move
        assert p is not None
        v = g.public_view()
        if isinstance(code, str) and code.strip().lower() == BUST:
            return self._bust(p, None, index)
        if not isinstance(code, str):
            raise TrackError(N_("{action} is not an action"), action=repr(code))
        try:
            action = parse_action(code)
        except RecordError:
            raise
        r = self.rules
        if action == DRAW:
            if v.pending_draw is None:
                raise IllegalAction(N_("no draw is pending"), "R-DRAW-1")
            return self._new_entry(action, index)
        if action == FOUR_99:
            if not r.four_99:
                raise IllegalAction(
                    N_("{preset} has no four-99 discard"), "R-99-3", preset=r.preset
                )
            return self._new_entry(action, index)
        if not r.card_in_deck(action):
            raise IllegalAction(
                N_("there is no {card} card in the {preset} deck"),
                card=repr(code), preset=r.preset,
            )  # fmt: skip
        if _hidden_pool(v, self._laid_known())[action] <= 0:
            if _hidden_pool(v)[action] > 0:
                raise TrackError(
                    N_("every {card} card is on the discard pile or laid face up"),
                    card=repr(action_code(action)),
                )  # fmt: skip
            raise TrackError(
                N_("every {card} card is already on the discard pile"),
                card=repr(action_code(action)),
            )  # fmt: skip
        if action <= 10 and total_after(r, v.total, action) >= r.limit:
            # The card takes the total to the limit: this player busts (R-LIM-2).
            if r.mode == "points":
                return self._new_entry(action, index, bust_play=True)  # R-END-3
            return self._bust(p, action, index)  # R-END-1, R-END-2
        return self._new_entry(action, index)

    def _new_entry(self, action: int, index: int, bust_play: bool = False) -> list[Event]:
        entry = self._realize_with_hands(self.game, action, index, [], bust_play)
        self.entries.append(entry)
        return entry.events

    def _realize_with_hands(
        self, before: Game, action: int, tap: int, busts: list[_Bust], bust_play: bool
    ) -> _Entry:
        """``_realize`` with the hands entered for this tap's round end, if any (they
        apply only when the entry does end the round)."""
        entry = self._realize(before, action, tap, busts, None, bust_play)
        hands = self.hands.get(tap)
        if hands is None or entry.hands_needed is None:
            return entry  # no round end waiting, or its points were typed in
        return self._realize(before, action, tap, busts, hands, bust_play)

    def _bust(self, seat: int, card: int | None, index: int) -> list[Event]:
        """The player to move has no safe card: the last entry is made again in a world
        where, after it, ``seat`` holds only cards it cannot play (the engine then busts
        it by itself, R-LIM-2, R-P2-4, R-END)."""
        last = self.entries[-1]
        fresh = _round_is_fresh(last.events)
        if fresh and card is None:
            # No card of this round is played yet: the player was dealt nothing they
            # can play. The entry that dealt the round is made again with that deal.
            busts = [*last.busts, _Bust(seat, None, self.game.round)]
        elif last.before is None or last.action is None:
            raise TrackError(
                N_("{name} cannot bust before the first card of the game is played"),
                name=self.names[seat],
            )
        else:
            busts = [*last.busts, _Bust(seat, card)]
        try:
            if last.before is None or last.action is None:
                entry = self._start(busts)
            else:
                entry = self._realize_with_hands(
                    last.before, last.action, last.tap, busts, last_bust_play(last)
                )
        except TrackError as e:
            if self.rules.mode == "points" and card is None and not fresh:
                raise TrackError(
                    N_("{name} must give up a number card: tap the card they played"),
                    rule="R-END-3",
                    name=self.names[seat],
                ) from e
            raise
        old_events = len(last.events)
        self.entries[-1] = entry
        return entry.events[_common_prefix(last.events[:old_events], entry.events) :]

    # ------------------------------------------------------------------ worlds

    def _start(self, busts: Sequence[_Bust] = ()) -> _Entry:
        """The game as dealt, with ``busts`` (all at a round's start: ``_Bust.round``)
        and no other: the deals of those rounds give those seats only unplayable cards."""
        n = len(self.names)
        dealer = (self.first - 1) % n
        want = [b.seat for b in busts]
        for attempt in range(50):
            seed = f"track:start:{attempt}"
            deals: list[Deal] = []
            for rnd, seats in _by_round(busts):
                if len(deals) != rnd - 1:
                    break  # a round in between dealt by chance: not one we can fix
                g = _TableWorld.fresh(self.points, self.rules, self.names, seed, dealer, deals)
                if g.round != rnd or g.to_move != seats[0]:
                    raise TrackError(N_("that bust is not possible here"))
                deals.append(self._bust_deal(g.public_view(), seats))
            else:
                g = _TableWorld.fresh(self.points, self.rules, self.names, seed, dealer, deals)
                events = list(g.events or [])
                got = [e.seat for e in events if e.kind == "bust" and e.card is None]
                if got == want:
                    g.events = None
                    entry = _Entry(None, -1, None, g, events, list(busts))
                    ends = [e for e in events if e.kind == "round_end"]
                    if ends and (ends[0].info or {}).get("waiting"):
                        info = ends[0].info or {}
                        sizes = [len(h) for h in info["hands"]]
                        entry.hands_needed = {"round": info.get("round"), "sizes": sizes}
                    return entry
        if busts:
            raise TrackError(N_("that bust is not possible here"))
        raise TrackError(N_("could not start the game"))  # pragma: no cover

    def _bust_deal(self, v: PublicView, seats: Sequence[int]) -> Deal:
        """The deal of the round starting in ``v``: ``seats`` get only cards they cannot
        play at its start (R-LIM-2, R-99-4); the other seats the most playable cards."""
        r = self.rules
        pool = list(r.deck)
        hands: list[list[int]] = [[] for _ in v.names]
        ctx = _Context(0, False, False)
        numbers_ok = r.mode != "points"  # R-END-3: a number card would be thrown
        cap99 = 3 if r.four_99 else 4
        for s in seats:
            for c in [
                c for c in reversed(_good_order(r)) if _unsafe(r, c, ctx, numbers_ok=numbers_ok)
            ]:
                while (
                    len(hands[s]) < 4 and pool[c] > 0 and (c != _99 or hands[s].count(_99) < cap99)
                ):
                    pool[c] -= 1
                    hands[s].append(c)
            if len(hands[s]) < 4:
                raise TrackError(N_("that bust is not possible here"))
        others = [s for s in range(len(v.names)) if v.alive[s] and s not in seats]
        rest = [c for c in _good_order(r) for _ in range(max(0, pool[c]))][::-1]
        while any(len(hands[s]) < 4 for s in others):
            for s in others:
                if len(hands[s]) < 4:
                    hands[s].append(rest.pop())
        return hands, []

    def _realize(
        self,
        before: Game,
        action: int,
        tap: int,
        busts: list[_Bust],
        hands: list[list[int] | None] | None,
        bust_play: bool,
        deals: Sequence[Deal | None] = (),
    ) -> _Entry:
        """Apply ``action`` to a world built from ``before``'s public state, so that
        exactly the seats of ``busts`` bust after it (in order), and (points) the round's
        end finds ``hands``. Raises TrackError when no arrangement of the hidden cards
        does it."""
        v = before.public_view()
        actor = v.pending_draw if action == DRAW else v.to_move
        assert actor is not None
        ctx_before = _Context(v.total, v.plays_left == 2, v.played_99)
        ctx_after = ctx_before
        now = [b for b in busts if b.round is None]
        if now:
            base = self._realize(before, action, tap, [], None, bust_play)
            b = base.after
            if b.to_move != now[0].seat:
                raise TrackError(N_("that bust is not possible here"))
            ctx_after = _Context(b.total, b.plays_left == 2, b.played_99)
        deals = list(deals)
        done = list(now)
        for rnd, seats in [] if deals else _by_round(busts):
            # a round this action starts, whose first player(s) were dealt nothing playable
            g = self._realize(before, action, tap, done, hands, bust_play, deals).after
            if g.round != rnd or g.to_move != seats[0] or rnd <= v.round:
                raise TrackError(N_("that bust is not possible here"))
            deals += [None] * (rnd - v.round - 1 - len(deals))
            deals.append(self._bust_deal(g.public_view(), seats))
            done += [b for b in busts if b.round == rnd]
        error: Ono99Error | None = None
        forced: _Entry | None = None
        attempts = _ATTEMPTS
        if hands is not None and v.draw_pile < (4 if action == FOUR_99 else 1):
            attempts = 400  # a reshuffle deals the card drawn: search the world's seed
        for attempt in range(attempts):
            try:
                hs, pile = self._arrange(
                    v, action, actor, now, hands, bust_play, ctx_before, ctx_after, attempt
                )
            except TrackError as e:
                error = e
                if attempt >= 2:
                    break
                continue
            seed = tap * 1000 + attempt + 1_000_000
            w = _world(v, hs, pile, seed, deals, None if hands is None else v.round, self.points)
            w.events = []
            try:
                w.apply(action)
            except IllegalAction as e:
                error = e
                if e.rule not in (None, "R-TURN-1"):
                    break  # the rules forbid the card whatever the hands
                continue
            events = list(w.events)
            got = [
                e.seat for e in events if e.kind == "bust" and e.card is None and e.seat is not None
            ]
            want = [bb.seat for bb in busts]
            if not _subsequence(want, got):
                error = TrackError(N_("that bust is not possible here"))
                continue
            entry = _Entry(action, tap, before, w, events, busts, hands)
            ends = [e for e in events if e.kind == "round_end" and "hands" in (e.info or {})]
            if ends and hands is not None and not _hands_match(ends[0], hands):
                error = TrackError(N_("those hands do not fit the game (a card count is off)"))
                continue
            if ends and (ends[0].info or {}).get("waiting"):
                # R-END-3: the round's end waits for its hands (or points): nothing scored
                info = ends[0].info or {}
                sizes = [len(h) if v.alive[s] else None for s, h in enumerate(info["hands"])]
                entry.hands_needed = {"round": info.get("round"), "sizes": sizes}
            if len(got) > len(want):
                # Someone else busts too in every arrangement tried: no card left in the
                # hidden pool is safe for them (R-LIM-2): the engine's bust stands.
                forced = forced or entry
                continue
            return entry
        if forced is not None:
            return forced
        if isinstance(error, IllegalAction):
            raise error
        raise error or TrackError(N_("that bust is not possible here"))

    def _arrange(
        self,
        v: PublicView,
        action: int,
        actor: int,
        busts: list[_Bust],
        hands: list[list[int] | None] | None,
        bust_play: bool,
        ctx_before: _Context,
        ctx_after: _Context,
        attempt: int,
    ) -> tuple[list[list[int]], list[int]]:
        """Hands and draw pile (top last) for a world: the hidden pool dealt so that the
        actor holds the card, bust seats hold only unplayable cards, and the rest of the
        seats (and the top of the pile) get the most playable cards first."""
        r = self.rules
        n = len(v.names)
        laid = self._laid_known()
        pool = _hidden_pool(v, laid)
        taken: list[list[int]] = [[] for _ in range(n)]
        size = list(v.hand_sizes)
        out_of_game = [not v.alive[s] for s in range(n)]
        for s, cards in laid.items():
            if s in v.out:
                taken[s] = list(cards)  # face up (R-END-1): out of the pool already
        pile_top: list[int] = []  # drawn first = first

        def take(seat: int | None, card: int) -> None:
            if pool[card] <= 0:
                raise TrackError(
                    N_("every {card} card is already on the discard pile"),
                    card=repr(action_code(card)),
                )
            pool[card] -= 1
            if seat is None:
                pile_top.append(card)
            else:
                taken[seat].append(card)

        played: list[int] = []
        if action == FOUR_99:
            played = [_99] * 4
        elif action != DRAW:
            played = [action]
        # cards the actor draws in this action: R-DRAW-1's draw is one card; under the
        # draw penalty a play draws nothing (but a points-mode bust play draws, R-END-3)
        if action == DRAW:
            drawn = 1
        elif r.draw_penalty and not bust_play:
            drawn = 0
        else:
            drawn = 4 if action == FOUR_99 else 1
        reshuffled = max(0, drawn - v.draw_pile)  # drawn after the discard pile is shuffled
        drawn -= reshuffled
        if hands is not None:
            # R-END-3: the hands at the round's end are known; the actor's hand before
            # the play is its final hand less what it drew, plus what it played.
            for s in sorted(range(n), key=lambda s: s == actor):
                h = hands[s] if s < len(hands) else None
                if h is None or out_of_game[s]:
                    continue
                h = list(h)
                if s == actor:
                    for c in played:
                        take(s, c)
                    if reshuffled:
                        # cards the pool lacks came from the reshuffled discard pile
                        # (the world's seed is searched until they do: _realize)
                        left = list(pool)
                        late = [c for c in h if not _spend(left, c)][:reshuffled]
                        late += [c for c in reversed(h) if c not in late][: reshuffled - len(late)]
                        for c in late:
                            h.remove(c)
                    order = sorted(h, key=lambda c: _unsafe(r, c, ctx_before, numbers_ok=True))
                    for c in order[:drawn]:
                        h.remove(c)
                        take(None, c)
                for c in h:
                    take(s, c)
        else:
            for c in played:
                take(actor, c)
        for s in range(n):
            if len(taken[s]) > size[s]:
                raise TrackError(N_("{name} does not hold that many cards"), name=self.names[s])
        bust_seats = {b.seat for b in busts}
        unsafe_for: dict[int, tuple[_Context, bool]] = {}
        if bust_play and actor not in unsafe_for:
            unsafe_for[actor] = (ctx_before, True)
        for i, b in enumerate(busts):
            ctx = ctx_after if i == 0 else _Context(ctx_after.total, False, False)
            if b.seat in laid and b.seat not in v.out:
                # the hand this player laid face up when out (R-END-1), as typed in
                cards = list(laid[b.seat])
                if b.card is not None and b.card not in cards:
                    raise TrackError(
                        N_("{name} tapped {card}, so it is among the cards laid face up"),
                        name=self.names[b.seat], card=repr(action_code(b.card)),
                    )  # fmt: skip
                if b.seat == actor and hands is None and drawn:
                    # busting on its own second card (R-P2-4): the card it drew after the
                    # first is among those laid face up; it lay on top of the draw pile
                    late = [c for c in reversed(cards) if c != b.card][:drawn]
                    for c in late:
                        cards.remove(c)
                        take(None, c)
                for c in cards:
                    take(b.seat, c)
            elif b.card is not None and hands is None:
                take(b.seat, b.card)
            unsafe_for[b.seat] = (ctx, r.mode != "points")
        # Seats that may hold no number card (R-END-3: out without playing) first: they
        # need the scarce cards (ONO 99s), which a seat that may hold numbers can spare.
        for s, (ctx, numbers_ok) in sorted(unsafe_for.items(), key=lambda kv: kv[1][1]):
            if hands is not None and s < len(hands) and hands[s] is not None:
                continue
            need = size[s] - len(taken[s])
            cands = [
                c for c in reversed(_good_order(r)) if _unsafe(r, c, ctx, numbers_ok=numbers_ok)
            ]
            # prefer ONO 99s, then the highest numbers; never four 99s (R-99-3 would be legal)
            cap99 = 3 if r.four_99 else 99
            for c in cands:
                while need > 0 and pool[c] > 0:
                    if c == _99 and taken[s].count(_99) >= cap99:
                        break
                    take(s, c)
                    need -= 1
            if need > 0:
                raise TrackError(N_("that bust is not possible here"))
            if s == actor and s in bust_seats and drawn and hands is None and s not in laid:
                # the actor busts on its own second card: what it draws is unplayable too
                for _ in range(drawn):
                    held99 = taken[s].count(_99) + pile_top.count(_99)
                    top = next(
                        (c for c in cands if pool[c] > 0 and (c != _99 or held99 < cap99)), None
                    )
                    if top is None:
                        raise TrackError(N_("that bust is not possible here"))
                    take(None, top)
        # The rest: the most playable cards first, dealt round the seats that matter.
        rest: list[int] = []
        order = _good_order(r)
        rng = random.Random(f"arrange:{attempt}")
        if 2 <= attempt < _ATTEMPTS:
            rng.shuffle(order)
        for c in order:
            rest.extend([c] * max(0, pool[c]))
        # Who gets the most playable cards first: the actor and the top of the pile (for a
        # Play 2's second card), or the seats after it (the next to move needs a safe card
        # now; the actor's hand is dealt afresh at its next tap anyway); either direction.
        direction = v.direction if (attempt // 2) % 2 == 0 else -v.direction
        actor_last = attempt % 2 == 1
        seats = [(actor + direction * k) % n for k in range(n)]
        free = [
            s
            for s in seats
            if s not in unsafe_for
            and not out_of_game[s]
            and not (hands and s < len(hands) and hands[s] is not None)
        ]
        if actor in free:
            free.remove(actor)
            free.insert(0, actor)
        want_top = 0 if hands is not None else max(0, min(4, v.draw_pile) - len(pile_top))
        others: list[int | None] = [s for s in free if s != actor]
        mine: list[int | None] = [actor] if actor in free else []
        containers = [*others, *mine, None] if actor_last else [*mine, None, *others]
        rest.reverse()  # pop() gives the most playable first
        progress = True
        while rest and progress:
            progress = False
            for cont in containers:
                if not rest:
                    break
                if cont is None:
                    if len(pile_top) < want_top:
                        pile_top.append(rest.pop())
                        progress = True
                elif len(taken[cont]) < size[cont]:
                    taken[cont].append(rest.pop())
                    progress = True
        # seats still short (bust seats and given hands are full already)
        for s in range(n):
            while len(taken[s]) < size[s]:
                if not rest:
                    raise TrackError(N_("those hands do not fit the game (a card count is off)"))
                taken[s].append(rest.pop())
        rng.shuffle(rest)
        pile = rest + pile_top[::-1]
        if len(pile) != v.draw_pile:
            raise TrackError(N_("those hands do not fit the game (a card count is off)"))
        return taken, pile

    def _rebuild(self, strict_from: int | None = None) -> None:
        """Replay every tap from the start (undo, entered hands)."""
        taps = list(self.taps)
        self.taps = []
        self.entries = [self._start()]
        for i, code in enumerate(taps):
            try:
                self._apply_tap(code, i)
            except Ono99Error:
                if strict_from is not None and i >= strict_from:
                    self.taps = taps  # the caller puts things back and rebuilds them all
                    raise
                # A later tap no longer fits (e.g. entered hands changed who is out):
                # the rest goes to the redo list.
                self.redo_taps.extend(reversed(taps[i:]))
                break
            self.taps.append(code)


def last_bust_play(entry: _Entry) -> bool:
    """Whether ``entry``'s action was a points-mode bust play (R-END-3)."""
    return any(e.kind == "bust" and e.card is not None for e in entry.events)


def _round_is_fresh(events: Sequence[Event]) -> bool:
    """Whether no card is played in the round the last of ``events`` left running."""
    for e in reversed(events):
        if e.kind == "round_start":
            return True
        if e.kind in ("play", "four99") or (e.kind == "bust" and e.card is not None):
            return False
    return False


def _by_round(busts: Sequence[_Bust]) -> list[tuple[int, list[int]]]:
    """The busts at a round's start, grouped by round in order: (round, seats)."""
    out: dict[int, list[int]] = {}
    for b in busts:
        if b.round is not None:
            out.setdefault(b.round, []).append(b.seat)
    return sorted(out.items())


def _common_prefix(a: list[Event], b: list[Event]) -> int:
    k = 0
    while k < len(a) and k < len(b) and a[k] == b[k]:
        k += 1
    return k


def _hands_match(end: Event, hands: list[list[int] | None]) -> bool:
    got = (end.info or {}).get("hands") or []
    for s, h in enumerate(hands):
        if h is None:
            continue
        if s >= len(got) or sorted(got[s]) != sorted(h):
            return False
    return True


def _subsequence(small: list[int], big: list[int]) -> bool:
    it = iter(big)
    return all(any(x == y for y in it) for x in small)


def _spend(counts: list[int], card: int) -> bool:
    if counts[card] <= 0:
        return False
    counts[card] -= 1
    return True


def _parse_card(code: Any) -> int:
    if isinstance(code, int) and not isinstance(code, bool) and 0 <= code < 16:
        return code
    a = parse_action(code)
    if a >= 16:
        raise RecordError(N_("{card} is not a card"), card=repr(code))
    return a


def is_tracking_record(data: Any) -> bool:
    """Whether parsed record JSON is a tracked game's record (docs/companion.md)."""
    return isinstance(data, Mapping) and data.get("tracking") is True
