"""The search's heuristic rollouts, compiled: the same moves, many times faster.

``ismcts:N:heuristic`` plays every root action in every sampled world to the end of the
round with :class:`~ono99.bots.heuristic.HeuristicBot` (``samples=4``) in every seat. That
rollout is most of a search's time. Here it runs on the fast engine (:mod:`ono99.fast`)
with the heuristic ported move for move: the same card counts and beliefs, the same
floating-point sums in the same order, and the same random numbers (the heuristic keys
its samples' stream from the fields of its view at each decision, version 2 of
:mod:`ono99.chance` with purpose BOT, which :mod:`ono99.fast.rng` compiles). A world and an action give the same
reward as :meth:`ISMCTSBot._play_out <ono99.bots.ismcts.ISMCTSBot>`, bit for bit:
``benchmarks/check_same_bots.py`` pins the search's moves, and ``tests/fast/test_rollout.py``
compares rewards directly.

The heuristic here reads, for the seat to move, only what that seat's view holds (its own
hand, the public counters and piles, hand sizes, laid-down hands) -- in a world the search
sampled from its own view.

This is not a second search: the search (worlds, the hand inference's plan, the trees, the
paired statistics) is written once, in :mod:`ono99.bots.ismcts` and
:mod:`ono99.bots.inference`. What runs here is the heuristic as a policy on the fast engine,
which a batched simulator needs anyway for its ``heuristic`` opponent
(:mod:`ono99.envs.fast_vec`), and the rollout's reward. The search hands it whole rollouts
(:func:`rollout_values`) and the hand inference single decisions (:func:`heuristic_move`).
"""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt
from numba import njit

from ono99.bots import common
from ono99.bots.common import C99, FITS_STRENGTH, M10, MAX_ROLLOUT, P2, REV, ROLLOUT_POINTS
from ono99.bots.greedy import OTHER_RANK, SPECIAL_ORDER
from ono99.bots.heuristic import (
    DRIFT,
    DRIFT_BELOW_LIMIT,
    KEPT_COUNTED,
    KEY_BYTE,
    KEY_IN_GAME,
    KEY_TOP,
    ROLLOUT_SAMPLES,
    SAFE_DRAW,
    W_DUMP,
    W_ESCAPE,
    W_POINTS,
    W_PRESSURE,
    W_SAFE_CARDS,
    W_SAFETY,
)
from ono99.cards import HAND_SIZE, MAX_NUMBER, MINUS_TEN, NINETY_NINE, NUM_CARDS
from ono99.fast import core as k
from ono99.fast.core import I64, U64
from ono99.fast.game import NO_DEALS, Scratch, game_state, public_state, rules_vector
from ono99.fast.rng import BOT, RS_LEN, below, random_float, seed_words, start
from ono99.game import Game
from ono99.moves import ESCAPE_CARDS
from ono99.rules import Rules

__all__ = [
    "SPECIAL_RANK", "bust_card", "greedy_card", "heuristic_move", "heuristic_work", "play_out", "public_state", "rollout_values",
    "seat_rewards", "standing", "usable",
    "warm", "world_state",
]  # fmt: skip

F64 = npt.NDArray[np.float64]

# The heuristic's constants, from where the Python bots keep them (Numba reads module globals
# as constants): the weights, the belief, the card points, the greedy order of the specials
# (lower first, by action; OTHER_RANK for any other), the rollouts' length; the cards from
# ono99.cards (by way of the bots' common names).
SAMPLES = ROLLOUT_SAMPLES
HAND_BIAS = np.array(common.HAND_BIAS, np.float64)
CARD_POINTS = np.array(common.CARD_POINTS, np.int64)
SPECIAL_RANK = np.array([SPECIAL_ORDER.get(c, OTHER_RANK) for c in range(k.N_ACTIONS)], np.int64)
_P2, _REV, _99, _M10 = P2, REV, C99, M10
#: ono99.moves.ESCAPE_CARDS as a bit mask (card c: bit c)
_ESCAPE_BITS = sum(1 << c for c in ESCAPE_CARDS)

