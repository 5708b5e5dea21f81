"""The hand inference's world sampling, compiled: the same worlds from the same random numbers.

:meth:`HandTracker.world <ono99.bots.inference.HandTracker.world>` tries up to ``tries``
times to deal a believed world at the bot's previous decision
(:func:`~ono99.bots.common.believed_world`) and carry it through what happened since
(:func:`~ono99.bots.inference._replay`), keeping it only if every other player would, by the
heuristic, have made the play they made. With the plain heuristic as the model, that loop
runs here on the fast engine's state vector: the same card counting, the same shuffles and
weighted draws (``random() ** (1 / bias)``, CPython's ``heapq.nlargest`` order), the same
swaps, the same compiled heuristic (:mod:`ono99.bots.fast_rollout`). The caller's
``random.Random`` is handed in and out by its state, so it ends exactly where the Python
loop leaves it, and the world returned is the same :class:`~ono99.Game`.
"""

from __future__ import annotations

import math
import random
from typing import Any

import numpy as np
import numpy.typing as npt
from numba import njit

from ono99.bots.fast_rollout import (
    HAND_BIAS,
    heuristic_act,
    heuristic_work,
    public_state,
    rules_cfg,
    scratch,
)  # fmt: skip
from ono99.fast import core as k
from ono99.fast.core import I64, U8, U32
from ono99.fast.game import NO_DEALS
from ono99.fast.rng import mt_next, randbelow, random_float
from ono99.game import Game
from ono99.view import PlayerView

__all__ = ["arrays", "believed", "digits", "replay_plays", "track", "view_state", "warm"]

F64 = npt.NDArray[np.float64]
_99 = 15


@njit(cache=True)
def _shuffle(rng: U32, x: I64, n: int) -> None:
    """``game.seeded_shuffle`` (= ``random.shuffle``) of ``x[:n]``."""
    for i in range(n - 1, 0, -1):
        j = randbelow(rng, i + 1)
        t = x[i]
        x[i] = x[j]
        x[j] = t


@njit(cache=True)
def _weighted_hand(rng: U32, pool: I64, m: int, kk: int, out: I64) -> int:
    """``common.weighted_hand``: ``kk`` cards of ``pool[:m]`` into ``out`` (in the order
    the Python takes them: descending pool index), removed from the pool; returns the
    pool's new length."""
    if kk <= 0:
        return m
    if kk >= m:
        for i in range(m):
            out[i] = pool[i]
        return 0
    keys = np.empty(m, np.float64)
    for i in range(m):
        keys[i] = math.pow(random_float(rng), 1.0 / HAND_BIAS[pool[i]])
    # nlargest over (key, index): the last kk of a stable ascending sort by key
    order = np.argsort(keys, kind="mergesort")
    take = np.sort(order[m - kk :])[::-1]
    for j in range(kk):
        out[j] = pool[take[j]]
    keep = np.ones(m, np.bool_)
    for j in range(kk):
        keep[take[j]] = False
    n = 0
    for i in range(m):
        if keep[i]:
            pool[n] = pool[i]
            n += 1
    return n


@njit(cache=True)
def digits(value: int, buf: U8) -> int:
    """The decimal digits of ``0 <= value`` into ``buf``; returns their count."""
    n = 1
    t = value // 10
    while t > 0:
        n += 1
        t //= 10
    t = value
    for i in range(n - 1, -1, -1):
        buf[i] = 48 + t % 10
        t //= 10
    return n


