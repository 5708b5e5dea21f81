"""The fast engine's kernel: the whole game state in one int64 vector, the rules as
Numba-compiled functions over it (RULES.md, every rule the reference engine keeps).

It is a port of :mod:`ono99.game`, move for move: the same deals and reshuffles (the
seeded shuffles of :mod:`ono99.fast.rng` are version 2's, as the reference's), the same
order of cards in hands and piles, the same legal actions in the same order. So a seed
and a list of moves give the same state in both engines; the differential tests
(``tests/fast/``) hold the two to that after every move of many random games.

Why one vector: a state is copied with ``state.copy()`` (search, RL resets), many
states stack into a matrix (batched simulation), and every function here takes plain
arrays, so the compiled code is cached on disk (``cache=True``).

Layout: scalars at the ``S_*`` offsets, then per-seat arrays of ``MAXP`` entries, the
hands (``MAXP`` rows of ``HAND_CAP``), the legal actions, and the two piles of
``PILE_CAP`` cards each (the draw pile's top card is its last entry, as in the
reference). The rules are a second small vector (``C_*`` offsets), built by
:func:`ono99.fast.game.rules_vector` from a :class:`~ono99.rules.Rules`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

import numpy as np
import numpy.typing as npt
from numba import njit
from numba.extending import intrinsic

from ono99.cards import DRAW as _DRAW
from ono99.cards import FOUR_99 as _FOUR_99
from ono99.cards import (
    FOUR_99_CARDS,
    HAND_SIZE,
    MAX_NUMBER,
    MINUS_TEN,
    NINETY_NINE,
    NUM_ACTIONS,
    NUM_CARDS,
    Card,
)
from ono99.fast.rng import DEAL, RESHUFFLE, seed_stream, shuffle
from ono99.rules import PRESETS, make_rules
from ono99.scoring import CARD_POINTS, SHORT_CARD_POINTS, Points

I64 = npt.NDArray[np.int64]
U32 = npt.NDArray[np.uint32]
U64 = npt.NDArray[np.uint64]
U8 = npt.NDArray[np.uint8]
F32 = npt.NDArray[np.float32]
F64 = npt.NDArray[np.float64]
I8 = npt.NDArray[np.int8]
B8 = npt.NDArray[np.bool_]

# Every constant of the rules comes from ono99.cards, ono99.scoring and ono99.rules, read
# once at import: plain ints (and one tuple) that Numba compiles in as literals, so the
# kernel runs as fast as with the numbers written out.
# Sizes: the presets' limits (the most players, the largest deck); hands never hold more
# than HAND_SIZE cards (one drawn per card played), the capacity leaves room for a
# four-99 discard.
MAXP = max(make_rules(p).max_players for p in PRESETS)
HAND_CAP = 2 * HAND_SIZE
PILE_CAP = max(make_rules(p).deck_size for p in PRESETS)
N_ACTIONS = NUM_ACTIONS
FOUR_99 = _FOUR_99
DRAW = _DRAW
N_CARDS = NUM_CARDS

_M10, _REV, _P2, _HOLD, _99 = (int(c) for c in (Card.MINUS10, Card.REVERSE, Card.PLAY2,
                                                 Card.HOLD, Card.NINETY_NINE))  # fmt: skip
_NUMBERS = (1 << (MAX_NUMBER + 1)) - 1
_SPECIALS = (1 << _M10) | (1 << _REV) | (1 << _P2) | (1 << _HOLD)
_P2_BIT = 1 << _P2
_99_BIT = 1 << _99
#: R-END-3 scoring: the points of the 99 and of the other special cards left in hand
_99_POINTS = CARD_POINTS[_99]
_SPECIAL_POINTS = CARD_POINTS[_M10]
_OUT_OF_ROUND = Points.OUT_OF_ROUND

# --- the rules vector
C_LIMIT = 0  # R-LIM-1: safe when the total after the card is below this
C_FLOOR0 = 1  # R-M10-1
C_FOUR99 = 2  # R-99-3
C_99SETS = 3  # R-99-2
C_ZERO99 = 4  # R-99-5
C_ANSWERS = 5  # R-P2-3: bit mask of the cards that answer a Play 2
C_P2FIRST = 6  # R-P2-3: a Play 2 may be the first of two
C_MODE = 7  # R-END: 0 elimination, 1 tokens, 2 points
C_TARGET = 8  # R-END-3
C_LOWEST = 9  # R-END-3: points_mode "lowest"
C_DRAWPEN = 10  # R-DRAW-1
C_TOKENS = 11  # R-SET-4
C_DECK_SIZE = 12
C_DECK = 16  # N_CARDS counts, index = card
C_LEN = C_DECK + NUM_CARDS

ELIMINATION, TOKENS, POINTS = 0, 1, 2

# --- the state vector: scalars
S_N = 0
S_TOTAL = 1
S_DIR = 2
S_TO_MOVE = 3  # -1: the game is over
S_OWES = 4  # R-P2-6, -1: none
S_PLAYS_LEFT = 5
S_PLAYED99 = 6
S_N_ACTIVE = 7
S_ROUND = 8
S_PENDING = 9  # R-DRAW-1, -1: none
S_RESHUFFLES = 10
S_BUST_MODE = 11  # R-END-3: the legal actions are the unsafe cards to throw
S_N_DRAW = 12
S_N_DISCARD = 13
S_N_OUT = 14
S_N_ROUND_OUT = 15
S_N_WINNERS = 16  # 0 while playing; 2 or more: a shared win
S_N_LEGAL = 17
S_N_MOVES = 18
S_ERROR = 19  # a given deal that does not fit (ERR_*), 0: none
S_ERROR_SEAT = 20
S_ERROR_WANT = 21
S_ERROR_COUNT = 22
# --- per-seat arrays
O_HAND_LEN = 32
O_ALIVE = O_HAND_LEN + MAXP
O_ACTIVE = O_ALIVE + MAXP
O_TOKENS = O_ACTIVE + MAXP
O_SCORES = O_TOKENS + MAXP
O_OUT = O_SCORES + MAXP  # eliminated seats in order
O_ROUND_OUT = O_OUT + MAXP  # seats out of this round, in order (R-END-3)
O_WINNERS = O_ROUND_OUT + MAXP
O_HANDS = O_WINNERS + MAXP
O_LEGAL = O_HANDS + MAXP * HAND_CAP
O_DRAW = O_LEGAL + 24
O_DISCARD = O_DRAW + PILE_CAP
STATE_LEN = O_DISCARD + PILE_CAP

ERR_DEAL_SIZE = 1  # a given deal's hand does not fit the seats still in the game


@intrinsic
def _borrow(typingctx: Any, arr: Any) -> Any:
    """In compiled code, ``arr`` without its reference count: the same data, shape and
    strides, no owner. Numba counts references to an array atomically each time one
    is passed, bound or inlined (a locked add; perf: a quarter of the bench's time);
    on a borrowed array those calls find no owner and do nothing. Only for arrays the
    caller keeps alive for the whole use (a compiled loop's own arguments)."""

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        src = context.make_array(arr)(context, builder, value=args[0])
        out = context.make_array(arr)(context, builder)
        for name in ("data", "shape", "strides", "itemsize", "nitems"):
            setattr(out, name, getattr(src, name))
        out.meminfo = src.meminfo.type(None)  # a null pointer: no owner, nothing to count
        out.parent = src.parent.type(None)
        return out._getvalue()

    return arr(arr), codegen


borrow = cast("Callable[[Any], Any]", _borrow)  # as compiled code calls it: borrow(arr)


@njit(cache=True)
def new_state() -> I64:
    return np.zeros(STATE_LEN, np.int64)


@njit(cache=True)
def hand_remove(st: I64, seat: int, card: int) -> None:
    """``hand.remove(card)``: the first copy goes, the rest keep their order."""
    base = O_HANDS + seat * HAND_CAP
    k = st[O_HAND_LEN + seat]
    i = 0
    while st[base + i] != card:
        i += 1
    while i < k - 1:
        st[base + i] = st[base + i + 1]
        i += 1
    st[O_HAND_LEN + seat] = k - 1


@njit(cache=True)
def hand_append(st: I64, seat: int, card: int) -> None:
    k = st[O_HAND_LEN + seat]
    st[O_HANDS + seat * HAND_CAP + k] = card
    st[O_HAND_LEN + seat] = k + 1


@njit(cache=True)
def _discard(st: I64, card: int) -> None:
    k = st[S_N_DISCARD]
    st[O_DISCARD + k] = card
    st[S_N_DISCARD] = k + 1


@njit(cache=True)
def _reshuffle(st: I64, seed: U64, rs: U64) -> None:
    # R-TURN-3: the whole discard pile becomes the draw pile; the total is unchanged.
    k = st[S_N_DISCARD]
    st[O_DRAW : O_DRAW + k] = st[O_DISCARD : O_DISCARD + k]
    st[S_N_DISCARD] = 0
    st[S_RESHUFFLES] += 1
    seed_stream(rs, RESHUFFLE, seed, st[S_RESHUFFLES])
    shuffle(rs, st[O_DRAW : O_DRAW + k], k)
    st[S_N_DRAW] = k


@njit(cache=True)
def _draw(st: I64, seat: int, count: int, seed: U64, rs: U64) -> None:
    for _ in range(count):
        if st[S_N_DRAW] == 0:
            if st[S_N_DISCARD] == 0:
                return  # R-TURN-3: both piles empty, play on short
            _reshuffle(st, seed, rs)
        k = st[S_N_DRAW] - 1
        hand_append(st, seat, st[O_DRAW + k])
        st[S_N_DRAW] = k


@njit(cache=True, inline="always")
def compute_legal(st: I64, cfg: I64) -> None:
    """The legal actions of the player to move, sorted, into the legal slots; sets bust
    mode (R-END-3). The reference's ``_compute_legal``, as bit masks likewise."""
    p = st[S_TO_MOVE]
    base = O_HANDS + p * HAND_CAP
    k = st[O_HAND_LEN + p]
    held = 0
    n99 = 0
    for i in range(k):
        c = st[base + i]
        held |= 1 << c
        if c == _99:
            n99 += 1
    room = cfg[C_LIMIT] - st[S_TOTAL]  # a number card v is safe when v < room (R-LIM-1)
    if room > MAX_NUMBER:
        ok = _NUMBERS
    elif room > 0:
        ok = (1 << room) - 1
    else:
        ok = 0
    if st[S_PLAYS_LEFT] == 2 and cfg[C_P2FIRST] == 0:
        ok |= _SPECIALS & ~_P2_BIT  # R-P2-3: a Double Play is never the first of two
    else:
        ok |= _SPECIALS
    if cfg[C_99SETS] != 0 or (cfg[C_ZERO99] != 0 and st[S_PLAYED99] == 0 and st[S_TOTAL] % 10 == 0):
        ok |= _99_BIT  # R-99-2, R-99-5 (Python's % on negative totals: -10 % 10 == 0)
    mask = held & ok
    n = 0
    for c in range(N_CARDS):
        if mask >> c & 1:
            st[O_LEGAL + n] = c
            n += 1
    if cfg[C_FOUR99] != 0 and n99 >= FOUR_99_CARDS:
        st[O_LEGAL + n] = FOUR_99  # R-99-3
        n += 1
    if st[S_PENDING] == p:
        st[O_LEGAL + n] = DRAW
        n += 1
    st[S_BUST_MODE] = 0
    if n == 0 and cfg[C_MODE] == POINTS:
        # R-END-3: an unsafe card must be thrown (never a 99, never a Double Play first)
        mask = held & _NUMBERS
        for c in range(MAX_NUMBER + 1):
            if mask >> c & 1:
                st[O_LEGAL + n] = c
                n += 1
        st[S_BUST_MODE] = 1 if n > 0 else 0
    st[S_N_LEGAL] = n


@njit(cache=True, inline="always")
def _end_turn(st: I64, p: int, owes_next: bool) -> None:
    n = st[S_N]
    d = st[S_DIR]
    nxt = (p + d) % n  # R-TURN-2, R-TURN-4: the next seat still taking turns
    while st[O_ACTIVE + nxt] == 0:
        nxt = (nxt + d) % n
    st[S_TO_MOVE] = nxt
    st[S_PLAYED99] = 0
    if owes_next:
        st[S_OWES] = nxt
        st[S_PLAYS_LEFT] = 2
    else:
        st[S_OWES] = -1
        st[S_PLAYS_LEFT] = 1


@njit(cache=True)
def _finish_one(st: I64, winner: int) -> None:
    st[O_WINNERS] = winner
    st[S_N_WINNERS] = 1
    _finish(st)


@njit(cache=True)
def _finish(st: I64) -> None:
    st[S_TO_MOVE] = -1
    st[S_OWES] = -1
    st[S_PENDING] = -1
    st[S_N_LEGAL] = 0


@njit(cache=True)
def _eliminate(st: I64, p: int) -> None:
    st[O_ALIVE + p] = 0
    st[O_OUT + st[S_N_OUT]] = p
    st[S_N_OUT] += 1


@njit(cache=True)
def _first_alive_from(st: I64, seat: int) -> int:
    i = seat
    while st[O_ALIVE + i] == 0:
        i = (i + 1) % st[S_N]
    return i


@njit(cache=True)
def start_round(
    st: I64,
    cfg: I64,
    starter: int,
    seed: U64,
    rs: U64,
    deck: I64,
    gd_hands: I64,
    gd_hlen: I64,
    gd_draw: I64,
    gd_dlen: I64,
) -> None:
    """Deal the next round (R-SET-1, R-END-2, R-END-3) and reset its public state; the
    caller settles. A given deal (a record's) that does not fit the seats still in the
    game sets ``S_ERROR`` and leaves the deal half made: the caller restores its copy."""
    n = st[S_N]
    st[S_ROUND] += 1
    rnd = st[S_ROUND]
    idx = rnd - 1
    m = 0  # the deck in card order, as deck_list()
    for c in range(N_CARDS):
        for _ in range(cfg[C_DECK + c]):
            deck[m] = c
            m += 1
    seed_stream(rs, DEAL, seed, rnd)
    if idx < gd_hands.shape[0]:
        for s in range(n):
            want = HAND_SIZE if st[O_ALIVE + s] != 0 else 0
            if gd_hlen[idx, s] != want:
                st[S_ERROR] = ERR_DEAL_SIZE
                st[S_ERROR_SEAT] = s
                st[S_ERROR_WANT] = want
                st[S_ERROR_COUNT] = gd_hlen[idx, s]
                return
        for s in range(n):  # the named cards leave the deck (records check the counts)
            for i in range(gd_hlen[idx, s]):
                m = _deck_remove(deck, m, gd_hands[idx, s, i])
        for i in range(gd_dlen[idx]):
            m = _deck_remove(deck, m, gd_draw[idx, i])
        shuffle(rs, deck, m)  # the rest, under the named draw pile
        for s in range(n):
            k = gd_hlen[idx, s]
            for i in range(k):
                st[O_HANDS + s * HAND_CAP + i] = gd_hands[idx, s, i]
            st[O_HAND_LEN + s] = k
        for i in range(m):
            st[O_DRAW + i] = deck[i]
        k = gd_dlen[idx]
        for i in range(k):  # top card first in the record, last in the pile
            st[O_DRAW + m + i] = gd_draw[idx, k - 1 - i]
        st[S_N_DRAW] = m + k
    else:
        shuffle(rs, deck, m)
        for s in range(n):
            if st[O_ALIVE + s] != 0:
                for i in range(HAND_SIZE):  # deck[-4:][::-1]
                    st[O_HANDS + s * HAND_CAP + i] = deck[m - 1 - i]
                st[O_HAND_LEN + s] = HAND_SIZE
                m -= HAND_SIZE
            else:
                st[O_HAND_LEN + s] = 0
        for i in range(m):
            st[O_DRAW + i] = deck[i]
        st[S_N_DRAW] = m
    st[S_N_DISCARD] = 0
    st[S_TOTAL] = 0
    st[S_DIR] = 1
    st[S_OWES] = -1
    st[S_PLAYS_LEFT] = 1
    st[S_PLAYED99] = 0
    st[S_PENDING] = -1
    k = 0
    for s in range(n):
        st[O_ACTIVE + s] = st[O_ALIVE + s]
        k += st[O_ALIVE + s]
    st[S_N_ACTIVE] = k
    st[S_N_ROUND_OUT] = 0
    st[S_TO_MOVE] = starter


@njit(cache=True)
def _deck_remove(deck: I64, m: int, card: int) -> int:
    i = 0
    while deck[i] != card:
        i += 1
    for j in range(i, m - 1):
        deck[j] = deck[j + 1]
    return m - 1


@njit(cache=True)
def _hand_points(st: I64, s: int) -> int:
    """R-END-3: card values (``CARD_POINTS``) plus ``SHORT_CARD_POINTS`` per card short of
    ``HAND_SIZE``."""
    k = st[O_HAND_LEN + s]
    pts = 0
    for i in range(k):
        c = st[O_HANDS + s * HAND_CAP + i]
        pts += c if c <= MAX_NUMBER else (_99_POINTS if c == _99 else _SPECIAL_POINTS)
    if k < HAND_SIZE:
        pts += SHORT_CARD_POINTS * (HAND_SIZE - k)
    return pts


@njit(cache=True)
def _fewest(st: I64, seats: I64, k: int) -> None:
    """Finish with the fewest points among ``seats[:k]`` winning (ties share)."""
    best = st[O_SCORES + seats[0]]
    for i in range(1, k):
        best = min(best, st[O_SCORES + seats[i]])
    w = 0
    for i in range(k):
        if st[O_SCORES + seats[i]] == best:
            st[O_WINNERS + w] = seats[i]
            w += 1
    st[S_N_WINNERS] = w
    _finish(st)


@njit(cache=True)
def _end_points_round(st: I64, cfg: I64) -> int:
    """R-END-3: score the hands; eliminate at the target or end the game. Returns the
    starter of the next round, or -1 when the game is over."""
    n = st[S_N]
    alive = np.empty(n, np.int64)
    na = 0
    for s in range(n):
        if st[O_ALIVE + s] != 0:
            alive[na] = s
            na += 1
            out_of_round = False
            for i in range(st[S_N_ROUND_OUT]):
                if st[O_ROUND_OUT + i] == s:
                    out_of_round = True
            st[O_SCORES + s] += _hand_points(st, s) + (_OUT_OF_ROUND if out_of_round else 0)
    st[S_PENDING] = -1  # R-DRAW-2: a draw pending at the round's end is not made
    first_out = st[O_ROUND_OUT]
    target = cfg[C_TARGET]
    if cfg[C_LOWEST] != 0:
        for i in range(na):
            if st[O_SCORES + alive[i]] >= target:
                _fewest(st, alive, na)
                return -1
    else:
        over = np.empty(n, np.int64)
        no = 0
        left = -1
        nl = 0
        for i in range(na):
            s = alive[i]
            if st[O_SCORES + s] >= target:
                over[no] = s
                no += 1
            else:
                left = s
                nl += 1
        for i in range(no):
            _eliminate(st, over[i])
        if nl == 1:
            _finish_one(st, left)
            return -1
        if nl == 0:
            _fewest(st, over, no)
            return -1
    return _first_alive_from(st, first_out)


@njit(cache=True)
def _out_of_round(st: I64, cfg: I64, p: int) -> int:
    """R-END-3: ``p`` is out of the round. Returns the next round's starter when the
    round ended and the game goes on, else -1."""
    st[O_ACTIVE + p] = 0
    st[S_N_ACTIVE] -= 1
    st[O_ROUND_OUT + st[S_N_ROUND_OUT]] = p
    st[S_N_ROUND_OUT] += 1
    if st[S_OWES] == p:
        st[S_OWES] = -1  # R-P2-4: the next player owes nothing
    st[S_PLAYS_LEFT] = 1
    if st[S_N_ACTIVE] == 1:
        return _end_points_round(st, cfg)
    _end_turn(st, p, False)
    return -1


@njit(cache=True)
def _bust(st: I64, cfg: I64, p: int) -> int:
    """A bust that leaves no choice (R-LIM-2, R-P2-4, R-END). Returns the next round's
    starter when a round ended and the game goes on, else -1."""
    mode = cfg[C_MODE]
    if mode == POINTS:
        return _out_of_round(st, cfg, p)  # R-END-3: nothing to throw
    if mode == ELIMINATION:
        _eliminate(st, p)  # R-END-1
        st[S_N_ACTIVE] -= 1
        st[O_ACTIVE + p] = 0
        st[S_OWES] = -1
        st[S_PLAYS_LEFT] = 1
        if st[S_N_ACTIVE] == 1:
            for s in range(st[S_N]):
                if st[O_ACTIVE + s] != 0:
                    _finish_one(st, s)
                    break
        else:
            _end_turn(st, p, False)
        return -1
    # R-END-2: the round ends; a token is lost, or the player is out
    if st[O_TOKENS + p] == 0:
        _eliminate(st, p)
    else:
        st[O_TOKENS + p] -= 1
    st[S_PENDING] = -1  # R-DRAW-2
    left = -1
    nl = 0
    for s in range(st[S_N]):
        if st[O_ALIVE + s] != 0:
            left = s
            nl += 1
    if nl == 1:
        _finish_one(st, left)
        return -1
    return _first_alive_from(st, p)


@njit(cache=True)
def settle(
    st: I64,
    cfg: I64,
    starter: int,
    seed: U64,
    rs: U64,
    deck: I64,
    gd_hands: I64,
    gd_hlen: I64,
    gd_draw: I64,
    gd_dlen: I64,
) -> None:
    """Start the round ``starter`` asks for (-1: none), then resolve every bust that
    leaves no choice, dealing new rounds as they come, until someone must choose."""
    while True:
        if starter >= 0:
            start_round(st, cfg, starter, seed, rs, deck, gd_hands, gd_hlen, gd_draw, gd_dlen)
            if st[S_ERROR] != 0:
                return
            starter = -1
        if st[S_TO_MOVE] < 0:
            st[S_N_LEGAL] = 0
            st[S_BUST_MODE] = 0
            return
        compute_legal(st, cfg)
        if st[S_N_LEGAL] > 0:
            return
        starter = _bust(st, cfg, st[S_TO_MOVE])


@njit(cache=True)
def is_legal(st: I64, action: int) -> bool:
    """Whether the game takes ``action`` now (any seat's: a pending draw counts)."""
    if st[S_TO_MOVE] < 0:
        return False
    if action == DRAW:
        return bool(st[S_PENDING] >= 0)
    for i in range(st[S_N_LEGAL]):  # noqa: SIM110 (a loop: Numba compiles no generators)
        if st[O_LEGAL + i] == action:
            return True
    return False


@njit(cache=True)
def apply(
    st: I64,
    cfg: I64,
    action: int,
    seed: U64,
    rs: U64,
    deck: I64,
    gd_hands: I64,
    gd_hlen: I64,
    gd_draw: I64,
    gd_dlen: I64,
) -> int:
    """Make ``action`` (checked with :func:`is_legal` first); returns the seat that
    made it. The reference's ``_apply`` and what it calls."""
    st[S_N_MOVES] += 1
    if action == DRAW:
        seat = int(st[S_PENDING])
        st[S_PENDING] = -1
        _draw(st, seat, 1, seed, rs)
        settle(st, cfg, -1, seed, rs, deck, gd_hands, gd_hlen, gd_draw, gd_dlen)
        return seat
    p = int(st[S_TO_MOVE])
    st[S_PENDING] = -1  # R-DRAW-1: a card played before the draw: the draw is lost
    starter = -1
    if action == FOUR_99:  # R-99-3
        for _ in range(FOUR_99_CARDS):
            hand_remove(st, p, _99)
            _discard(st, _99)
        _draw(st, p, FOUR_99_CARDS, seed, rs)
        if st[S_PLAYS_LEFT] == 2:
            st[S_PLAYS_LEFT] = 1
        else:
            _end_turn(st, p, False)
    elif st[S_BUST_MODE] != 0:
        # R-END-3: the unsafe card is discarded but not counted; an automatic draw
        hand_remove(st, p, action)
        _discard(st, action)
        _draw(st, p, 1, seed, rs)
        starter = _out_of_round(st, cfg, p)
    else:
        _play(st, cfg, p, action, seed, rs)
    settle(st, cfg, starter, seed, rs, deck, gd_hands, gd_hlen, gd_draw, gd_dlen)
    return p


#: :func:`play_fast`'s answers
FAST_DONE = 0  # the move is made and settled
FAST_SETTLE = 1  # the move is made; call settle(st, cfg, -1, ...) (a bust follows)
FAST_NO = 2  # nothing changed; call apply(...)


@njit(cache=True, inline="always")
def play_fast(st: I64, cfg: I64, action: int) -> int:
    """:func:`apply`'s common case -- a card played or a pending draw taken while the draw
    pile has a card -- with only the state and the rules: no reshuffle or deal can happen
    in it, so the generator's arrays are not needed. (Every array a compiled function
    takes costs two atomic reference-count operations per call; this path takes two, and
    is most of the moves.) Returns :data:`FAST_DONE`, :data:`FAST_SETTLE` (the player to
    move has no legal action: :func:`settle` resolves the bust, which may deal) or
    :data:`FAST_NO` (an action this path does not make; nothing changed)."""
    if action == DRAW:
        if st[S_N_DRAW] == 0:
            return FAST_NO
        st[S_N_MOVES] += 1
        seat = st[S_PENDING]
        st[S_PENDING] = -1
        k = st[S_N_DRAW] - 1
        h = st[O_HAND_LEN + seat]  # hand_append, written out
        st[O_HANDS + seat * HAND_CAP + h] = st[O_DRAW + k]
        st[O_HAND_LEN + seat] = h + 1
        st[S_N_DRAW] = k
    else:
        if action >= FOUR_99 or st[S_BUST_MODE] != 0:
            return FAST_NO
        if cfg[C_DRAWPEN] == 0 and st[S_N_DRAW] == 0:
            return FAST_NO  # the draw would reshuffle
        st[S_N_MOVES] += 1
        p = st[S_TO_MOVE]
        st[S_PENDING] = -1  # R-DRAW-1: a card played before the draw: the draw is lost
        _play_card(st, cfg, p, action)
        if cfg[C_DRAWPEN] == 0:  # R-TURN-2: the top card (the pile has one: checked)
            k = st[S_N_DRAW] - 1
            h = st[O_HAND_LEN + p]  # hand_append, written out
            st[O_HANDS + p * HAND_CAP + h] = st[O_DRAW + k]
            st[O_HAND_LEN + p] = h + 1
            st[S_N_DRAW] = k
    compute_legal(st, cfg)  # settle's first look: the player to move is never -1 here
    return FAST_DONE if st[S_N_LEGAL] > 0 else FAST_SETTLE


@njit(cache=True, inline="always")
def play(
    st: I64,
    cfg: I64,
    action: int,
    seed: U64,
    rs: U64,
    deck: I64,
    gd_hands: I64,
    gd_hlen: I64,
    gd_draw: I64,
    gd_dlen: I64,
) -> None:
    """:func:`apply` and then :func:`settle`, by way of :func:`play_fast` where it can (for
    a caller that has the generator's arrays at hand and is not the hottest loop: those
    write the three branches out, passing the arrays only in the rare ones)."""
    r = play_fast(st, cfg, action)
    if r == FAST_NO:
        apply(st, cfg, action, seed, rs, deck, gd_hands, gd_hlen, gd_draw, gd_dlen)
    elif r == FAST_SETTLE:
        settle(st, cfg, -1, seed, rs, deck, gd_hands, gd_hlen, gd_draw, gd_dlen)


@njit(cache=True, inline="always")
def _play_card(st: I64, cfg: I64, p: int, c: int) -> None:
    """Card ``c`` played by ``p``, all but the draw that follows it (R-TURN-2): the caller
    draws (the turn's end touches neither hands nor piles, so the order is the same).
    The helpers it would call (``hand_remove``, ``_discard``, ``_end_turn``) are written
    out here: each call with the state array costs two atomic reference counts, and this
    runs at every card played."""
    base = O_HANDS + p * HAND_CAP  # hand_remove: the first copy goes, the rest keep order
    k = st[O_HAND_LEN + p]
    i = 0
    while st[base + i] != c:
        i += 1
    while i < k - 1:
        st[base + i] = st[base + i + 1]
        i += 1
    st[O_HAND_LEN + p] = k - 1
    m = st[S_N_DISCARD]  # _discard
    st[O_DISCARD + m] = c
    st[S_N_DISCARD] = m + 1
    total = st[S_TOTAL]
    if c <= MAX_NUMBER:
        total += c
    elif c == _M10:  # R-M10-1
        total -= MINUS_TEN
        if total < 0 and cfg[C_FLOOR0] != 0:
            total = 0
    elif c == _99 and cfg[C_99SETS] != 0:
        total = NINETY_NINE  # R-99-2
    st[S_TOTAL] = total
    if c == _REV:
        if st[S_N_ACTIVE] > 2:  # R-REV-2: with two players Reverse is a Hold
            st[S_DIR] = -st[S_DIR]
    elif c == _99 and cfg[C_99SETS] == 0:
        st[S_PLAYED99] = 1  # R-99-5
    first_of_two = st[S_PLAYS_LEFT] == 2
    turn_over = True
    owes_next = False
    if first_of_two and (cfg[C_ANSWERS] >> c) & 1:
        owes_next = True  # R-P2-3: answered, passes on
    elif first_of_two:
        turn_over = False
        st[S_PLAYS_LEFT] = 1
    else:
        owes_next = c == _P2  # R-P2-1, R-P2-5
    if cfg[C_DRAWPEN] != 0:
        st[S_PENDING] = p  # R-DRAW-1: drawing is the player's own move
    if turn_over:
        _end_turn(st, p, owes_next)


@njit(cache=True)
def _play(st: I64, cfg: I64, p: int, c: int, seed: U64, rs: U64) -> None:
    _play_card(st, cfg, p, c)
    if cfg[C_DRAWPEN] == 0:
        _draw(st, p, 1, seed, rs)  # R-TURN-2


@njit(cache=True)
def new_game(
    st: I64,
    cfg: I64,
    n: int,
    dealer: int,
    seed: U64,
    rs: U64,
    deck: I64,
    gd_hands: I64,
    gd_hlen: I64,
    gd_draw: I64,
    gd_dlen: I64,
) -> None:
    """Set ``st`` to a new game of ``n`` players (R-SET): the first round dealt and
    settled, seat ``dealer + 1`` to start (R-SET-3)."""
    st[:] = 0
    st[S_N] = n
    st[S_TO_MOVE] = -1
    st[S_OWES] = -1
    st[S_PENDING] = -1
    st[S_PLAYS_LEFT] = 1
    st[S_DIR] = 1
    for s in range(n):
        st[O_ALIVE + s] = 1
        st[O_ACTIVE + s] = 1
        st[O_TOKENS + s] = cfg[C_TOKENS]
    st[S_N_ACTIVE] = n
    settle(st, cfg, (dealer + 1) % n, seed, rs, deck, gd_hands, gd_hlen, gd_draw, gd_dlen)


@njit(cache=True)
def next_seed(seed: U64) -> None:
    """The seed in ``seed`` (four 64-bit words, the least significant first) plus one, in
    place, modulo 2**256 (game ``i`` of a run is dealt from seed ``seed + i``)."""
    for i in range(seed.shape[0]):
        seed[i] += np.uint64(1)
        if seed[i] != 0:
            return  # no carry into the next word
