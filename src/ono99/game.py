"""The rules engine: one pure, deterministic game state (RULES.md).

No I/O, no global random state: every shuffle comes from the game's seed.

>>> from ono99 import Game, parse_action
>>> g = Game("mattel2022", 3, seed=7)
>>> g.to_move
0
>>> a = g.legal_actions()[0]
>>> _ = g.apply(a)
>>> g.to_move
1
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from ono99.cards import DRAW, FOUR_99, Card, action_code, parse_action
from ono99.chance import (
    DEAL,
    RESHUFFLE,
    RNG_VERSIONS,
    SEED_LIMIT,
    random_shuffle,
    shuffle,
    shuffle_v1,
    stream_key,
)
from ono99.deals import Deal, parse_deal
from ono99.errors import IllegalAction, RecordError, RulesError
from ono99.events import Event
from ono99.i18n import N_
from ono99.moves import total_after, why_illegal
from ono99.observation import mask_values, observation_values
from ono99.rules import Rules, deck_list, make_rules
from ono99.scoring import CARD_POINTS, Points, hand_points
from ono99.termsafe import short_repr
from ono99.view import PlayerView, PublicView, public_view, view_of

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = [
    "Game", "Deal", "hand_points", "new_seed", "CARD_POINTS", "illegal_action_error",
    "seeded_shuffle", "check_setup", "check_seed", "check_rng",
]  # fmt: skip

#: bits of a seed the user did not choose: far too many to search from what a player sees
SEED_BITS = 128


def new_seed() -> int:
    """A fresh, unguessable seed (``secrets``): for every game whose seed nobody chose."""
    return secrets.randbits(SEED_BITS)


_M10 = int(Card.MINUS10)
_REV = int(Card.REVERSE)
_P2 = int(Card.PLAY2)
_HOLD = int(Card.HOLD)
_99 = int(Card.NINETY_NINE)

# Bit masks of card sets (bit c = card c) for the legal-move test.
_NUMBERS = (1 << 11) - 1  # 0 ... 10
_P2_BIT = 1 << _P2
_99_BIT = 1 << _99
_SPECIALS = (1 << _M10) | (1 << _REV) | _P2_BIT | (1 << _HOLD)


class _SortedCards(dict[int, tuple[int, ...]]):
    """mask -> the sorted tuple of the cards in it, computed once per mask."""

    def __missing__(self, mask: int) -> tuple[int, ...]:
        cards = tuple(c for c in range(16) if mask >> c & 1)
        self[mask] = cards
        return cards


_CARDS_IN = _SortedCards()


#: ``seeded_shuffle(rng, x)`` shuffles ``x`` exactly as ``rng.shuffle(x)`` does (the same
#: draws, the same order), without its per-card method calls: for the bots' worlds
seeded_shuffle = random_shuffle


def _shuffle(version: int, seed: int, purpose: int, number: int, x: list[int]) -> None:
    """Shuffle ``x`` for one chance event (a round's deal, a reshuffle) with the game's
    generator (R-REC ``rng``). One stream per event: explicit deals in a record never
    shift the randomness of later reshuffles, so records replay exactly."""
    if version == 2:
        shuffle(stream_key(purpose, seed, number), x)
    else:
        shuffle_v1(seed, "deal" if purpose == DEAL else "reshuffle", number, x)


def check_seed(seed: object, where: str = "seed") -> int:
    """``seed`` if it is in the one seed domain, an integer with 0 <= seed < 2**256 (R-REC:
    a version-2 key holds it in 32 bytes); else a RecordError naming ``where``."""
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < SEED_LIMIT:
        raise RecordError(
            N_("{where} must be an integer from 0 to 2²⁵⁶ - 1, not {value}"),
            where=where, value=short_repr(seed),
        )  # fmt: skip
    return seed


def check_rng(rng: object, where: str = "rng") -> int:
    """``rng`` if it names a version of the seeded shuffle (R-REC: 1 or 2); else a
    RecordError naming ``where``."""
    if isinstance(rng, bool) or not isinstance(rng, int) or rng not in RNG_VERSIONS:
        raise RecordError(
            N_("{where} must be 1 or 2 (the version of the seeded shuffle), not {value}"),
            where=where, value=short_repr(rng),
        )  # fmt: skip
    return rng


def check_setup(
    rules: str | Rules,
    players: int | Sequence[str],
    options: Mapping[str, Any] | None,
    seed: int | None,
    dealer: int | None,
    rng: int = 2,
) -> tuple[Rules, list[str], int, int]:
    """A new game's arguments checked (R-SET-5, R-SET-6, R-SET-3, R-REC) as every engine
    checks them: the rules, the players' names, the seed (a fresh unguessable one when
    None), the generator's version and the dealer (seat n - 1 when None). Raises
    RulesError or RecordError."""
    if isinstance(rules, Rules):
        if options:
            raise RulesError(N_("pass options to make_rules, not with a Rules object"))
        r = rules
    else:
        r = make_rules(rules, options)
    if isinstance(players, bool) or not isinstance(players, (int, list, tuple)):
        raise RulesError(
            N_("players must be a count or a list of names, not {value}"), value=repr(players)
        )
    n = players if isinstance(players, int) else len(players)
    r.check_players(n)
    if isinstance(players, int):
        names = [f"Player {i + 1}" for i in range(n)]
    else:
        names = [str(p) for p in players]
    seed = new_seed() if seed is None else check_seed(seed)
    check_rng(rng)
    if dealer is None:
        dealer = n - 1
    if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < n:
        raise RecordError(
            N_("dealer must be a seat from 0 to {last}, not {value}"),
            last=n - 1, value=repr(dealer),
        )  # fmt: skip
    return r, names, seed, dealer


class Game:
    """A game of ONO 99 under one preset.

    ``players`` is a count or a list of names. ``seed`` (an integer, 0 <= seed < 2**256)
    fixes every shuffle; without one the game takes a fresh unguessable seed
    (:func:`new_seed`), kept in ``seed`` for its record. ``rng`` is the version of the
    seeded shuffle (R-REC: 2, docs/records.md; 1 only to replay old records). ``deals``
    optionally fixes the deal of each round (R-REC).
    ``events=False`` skips the announcement log (search).
    """

    #: How each field of the state is copied: "same" (never mutated, shared), "list"
    #: (a flat list), "lists" (a list of lists), "maybe" (a list or None), "winner" (a
    #: seat, a list of seats or None), "events" (handled by the caller). The one place a
    #: new field is declared: copy(), the rollback in apply() and __slots__ follow it.
    _STATE: ClassVar[dict[str, str]] = {
        "rules": "same", "n": "same", "names": "same", "seed": "same", "rng": "same",
        "dealer": "same",
        "given_deals": "same", "dealt": "list", "hands": "lists", "draw_pile": "list",
        "discard": "list", "total": "same", "direction": "same", "_to_move": "same",
        "_owes_two": "same", "plays_left": "same", "played_99": "same", "alive": "list",
        "active": "list", "n_active": "same", "out": "list", "tokens": "maybe",
        "scores": "maybe", "round_out": "list", "out_rounds": "list", "round": "same", "_winner": "winner",
        "_pending": "same", "moves": "list", "move_seats": "list", "events": "events",
        "reshuffles": "same", "_legal": "same", "_bust_mode": "same",
    }  # fmt: skip
    __slots__ = tuple(_STATE)

    def __init__(
        self,
        rules: str | Rules = "mattel2022",
        players: int | Sequence[str] = 2,
        *,
        options: Mapping[str, Any] | None = None,
        seed: int | None = None,
        dealer: int | None = None,
        deals: Sequence[Deal] | None = None,
        events: bool = True,
        rng: int = 2,
    ) -> None:
        self.rules, names, seed, dealer = check_setup(rules, players, options, seed, dealer, rng)
        r = self.rules
        n = len(names)
        self.n = n
        self.names = names
        self.seed = seed
        self.rng = rng
        self.dealer = dealer
        if deals:
            self.given_deals: list[Deal | None] = [
                parse_deal(self.rules, n, i, d) for i, d in enumerate(deals)
            ]
        else:
            self.given_deals = []
        self.dealt: list[Deal] = []
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.draw_pile: list[int] = []  # top card is the last element
        self.discard: list[int] = []
        self.total = 0
        self.direction = 1
        self._to_move = -1
        self._owes_two = -1
        self.plays_left = 1
        self.played_99 = False
        self.alive = [True] * n
        self.active = [True] * n
        self.n_active = n
        self.out: list[int] = []
        self.tokens: list[int] | None = r.scoring.start_tokens(n)
        self.scores: list[int] | None = r.scoring.start_scores(n)
        self.round_out: list[int] = []
        #: the round each seat of ``out`` left the game in (R-END-3 places those put out at
        #: the same round's end by their points)
        self.out_rounds: list[int] = []
        self.round = 0
        self._winner: int | list[int] | None = None
        self._pending = -1
        self.moves: list[int] = []
        self.move_seats: list[int] = []
        self.events: list[Event] | None = [] if events else None
        self.reshuffles = 0
        self._legal: tuple[int, ...] = ()
        self._bust_mode = False
        self._start_round((dealer + 1) % n)

    def __str__(self) -> str:
        """The table in a few lines, every hand shown (``print(game)``; a player's side
        is :meth:`view`): :func:`ono99.board.table_text`."""
        from ono99.board import table_text  # the text builds on the engine's state

        return table_text(self)

    # ------------------------------------------------------------------ queries

    @property
    def to_move(self) -> int | None:
        """The seat that plays next, or None when the game is over."""
        return None if self._to_move < 0 else self._to_move

    @property
    def owes_two(self) -> int | None:
        """R-P2-6: the seat that must play two cards, or None."""
        return None if self._owes_two < 0 else self._owes_two

    @property
    def pending_draw(self) -> int | None:
        """R-DRAW-1: the seat whose draw is pending, or None."""
        return None if self._pending < 0 else self._pending

    @property
    def winner(self) -> int | list[int] | None:
        """The winning seat, the list of seats sharing a win, or None while playing."""
        return self._winner

    @property
    def is_over(self) -> bool:
        return self._to_move < 0

    @property
    def must_bust_play(self) -> bool:
        """Points mode (R-END-3): the player to move has no safe card and must play an
        unsafe one; :meth:`legal_actions` lists those."""
        return self._bust_mode

    def view(self, seat: int) -> PlayerView:
        """What ``seat`` may know (its own hand, public state): see :mod:`ono99.view`."""
        return view_of(self, seat)

    def public_view(self) -> PublicView:
        """What everyone may know (a spectator's view): no hand."""
        return public_view(self)

    def acting(self) -> dict[int, tuple[int, ...]]:
        """Who may act now, and with what: ``{seat: legal actions}``, in seat order.

        Usually one seat, the player to move. Under the draw penalty (R-DRAW-1) the
        seat whose draw is pending may ``DRAW`` while the next player may already
        play: both appear, and whoever acts first wins the race. Empty when the game
        is over.

        >>> g = Game("classic1980", 3, options={"draw_penalty": True}, seed=3)
        >>> _ = g.apply(g.legal_actions(0)[0])
        >>> sorted(g.acting())
        [0, 1]
        >>> g.acting()[0]
        (17,)
        """
        p = self._to_move
        if p < 0:
            return {}
        pending = self._pending
        if pending < 0 or pending == p:
            return {p: self._legal}
        return dict(sorted(((p, self._legal), (pending, (DRAW,)))))

    def events_for(self, seat: int | None, start: int = 0) -> list[Event]:
        """The announcements from index ``start`` on as ``seat`` may hear them: the cards
        another seat drew are left out (``seat`` None: a spectator, no drawn cards).

        Every event a player or a spectator receives comes through here; ``events``
        itself is the engine's full log (drawn cards included)."""
        return [e.heard_by(seat) for e in (self.events or [])[start:]]

    def legal_actions(self, seat: int | None = None) -> tuple[int, ...]:
        """The actions the game accepts now, sorted: cards to play for the player to
        move, ``FOUR_99``, and ``DRAW`` while a draw is pending (made by its seat).

        With ``seat``, only the actions that seat may make."""
        legal = self._legal
        pending = self._pending
        if seat is not None:
            if seat == self._to_move:
                return legal
            return (DRAW,) if seat == pending else ()
        if pending >= 0 and pending != self._to_move:
            return (*legal, DRAW)
        return legal

    # ------------------------------------------------------------------ actions

    def verify(self, action: int | str, seat: int | None = None) -> int:
        """Check ``action`` without making it: returns the seat that would make it, or
        raises :class:`IllegalAction` (or :class:`RecordError` for an unknown code) with
        the reason and the rule, as :meth:`apply` would. Nothing changes.

        ``seat``: the seat that acts (a player at a table, a bot). Then an action that
        seat may not make now is refused for a reason built only from what that seat
        may see: not its turn (R-TURN-1) or no draw of its own pending (R-DRAW-1) —
        never the reason the mover's hand would give, which would tell what another
        player holds. Without ``seat`` (replaying a record) the action is made by
        whoever may make it.

        >>> g = Game("mattel2022", ["Ana", "Bo"], seed=5)
        >>> g.verify("5") == g.to_move
        True
        >>> g.verify("9")
        Traceback (most recent call last):
        ...
        ono99.errors.IllegalAction: Ana (seat 0) has no '9' in hand (R-TURN-1)
        >>> g.verify("9", seat=1)
        Traceback (most recent call last):
        ...
        ono99.errors.IllegalAction: it is not your turn (R-TURN-1)
        """
        action = self._action(action)
        if seat is not None:
            self._check_seat(action, seat)
        if action == DRAW:
            if self._pending < 0:
                raise IllegalAction(N_("no draw is pending"), "R-DRAW-1")
            return self._pending
        if action not in self._legal:
            raise self._why_illegal(action)
        return self._to_move

    def can_apply(self, action: int | str) -> bool:
        """Whether :meth:`apply` would accept ``action`` now."""
        try:
            self.verify(action)
        except (IllegalAction, RecordError):
            return False
        return True

    def _action(self, action: int | str) -> int:
        """``action`` as an int, checked to be an action of a game still going on."""
        if type(action) is not int:  # a plain int (the hot path) skips these tests
            if isinstance(action, str):
                action = parse_action(action)
            elif isinstance(action, bool) or not isinstance(action, int):
                raise IllegalAction(N_("{action} is not an action"), action=repr(action))
        if not 0 <= action <= DRAW:
            raise IllegalAction(N_("{action} is not an action"), action=repr(action))
        if self._to_move < 0:
            raise IllegalAction(N_("the game is over"), "R-END")
        return action

    def _check_seat(self, action: int, seat: int) -> None:
        """Refuse ``action`` by ``seat`` when it is not that seat's to make, for a reason
        that depends only on public facts (whose turn, whose draw is pending)."""
        if action == DRAW:
            if seat != self._pending:
                raise IllegalAction(N_("no draw is pending"), "R-DRAW-1")
        elif seat != self._to_move:
            raise IllegalAction(N_("it is not your turn"), "R-TURN-1")

    def apply(self, action: int | str, seat: int | None = None) -> int:
        """Make ``action`` (an int or a code such as ``"P2"``); returns the seat that
        made it. An illegal action raises :class:`IllegalAction` naming the rule and
        changes nothing (:meth:`verify` checks without making it). ``seat``: the seat
        that acts, checked as :meth:`verify` checks it."""
        if type(action) is not int or not 0 <= action <= DRAW or self._to_move < 0:
            action = self._action(action)  # a code to parse, or an error (the hot path skips it)
        if seat is not None:
            self._check_seat(action, seat)
        if self.round < len(self.given_deals):
            # The next round's given deal is checked against the seats still in
            # the game only when it is dealt: a bad one raises RecordError and
            # leaves this game exactly as it was.
            saved = self.copy()
            n_events = 0 if self.events is None else len(self.events)
            try:
                return self._apply(action)
            except RecordError:
                _copy_state(saved, self)
                if self.events is not None:
                    del self.events[n_events:]
                raise
        return self._apply(action)

    def _apply(self, action: int) -> int:
        if action == DRAW:
            seat = self._pending
            if seat < 0:
                raise IllegalAction(N_("no draw is pending"), "R-DRAW-1")
            self._record(seat, action)
            self._pending = -1
            self._draw(seat, 1)
            self._settle()
            return seat
        if action not in self._legal:
            raise self._why_illegal(action)
        p = self._to_move
        self.moves.append(action)  # _record, inlined
        self.move_seats.append(p)
        if self._pending >= 0:
            self._lose_pending()
        if action == FOUR_99:
            self._play_four_99(p)
        elif self._bust_mode:
            self._bust_play(p, action)
        else:
            self._play(p, action)
        self._settle()
        return p

    # ------------------------------------------------------------- environments

    def take_draws(self) -> None:
        """Take every pending draw at once (R-DRAW-1: bots and the environments always draw
        at once), so that exactly one seat, ``to_move``, may act and ``DRAW`` is not legal."""
        while self._pending >= 0 and self._to_move >= 0:
            self.apply(DRAW)

    def env_step(self, action: int, seat: int) -> int:
        """The environments' step (:mod:`ono99.envs`): ``seat`` (the seat to move) plays
        card ``action``, then every pending draw is taken at once (R-DRAW-1); returns the
        seat to move next, -1 once the game is over. Anything else -- another seat,
        ``DRAW``, an illegal card -- raises :class:`IllegalAction` as :meth:`apply` would
        and changes nothing."""
        if action == DRAW or action not in self.legal_actions(seat):
            self.verify(action, seat)  # the reason, from what this seat sees
            raise IllegalAction("the environments take every draw at once (R-DRAW-1)")
        self.apply(action)
        self.take_draws()
        return self._to_move

    def observe(self, seat: int, obs: npt.NDArray[np.float32], mask: npt.NDArray[np.int8]) -> None:
        """Write ``seat``'s observation vector and action mask, built from its view only
        (R-SET-1: :mod:`ono99.observation`), into ``obs`` and ``mask``."""
        view = view_of(self, seat)
        obs[:] = observation_values(view)
        mask[:] = mask_values(view)

    def copy(self, events: bool = False) -> Game:
        """A cheap independent copy (no deepcopy); the event log is dropped unless
        ``events`` is true."""
        cls = self.__class__  # a subclass (the real-cards mode) copies as itself
        g = cls.__new__(cls)
        _copy_state(self, g)
        g.events = (self.events[:] if self.events is not None else []) if events else None
        return g

    @classmethod
    def world(
        cls,
        view: PublicView,
        hands: list[list[int]],
        draw_pile: list[int],
        seed: int,
        deals: Sequence[Deal | None] = (),
    ) -> Game:
        """A game whose public state is ``view``'s and whose hidden cards are ``hands``
        (every seat's) and ``draw_pile`` (top card last): a world for search to play in
        (:func:`~ono99.determinize.sample_world`). ``seed`` drives its later reshuffles
        and deals; ``deals`` (parsed, as :data:`Deal`; None: from the seed) fixes the
        deals of the rounds after ``view``'s, in order.
        It has no history (no moves, no event log) and is never a real game."""
        g = cls.__new__(cls)
        g.rules = view.rules
        g.n = len(view.names)
        g.names = list(view.names)
        g.seed = seed
        g.rng = 2
        g.dealer = 0
        g.given_deals = [*([None] * view.round), *deals]
        g.dealt = []
        g.hands = hands
        g.draw_pile = draw_pile
        g.discard = list(view.discard)
        g.total = view.total
        g.direction = view.direction
        g._to_move = -1 if view.to_move is None else view.to_move
        g._owes_two = -1 if view.owes_two is None else view.owes_two
        g.plays_left = view.plays_left
        g.played_99 = view.played_99
        g.alive = list(view.alive)
        g.active = list(view.active)
        g.n_active = sum(view.active)
        g.out = list(view.out)
        g.tokens = None if view.tokens is None else list(view.tokens)
        g.scores = None if view.scores is None else list(view.scores)
        g.round_out = list(view.round_out)
        g.out_rounds = list(view.out_rounds)
        g.round = view.round
        w = view.winner
        g._winner = list(w) if isinstance(w, tuple) else w
        g._pending = -1 if view.pending_draw is None else view.pending_draw
        g.moves = []
        g.move_seats = []
        g.events = None
        g.reshuffles = view.reshuffles
        g._legal = ()
        g._bust_mode = False
        g.resettle()
        return g

    def resettle(self) -> None:
        """Bring the legal actions up to date after a search world's hidden cards were
        moved between hands and the draw pile (the public state unchanged): for bots
        that condition sampled worlds on what they saw (:mod:`ono99.bots.inference`).
        A real game never needs it."""
        self._legal = self._compute_legal() if self._to_move >= 0 else ()

    # ------------------------------------------------------------------ internals

    def _emit(self, kind: str, seat: int | None = None, card: int | None = None,
              total: int | None = None, info: dict[str, Any] | None = None) -> None:  # fmt: skip
        if self.events is not None:
            self.events.append(Event(kind, seat, card, total, info))

    def _record(self, seat: int, action: int) -> None:
        self.moves.append(action)
        self.move_seats.append(seat)

    def _compute_legal(self) -> tuple[int, ...]:
        """Legal card plays for the player to move; sets bust mode (R-END-3)."""
        # Card sets are bit masks (bit c = card c): the cards held, masked by the
        # cards playable now, give the answer from a cache of sorted tuples.
        p = self._to_move
        r = self.rules
        hand = self.hands[p]
        held = 0
        for c in hand:
            held |= 1 << c
        room = r.limit - self.total  # a number card v is safe when v < room (R-LIM-1)
        ok = _NUMBERS if room > 10 else (1 << room) - 1 if room > 0 else 0
        if self.plays_left == 2 and not r.play2_first_ok:
            ok |= _SPECIALS & ~_P2_BIT  # R-P2-3: a Double Play is never the first of two
        else:
            ok |= _SPECIALS  # -10, Reverse, Play 2, Hold
        # R-99-1, R-99-2, R-99-5
        if r.ninety_nine_sets or (r.zero_ending_99 and not self.played_99 and self.total % 10 == 0):
            ok |= _99_BIT
        legal = _CARDS_IN[held & ok]
        if r.four_99 and held & _99_BIT and hand.count(_99) >= 4:
            legal += (FOUR_99,)  # R-99-3
        if self._pending == p:
            legal += (DRAW,)
        self._bust_mode = False
        if not legal and r.scoring.bust_throws_card:
            # R-END-3: must play an unsafe card (never a 99; never a DP first of two)
            legal = _CARDS_IN[held & _NUMBERS]
            self._bust_mode = bool(legal)
        return legal

    def _settle(self) -> None:
        """Resolve every bust that leaves no choice, until someone must choose."""
        while self._to_move >= 0:
            legal = self._compute_legal()
            if legal:
                self._legal = legal
                return
            self._bust(self._to_move)
        self._legal = ()
        self._bust_mode = False

    def _draw(self, seat: int, count: int) -> None:
        hand, pile = self.hands[seat], self.draw_pile
        got = 0
        for _ in range(count):
            if not pile:
                if not self.discard or not self.rules.reshuffle:
                    break  # R-TURN-3: both piles empty (mini: never reshuffled); play on short
                self._reshuffle()
                pile = self.draw_pile
            hand.append(pile.pop())
            got += 1
        if self.events is not None:
            # The drawn cards are the drawer's alone: events_for() drops them for others.
            self._emit("draw", seat, info={"count": got, "cards": hand[len(hand) - got :]})

    def _reshuffle(self) -> None:
        # R-TURN-3: the whole discard pile becomes the draw pile; total unchanged.
        pile = self.discard
        self.discard = []
        self.reshuffles += 1
        _shuffle(self.rng, self.seed, RESHUFFLE, self.reshuffles, pile)
        self.draw_pile = pile
        self._emit("reshuffle", total=self.total)

    def _lose_pending(self) -> None:
        self._emit("draw_lost", self._pending)  # R-DRAW-1
        self._pending = -1

    def _end_turn(self, p: int, owes_next: bool) -> None:
        n, d, active = self.n, self.direction, self.active
        nxt = (p + d) % n  # R-TURN-2, R-TURN-4: the next seat still taking turns
        while not active[nxt]:
            nxt = (nxt + d) % n
        self._to_move = nxt
        self.played_99 = False
        if owes_next:
            self._owes_two = nxt
            self.plays_left = 2
            if self.events is not None:
                self._emit("owes_two", nxt)
        else:
            self._owes_two = -1
            self.plays_left = 1

    def _play(self, p: int, c: int) -> None:
        hand = self.hands[p]
        hand.remove(c)
        self.discard.append(c)
        r = self.rules
        if c <= 10:
            self.total += c  # total_after's first case, inlined: the commonest play
        else:
            self.total = total_after(r, self.total, c)  # R-M10-1, R-99-2
            if c == _REV:
                if self.n_active > 2:  # R-REV-2: with two players Reverse is a Hold
                    self.direction = -self.direction
            elif c == _99 and not r.ninety_nine_sets:
                self.played_99 = True  # R-99-5
        if self.events is not None:
            self._emit("play", p, c, self.total)
            if c == _REV and self.n_active > 2:
                self._emit("reverse", p, info={"direction": self.direction})
        first_of_two = self.plays_left == 2
        if first_of_two and c in r.answers:
            turn_over, owes_next = True, True  # R-P2-3: answered, passes on
        elif first_of_two:
            turn_over, owes_next = False, False
            self.plays_left = 1
        else:
            turn_over, owes_next = True, c == _P2  # R-P2-1, R-P2-5
        if r.draw_penalty:
            self._pending = p  # R-DRAW-1: drawing is the player's own move
        elif self.draw_pile and self.events is None:
            hand.append(self.draw_pile.pop())  # R-TURN-2, the common case of _draw
        else:
            self._draw(p, 1)  # R-TURN-2
        if turn_over:
            self._end_turn(p, owes_next)

    def _play_four_99(self, p: int) -> None:
        hand = self.hands[p]
        for _ in range(4):
            hand.remove(_99)
        self.discard.extend((_99, _99, _99, _99))
        self._emit("four99", p, total=self.total)
        self._draw(p, 4)  # R-99-3
        if self.plays_left == 2:
            self.plays_left = 1
        else:
            self._end_turn(p, False)

    def _bust_play(self, p: int, c: int) -> None:
        # R-END-3: the unsafe card is discarded but not counted; an automatic draw.
        self.hands[p].remove(c)
        self.discard.append(c)
        self._emit("bust", p, c, self.total)
        self._draw(p, 1)
        self._out_of_round(p)

    def _bust(self, p: int) -> None:
        """A bust that leaves no choice (R-LIM-2, R-P2-4, R-END)."""
        scoring = self.rules.scoring
        self._emit("bust", p, None, self.total)
        if scoring.bust_throws_card:
            self._out_of_round(p)  # R-END-3: nothing to throw, out of the round all the same
        elif scoring.bust_eliminates:
            self._eliminate(p)  # R-END-1
            self.n_active -= 1
            self.active[p] = False
            self._owes_two = -1
            self.plays_left = 1
            if self.n_active == 1:
                self._finish(self.active.index(True))
            else:
                self._end_turn(p, False)
        else:  # R-END-2: the round ends
            tokens = self.tokens
            assert tokens is not None
            if tokens[p] == 0:
                self._eliminate(p)  # R-END-2
            else:
                tokens[p] -= 1
                self._emit("token_lost", p, info={"tokens": tokens[p]})
            self._pending = -1  # R-DRAW-2: a draw pending at the round's end is not made
            self._emit("round_end", p, info={"round": self.round, "loser": p})
            self._next_round_or_finish(p)

    def _eliminate(self, p: int) -> None:
        self.alive[p] = False
        self.out.append(p)
        self.out_rounds.append(self.round)
        self._emit("eliminated", p)

    def _out_of_round(self, p: int) -> None:
        self.active[p] = False
        self.n_active -= 1
        self.round_out.append(p)
        self._emit("out_of_round", p)
        if self._owes_two == p:
            self._owes_two = -1  # R-P2-4: the next player owes nothing
        self.plays_left = 1
        if self.n_active == 1:
            self._end_points_round()
        else:
            self._end_turn(p, False)

    def round_gains(self) -> list[int] | None:
        """R-END-3: what each seat gains at the end of this points round (0 for a seat out
        of the game), from the cards in hand. A game whose hands nobody sees (the real-cards
        mode, :class:`ono99.unknown.UnknownGame`) answers None until they are told: the game
        then stops at the round's end, nothing scored, nobody put out."""
        scoring = self.rules.scoring
        assert isinstance(scoring, Points)
        return [
            scoring.round_points(self.hands[s], s in self.round_out) if self.alive[s] else 0
            for s in range(self.n)
        ]

    def _end_points_round(self) -> None:
        gained = self.round_gains()
        self._pending = -1  # R-DRAW-2: a draw pending at the round's end is not made
        if gained is None:  # the hands are not known yet: wait here (no winner, no one out)
            self._to_move = -1
            self._owes_two = -1
            self.plays_left = 1
            self._legal = ()
            self._emit("round_end", info={"round": self.round, "waiting": True,
                                          "hands": [h[:] for h in self.hands]})  # fmt: skip
            return
        self._score_round(gained)

    def _score_round(self, gained: list[int]) -> None:
        """R-END-3: the round's points added, then who is out, the winner or the next round."""
        scores = self.scores
        scoring = self.rules.scoring
        assert scores is not None and isinstance(scoring, Points)
        for s in range(self.n):
            scores[s] += gained[s]
        self._emit(
            "round_end",
            info={
                "round": self.round,
                "gained": gained,
                "scores": scores[:],
                "hands": [h[:] for h in self.hands],
            },
        )
        first_out = self.round_out[0]
        out, winner = scoring.game_over(scores, [s for s in range(self.n) if self.alive[s]])
        for s in out:
            self._eliminate(s)
        if winner is not None:
            self._finish(winner)
        else:
            self._start_round(self._first_alive_from(first_out))

    def _first_alive_from(self, seat: int) -> int:
        i = seat
        while not self.alive[i]:
            i = (i + 1) % self.n
        return i

    def _next_round_or_finish(self, loser: int) -> None:
        left = [s for s in range(self.n) if self.alive[s]]
        if len(left) == 1:
            self._finish(left[0])
        else:
            self._start_round(self._first_alive_from(loser))  # R-END-2

    def _finish(self, winner: int | list[int]) -> None:
        self._winner = winner
        self._to_move = -1
        self._owes_two = -1
        self._pending = -1
        self._legal = ()
        self._emit("game_over", info={"winner": winner})

    def _start_round(self, starter: int) -> None:
        self.round += 1
        self.hands, self.draw_pile = self._deal_round()
        self.discard = []
        self.total = 0
        self.direction = 1
        self._owes_two = -1
        self.plays_left = 1
        self.played_99 = False
        self._pending = -1
        self.active = self.alive[:]
        self.n_active = sum(self.active)
        self.round_out = []
        self._to_move = starter
        self._emit("round_start", starter, info={"round": self.round})
        self._settle()

    def _deal_round(self) -> tuple[list[list[int]], list[int]]:
        """This round's hands and draw pile (top card last), shuffled from the seed or as
        given (R-SET-1, R-REC); kept in ``dealt``."""
        r = self.rules
        deck = deck_list(r)
        idx = self.round - 1
        given = self.given_deals[idx] if idx < len(self.given_deals) else None
        if given is not None:
            hands, named_draw = self._check_deal(given, deck)
            # the rest, minus named cards (removed in _check_deal)
            _shuffle(self.rng, self.seed, DEAL, self.round, deck)
            pile = deck + named_draw[::-1]
        else:
            _shuffle(self.rng, self.seed, DEAL, self.round, deck)
            hands = []
            size = r.hand_size
            for s in range(self.n):
                if self.alive[s]:
                    hands.append(deck[-size:][::-1])
                    del deck[-size:]
                else:
                    hands.append([])
            pile = deck
        self.dealt.append(([h[:] for h in hands], pile[::-1]))
        return hands, pile

    def _check_deal(self, deal: Deal, deck: list[int]) -> tuple[list[list[int]], list[int]]:
        """Check a parsed deal against the seats still in the game (R-REC) and
        remove its cards from ``deck``."""
        hands, draw = deal
        for s, hand in enumerate(hands):
            want = self.rules.hand_size if self.alive[s] else 0
            if len(hand) != want:
                raise RecordError(
                    N_("deal for round {round}: seat {seat} must get {want} cards, not {count}")
                    if want
                    else N_("deal for round {round}: seat {seat} must get 0 cards, not {count} (it is out of the game)"),
                    round=self.round, seat=s, want=want, count=len(hand),
                )  # fmt: skip
        for card in [c for h in hands for c in h] + draw:
            deck.remove(card)
        return [h[:] for h in hands], draw[:]

    def _why_illegal(self, action: int) -> IllegalAction:
        """The error to raise, naming the rule, for ``action`` not being legal now."""
        p = self._to_move
        return illegal_action_error(
            self.rules, action, name=self.names[p], seat=p, hand=self.hands[p],
            total=self.total, plays_left=self.plays_left, played_99=self.played_99,
            bust_mode=self._bust_mode,
        )  # fmt: skip


def illegal_action_error(
    rules: Rules,
    action: int,
    *,
    name: str,
    seat: int,
    hand: Sequence[int],
    total: int,
    plays_left: int,
    played_99: bool,
    bust_mode: bool,
) -> IllegalAction:
    """The error, naming the rule, for the player to move (``name`` in ``seat``) whose
    ``action`` is not legal now: one wording for both engines (:mod:`ono99.fast`)."""
    why = why_illegal(
        rules, action, hand=hand, total=total, plays_left=plays_left, played_99=played_99,
        bust_mode=bust_mode,
    )  # fmt: skip
    params = {
        "preset": rules.preset, "name": name, "seat": seat,
        "card": repr(action_code(action)), "total": total, "new_total": why.new_total,
    }  # fmt: skip
    return IllegalAction(_ILLEGAL[why.kind], why.rule, **params)


#: The engine's words for each kind of :class:`~ono99.moves.Why` (English templates,
#: translated by the front end: ``IllegalAction.translated``).
_ILLEGAL = {
    "no_four_99": N_("{preset} has no four-99 discard"),
    "four_99_short": N_("{name} does not hold four ONO 99 cards"),
    "not_in_deck": N_("there is no {card} card in the {preset} deck"),
    "not_in_hand": N_("{name} (seat {seat}) has no {card} in hand"),
    "bust_card": N_("{card} cannot be the unsafe card played when out of safe cards"),
    "one_99_per_turn": N_("only one ONO 99 card may be played per turn"),
    "99_zero_ending": N_("an ONO 99 card may be played only when the total ends in 0"),
    "99_never": N_("the ONO 99 card can never be played in {preset}"),
    "play2_first": N_("a Double Play can never be the first of two plays"),
    "over_limit": N_(
        "{card} would take the total from {total} to {new_total}; a safe card must be played"
    ),
    "not_now": N_("{card} is not legal now"),
}


def _make_copier() -> Callable[[Game, Game], None]:
    """``_copy_state(src, dst)``: every field of ``Game._STATE`` but the event log,
    written out as straight-line code (copy() is on the search bots' hot path)."""
    how = {
        "same": "dst.{0} = src.{0}",
        "list": "dst.{0} = src.{0}[:]",
        "lists": "dst.{0} = [x[:] for x in src.{0}]",
        "maybe": "dst.{0} = None if src.{0} is None else src.{0}[:]",
        "winner": "dst.{0} = src.{0}[:] if isinstance(src.{0}, list) else src.{0}",
    }
    lines = [how[kind].format(name) for name, kind in Game._STATE.items() if kind != "events"]
    source = "def _copy_state(src, dst):\n    " + "\n    ".join(lines) + "\n"
    namespace: dict[str, Any] = {}
    exec(source, namespace)
    copier: Callable[[Game, Game], None] = namespace["_copy_state"]
    return copier


_copy_state = _make_copier()