@njit(cache=True)
def believed(rng: U32, tpl: I64, cfg: I64, me: int, laid: I64, st: I64, pool: I64) -> int:
    """``believed_world(prev, rng)`` into ``st`` (from the template ``tpl``: the previous
    view's public state and own hand); returns the world's seed (``getrandbits(32)``)."""
    n = tpl[k.S_N]
    st[:] = tpl
    # sample_world: the unseen cards, shuffled, dealt into the hidden hands from the end
    counts = np.empty(16, np.int64)
    for c in range(16):
        counts[c] = cfg[k.C_DECK + c]
    for i in range(tpl[k.S_N_DISCARD]):
        counts[tpl[k.O_DISCARD + i]] -= 1
    for s in range(n):
        if s == me or laid[s]:
            for i in range(tpl[k.O_HAND_LEN + s]):
                counts[tpl[k.O_HANDS + s * k.HAND_CAP + i]] -= 1
    m = 0
    for c in range(16):
        for _ in range(max(counts[c], 0)):
            pool[m] = c
            m += 1
    _shuffle(rng, pool, m)
    for s in range(n):
        if s == me or laid[s]:
            continue
        kk = tpl[k.O_HAND_LEN + s]
        for i in range(kk):
            st[k.O_HANDS + s * k.HAND_CAP + i] = pool[m - kk + i]
        m -= kk
    seed = int(mt_next(rng))
    # believed_world: the hidden hands dealt again from the same cards with the hand bias
    pile_n = m  # the draw pile is pool[:m]; the hidden hands join it in seat order
    for s in range(n):
        if s != me and not laid[s]:
            for i in range(st[k.O_HAND_LEN + s]):
                pool[pile_n] = st[k.O_HANDS + s * k.HAND_CAP + i]
                pile_n += 1
    _shuffle(rng, pool, pile_n)
    out = np.empty(8, np.int64)
    for s in range(n):
        kk = st[k.O_HAND_LEN + s]
        if s == me or laid[s] or kk == 0:
            continue
        got = min(kk, pile_n)
        pile_n = _weighted_hand(rng, pool, pile_n, kk, out)
        for i in range(got):
            st[k.O_HANDS + s * k.HAND_CAP + i] = out[i]
        st[k.O_HAND_LEN + s] = got
    for i in range(pile_n):
        st[k.O_DRAW + i] = pool[i]
    st[k.S_N_DRAW] = pile_n
    k.compute_legal(st, cfg)  # Game.world's resettle
    return seed


@njit(cache=True)
def _pile_find(st: I64, c: int) -> int:
    for i in range(st[k.S_N_DRAW]):
        if st[k.O_DRAW + i] == c:
            return i
    return -1


@njit(cache=True)
def _pile_pop(st: I64, i: int) -> int:
    m = st[k.S_N_DRAW]
    c = st[k.O_DRAW + i]
    for j in range(i, m - 1):
        st[k.O_DRAW + j] = st[k.O_DRAW + j + 1]
    st[k.S_N_DRAW] = m - 1
    return int(c)


@njit(cache=True)
def _pile_insert(st: I64, i: int, c: int) -> None:
    m = st[k.S_N_DRAW]
    for j in range(m, i, -1):
        st[k.O_DRAW + j] = st[k.O_DRAW + j - 1]
    st[k.O_DRAW + i] = c
    st[k.S_N_DRAW] = m + 1


@njit(cache=True)
def _in_hand(st: I64, s: int, c: int) -> bool:
    for i in range(st[k.O_HAND_LEN + s]):  # noqa: SIM110 (Numba compiles no generators)
        if st[k.O_HANDS + s * k.HAND_CAP + i] == c:
            return True
    return False


@njit(cache=True)
def _hand_pop(st: I64, s: int, i: int) -> int:
    base = k.O_HANDS + s * k.HAND_CAP
    m = st[k.O_HAND_LEN + s]
    c = st[base + i]
    for j in range(i, m - 1):
        st[base + j] = st[base + j + 1]
    st[k.O_HAND_LEN + s] = m - 1
    return int(c)


@njit(cache=True)
def _drawn_on_top(st: I64, rng: U32, me: int, drawn: int) -> bool:
    """The card the bot really drew put on top of the draw pile (taken from another hand,
    which draws a random pile card instead, when the world dealt it there)."""
    at = _pile_find(st, drawn)
    if at >= 0:
        _pile_pop(st, at)
    else:  # the world put it in another hand
        holder = -1
        for s in range(st[k.S_N]):
            if s != me and _in_hand(st, s, drawn):
                holder = s
                break
        if holder < 0 or st[k.S_N_DRAW] == 0:
            return False
        k.hand_remove(st, holder, drawn)
        k.hand_append(st, holder, _pile_pop(st, randbelow(rng, st[k.S_N_DRAW])))
    st[k.O_DRAW + st[k.S_N_DRAW]] = drawn
    st[k.S_N_DRAW] += 1
    return True


@njit(cache=True)
def _four_99s(st: I64, played: I64, i: int) -> bool:
    """Whether plays ``i..i+3`` are four 99s that the player may lay down at once (R-99-3)."""
    if played[i] != _99 or not k.is_legal(st, k.FOUR_99) or i + 4 > played.shape[0]:
        return False
    for j in range(i, i + 4):  # noqa: SIM110 (Numba compiles no generators)
        if played[j] != _99:
            return False
    return True