# Work arrays of one decision (positions in the int vector ``ci``):
_CI_SEEDED = 0  # the decision's random numbers are seeded (from the position)
_CI_N_KINDS = 1
_CI_N_POOL = 2
_CI_N_ACTIVE = 3
_CI_SEAT = 4
_CI_POOL = 8  # NUM_CARDS counts
_CI_KINDS = _CI_POOL + NUM_CARDS  # up to NUM_CARDS live card kinds, in card order
_CI_LEN = _CI_KINDS + NUM_CARDS


@njit(cache=True)
def _seed_decision(st: I64, seat: int, rs: U64) -> None:
    """Start the decision's stream as ``heuristic._position_key`` keys it: purpose BOT and
    eleven words of ``seat``'s view (docs/records.md)."""
    n = st[k.S_N]
    m = st[k.O_HAND_LEN + seat]
    hand = np.empty(m, np.int64)
    for i in range(m):
        hand[i] = st[k.O_HANDS + seat * k.HAND_CAP + i]
    hand.sort()
    cards = 0
    for i in range(m):  # one byte a card (card + 1), the lowest first, from the top byte
        cards |= (hand[i] + 1) << (KEY_TOP - KEY_BYTE * i)
    seats = 0
    for s in range(n):  # one byte a seat: its hand size, plus KEY_IN_GAME while it is in
        in_game = st[k.O_ALIVE + s] != 0
        seats |= (st[k.O_HAND_LEN + s] + KEY_IN_GAME * in_game) << (KEY_TOP - KEY_BYTE * s)
    fields = (
        BOT, seat, st[k.S_ROUND], st[k.S_RESHUFFLES], st[k.S_TOTAL], st[k.S_DIR],
        st[k.S_PLAYS_LEFT], st[k.S_OWES], st[k.S_PLAYED99], st[k.S_N_DISCARD], cards, seats,
    )  # fmt: skip
    for i in range(len(fields)):
        rs[i] = np.uint64(fields[i])  # two's complement: -1 is all ones
    start(rs, len(fields))


@njit(cache=True)
def _rng(st: I64, ci: I64, rng: U64) -> U64:
    """The decision's stream, keyed from the position at its first use."""
    if ci[_CI_SEEDED] == 0:
        ci[_CI_SEEDED] = 1
        _seed_decision(st, ci[_CI_SEAT], rng)
    return rng


@njit(cache=True)
def _is_safe(cfg: I64, c: int, total: int, first_of_two: bool, played_99: bool) -> bool:
    if c <= MAX_NUMBER:
        return bool(total + c < cfg[k.C_LIMIT])
    if c == _99:
        return cfg[k.C_99SETS] != 0 or (cfg[k.C_ZERO99] != 0 and not played_99 and total % 10 == 0)
    if c == _P2:
        return cfg[k.C_P2FIRST] != 0 or not first_of_two
    return True


@njit(cache=True)
def _total_after(cfg: I64, total: int, c: int) -> int:
    if c <= MAX_NUMBER:
        return total + c
    if c == _M10:  # R-M10-1
        t = total - MINUS_TEN
        return 0 if t < 0 and cfg[k.C_FLOOR0] != 0 else t
    if c == _99 and cfg[k.C_99SETS] != 0:
        return NINETY_NINE  # R-99-2
    return total


@njit(cache=True)
def _is_escape(cfg: I64, c: int) -> bool:
    return (_ESCAPE_BITS >> c) & 1 != 0 or (c == _99 and cfg[k.C_99SETS] != 0)


