"""Tracking a game played with real cards (the table companion, ``/companion``).

A :class:`Tracker` follows a real-deck game tap by tap on the engine's real-cards mode
(:class:`ono99.unknown.UnknownGame`: every hidden card unknown, nothing invented); the
engine decides everything the rules decide (R-TURN, R-M10, R-99, R-REV, R-P2, R-LIM, R-END).
A tap is a card code, ``"99x4"`` (R-99-3), ``"draw"`` (R-DRAW-1) or ``"bust"`` (the player
to move has no safe card; told with the card before it). A number card that takes the
total to the limit is that player's bust: out (R-END-1), a token lost (R-END-2), or the
card given up (R-END-3). A points round's end waits for the cards left in each hand
(:meth:`Tracker.enter_hands`) or each hand's points (:meth:`Tracker.enter_points`):
until then its scores are unknown (``None``), nobody is out, no winner, a tap is refused.
The game after each tap is kept (undo is a step back); what is told later replays the
taps from where it applies.

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

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ono99.cards import FOUR_99, action_code, parse_action
from ono99.errors import Ono99Error, RecordError, RulesError
from ono99.events import Event
from ono99.i18n import N_
from ono99.moves import total_after
from ono99.rules import make_rules
from ono99.unknown import BUST as _BUST_MOVE
from ono99.unknown import TrackError, UnknownGame

__all__ = ["Tracker", "TrackError", "BUST", "is_tracking_record", "FORMAT"]

#: the tap of a player who has no safe card
BUST = "bust"
#: ``format`` of a tracked game's record (docs/companion.md)
FORMAT = "ono99-tracking/1"

#: the keys of the state that are the public view's own (R-REC meanings)
_VIEW_KEYS = ("rules", "options", "names", "total", "direction", "to_move", "owes_two",
              "plays_left", "pending_draw", "out", "round_out", "tokens", "round", "winner",
              "hand_sizes", "draw_pile")  # fmt: skip
_NO_ROUND = N_("no round is waiting for the cards left in hand")
_MISSING: Any = object()


@dataclass
class _Entry:
    """One tap (or the start of the game: tap -1) and the game after it."""

    tap: int
    #: the tap this one is told with: itself, or for a ``bust`` the card before it
    anchor: int
    #: who made it (None: the start)
    seat: int | None
    after: UnknownGame
    events: list[Event]


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
        n = len(self.names)  # the count is the engine's to check (R-SET-5)
        if isinstance(first, bool) or not isinstance(first, int) or not 0 <= first < n:
            raise RulesError(
                N_("the first player must be a seat from 0 to {last}, not {value}"),
                last=n - 1, value=repr(first),
            )  # fmt: skip
        self.first = first
        self.taps: list[str] = []
        self.redo_taps: list[str] = []
        #: R-END-3 hands entered, by the tap a round's end is told with (its anchor)
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
    def game(self) -> UnknownGame:
        """The game as it stands (its hands are unknown cards)."""
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
            for seat in [seat for seat in self.laid if seat not in self.game.out]:
                del self.laid[seat]
        self.last_events = events
        return events

    def undo(self) -> list[Event]:
        """Take back the last tap (any number of times, back to the start)."""
        if not self.taps:
            raise TrackError(N_("there is nothing to undo"))
        self.redo_taps.append(self.taps.pop())
        self.entries.pop()
        self.last_events = []
        return []

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
            self._rebuild(at, strict_from=0)
        except Ono99Error as e:
            self.taps, self.redo_taps, self.hands = old_taps, old_redo, old_hands
            self._rebuild(at)
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
        for first, group in self._groups()[-count:]:
            head = self.entries[first]
            if head.tap < 0:
                continue
            events = [x for e in group for x in e.events]
            before = self.entries[first - 1].after.total
            total = next((x.total for x in reversed(events) if x.total is not None), before)
            out.append({"at": head.tap, "tap": self.taps[head.tap] if head.tap < len(self.taps)
                        else "", "seat": head.seat, "total": total})  # fmt: skip
        return out

    def loser_of(self, code: str) -> int | None:
        """The seat that tapping ``code`` now busts by its own card: a number card that
        takes the total to the limit (R-LIM-1) for the player to move; else None."""
        g = self.game
        try:
            action = parse_action(code)
        except RecordError:
            return None
        if (
            g.to_move is None
            or action > 10
            or total_after(self.rules, g.total, action) < self.rules.limit
        ):
            return None
        return g.to_move

    def enter_laid(self, seat: int, cards: Sequence[str] | None) -> None:
        """R-END-1: the cards ``seat`` laid face up when it went out of the game
        (``mattel2022``), or None when the players would rather not type them (the page
        stops asking). Known, those cards are no longer anyone's to play: a tap of a card
        whose every copy is on the discard pile or face up is refused. The game is
        rebuilt from that player's bust: cards that include a safe card there are
        refused (the player would not have been out)."""
        g = self.game
        if not self.rules.scoring.bust_eliminates:
            raise TrackError(
                N_("only {preset} players lay their hand face up"), preset="mattel2022"
            )
        if isinstance(seat, bool) or not isinstance(seat, int) or seat not in g.out:
            raise TrackError(N_("that player is not out of the game"))
        if cards is not None and (isinstance(cards, str) or not isinstance(cards, Sequence)):
            raise TrackError(N_("give the cards as a list of card codes"))
        bust_tap = next(
            e.tap for e in self.entries if any(x.kind == "eliminated" and x.seat == seat
                                               for x in e.events)
        )  # fmt: skip
        old = self.laid.get(seat, _MISSING)
        self.laid[seat] = None if cards is None else _parse_hand(cards)
        self._told(bust_tap, lambda: _put(self.laid, seat, old))  # the engine checks them
        self.last_events = []

    def enter_hands(
        self, hands: Sequence[Sequence[str] | None], tap: int | None = None
    ) -> list[Event]:
        """R-END-3: the cards left in each hand at the end of the points round that tap
        ``tap`` ended (default: the round waiting for them); ``None`` for a seat that is
        out of the game. The game is rebuilt with them: scores, eliminations and the
        winner follow; returns what the engine announced from the round's end on."""
        ends = set(self._round_ends().values())
        if tap is None:
            if not self.game.waiting:
                raise TrackError(_NO_ROUND)
            tap = self.entries[-1].anchor
        if tap not in ends:
            raise TrackError(_NO_ROUND)
        parsed = [None if h is None else _parse_hand(h) for h in hands]
        old = self.hands.get(tap, _MISSING)
        self.hands[tap] = parsed
        self._told(tap, lambda: _put(self.hands, tap, old))  # the engine checks them
        return self._told_end(tap)

    def enter_points(self, points: Sequence[Any], round: int | None = None) -> list[Event]:
        """R-END-3: instead of the hands, the points of the cards left in each hand at the
        end of points round ``round`` (default: the round waiting for them), as the
        players counted them; ``None`` for a seat out of the game. The tracker adds 15
        per card short of four and 25 for a player out of the round. Returns what the
        engine announced from the round's end on (scores, who is out, the winner)."""
        if round is None:
            if not self.game.waiting:
                raise TrackError(_NO_ROUND)
            round = self.game.round
        ends = self._round_ends()
        tap = ends.get(round) if isinstance(round, int) and not isinstance(round, bool) else None
        if tap is None:
            raise TrackError(_NO_ROUND)
        if isinstance(points, str) or not isinstance(points, Sequence):
            raise TrackError(
                N_("give the points of {count} hands, one per player"), count=len(self.names)
            )
        old, old_hands = self.points.get(round, _MISSING), self.hands.pop(tap, _MISSING)
        self.points[round] = list(points)

        def undo() -> None:
            _put(self.points, round, old)
            _put(self.hands, tap, old_hands)

        self._told(tap, undo)
        return self._told_end(tap)

    def state(self) -> dict[str, Any]:
        """The public state as JSON-ready data (R-REC meanings), plus the companion's
        own fields (``steps``, ``can_undo``, ``can_redo``, ``hands_needed``...)."""
        g = self.game
        v = g.public_view()
        public = v.to_json()  # the view's keys, written as every view's JSON (VIEW_JSON)
        known = public["scores"]
        # R-END-3: a round's points are unknown until its hands are told
        scores = (
            None
            if known is None
            else [None if g.waiting and v.alive[s] else x for s, x in enumerate(known)]
        )
        return {
            **{key: public[key] for key in _VIEW_KEYS},
            "first": self.first,
            "active": list(v.active),
            "alive": list(v.alive),
            "scores": scores,
            # the scores as known before the round waiting for its hands (else = scores)
            "scores_known": known,
            "discard": len(v.discard),
            "last_card": action_code(v.discard[-1]) if v.discard else None,
            "steps": len(self.taps),
            "can_undo": bool(self.taps),
            "can_redo": bool(self.redo_taps),
            "hands_needed": self._hands_needed(),
            "cards": self.card_codes(),
            # R-END-1: the hands laid face up, as typed in (null: not typed), by seat
            "laid": {
                str(seat): None if cards is None else [action_code(c) for c in cards]
                for seat, cards in sorted(self.laid.items())
            },
            # the player just out whose face-up hand the page offers to type in
            "laid_open": self._laid_open(),
            # the seats the engine busted (no safe card) after the last card tapped
            "busted": [
                x.seat
                for e in self._groups()[-1][1]
                for x in e.events
                if x.kind == "bust" and x.card is None
            ],
            # R-END-3: the cards the player to move may give up now, when out of safe cards
            "give_up": self._give_up(),
            "recent": self.recent(),
            # R-END-3: the points typed in, by round (instead of the hands)
            "points": {str(r): list(p) for r, p in sorted(self.points.items())},
        }

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
                {"move": k, "hands": [None if h is None else [action_code(c) for c in h]
                                      for h in hs]}
                for k, hs in sorted(self.hands.items())
                if k < len(self.taps)
            ]  # fmt: skip
        scored = self._scored_rounds()
        waiting = self.game.round if self.game.waiting else None
        if self.points:
            rec["points"] = [
                {"round": r, "points": list(p)} for r, p in sorted(self.points.items())
                if r in scored or r == waiting
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
        options = rec.get("options") or {}
        if not isinstance(options, Mapping):
            raise RecordError(N_("options must be an object"))
        moves = rec.get("moves", [])
        if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
            raise RecordError(N_("moves must be a list of move codes"))
        t = cls(str(rec.get("rules", "mattel2022")), players, rec.get("first", 0), options)
        try:
            t._read_told(rec)
        except (KeyError, TypeError, ValueError) as e:
            raise RecordError(N_("bad hands in the record: {reason}"), reason=str(e)) from None
        t._replay(moves, stop_at_error)
        return t

    def _read_told(self, rec: Mapping[str, Any]) -> None:
        """A record's hands, points and face-up hands (KeyError, TypeError, ValueError)."""
        self.hands = {int(x["move"]): [None if h is None else _parse_hand(h) for h in x["hands"]]
                      for x in rec.get("hands") or []}  # fmt: skip
        self.points = {_int(x["round"]): [None if p is None else _int(p) for p in x["points"]]
                       for x in rec.get("points") or []}  # fmt: skip
        self.laid = {_int(x["seat"]): None if x["cards"] is None else _parse_hand(x["cards"])
                     for x in rec.get("laid") or []}  # fmt: skip

    def _replay(self, moves: list[str], stop_at_error: bool) -> None:
        for i, m in enumerate(moves):
            try:
                events = self._apply_tap(m, i)
            except Ono99Error as e:
                if stop_at_error:
                    # the rest can be made again (e.g. once a round's hands are told)
                    self.redo_taps = list(reversed(moves[i:]))
                    break
                raise RecordError(
                    N_("move {index} ({move}): {reason}"), index=i, move=repr(m), reason=e
                ) from None
            self.taps.append(m)
            self.last_events = events

    # ------------------------------------------------------------------ internals

    def _start(self) -> _Entry:
        n = len(self.names)
        g = UnknownGame(self.rules, self.names, dealer=(self.first - 1) % n)
        events, g.events = list(g.events or []), None
        return _Entry(-1, -1, None, g, events)

    def _apply_tap(self, code: str, index: int) -> list[Event]:
        g = self.game
        if g.waiting:
            raise TrackError(
                N_("round {round} is over: enter the cards left in each hand (or the points) first"),
                rule="R-END-3", round=g.round,
            )  # fmt: skip
        if g.is_over:
            raise TrackError(N_("the game is over"))
        if not isinstance(code, str):
            raise TrackError(N_("{action} is not an action"), action=repr(code))
        bust = code.strip().lower() == BUST
        action = _BUST_MOVE if bust else parse_action(code)
        anchor = self.entries[-1].anchor if bust else index
        w = g.copy()
        w.events = []
        hands = self.hands.get(anchor)
        w.told_hands = {} if hands is None else {g.round: hands}
        w.told_points = dict(self.points)
        seat = w.apply(action)
        for x in w.events:
            cards = self.laid.get(x.seat) if x.kind == "eliminated" and x.seat is not None else None
            if cards is not None and x.seat is not None:
                w.lay(x.seat, cards)  # R-END-1: the face-up hand as typed in
        events, w.events = w.events, None
        self.entries.append(_Entry(index, anchor, seat, w, events))
        return events

    def _rebuild(self, start: int, strict_from: int | None = None) -> None:
        """Replay the taps from tap ``start`` on (what is told applies there). A tap that no
        longer fits raises from ``strict_from`` on (the caller puts things back and
        rebuilds); before it, the rest goes to the redo list."""
        taps = list(self.taps)
        self.entries = [e for e in self.entries if e.tap < start] or [self._start()]
        self.taps = taps[: len(self.entries) - 1]
        for i in range(len(self.taps), len(taps)):
            try:
                self._apply_tap(taps[i], i)
            except Ono99Error:
                if strict_from is not None and i >= strict_from:
                    self.taps = taps
                    raise
                self.redo_taps.extend(reversed(taps[i:]))
                break
            self.taps.append(taps[i])

    def _told(self, tap: int, undo: Any) -> None:
        """Replay from ``tap`` with what was just told; where it does not fit, ``undo()``
        puts it back, the game is replayed as it was and the error raised."""
        try:
            self._rebuild(tap, strict_from=tap)
        except Ono99Error:
            undo()
            self._rebuild(tap)
            raise

    def _groups(self) -> list[tuple[int, list[_Entry]]]:
        """The entries told together (a card and the ``bust`` taps after it), each with
        the index of its first entry."""
        out: list[tuple[int, list[_Entry]]] = []
        for i, e in enumerate(self.entries):
            if out and e.anchor != e.tap:
                out[-1][1].append(e)
            else:
                out.append((i, [e]))
        return out

    def _round_ends(self) -> dict[int, int]:
        """The anchor of the tap that ended each points round (scored or waiting), by round."""
        out: dict[int, int] = {}
        for e in self.entries:
            for x in e.events:
                if x.kind == "round_end" and "hands" in (x.info or {}):
                    out.setdefault(int((x.info or {})["round"]), e.anchor)
        return out

    def _scored_rounds(self) -> set[int]:
        return {
            int((x.info or {})["round"])
            for e in self.entries
            for x in e.events
            if x.kind == "round_end" and "scores" in (x.info or {})
        }

    def _told_end(self, tap: int) -> list[Event]:
        """What the taps told with ``tap`` announced from its (now scored) round's end on."""
        events = [x for e in self.entries if e.anchor == tap for x in e.events]
        k = next((i for i, x in enumerate(events) if x.kind == "round_end"), len(events))
        self.last_events = events[k:]
        return self.last_events

    def _hands_needed(self) -> dict[str, Any] | None:
        g = self.game
        if not g.waiting:
            return None
        sizes = [len(h) if g.alive[s] else None for s, h in enumerate(g.hands)]
        return {"tap": self.entries[-1].anchor, "round": g.round, "sizes": sizes}

    def _give_up(self) -> list[str]:
        g = self.game
        if self.rules.mode != "points" or g.to_move is None:
            return []
        pool = g.unseen()
        return [
            action_code(c)
            for c in range(11)
            if pool[c] > 0 and total_after(self.rules, g.total, c) >= self.rules.limit
        ]

    def _laid_open(self) -> dict[str, Any] | None:
        g = self.game
        if self.rules.mode != "elimination" or g.winner is not None or not g.out:
            return None
        seat = g.out[-1]
        if seat in self.laid:
            return None
        return {"seat": seat, "size": len(g.hands[seat])}


def _parse_card(code: Any) -> int:
    if isinstance(code, int) and not isinstance(code, bool) and 0 <= code < 16:
        return code
    a = parse_action(code)
    if a >= 16:
        raise RecordError(N_("{card} is not a card"), card=repr(code))
    return a


def _parse_hand(cards: Sequence[Any]) -> list[int]:
    try:
        return [_parse_card(c) for c in cards]
    except RecordError as e:
        raise TrackError(N_("bad card in a hand: {reason}"), reason=e) from None


def _int(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"not an integer: {value!r}")
    return value


def _put(d: dict[int, Any], key: int, value: Any) -> None:
    """``d[key] = value``, or no ``key`` where ``value`` is ``_MISSING`` (as it was)."""
    if value is _MISSING:
        d.pop(key, None)
    else:
        d[key] = value


def is_tracking_record(data: Any) -> bool:
    """Whether parsed record JSON is a tracked game's record (docs/companion.md)."""
    return isinstance(data, Mapping) and data.get("tracking") is True
