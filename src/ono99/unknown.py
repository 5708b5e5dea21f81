"""The real-cards mode of the engine: a game whose hands and draw pile are unknown cards.

At a real table (the companion, :mod:`ono99.tracking`) nobody's hand is known. An
:class:`UnknownGame` is :class:`~ono99.game.Game` with every hidden card :data:`UNKNOWN`
(PokerKit's unknown card); the rules are the engine's own code. Where the engine would look
into a hand, this mode asks what it *could* hold (:meth:`UnknownGame.unseen`: the deck less
the discard pile and the cards known elsewhere). A card played (R-TURN-1) becomes one of the
mover's unknown cards while a copy is unaccounted for (else :class:`TrackError`); a draw
gives an unknown card; a reshuffle (R-TURN-3) turns the discard pile into unknown cards. A
player busts by themselves only when no card they could hold is safe (R-LIM-2, R-END);
otherwise a bust is the declared move :data:`BUST`, accepted where the hand could hold only
cards they cannot play, and a number card over the limit is that player's bust (R-END-1,
R-END-2: it stays in hand, known) or the card given up (R-END-3). A points round's end waits,
nothing scored, until its hands or points are told (:meth:`UnknownGame.tell_round`).

>>> g = UnknownGame("classic1980", ["Ana", "Bo"], options={"scoring": "points"})
>>> for card in ["10"] * 9 + ["9"]:  # Bo's 9 goes over 99: given up, out of the round
...     _ = g.apply(card)
>>> g.total, g.round_out, g.waiting, g.scores
(90, [1], True, [0, 0])
>>> g.tell_round(points=[12, 30])
>>> g.scores, g.round, g.to_move
([12, 55], 2, 1)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ono99.cards import DRAW, FOUR_99, Card, action_code
from ono99.errors import IllegalAction, Ono99Error
from ono99.game import CARD_POINTS, Game, illegal_action_error
from ono99.i18n import N_
from ono99.moves import is_safe
from ono99.rules import Rules
from ono99.scoring import Points

__all__ = ["UnknownGame", "UNKNOWN", "BUST", "TrackError", "could_score"]

#: a card nobody has seen (in a hand or the draw pile)
UNKNOWN = 16
#: the declared bust: the player to move has no card they can play ("no safe card")
BUST = 18

_99 = int(Card.NINETY_NINE)
NOT_POSSIBLE = N_("that bust is not possible here")


class TrackError(Ono99Error):
    """A move the real-cards mode cannot apply (the game is unchanged): no copy of the card
    is left to hold, a bust no hand could make, hands or points that do not fit."""


def _gone(card: int, laid: bool = False) -> TrackError:
    """The refusal of a card whose every copy is accounted for."""
    if laid:
        return TrackError(
            N_("every {card} card is on the discard pile or laid face up"),
            card=repr(action_code(card)),
        )  # fmt: skip
    return TrackError(
        N_("every {card} card is already on the discard pile"), card=repr(action_code(card))
    )


def could_score(rules: Rules, points: int, cards: int) -> bool:
    """Whether ``cards`` cards of the preset's deck can be worth ``points`` (R-END-3)."""
    values = {CARD_POINTS[c] for c in range(16) if rules.deck[c]}
    sums = {0}
    for _ in range(cards):
        sums = {a + b for a in sums for b in values}
    return points in sums