@njit(cache=True)
def _context(st: I64, cfg: I64, seat: int, ci: I64, weights: F64) -> None:
    """``_Ctx.__init__``: the unseen card counts (deck minus own hand, discard pile and
    laid-down hands), their weights, the live kinds."""
    n = st[k.S_N]
    pool = ci[_CI_POOL : _CI_POOL + NUM_CARDS]
    for c in range(NUM_CARDS):
        pool[c] = cfg[k.C_DECK + c]
    for i in range(st[k.S_N_DISCARD]):
        pool[st[k.O_DISCARD + i]] -= 1
    for i in range(st[k.O_HAND_LEN + seat]):
        pool[st[k.O_HANDS + seat * k.HAND_CAP + i]] -= 1
    if cfg[k.C_MODE] == k.ELIMINATION:  # R-END-1: hands laid face up
        for s in range(n):
            if st[k.O_ALIVE + s] == 0 and s != seat:
                for i in range(st[k.O_HAND_LEN + s]):
                    pool[st[k.O_HANDS + s * k.HAND_CAP + i]] -= 1
    n_pool = 0
    nk = 0
    for c in range(NUM_CARDS):
        if pool[c] < 0:
            pool[c] = 0
        n_pool += pool[c]
        weights[c] = pool[c] * HAND_BIAS[c]
        if weights[c] != 0.0:
            ci[_CI_KINDS + nk] = c
            nk += 1
    ci[_CI_N_KINDS] = nk
    ci[_CI_N_POOL] = n_pool
    active = 0
    for s in range(n):
        active += st[k.O_ACTIVE + s]
    ci[_CI_N_ACTIVE] = active
    ci[_CI_SEAT] = seat
    ci[_CI_SEEDED] = 0


@njit(cache=True)
def _p_unsafe_weighted(cfg: I64, ci: I64, weights: F64, total: int) -> float:
    room = cfg[k.C_LIMIT] - total
    safe_99 = cfg[k.C_99SETS] != 0 or (cfg[k.C_ZERO99] != 0 and total % 10 == 0)
    good = 0.0
    bad = 0.0
    for i in range(ci[_CI_N_KINDS]):
        c = ci[_CI_KINDS + i]
        w = weights[c]
        ok = (c < room) if c <= MAX_NUMBER else (safe_99 if c == _99 else True)
        if ok:
            good += w
        else:
            bad += w
    return bad / (good + bad) if good + bad != 0.0 else 1.0


@njit(cache=True)
def _n_safe(cfg: I64, ci: I64, total: int, first_of_two: bool, played_99: bool) -> int:
    got = 0
    for c in range(NUM_CARDS):
        m = ci[_CI_POOL + c]
        if m and _is_safe(cfg, c, total, first_of_two, played_99):
            got += m
    return got


@njit(cache=True)
def _sum_cards(w: F64) -> float:
    s = 0.0
    for c in range(NUM_CARDS):
        s += w[c]
    return s


@njit(cache=True)
def _sample_hand(st: I64, ci: I64, weights0: F64, rng: U64, kk: int, hand: I64) -> int:
    """``_Ctx.sample_hand(k)``: ``hand[:kk]`` and the drawn card (returned)."""
    r = _rng(st, ci, rng)
    counts = ci[_CI_POOL : _CI_POOL + NUM_CARDS].copy()
    weights = weights0.copy()
    nk = ci[_CI_N_KINDS]
    live = ci[_CI_KINDS : _CI_KINDS + nk].copy()
    left = _sum_cards(weights)
    for j in range(kk):
        u = random_float(r) * left
        c = -1
        for i in range(nk):
            c = live[i]
            u -= weights[c]
            if u < 0.0:
                break
        hand[j] = c
        counts[c] -= 1
        if counts[c] == 0:  # live.remove(c)
            i = 0
            while live[i] != c:
                i += 1
            for q in range(i, nk - 1):
                live[q] = live[q + 1]
            nk -= 1
        weights[c] = counts[c] * HAND_BIAS[c]
        left = _sum_cards(weights)
    i = below(r, ci[_CI_N_POOL] - kk)
    for drawn in range(NUM_CARDS):
        if i < counts[drawn]:
            return drawn
        i -= counts[drawn]
    return -1