@njit(cache=True)
def _give_card(st: I64, cfg: I64, rng: U32, p: int, c: int) -> bool:
    """Seat ``p`` made to hold ``c``: taken from the draw pile for a random card of its
    hand, which goes back into the pile at a random place."""
    at = _pile_find(st, c)
    if at < 0 or st[k.O_HAND_LEN + p] == 0:
        return False
    _pile_pop(st, at)
    out = _hand_pop(st, p, randbelow(rng, st[k.O_HAND_LEN + p]))
    _pile_insert(st, randbelow(rng, st[k.S_N_DRAW] + 1), out)
    k.hand_append(st, p, c)
    k.compute_legal(st, cfg)  # resettle
    return True


@njit(cache=True)
def _reaches(st: I64, target: I64, me: int) -> bool:
    """Whether the world is at the view's public state (``target``) with the bot's hand."""
    if st[k.S_TO_MOVE] != me:
        return False
    for f in (k.S_TOTAL, k.S_DIR, k.S_OWES, k.S_PLAYS_LEFT):
        if st[f] != target[f]:
            return False
    for s in range(st[k.S_N]):
        if st[k.O_HAND_LEN + s] != target[k.O_HAND_LEN + s]:
            return False
        if st[k.O_ALIVE + s] != target[k.O_ALIVE + s]:
            return False
    base = k.O_HANDS + me * k.HAND_CAP
    mine = np.sort(st[base : base + st[k.O_HAND_LEN + me]])
    want = np.sort(target[base : base + target[k.O_HAND_LEN + me]])
    for i in range(mine.shape[0]):  # noqa: SIM110 (Numba compiles no generators)
        if mine[i] != want[i]:
            return False
    return True


@njit(cache=True)
def replay_plays(
    st: I64, cfg: I64, rng: U32, me: int, action: int, drawn: int, played: I64,
    target: I64, prefix: U8, mt: U32, buf: U8, deck: I64, gh: I64, ghl: I64, gd: I64,
    gdl: I64, ci: I64, weights: F64, hrng: U32,
) -> bool:  # fmt: skip
    """``inference._replay`` with ``eps = 0``: ``st`` carried through the bot's action,
    its draw and the others' plays; whether it reaches the view (``target``)."""
    if not _drawn_on_top(st, rng, me, drawn) or not k.is_legal(st, action):
        return False
    k.apply(st, cfg, action, prefix, mt, buf, deck, gh, ghl, gd, gdl)
    i = 0
    while i < played.shape[0]:
        c = played[i]
        p = st[k.S_TO_MOVE]
        if p < 0 or p == me:
            return False
        if _four_99s(st, played, i):
            k.apply(st, cfg, k.FOUR_99, prefix, mt, buf, deck, gh, ghl, gd, gdl)
            i += 4
            continue
        if not _in_hand(st, p, c) and not _give_card(st, cfg, rng, p, c):
            return False
        if not k.is_legal(st, c):
            return False
        if st[k.S_N_LEGAL] > 1 and heuristic_act(st, cfg, ci, weights, hrng) != c:
            return False  # the model would not have played it with this hand
        k.apply(st, cfg, c, prefix, mt, buf, deck, gh, ghl, gd, gdl)
        i += 1
    return _reaches(st, target, me)


@njit(cache=True)
def _track(
    tpl: I64, cfg: I64, rng: U32, me: int, laid: I64, action: int, drawn: int, played: I64,
    target: I64, tries: int, st: I64, mt: U32, buf: U8, deck: I64, gh: I64, ghl: I64,
    gd: I64, gdl: I64,
) -> int:  # fmt: skip
    """Up to ``tries`` believed worlds carried through to the view; returns the kept
    world's seed (its state in ``st``), or -1 when every try failed."""
    pool = np.empty(k.PILE_CAP, np.int64)
    prefix_buf = np.empty(16, np.uint8)
    ci, weights, hrng = heuristic_work()
    for _ in range(tries):
        seed = believed(rng, tpl, cfg, me, laid, st, pool)
        plen = digits(seed, prefix_buf)
        if replay_plays(
            st, cfg, rng, me, action, drawn, played, target, prefix_buf[:plen], mt, buf, deck,
            gh, ghl, gd, gdl, ci, weights, hrng,
        ):  # fmt: skip
            return seed
    return -1


