""":class:`FastGame`: the fast engine behind the reference engine's interface.

The same constructor, queries and :meth:`~FastGame.apply` as :class:`ono99.Game`, the
same errors in the same words, and the same states: a seed, a record's deals and a
list of moves give equal states in both engines (``tests/fast/``). What it leaves
out: the announcement log (no ``events``), views for bots, and search worlds; the
state is one int64 vector (:mod:`ono99.fast.core`), which :meth:`~FastGame.copy`
copies in one step.

>>> from ono99.fast import FastGame
>>> g = FastGame("mattel2022", 3, seed=7)
>>> g.to_move, len(g.hands[0])
(0, 4)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from ono99.board import table_text
from ono99.cards import DRAW, HAND_SIZE, parse_action
from ono99.deals import Deal, parse_deal
from ono99.errors import IllegalAction, RecordError, RulesError
from ono99.fast import core as k
from ono99.fast import obs as fast_obs
from ono99.fast.notice import announce_first_call
from ono99.fast.rng import new_stream, seed_words
from ono99.game import Game, check_setup, illegal_action_error
from ono99.i18n import N_
from ono99.rules import Rules
from ono99.scoring import Points, Tokens

__all__ = [
    "NO_DEALS", "FastGame", "Scratch", "game_state", "public_state", "replay", "rules_vector",
]  # fmt: skip

#: why a game of version 1 (an old record's) does not play on here (R-REC)
_V1_MESSAGE = N_(
    "this game deals with version 1 of the seeded shuffle, which only the reference engine"
    " plays (R-REC)"
)

_Array = np.ndarray[Any, Any]


def rules_vector(rules: Rules) -> _Array:
    """The kernel's rules vector (``C_*`` offsets) for a validated preset; a
    :class:`RulesError` for the research variant ``mini``, which the kernel does not play
    (its hand size and its draw pile never reshuffled are the reference engine's only)."""
    if not rules.standard_deal:
        raise RulesError(
            N_("the fast engine does not play {preset}; use --engine reference"),
            preset=rules.preset,
        )
    cfg = np.zeros(k.C_LEN, np.int64)
    cfg[k.C_LIMIT] = rules.limit
    cfg[k.C_FLOOR0] = rules.floor_zero
    cfg[k.C_FOUR99] = rules.four_99
    cfg[k.C_99SETS] = rules.ninety_nine_sets
    cfg[k.C_ZERO99] = rules.zero_ending_99
    cfg[k.C_ANSWERS] = sum(1 << int(c) for c in rules.answers)
    cfg[k.C_P2FIRST] = rules.play2_first_ok
    scoring = rules.scoring
    if isinstance(scoring, Points):
        cfg[k.C_MODE] = k.POINTS
        cfg[k.C_TARGET] = scoring.target
        cfg[k.C_LOWEST] = scoring.end == "lowest"
    elif isinstance(scoring, Tokens):
        cfg[k.C_MODE] = k.TOKENS
        cfg[k.C_TOKENS] = scoring.tokens
    else:
        cfg[k.C_MODE] = k.ELIMINATION
    cfg[k.C_DRAWPEN] = rules.draw_penalty
    cfg[k.C_DECK_SIZE] = rules.deck_size
    cfg[k.C_DECK : k.C_DECK + k.N_CARDS] = rules.deck
    return cfg


class Scratch:
    """Work arrays the kernel shuffles in: reused, never part of a state."""

    __slots__ = ("rs", "deck")

    def __init__(self) -> None:
        self.rs = new_stream()
        self.deck = np.zeros(k.PILE_CAP, np.int64)


def _given_deals(rules: Rules, n: int, deals: Sequence[Any]) -> tuple[_Array, ...]:
    """A record's deals (validated as the reference does) as the kernel's arrays."""
    parsed: list[Deal] = [parse_deal(rules, n, i, d) for i, d in enumerate(deals)]
    r = len(parsed)
    hands = np.zeros((r, k.MAXP, HAND_SIZE), np.int64)
    hlen = np.zeros((r, k.MAXP), np.int64)
    draw = np.zeros((r, k.PILE_CAP), np.int64)
    dlen = np.zeros(r, np.int64)
    for i, (hs, pile) in enumerate(parsed):
        for s, h in enumerate(hs):
            hands[i, s, : len(h)] = h
            hlen[i, s] = len(h)
        draw[i, : len(pile)] = pile
        dlen[i] = len(pile)
    return hands, hlen, draw, dlen


NO_DEALS = (
    np.zeros((0, k.MAXP, HAND_SIZE), np.int64),
    np.zeros((0, k.MAXP), np.int64),
    np.zeros((0, k.PILE_CAP), np.int64),
    np.zeros(0, np.int64),
)


# The counters and seat lists FastGame names as the reference's attributes, one line each.
# Plain properties (a C-level descriptor calling a closure: as fast as a hand-written one,
# where a Python __get__ measured twice the time of a read); typed where they are declared.
def _field(index: int, kind: Callable[[Any], Any]) -> Any:
    """One entry of the state vector read as ``kind``."""
    return property(lambda self: kind(self.state[index]))


def _seat(index: int) -> Any:
    """An entry of the state vector holding a seat, or -1 for None."""
    return property(lambda self: None if (v := int(self.state[index])) < 0 else v)


def _seats(offset: int, kind: Callable[[Any], Any], count: int | None = None) -> Any:
    """A run of the state vector read as a list of ``kind``: one entry a seat, or as many
    as the entry at ``count`` says (the seats out, in order)."""
    if count is None:
        return property(lambda self: [kind(v) for v in self.state[offset : offset + self.n]])
    return property(lambda self: [kind(v) for v in self.state[offset : offset + self.state[count]]])


def public_state(x: Any) -> _Array:
    """A state vector holding the public state of ``x``, a :class:`Game` or a
    :class:`~ono99.view.PlayerView` (they name these fields alike): the counters, who is
    alive and taking turns, tokens, scores, who is out and who won. No cards."""
    st = k.new_state()
    n = len(x.names)
    st[k.S_N] = n
    st[k.S_TOTAL] = x.total
    st[k.S_DIR] = x.direction
    st[k.S_TO_MOVE] = -1 if x.to_move is None else x.to_move
    st[k.S_OWES] = -1 if x.owes_two is None else x.owes_two
    st[k.S_PLAYS_LEFT] = x.plays_left
    st[k.S_PLAYED99] = x.played_99
    st[k.S_N_ACTIVE] = sum(x.active)
    st[k.S_ROUND] = x.round
    st[k.S_PENDING] = -1 if x.pending_draw is None else x.pending_draw
    st[k.S_RESHUFFLES] = x.reshuffles
    for s in range(n):
        st[k.O_ALIVE + s] = x.alive[s]
        st[k.O_ACTIVE + s] = x.active[s]
        if x.tokens is not None:
            st[k.O_TOKENS + s] = x.tokens[s]
        if x.scores is not None:
            st[k.O_SCORES + s] = x.scores[s]
    st[k.S_N_OUT] = len(x.out)
    st[k.O_OUT : k.O_OUT + len(x.out)] = x.out
    st[k.S_N_ROUND_OUT] = len(x.round_out)
    st[k.O_ROUND_OUT : k.O_ROUND_OUT + len(x.round_out)] = x.round_out
    w = x.winner
    seats = [] if w is None else list(w) if isinstance(w, (list, tuple)) else [w]
    st[k.S_N_WINNERS] = len(seats)
    st[k.O_WINNERS : k.O_WINNERS + len(seats)] = seats
    return st


def game_state(g: Game) -> _Array:
    """A reference :class:`Game` as the fast engine's state vector: every field the rules
    read, hands and piles in their order."""
    st = public_state(g)
    st[k.S_BUST_MODE] = g.must_bust_play
    for s, hand in enumerate(g.hands):
        st[k.O_HAND_LEN + s] = len(hand)
        st[k.O_HANDS + s * k.HAND_CAP : k.O_HANDS + s * k.HAND_CAP + len(hand)] = hand
    legal = g.legal_actions(g.to_move) if g.to_move is not None else ()
    st[k.S_N_LEGAL] = len(legal)
    st[k.O_LEGAL : k.O_LEGAL + len(legal)] = legal
    st[k.S_N_DRAW] = len(g.draw_pile)
    st[k.O_DRAW : k.O_DRAW + len(g.draw_pile)] = g.draw_pile
    st[k.S_N_DISCARD] = len(g.discard)
    st[k.O_DISCARD : k.O_DISCARD + len(g.discard)] = g.discard
    return st


class FastGame:
    """A game of ONO 99 on the fast engine: see :class:`ono99.Game` for the arguments
    (all but ``events``: the fast engine keeps no announcement log)."""

    __slots__ = ("rules", "n", "names", "seed", "rng", "dealer", "state", "_cfg", "_seed",
                 "_deals", "_scratch")  # fmt: skip

    @announce_first_call
    def __init__(
        self,
        rules: str | Rules = "mattel2022",
        players: int | Sequence[str] = 2,
        *,
        options: Mapping[str, Any] | None = None,
        seed: int | None = None,
        dealer: int | None = None,
        deals: Sequence[Any] | None = None,
        rng: int = 2,
    ) -> None:
        self.rules, self.names, seed, dealer = check_setup(
            rules, players, options, seed, dealer, rng
        )
        if rng != 2:
            raise RecordError(_V1_MESSAGE)
        r = self.rules
        n = self.n = len(self.names)
        self.seed = seed
        self.rng = rng
        self.dealer = dealer
        self._cfg = rules_vector(r)
        self._seed = seed_words(seed)  # the key's seed words of every deal and reshuffle
        self._deals = _given_deals(r, n, deals) if deals else NO_DEALS
        self._scratch = Scratch()
        self.state = k.new_state()
        k.new_game(self.state, self._cfg, n, dealer, self._seed, *self._work(), *self._deals)
        self._check_deal_error()

    def __str__(self) -> str:
        """The table, as ``print(Game(...))`` shows it (every hand: the engine's side)."""
        return table_text(self)

    def _work(self) -> tuple[_Array, _Array]:
        s = self._scratch
        return s.rs, s.deck

    def _check_deal_error(self) -> None:
        st = self.state
        if st[k.S_ERROR] == k.ERR_DEAL_SIZE:
            want = int(st[k.S_ERROR_WANT])
            raise RecordError(
                N_("deal for round {round}: seat {seat} must get {want} cards, not {count}")
                if want
                else N_("deal for round {round}: seat {seat} must get 0 cards, not {count} (it is out of the game)"),
                round=int(st[k.S_ROUND]), seat=int(st[k.S_ERROR_SEAT]), want=want,
                count=int(st[k.S_ERROR_COUNT]),
            )  # fmt: skip

    # ------------------------------------------------------------------ queries

    to_move: int | None = _seat(k.S_TO_MOVE)
    owes_two: int | None = _seat(k.S_OWES)  # R-P2-6: the seat that must play two cards
    pending_draw: int | None = _seat(k.S_PENDING)  # R-DRAW-1: whose draw is pending
    #: R-END-3: the legal actions are unsafe cards to throw
    must_bust_play: bool = _field(k.S_BUST_MODE, bool)
    total: int = _field(k.S_TOTAL, int)
    direction: int = _field(k.S_DIR, int)
    plays_left: int = _field(k.S_PLAYS_LEFT, int)
    played_99: bool = _field(k.S_PLAYED99, bool)
    round: int = _field(k.S_ROUND, int)
    reshuffles: int = _field(k.S_RESHUFFLES, int)
    n_active: int = _field(k.S_N_ACTIVE, int)
    n_moves: int = _field(k.S_N_MOVES, int)  # how many actions were applied (``len(moves)``)
    alive: list[bool] = _seats(k.O_ALIVE, bool)
    active: list[bool] = _seats(k.O_ACTIVE, bool)
    out: list[int] = _seats(k.O_OUT, int, k.S_N_OUT)
    round_out: list[int] = _seats(k.O_ROUND_OUT, int, k.S_N_ROUND_OUT)

    @property
    def is_over(self) -> bool:
        return bool(self.state[k.S_TO_MOVE] < 0)

    @property
    def winner(self) -> int | list[int] | None:
        """The winning seat, the list of seats sharing a win, or None while playing."""
        st = self.state
        w = int(st[k.S_N_WINNERS])
        if w == 0:
            return None
        seats = [int(s) for s in st[k.O_WINNERS : k.O_WINNERS + w]]
        return seats[0] if w == 1 else seats

    @property
    def hands(self) -> list[list[int]]:
        st = self.state
        out = []
        for s in range(self.n):
            base = k.O_HANDS + s * k.HAND_CAP
            out.append([int(c) for c in st[base : base + st[k.O_HAND_LEN + s]]])
        return out

    @property
    def draw_pile(self) -> list[int]:
        """The draw pile, top card last (as the reference's)."""
        st = self.state
        return [int(c) for c in st[k.O_DRAW : k.O_DRAW + st[k.S_N_DRAW]]]

    @property
    def discard(self) -> list[int]:
        st = self.state
        return [int(c) for c in st[k.O_DISCARD : k.O_DISCARD + st[k.S_N_DISCARD]]]

    @property
    def tokens(self) -> list[int] | None:
        if self._cfg[k.C_MODE] != k.TOKENS:
            return None
        return [int(v) for v in self.state[k.O_TOKENS : k.O_TOKENS + self.n]]

    @property
    def scores(self) -> list[int] | None:
        if self._cfg[k.C_MODE] != k.POINTS:
            return None
        return [int(v) for v in self.state[k.O_SCORES : k.O_SCORES + self.n]]

    def legal_actions(self, seat: int | None = None) -> tuple[int, ...]:
        """As :meth:`ono99.Game.legal_actions`: sorted, a pending draw included."""
        st = self.state
        legal = tuple(int(a) for a in st[k.O_LEGAL : k.O_LEGAL + st[k.S_N_LEGAL]])
        pending = int(st[k.S_PENDING])
        to_move = int(st[k.S_TO_MOVE])
        if seat is not None:
            if seat == to_move:
                return legal
            return (DRAW,) if seat == pending else ()
        if pending >= 0 and pending != to_move:
            return (*legal, DRAW)
        return legal

    def acting(self) -> dict[int, tuple[int, ...]]:
        """As :meth:`ono99.Game.acting`: who may act now, and with what."""
        p = self.to_move
        if p is None:
            return {}
        pending = self.pending_draw
        legal = self.legal_actions(p)
        if pending is None or pending == p:
            return {p: legal}
        return dict(sorted(((p, legal), (pending, (DRAW,)))))

    # ------------------------------------------------------------------ actions

    def verify(self, action: int | str, seat: int | None = None) -> int:
        """As :meth:`ono99.Game.verify`: the seat that would make ``action``, or the
        error :meth:`apply` would raise; nothing changes. ``seat``: the seat that acts,
        refused for public reasons only when the action is not its to make."""
        return self._check(action, seat)

    def can_apply(self, action: int | str) -> bool:
        try:
            self._check(action)
        except (IllegalAction, RecordError):
            return False
        return True

    def _check(self, action: int | str, seat: int | None = None) -> int:
        """``action`` checked as :meth:`apply` checks it; returns the seat that makes it."""
        if type(action) is not int:
            if isinstance(action, str):
                action = parse_action(action)
            elif isinstance(action, bool) or not isinstance(action, int):
                raise IllegalAction(N_("{action} is not an action"), action=repr(action))
        st = self.state
        if not 0 <= action <= DRAW:
            raise IllegalAction(N_("{action} is not an action"), action=repr(action))
        if st[k.S_TO_MOVE] < 0:
            raise IllegalAction(N_("the game is over"), "R-END")
        if seat is not None:  # as Game._check_seat: public reasons only
            if action == DRAW:
                if seat != st[k.S_PENDING]:
                    raise IllegalAction(N_("no draw is pending"), "R-DRAW-1")
            elif seat != st[k.S_TO_MOVE]:
                raise IllegalAction(N_("it is not your turn"), "R-TURN-1")
        if not k.is_legal(st, action):
            if action == DRAW:
                raise IllegalAction(N_("no draw is pending"), "R-DRAW-1")
            p = int(st[k.S_TO_MOVE])
            raise illegal_action_error(
                self.rules, action, name=self.names[p], seat=p, hand=self.hands[p],
                total=self.total, plays_left=self.plays_left, played_99=self.played_99,
                bust_mode=self.must_bust_play,
            )  # fmt: skip
        return int(st[k.S_PENDING]) if action == DRAW else int(st[k.S_TO_MOVE])

    @announce_first_call
    def apply(self, action: int | str, seat: int | None = None) -> int:
        """Make ``action`` (an int or a code); returns the seat that made it. An illegal
        action raises :class:`IllegalAction` in the reference's words and changes
        nothing; a later given deal that does not fit raises :class:`RecordError` and
        leaves the game as it was. ``seat``: the seat that acts (as ``verify``)."""
        if type(action) is not int:
            action = parse_action(action) if isinstance(action, str) else action
        self._check(action, seat)
        if self.rng != 2:
            raise RecordError(_V1_MESSAGE)
        st = self.state
        saved = st.copy() if st[k.S_ROUND] < len(self._deals[3]) else None
        seat = int(k.apply(st, self._cfg, action, self._seed, *self._work(), *self._deals))
        if saved is not None and st[k.S_ERROR]:
            try:
                self._check_deal_error()
            finally:
                st[:] = saved
        return seat

    @announce_first_call
    def env_step(self, action: int, seat: int) -> int:
        """The environments' step (:mod:`ono99.envs`): ``seat`` (the seat to move) plays
        card ``action``, then every pending draw is taken at once (R-DRAW-1); returns the
        seat to move next, -1 once the game is over. Anything else -- another seat,
        ``DRAW``, an illegal card -- raises :class:`IllegalAction` as :meth:`apply` would
        and changes nothing. For dealt games (no record's deals)."""
        if self._deals is not NO_DEALS or self.rng != 2:
            raise ValueError("env_step plays dealt games, not a record's deals")
        s = self._scratch
        nxt = fast_obs.env_step(self.state, self._cfg, action, seat, self._seed, s.rs, s.deck)
        if nxt == -2:
            self._check(action, seat)  # the reason, in the reference's words
            raise IllegalAction("the environments take every draw at once (R-DRAW-1)")
        return int(nxt)

    @announce_first_call
    def take_draws(self) -> None:
        """Take every pending draw at once (R-DRAW-1), as the environments do
        (:meth:`ono99.Game.take_draws`)."""
        if self._deals is not NO_DEALS:
            raise ValueError("take_draws plays dealt games, not a record's deals")
        fast_obs.advance(self.state, self._cfg, self._seed, *self._work(), *NO_DEALS)

    @announce_first_call
    def observe(self, seat: int, obs: npt.NDArray[np.float32], mask: npt.NDArray[np.int8]) -> None:
        """Write ``seat``'s observation vector and action mask (as :meth:`ono99.Game.observe`
        writes them from its view) into ``obs`` (float32) and ``mask`` (int8): from
        ``seat``'s hand and the public state only (R-SET-1)."""
        fast_obs.observe_seat(self.state, self._cfg, seat, obs, mask)

    @classmethod
    def of(cls, game: Game) -> FastGame:
        """A reference game's state on the fast engine (its seed, version and given deals
        kept): a version-1 game (an old record's, R-REC) is there to be read, and refuses
        to play on."""
        g = cls.__new__(cls)
        g.rules, g.n, g.names, g.seed, g.rng, g.dealer = (
            game.rules, game.n, list(game.names), game.seed, game.rng, game.dealer,
        )  # fmt: skip
        g._cfg = rules_vector(game.rules)
        g._seed = seed_words(game.seed)
        given = game.given_deals
        g._deals = (
            _given_deals(game.rules, game.n, given)
            if given and all(d is not None for d in given)
            else NO_DEALS
        )
        g._scratch = Scratch()
        g.state = game_state(game)
        g.state[k.S_N_MOVES] = len(game.moves)
        return g

    def copy(self) -> FastGame:
        """An independent copy (the state vector copied; rules and deals shared)."""
        g = FastGame.__new__(FastGame)
        g.rules, g.n, g.names, g.seed, g.rng, g.dealer = (
            self.rules,
            self.n,
            self.names,
            self.seed,
            self.rng,
            self.dealer,
        )
        g._cfg, g._seed, g._deals = self._cfg, self._seed, self._deals
        g._scratch = Scratch()
        g.state = self.state.copy()
        return g

    def state_json(self) -> dict[str, Any]:
        """The full state as the R-REC replay JSON (as :func:`ono99.state_json`)."""
        from ono99.records import full_state_json

        return full_state_json(self, int(self.state[k.S_N_DRAW]), self.n_moves)


def replay(record: Any) -> FastGame:
    """:func:`ono99.replay` on the fast engine: a record (parsed or as JSON data)
    replayed to its final state. Raises :class:`RecordError` for a bad record and
    :class:`~ono99.records.ReplayError` naming the first illegal move, as the reference."""
    from ono99.records import ParsedRecord, ReplayError, is_move_code, parse_record
    from ono99.records import replay as replay_reference

    rec = record if isinstance(record, ParsedRecord) else parse_record(record)
    if rec.rng == 1:  # the first generator lives in the reference engine alone
        return FastGame.of(replay_reference(rec, events=False))
    game = FastGame(
        rec.rules, rec.players, options=rec.options, seed=rec.seed, dealer=rec.dealer,
        deals=rec.deals,
    )  # fmt: skip
    for i, move in enumerate(rec.moves):
        try:
            game.apply(parse_action(move))
        except IllegalAction as e:
            raise ReplayError(
                N_("move {index} ({move}): {reason}"), i, index=i, move=repr(move), reason=e
            ) from None
        except RecordError as e:
            if is_move_code(move):
                raise  # a later deal that does not fit: the record is bad, not the move
            raise ReplayError(
                N_("move {index} ({move}): {reason}"), i, index=i, move=repr(move), reason=e
            ) from None
    return game