@njit(cache=True)
def _survives_two(cfg: I64, hand: I64, kk: int, drawn: int, total: int) -> bool:
    for i in range(kk):
        if (cfg[k.C_ANSWERS] >> hand[i]) & 1:
            return True  # R-P2-3
    for i in range(kk):
        c1 = hand[i]
        if not _is_safe(cfg, c1, total, True, False):
            continue
        t1 = _total_after(cfg, total, c1)
        played = c1 == _99
        for j in range(kk):
            if j != i and _is_safe(cfg, hand[j], t1, False, played):
                return True
        if _is_safe(cfg, drawn, t1, False, played):
            return True
    return False


@njit(cache=True)
def _p_bust(
    st: I64, cfg: I64, ci: I64, weights: F64, rng: U64, total: int, owes_two: bool, kk: int
) -> float:
    n_pool = ci[_CI_N_POOL]
    if n_pool == 0 or kk <= 0:
        return 0.0
    if not owes_two:
        return math.pow(_p_unsafe_weighted(cfg, ci, weights, total), float(kk))
    kk = min(kk, n_pool - 1)
    if kk <= 0:
        return 0.0
    hand = np.empty(kk, np.int64)
    busts = 0
    for _ in range(SAMPLES):
        drawn = _sample_hand(st, ci, weights, rng, kk, hand)
        if not _survives_two(cfg, hand, kk, drawn, total):
            busts += 1
    return busts / SAMPLES


@njit(cache=True)
def _safety(cfg: I64, ci: I64, rest: I64, nrest: int, total: int, others: int) -> float:
    t_next = total + DRIFT * others
    cap = cfg[k.C_LIMIT] - DRIFT_BELOW_LIMIT
    if t_next > cap:
        t_next = max(cap, total)
    safe_known = 0
    escapes = 0
    sets = cfg[k.C_99SETS] != 0
    room = cfg[k.C_LIMIT] - t_next
    for i in range(nrest):
        c = rest[i]
        if c <= MAX_NUMBER:
            if c < room:
                safe_known += 1
            if c == 0:
                escapes += 1
        elif c == _99:
            if sets:
                safe_known += 1
                escapes += 1
        else:
            safe_known += 1
            escapes += 1
    n_pool = ci[_CI_N_POOL]
    if safe_known:
        surv = 1.0
    elif n_pool:
        surv = _n_safe(cfg, ci, t_next, False, True) / n_pool
    else:
        surv = 0.0
    return (
        W_SAFETY * surv
        + W_ESCAPE * min(escapes, KEPT_COUNTED)
        + W_SAFE_CARDS * min(safe_known, KEPT_COUNTED)
    )


@njit(cache=True)
def _next_seat(st: I64, seat: int, direction: int) -> int:
    n = st[k.S_N]
    i = (seat + direction) % n
    while st[k.O_ACTIVE + i] == 0 and i != seat:
        i = (i + direction) % n
    return int(i)


@njit(cache=True)
def _rest(hand: I64, nhand: int, card: int, rest: I64) -> int:
    """``rest = list(hand); rest.remove(card)``; returns its length."""
    nrest = 0
    removed = False
    for i in range(nhand):
        if not removed and hand[i] == card:
            removed = True
        else:
            rest[nrest] = hand[i]
            nrest += 1
    return nrest


@njit(cache=True)
def _extra(cfg: I64, card: int, rest: I64, nrest: int) -> float:
    """The small preferences: dump high numbers; in points mode, a low hand score."""
    extra = W_DUMP * card if card <= MAX_NUMBER else 0.0
    if cfg[k.C_MODE] == k.POINTS:
        pts = 0
        for i in range(nrest):
            pts += CARD_POINTS[rest[i]]
        extra -= W_POINTS * pts
    return extra