def view_state(view: PlayerView, laid: list[bool]) -> I64:
    """A view as a state vector: its public state, its own hand, the laid-down hands, and
    the other hands' sizes (their cards are left to the sampling)."""
    st = public_state(view)
    for s in range(len(view.names)):
        st[k.O_HAND_LEN + s] = view.hand_sizes[s]
        cards = view.hand if s == view.seat else view.laid_down[s] if laid[s] else ()
        st[k.O_HANDS + s * k.HAND_CAP : k.O_HANDS + s * k.HAND_CAP + len(cards)] = cards
    st[k.S_N_DISCARD] = len(view.discard)
    st[k.O_DISCARD : k.O_DISCARD + len(view.discard)] = view.discard
    st[k.S_N_DRAW] = view.draw_pile
    return st


def _game(st: I64, prev: PlayerView, seed: int) -> Game:
    """The kept world as the :class:`Game` the Python replay returns."""
    n = int(st[k.S_N])

    def seats(at: int, count: int) -> list[int]:
        return [int(v) for v in st[at : at + count]]

    w = int(st[k.S_N_WINNERS])
    winners = seats(k.O_WINNERS, w)
    return Game.from_state(
        prev.rules, prev.names, seed,
        hands=[seats(k.O_HANDS + s * k.HAND_CAP, int(st[k.O_HAND_LEN + s])) for s in range(n)],
        draw_pile=seats(k.O_DRAW, int(st[k.S_N_DRAW])),
        discard=seats(k.O_DISCARD, int(st[k.S_N_DISCARD])),
        total=int(st[k.S_TOTAL]), direction=int(st[k.S_DIR]),
        to_move=None if st[k.S_TO_MOVE] < 0 else int(st[k.S_TO_MOVE]),
        owes_two=None if st[k.S_OWES] < 0 else int(st[k.S_OWES]),
        plays_left=int(st[k.S_PLAYS_LEFT]), played_99=bool(st[k.S_PLAYED99]),
        alive=[bool(v) for v in st[k.O_ALIVE : k.O_ALIVE + n]],
        active=[bool(v) for v in st[k.O_ACTIVE : k.O_ACTIVE + n]],
        out=seats(k.O_OUT, int(st[k.S_N_OUT])),
        tokens=None if prev.tokens is None else seats(k.O_TOKENS, n),
        scores=None if prev.scores is None else seats(k.O_SCORES, n),
        round_out=seats(k.O_ROUND_OUT, int(st[k.S_N_ROUND_OUT])),
        round=int(st[k.S_ROUND]),
        winner=None if w == 0 else winners[0] if w == 1 else winners,
        pending_draw=None if st[k.S_PENDING] < 0 else int(st[k.S_PENDING]),
        reshuffles=int(st[k.S_RESHUFFLES]),
        given_deals=[None] * prev.round,
    )  # fmt: skip


#: (prev, view, arrays) of the last decision asked about (it asks for 120 worlds), kept as
#: one tuple: bots of two web tables may ask from two threads
_LAST: list[Any] = [None]


def arrays(prev: PlayerView, view: PlayerView, played: list[int]) -> tuple[Any, ...]:
    last = _LAST[0]
    if last is not None and last[0] is prev and last[1] is view:
        got: tuple[Any, ...] = last[2]
        if got[4].tolist() == played:
            return got
    laid = [bool(h) for h in prev.laid_down]
    got = (
        view_state(prev, laid),
        view_state(view, [bool(h) for h in view.laid_down]),
        np.array(laid, np.int64),
        rules_cfg(prev.rules),
        np.array(played, np.int64),
    )
    _LAST[0] = (prev, view, got)
    return got


def track(
    prev: PlayerView,
    action: int,
    drawn: list[int],
    played: list[int],
    view: PlayerView,
    rng: random.Random,
    tries: int,
) -> Game | None:
    """``HandTracker``'s tries, compiled (the model: the plain heuristic): the kept world,
    or None; ``rng`` advances exactly as the Python loop advances it."""
    tpl, target, laid, cfg, played_arr = arrays(prev, view, played)
    version, words, gauss = rng.getstate()
    mt = np.array(words, np.uint32)
    work = scratch()
    st = k.new_state()
    seed = int(
        _track(
            tpl, cfg, mt, prev.seat, laid, action, drawn[0], played_arr, target, tries, st,
            work.mt, work.buf, work.deck, *NO_DEALS,
        )
    )  # fmt: skip
    rng.setstate((version, tuple(mt.tolist()), gauss))
    return None if seed < 0 else _game(st, prev, seed)


def warm() -> None:
    """Compile the tracker (or load it from Numba's disk cache)."""
    g = Game("classic1980", 3, seed=1, events=False)
    p = g.to_move or 0
    view = g.view(p)
    track(view, g.legal_actions(p)[0], [0], [], view, random.Random(0), 1)