class UnknownGame(Game):
    """A game of ONO 99 whose hidden cards are unknown (see the module's text).

    ``dealer`` as for :class:`~ono99.game.Game` (the seat after it plays first). Moves are
    :meth:`apply`'s card codes, ``FOUR_99``, ``DRAW`` and :data:`BUST` (or ``"bust"``)."""

    __slots__ = ("told_hands", "told_points", "bust_context", "_reshuffled", "_drawer", "_fresh")
    #: R-END-3 the cards left in each hand at the end of a round, by round
    told_hands: dict[int, list[list[int] | None]]
    #: R-END-3 the points of the cards left in each hand (None: out of the game), by round
    told_points: dict[int, list[int | None]]
    #: R-END-1 where each bust happened (total, first of two, an ONO 99 played), by seat
    bust_context: dict[int, tuple[int, bool, bool]]

    def __init__(
        self,
        rules: str | Rules = "mattel2022",
        players: int | Sequence[str] = 2,
        *,
        options: Mapping[str, Any] | None = None,
        dealer: int | None = None,
    ) -> None:
        # set before Game.__init__ deals the first round and settles it
        self.told_hands, self.told_points, self.bust_context = {}, {}, {}
        self._reshuffled: list[int] = []
        self._drawer = self._fresh = -1
        super().__init__(rules, players, options=options, seed=0, dealer=dealer)

    def copy(self, events: bool = False) -> UnknownGame:
        g = super().copy(events)
        assert isinstance(g, UnknownGame)
        g.told_hands = dict(self.told_hands)
        g.told_points = dict(self.told_points)
        g.bust_context = dict(self.bust_context)
        g._reshuffled = self._reshuffled[:]
        g._drawer, g._fresh = self._drawer, self._fresh
        return g

    @property
    def waiting(self) -> bool:
        """R-END-3: the game stopped at a points round's end for its hands or points."""
        return self.to_move is None and self.winner is None

    def unseen(self, seat: int | None = None) -> list[int]:
        """Copies of each card (index = card) not known to be anywhere: the deck less the
        discard pile and the cards known in hands (a bust's card, a hand laid face up).

        With ``seat``: the cards that seat's unknown cards may be. A hand held before a
        reshuffle of this move (R-TURN-3) was dealt from the cards not yet played then:
        not from the discard pile just turned over (only its drawer may hold those)."""
        counts = list(self.rules.deck)
        for c in self.discard:
            counts[c] -= 1
        if seat is not None and seat != self._fresh:
            for c in self._reshuffled:
                counts[c] -= 1
        for hand in self.hands:
            for c in hand:
                if c != UNKNOWN:
                    counts[c] -= 1
        return counts

    def apply(self, action: int | str, seat: int | None = None) -> int:
        """As :meth:`Game.apply`, tried on a copy first: a refused move (the card's last
        copy accounted for, a bust no hand could make, hands told that do not fit) changes
        nothing."""
        trial = self.copy(events=self.events is not None)
        done = Game.apply(trial, action, seat)
        self._adopt(trial)
        return done

    def _adopt(self, other: UnknownGame) -> None:
        for name in (*Game.__slots__, *UnknownGame.__slots__):
            setattr(self, name, getattr(other, name))

    def verify(self, action: int | str, seat: int | None = None) -> int:
        return Game.apply(self.copy(), action, seat)  # the checks are the move's own

    # ------------------------------------------------------------------ moves

    def _action(self, action: int | str) -> int:
        if isinstance(action, str) and action.strip().lower() == "bust":
            action = BUST
        if action == BUST and type(action) is int:
            self._mover()  # the game is over: refused
            return BUST
        return super()._action(action)

    def _apply(self, action: int) -> int:
        p = self._mover()
        self._reshuffled, self._fresh = [], -1  # a new move: the discard pile is the pile's
        if action == BUST:
            self._declared_bust(p)
        elif action == DRAW:
            return super()._apply(action)
        else:
            if action != FOUR_99:
                self._check_unseen(p, action)
            if action <= 10 and not self._safe(action):
                self._bust_by(p, action)
            else:
                if action not in self.legal_actions(p):
                    raise self._why_illegal(action)
                self._reveal(p, action)
                return super()._apply(action)
        self._settle()
        return p

    def _mover(self) -> int:
        """The seat to move; a move after the game has ended is refused (R-END)."""
        p = self.to_move
        if p is None:
            raise IllegalAction(N_("the game is over"), "R-END")
        return p

    def _safe(self, card: int) -> bool:
        return is_safe(self.rules, card, self.total, self.plays_left == 2, self.played_99)

    def _check_unseen(self, p: int, card: int) -> None:
        """Refuse a card the mover cannot hold: not in the deck, or every copy known
        elsewhere (on the discard pile, laid face up)."""
        if not self.rules.card_in_deck(card):
            raise self._why_illegal(card)
        hand = self.hands[p]
        if card in hand or (UNKNOWN in hand and self.unseen(p)[card] > 0):
            return
        raise _gone(card, laid=any(card in self.hands[s] for s in self.out))

    def _reveal(self, p: int, action: int) -> None:
        """The card (four ONO 99s for ``FOUR_99``) the mover plays: unknown cards of its
        hand become it, where it does not hold it known already."""
        hand = self.hands[p]
        card, count = (_99, 4) if action == FOUR_99 else (action, 1)
        for _ in range(count - hand.count(card)):
            hand[hand.index(UNKNOWN)] = card

    def _stuck(self, p: int, numbers_ok: bool, holding: int | None = None) -> bool:
        """Whether seat ``p`` (to move) may hold only cards it cannot play now (R-LIM-2,
        R-99-3: never four ONO 99s in mattel2022), ``holding`` among them; with
        ``numbers_ok`` false no number card either (R-END-3: nothing to give up)."""
        hand = list(self.hands[p])
        pool = self.unseen(p)
        if holding is not None and holding not in hand:
            if UNKNOWN not in hand or pool[holding] <= 0:
                return False
            pool[holding] -= 1
            hand[hand.index(UNKNOWN)] = holding

        def playable(c: int) -> bool:
            return self._safe(c) or (c <= 10 and not numbers_ok)

        known = [c for c in hand if c != UNKNOWN]
        if any(playable(c) for c in known) or (self.rules.four_99 and known.count(_99) >= 4):
            return False
        room = 3 - known.count(_99) if self.rules.four_99 else len(hand)
        free = sum(pool[c] for c in range(16) if c != _99 and pool[c] > 0 and not playable(c))
        if not playable(_99):
            free += max(0, min(pool[_99], room))
        return free >= len(hand) - len(known)

    def _declared_bust(self, p: int) -> None:
        """R-LIM-2, R-END: the player to move says they have no card they can play."""
        name = self.names[p]
        if self.pending_draw == p:  # R-DRAW-2: they draw first, and may then hold a safe card
            raise TrackError(NOT_POSSIBLE)
        points = self.rules.scoring.bust_throws_card
        if not self._stuck(p, numbers_ok=not points):
            if points and self._stuck(p, numbers_ok=True):
                raise TrackError(
                    N_("{name} must give up a number card: tap the card they played"),
                    rule="R-END-3", name=name,
                )  # fmt: skip
            raise TrackError(NOT_POSSIBLE)
        self._bust(p)

    def _bust_by(self, p: int, card: int) -> None:
        """A number card over the limit: the mover had no safe card (R-LIM-2). It is given
        up (R-END-3), or it stays in the hand as the player busts (R-END-1, R-END-2)."""
        if self.pending_draw == p or not self._stuck(p, numbers_ok=True, holding=card):
            raise self._why_illegal(card) if self.pending_draw == p else TrackError(NOT_POSSIBLE)
        self._reveal(p, card)
        if self.rules.scoring.bust_throws_card:
            self._record(p, card)
            if self.pending_draw is not None:
                self._lose_pending()  # R-DRAW-1: a card is played before the draw
            self._bust_play(p, card)
        else:
            self._bust(p)

    def _bust(self, p: int) -> None:
        self.bust_context[p] = (self.total, self.plays_left == 2, self.played_99)
        super()._bust(p)

    def _why_illegal(self, action: int, hand: Sequence[int] | None = None) -> IllegalAction:
        p = self._mover()
        hand = self.hands[p] if hand is None else hand
        if action < 16 and UNKNOWN in hand and action not in hand:
            hand = [*hand, action]  # it could be held: the reason is the rules'
        return illegal_action_error(
            self.rules, action, name=self.names[p], seat=p, hand=hand, total=self.total,
            plays_left=self.plays_left, played_99=self.played_99, bust_mode=self.must_bust_play,
        )  # fmt: skip

    # ------------------------------------------------------------------ engine hooks

    def _compute_legal(self) -> tuple[int, ...]:
        """The cards the mover could hold and play safely; with none, in points mode, the
        number cards it could give up (R-END-3); with none of those it busts."""
        p = self._mover()
        r = self.rules
        hand = self.hands[p]
        pool = self.unseen(p) if UNKNOWN in hand else [0] * 16
        held = [c for c in range(16) if c in hand or pool[c] > 0]
        legal = [c for c in held if self._safe(c)]
        if (
            r.four_99
            and len(hand) >= 4
            and hand.count(_99) + min(pool[_99], hand.count(UNKNOWN)) >= 4
        ):
            legal.append(FOUR_99)  # R-99-3
        if self.pending_draw == p:
            legal.append(DRAW)
        self._bust_mode = False
        if not legal and r.scoring.bust_throws_card:
            legal = [c for c in held if c <= 10]
            self._bust_mode = bool(legal)
        return tuple(legal)

    def _deal_round(self) -> tuple[list[list[int]], list[int]]:
        self._reshuffled, self._fresh = [], -1
        size = self.rules.hand_size
        hands = [[UNKNOWN] * size if alive else [] for alive in self.alive]
        return hands, [UNKNOWN] * (self.rules.deck_size - size * sum(self.alive))

    def _draw(self, seat: int, count: int) -> None:
        self._drawer = seat
        super()._draw(seat, count)

    def _reshuffle(self) -> None:
        # R-TURN-3: the discard pile becomes the draw pile, face down: unknown cards
        self._reshuffled += self.discard
        self._fresh = self._drawer
        self.draw_pile = [UNKNOWN] * len(self.discard)
        self.discard = []
        self.reshuffles += 1
        self._emit("reshuffle", total=self.total)

    def round_gains(self) -> list[int] | None:
        hands = self.told_hands.get(self.round)
        if hands is not None:
            self._install(hands)
            return super().round_gains()
        points = self.told_points.get(self.round)
        return None if points is None else self._gains(points)

    # ------------------------------------------------------------------ what is told

    def tell_round(
        self, hands: Sequence[Sequence[int] | None] | None = None,
        points: Sequence[int | None] | None = None,
    ) -> None:  # fmt: skip
        """R-END-3: the cards left in each hand at this points round's end (``None``: a
        seat out of the game), or instead each hand's points as the players counted them
        (this mode adds 15 a card short of four, 25 out of the round). Kept for the round's
        end; told while the game waits there, the round is scored at once. Hands or points
        that do not fit raise :class:`TrackError` and change nothing."""
        if hands is None and points is None:
            raise TrackError(N_("no round is waiting for the cards left in hand"))
        g = self.copy(events=self.events is not None) if self.waiting else self
        if hands is not None:
            g.told_hands[g.round] = [None if h is None else list(h) for h in hands]
        elif points is not None:
            g.told_points[g.round] = list(points)
        if g is not self:
            gains = g.round_gains()  # checked on the copy: a refusal changes nothing here
            assert gains is not None
            g._score_round(gains)
            self._adopt(g)

    def _install(self, hands: Sequence[Sequence[int] | None]) -> None:
        """Check the hands told for this round's end against the game and put them in."""
        n = self.n
        if len(hands) != n or any(hands[s] is None for s in range(n) if self.alive[s]):
            raise TrackError(N_("give the cards of {count} hands, one per player"), count=n)
        counts = list(self.rules.deck)
        for c in self.discard:
            counts[c] -= 1
        for s in range(n):
            h = hands[s]
            if not self.alive[s] or h is None:
                continue
            if len(h) != len(self.hands[s]):
                raise TrackError(N_("those hands do not fit the game (a card count is off)"))
            for c in h:
                if not self.rules.card_in_deck(c):
                    raise self._why_illegal(c, [c])
                counts[c] -= 1
                if counts[c] < 0:
                    raise _gone(c)
        for s in range(n):
            h = hands[s]
            if self.alive[s] and h is not None:
                self.hands[s] = list(h)

    def _gains(self, points: Sequence[int | None]) -> list[int]:
        """What each seat gains from the points told for its hand (R-END-3)."""
        scoring = self.rules.scoring
        assert isinstance(scoring, Points)
        if isinstance(points, str) or len(points) != self.n:
            raise TrackError(N_("give the points of {count} hands, one per player"), count=self.n)
        out = [0] * self.n
        for s, p in enumerate(points):
            if not self.alive[s]:
                continue
            k = len(self.hands[s])
            if isinstance(p, bool) or not isinstance(p, int) or not could_score(self.rules, p, k):
                raise TrackError(
                    N_("{name}'s {count} cards cannot make {points} points"),
                    rule="R-END-3", name=self.names[s], count=k, points=repr(p),
                )  # fmt: skip
            out[s] = p + 15 * max(0, 4 - k) + scoring.OUT_OF_ROUND * (s in self.round_out)
        return out

    def lay(self, seat: int, cards: Sequence[int]) -> None:
        """R-END-1: the cards ``seat`` laid face up when it went out of the game, as typed
        in: known from now on. Refused (TrackError, nothing changed) where they leave out
        the card tapped for its bust, a copy is known elsewhere, or one of them (or four
        ONO 99s, R-99-3) was playable where it busted (R-LIM-2)."""
        ctx = self.bust_context.get(seat)
        if ctx is None or not self.rules.scoring.bust_eliminates or seat not in self.out:
            raise TrackError(N_("that player is not out of the game"))
        name, hand = self.names[seat], self.hands[seat]
        if len(cards) != len(hand):
            raise TrackError(
                N_("{name} laid {count} cards face up, not {given}"),
                name=name, count=len(hand), given=len(cards),
            )  # fmt: skip
        pool = self.unseen()
        for c in hand:
            if c != UNKNOWN:
                pool[c] += 1
                if hand.count(c) > list(cards).count(c):
                    raise TrackError(
                        N_("{name} tapped {card}, so it is among the cards laid face up"),
                        name=name, card=repr(action_code(c)),
                    )  # fmt: skip
        for c in cards:
            pool[c] -= 1
            if pool[c] < 0:
                raise _gone(c)
        total, first, played_99 = ctx
        r = self.rules
        if (
            any(is_safe(r, c, total, first, played_99) for c in cards)
            or list(cards).count(_99) >= 4
        ):
            raise TrackError(
                N_("{name} could have played one of those cards, so was not out"),
                rule="R-LIM-2", name=name,
            )  # fmt: skip
        self.hands[seat] = list(cards)