@njit(cache=True)
def _tail(
    st: I64, cfg: I64, ci: I64, weights: F64, rng: U64, card: int, rest: I64, nrest: int,
    t1: int, owes: bool, extra: float,
) -> float:  # fmt: skip
    """The end of ``heuristic._score``: pressure on the next player and own safety."""
    me = ci[_CI_SEAT]
    n_active = ci[_CI_N_ACTIVE]
    direction = st[k.S_DIR]
    if card == _REV and n_active > 2:
        direction = -direction  # R-REV-1 (R-REV-2: a Hold with two players)
    nxt = _next_seat(st, me, direction)
    pressure = 0.0
    if nxt != me:
        pressure = _p_bust(st, cfg, ci, weights, rng, t1, owes, st[k.O_HAND_LEN + nxt])
    return extra + W_PRESSURE * pressure + _safety(cfg, ci, rest, nrest, t1, n_active - 1)


@njit(cache=True)
def _score_second(
    st: I64, cfg: I64, ci: I64, weights: F64, rng: U64, card: int, hand: I64, nhand: int,
    total: int, played_99: bool,
) -> float:  # fmt: skip
    """``heuristic._score`` of a card that is not the first of two plays."""
    rest = np.empty(HAND_SIZE, np.int64)
    nrest = _rest(hand, nhand, card, rest)
    t1 = _total_after(cfg, total, card)
    extra = _extra(cfg, card, rest, nrest)
    return _tail(st, cfg, ci, weights, rng, card, rest, nrest, t1, card == _P2, extra)


@njit(cache=True)
def _score(
    st: I64, cfg: I64, ci: I64, weights: F64, rng: U64, card: int, hand: I64, nhand: int,
    total: int, first_of_two: bool, played_99: bool,
) -> float:  # fmt: skip
    """``heuristic._score``: one card's value by the one-turn look-ahead. (Two functions,
    not one calling itself: Numba's disk cache does not keep recursive functions.)"""
    if not first_of_two:
        return _score_second(st, cfg, ci, weights, rng, card, hand, nhand, total, played_99)
    rest = np.empty(HAND_SIZE, np.int64)
    nrest = _rest(hand, nhand, card, rest)
    t1 = _total_after(cfg, total, card)
    played = played_99 or card == _99
    extra = _extra(cfg, card, rest, nrest)
    if (cfg[k.C_ANSWERS] >> card) & 1:
        return _tail(st, cfg, ci, weights, rng, card, rest, nrest, t1, True, extra)  # R-P2-3
    # the second of two plays (R-P2-1) comes after a draw
    # each safe card once (the Python bot's set), in any order: of these scores only a
    # Play 2's draws random numbers (the next player then owes two), so the order changes
    # neither the draws nor the best score
    best = -np.inf
    any_safe = False
    for i in range(nrest):
        c = rest[i]
        seen = False
        for j in range(i):
            seen = seen or rest[j] == c
        if seen or not _is_safe(cfg, c, t1, False, played):
            continue
        v = _score_second(st, cfg, ci, weights, rng, c, rest, nrest, t1, played)
        any_safe = True
        if v > best:
            best = v
    if any_safe:
        return extra + best
    n_pool = ci[_CI_N_POOL]
    p_draw = _n_safe(cfg, ci, t1, False, played) / n_pool if n_pool else 0.0
    return extra + p_draw * SAFE_DRAW - (1.0 - p_draw)


@njit(cache=True, inline="always")
def bust_card(st: I64) -> int:
    """R-END-3 for the seat to move: the legal card worth most points, the highest of
    those (``max(legal, key=lambda c: (CARD_POINTS[c], c))`` of the greedy and heuristic
    bots). Inlined: the bots' compiled loops call it at every decision."""
    n_legal = st[k.S_N_LEGAL]
    best = st[k.O_LEGAL]
    for i in range(1, n_legal):
        c = st[k.O_LEGAL + i]
        if CARD_POINTS[c] > CARD_POINTS[best] or (CARD_POINTS[c] == CARD_POINTS[best] and c > best):
            best = c
    return int(best)


@njit(cache=True, inline="always")
def greedy_card(st: I64) -> int:
    """The greedy card for the seat to move (``greedy_choice`` and ``rollout_choice`` once
    their special cases are out of the way): the highest legal number card, else the
    special card first in :data:`SPECIAL_RANK`. Inlined, as :func:`bust_card`."""
    n_legal = st[k.S_N_LEGAL]
    best = -1
    for i in range(n_legal):
        c = st[k.O_LEGAL + i]
        if c <= MAX_NUMBER:
            best = c  # the legal actions are sorted: the last number is the highest
    if best >= 0:
        return int(best)
    best = st[k.O_LEGAL]
    for i in range(1, n_legal):
        c = st[k.O_LEGAL + i]
        if SPECIAL_RANK[c] < SPECIAL_RANK[best]:
            best = c
    return int(best)


@njit(cache=True)
def heuristic_work() -> tuple[I64, F64, U64]:
    """The work arrays :func:`heuristic_act` needs: the decision's counts, the card
    weights, the stream's state."""
    return np.zeros(_CI_LEN, np.int64), np.zeros(NUM_CARDS, np.float64), np.zeros(RS_LEN, np.uint64)


@njit(cache=True)
def heuristic_act(st: I64, cfg: I64, ci: I64, weights: F64, rng: U64) -> int:
    """``HeuristicBot(samples=4).act`` for the seat to move (no pending draw)."""
    p = st[k.S_TO_MOVE]
    n_legal = st[k.S_N_LEGAL]
    if n_legal == 1:
        return int(st[k.O_LEGAL])
    if st[k.O_LEGAL + n_legal - 1] == k.DRAW:
        return k.DRAW  # R-DRAW-1: draw at once (the player's own draw, between two plays)
    if st[k.S_BUST_MODE] != 0:
        return bust_card(st)
    for i in range(n_legal):
        if st[k.O_LEGAL + i] == k.FOUR_99:
            return k.FOUR_99  # R-99-3
    _context(st, cfg, p, ci, weights)
    nhand = st[k.O_HAND_LEN + p]
    hand = st[k.O_HANDS + p * k.HAND_CAP : k.O_HANDS + p * k.HAND_CAP + nhand].copy()
    first = st[k.S_PLAYS_LEFT] == 2
    played_99 = st[k.S_PLAYED99] != 0
    total = st[k.S_TOTAL]
    best = st[k.O_LEGAL]
    best_score = -np.inf
    for i in range(n_legal):
        a = st[k.O_LEGAL + i]
        s = _score(st, cfg, ci, weights, rng, a, hand, nhand, total, first, played_99)
        if s > best_score:
            best = a
            best_score = s
    return int(best)


@njit(cache=True)
def _hand_strength(st: I64, cfg: I64, strength: F64) -> int:
    """Each active seat's hand strength (1, plus 1 an escape card, plus 0.5 a card that
    fits under the limit), in ``strength``; how many seats have any."""
    room = cfg[k.C_LIMIT] - st[k.S_TOTAL]
    live = 0
    for s in range(st[k.S_N]):
        strength[s] = 0.0
        if st[k.O_ACTIVE + s] != 0:
            v = 1.0
            for i in range(st[k.O_HAND_LEN + s]):
                c = st[k.O_HANDS + s * k.HAND_CAP + i]
                if _is_escape(cfg, c):
                    v += 1.0
                elif c < room:
                    v += FITS_STRENGTH
            strength[s] = v
        if strength[s] > 0:
            live += 1
    return live


@njit(cache=True)
def _round_lost(st: I64, alive0: I64, tokens0: I64, out: F64) -> None:
    """Tokens: 1 to every seat alive at the start that did not lose the round (R-END-2)."""
    for s in range(st[k.S_N]):
        lost = st[k.O_TOKENS + s] < tokens0[s] or st[k.O_ALIVE + s] == 0
        out[s] = 1.0 if alive0[s] and not lost else 0.0


@njit(cache=True)
def _points_paid(st: I64, scores0: I64, out: F64) -> bool:
    """Points: once anyone scored, each seat's reward falls with the points it took."""
    n = st[k.S_N]
    changed = False
    for s in range(n):
        if st[k.O_SCORES + s] != scores0[s]:
            changed = True
    if changed:
        for s in range(n):
            out[s] = max(0.0, 1.0 - (st[k.O_SCORES + s] - scores0[s]) / ROLLOUT_POINTS)
    return changed


@njit(cache=True)
def _by_strength(st: I64, cfg: I64, alive0: I64, out: F64) -> None:
    """An unfinished round valued by the hands' strengths: a share of the win in an
    elimination game, else the chance of not being the one who busts."""
    n = st[k.S_N]
    strength = np.zeros(n, np.float64)
    if _hand_strength(st, cfg, strength) == 0:
        return
    if cfg[k.C_MODE] == k.ELIMINATION:
        tot = 0.0
        for s in range(n):
            if strength[s] > 0:
                tot += strength[s]
        for s in range(n):
            if strength[s] > 0:
                out[s] = strength[s] / tot
        return
    inv = 0.0
    for s in range(n):
        if strength[s] > 0:
            inv += 1.0 / strength[s]
    for s in range(n):
        if alive0[s]:
            out[s] = 1.0 - ((1.0 / strength[s]) / inv if strength[s] > 0 else 0.0)


@njit(cache=True)
def standing(st: I64) -> tuple[I64, I64, I64]:
    """Who is alive, the tokens and the scores now: what :func:`seat_rewards` compares
    the end of a rollout with."""
    n = st[k.S_N]
    alive = st[k.O_ALIVE : k.O_ALIVE + n].copy()
    tokens = st[k.O_TOKENS : k.O_TOKENS + n].copy()
    return alive, tokens, st[k.O_SCORES : k.O_SCORES + n].copy()


@njit(cache=True)
def seat_rewards(st: I64, cfg: I64, alive0: I64, tokens0: I64, scores0: I64, out: F64) -> None:
    """``ismcts._rewards``: every seat's reward at the end of a rollout."""
    n = st[k.S_N]
    out[:n] = 0.0
    w = st[k.S_N_WINNERS]
    if w > 0:
        for i in range(w):
            out[st[k.O_WINNERS + i]] = 1.0 / w if w > 1 else 1.0
    elif cfg[k.C_MODE] == k.TOKENS:
        _round_lost(st, alive0, tokens0, out)
    elif cfg[k.C_MODE] != k.POINTS or not _points_paid(st, scores0, out):
        _by_strength(st, cfg, alive0, out)


@njit(cache=True)
def play_out(
    st: I64, cfg: I64, action: int, me: int, seed: U64, rs: U64, deck: I64,
    gh: I64, ghl: I64, gd: I64, gdl: I64, ci: I64, weights: F64, rng: U64, rewards: F64,
) -> float:  # fmt: skip
    """``ISMCTSBot._play_out``: ``action``, then the heuristic in every seat to the end
    of the round (or the horizon, or the searcher's elimination); ``me``'s reward."""
    start_round = st[k.S_ROUND]
    elimination = cfg[k.C_MODE] == k.ELIMINATION
    alive0, tokens0, scores0 = standing(st)
    k.apply(st, cfg, action, seed, rs, deck, gh, ghl, gd, gdl)
    steps = 0
    while st[k.S_TO_MOVE] >= 0 and st[k.S_ROUND] == start_round and steps < MAX_ROLLOUT:
        if elimination and st[k.O_ALIVE + me] == 0:
            break
        if st[k.S_PENDING] >= 0:
            k.apply(st, cfg, k.DRAW, seed, rs, deck, gh, ghl, gd, gdl)
            continue
        a = heuristic_act(st, cfg, ci, weights, rng)
        k.apply(st, cfg, a, seed, rs, deck, gh, ghl, gd, gdl)
        steps += 1
    seat_rewards(st, cfg, alive0, tokens0, scores0, rewards)
    return float(rewards[me])


@njit(cache=True)
def _rollouts(
    st0: I64, cfg: I64, actions: I64, me: int, seed: U64, rs: U64, deck: I64,
    gh: I64, ghl: I64, gd: I64, gdl: I64, out: F64,
) -> None:  # fmt: skip
    ci, weights, rng = heuristic_work()
    rewards = np.zeros(k.MAXP, np.float64)
    st = st0.copy()
    for i in range(actions.shape[0]):
        st[:] = st0
        out[i] = play_out(
            st, cfg, actions[i], me, seed, rs, deck, gh, ghl, gd, gdl, ci, weights, rng,
            rewards,
        )  # fmt: skip


def usable(g: Game) -> bool:
    """Whether a world can be rolled out here: no deal fixed for a later round (the
    companion's worlds), dealt by version 2 (a search's worlds always are), rules the fast
    engine plays."""
    return g.rules.standard_deal and all(d is None for d in g.given_deals[g.round :]) and g.rng == 2


def world_state(g: Game) -> tuple[I64, I64, U64]:
    """A world (a reference :class:`Game`) as the fast engine's state vector, rules vector
    and seed words."""
    return game_state(g), rules_cfg(g.rules), seed_words(g.seed)


#: the rules vector of each preset and options met (read-only once built)
_RULES: dict[Rules, I64] = {}
#: the work arrays every compiled search kernel shuffles in
_SCRATCH: list[Scratch] = []


def rules_cfg(rules: Rules) -> I64:
    """The fast engine's rules vector of ``rules`` (built once, then shared read-only)."""
    cfg = _RULES.get(rules)
    if cfg is None:
        cfg = _RULES[rules] = rules_vector(rules)
    return cfg


def scratch() -> Scratch:
    """The kernels' work arrays, one set for all: a kernel holds the GIL while it runs
    (Numba's default) and uses them only within one call, so two threads (the bots of two
    web tables) never use them at once."""
    if not _SCRATCH:
        _SCRATCH.append(Scratch())
    return _SCRATCH[0]


def rollout_values(g: Game, actions: list[int] | tuple[int, ...], me: int) -> list[float]:
    """``[ISMCTSBot._play_out(g.copy(), a, me) for a in actions]``, compiled; ``g`` is
    left as it was."""
    st, cfg, seed = world_state(g)
    work = scratch()
    out = np.zeros(len(actions), np.float64)
    _rollouts(st, cfg, np.array(actions, np.int64), me, seed, work.rs, work.deck, *NO_DEALS, out)
    return [float(v) for v in out]


@njit(cache=True)
def _act(st: I64, cfg: I64) -> int:
    ci, weights, rng = heuristic_work()
    return heuristic_act(st, cfg, ci, weights, rng)


def heuristic_move(g: Game) -> int:
    """``HeuristicBot(samples=4).act(view_of(g, g.to_move))``, compiled: the same move
    (the hand inference asks it of every play it replays)."""
    st, cfg, _ = world_state(g)
    return int(_act(st, cfg))


def warm() -> None:
    """Compile the rollouts and the heuristic, or load them from Numba's disk cache."""
    for rules, players in (("mattel2022", 3), ("classic1980", 3)):
        g = Game(rules, players, seed=1, events=False)
        legal = g.legal_actions()
        rollout_values(g, legal, g.to_move or 0)
        heuristic_move(g)
