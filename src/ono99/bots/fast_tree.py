"""The search's tree, compiled: ``ismcts:N`` (the ``hard`` level, and plain ``ismcts`` with
points) making the same choices many times faster.

:meth:`ISMCTSBot.search <ono99.bots.ismcts.ISMCTSBot.search>` with greedy (or random)
rollouts samples a believed world per iteration, then for every root action descends an
information-set tree with UCB1, expands one edge, plays the greedy rollout policy
(:func:`~ono99.bots.ismcts.rollout_choice`) for ``horizon`` plies and backs the rewards
up. Here the whole loop runs on the fast engine's state vector: the believed world from
:mod:`ono99.bots.fast_inference` (the same shuffles and weighted draws from the bot's own
generator, handed in and out by its state), the rollout generator seeded as
``random.Random(getrandbits(64))`` is, the tree kept in arrays (an edge's children as a
linked list: which child is found first never matters, the actions are tried in the
legal order), UCB1 and the paired statistics with the same floating-point operations in
the same order. So a view and a generator give the same move as the Python search, and
leave the generator in the same state: ``benchmarks/check_same_bots.py`` pins the moves,
``tests/fast/test_search.py`` compares the two at every decision of random games.
"""

from __future__ import annotations

import math
import random

import numpy as np
import numpy.typing as npt
from numba import njit

from ono99.bots.fast_inference import believed, digits, view_state
from ono99.bots.fast_paired import add_world, choose
from ono99.bots.fast_rollout import (
    CARD_POINTS,
    greedy_card,
    rules_cfg,
    scratch,
    seat_rewards,
    standing,
)
from ono99.fast import core as k
from ono99.fast.core import I64, U8, U32
from ono99.fast.game import NO_DEALS
from ono99.fast.rng import init_by_array, mt_next, randbelow, random_float
from ono99.view import PlayerView

__all__ = ["search", "seed_words", "warm"]

F64 = npt.NDArray[np.float64]

#: ismcts.MAX_ROLLOUT (pinned to it by tests/fast/test_search.py)
MAX_ROLLOUT = 600
_P2 = 13


@njit(cache=True)
def _choice(st: I64, cfg: I64, rng: U32, epsilon: float) -> int:
    """``ismcts.rollout_choice``: greedy play with a Play 2 when the total is high and
    ``epsilon`` random moves."""
    nl = st[k.S_N_LEGAL]
    if nl == 1:
        return int(st[k.O_LEGAL])
    if st[k.S_BUST_MODE] != 0:  # R-END-3: the first card worth most
        best = st[k.O_LEGAL]
        for i in range(1, nl):
            c = st[k.O_LEGAL + i]
            if CARD_POINTS[c] > CARD_POINTS[best]:
                best = c
        return int(best)
    if st[k.O_LEGAL + nl - 1] == k.FOUR_99:
        return k.FOUR_99
    if epsilon != 0.0 and random_float(rng) < epsilon:
        return int(st[k.O_LEGAL + randbelow(rng, nl)])
    room = cfg[k.C_LIMIT] - st[k.S_TOTAL]
    if room <= 12 and st[k.S_PLAYS_LEFT] == 1:
        for i in range(nl):
            if st[k.O_LEGAL + i] == _P2:
                return _P2
    return greedy_card(st)


@njit(cache=True)
def seed_words(state: U32, words: npt.NDArray[np.uint64]) -> None:
    """``random.Random(words[0] + (words[1] << 32))`` into ``state``: the seed's 32-bit
    words are the key, one word when the high one is zero (CPython's ``random_seed``)."""
    init_by_array(state, words, 2 if words[1] != 0 else 1)


@njit(cache=True)
def _child(first: I64, sib: I64, key: I64, parent: int, want: int) -> int:
    """The child edge of ``parent`` with key ``want`` (seat * 32 + action), or -1."""
    e = first[parent]
    while e >= 0:
        if key[e] == want:
            return int(e)
        e = sib[e]
    return -1


@njit(cache=True)
def _iterate(
    st: I64, cfg: I64, action: int, root: int, me: int, rng: U32, c: float, eps: float,
    limit: int, en: I64, ew: F64, eav: I64, key: I64, first: I64, sib: I64, used: I64,
    path_e: I64, path_p: I64, rewards: F64, prefix: U8, mt: U32, buf: U8, deck: I64,
    gh: I64, ghl: I64, gd: I64, gdl: I64,
) -> float:  # fmt: skip
    """``ISMCTSBot._iterate``: ``action`` in world ``st``, down ``root``'s tree with UCB1,
    one edge expanded, the rollout policy for ``limit`` plies; rewards backed up;
    ``me``'s reward."""
    start_round = st[k.S_ROUND]
    elimination = cfg[k.C_MODE] == k.ELIMINATION
    alive0, tokens0, scores0 = standing(st)
    k.apply(st, cfg, action, prefix, mt, buf, deck, gh, ghl, gd, gdl)
    path_e[0] = root
    path_p[0] = me
    depth = 1
    node = root
    while True:
        p = st[k.S_TO_MOVE]
        if p < 0 or st[k.S_ROUND] != start_round:
            break
        if elimination and st[k.O_ALIVE + me] == 0:
            break
        if st[k.S_PENDING] >= 0:
            k.apply(st, cfg, k.DRAW, prefix, mt, buf, deck, gh, ghl, gd, gdl)
            continue
        nl = st[k.S_N_LEGAL]
        if nl == 1:  # a forced move needs no node
            k.apply(st, cfg, st[k.O_LEGAL], prefix, mt, buf, deck, gh, ghl, gd, gdl)
            continue
        base = p * 32
        best_edge = -1
        best_a = -1
        best_val = -1.0
        untried = -1
        for i in range(nl):
            a = st[k.O_LEGAL + i]
            e = _child(first, sib, key, node, base + a)
            if e < 0:
                if untried < 0:
                    untried = a
                continue
            eav[e] += 1
            val = ew[e] / en[e] + c * math.sqrt(math.log(eav[e]) / en[e])
            if val > best_val:
                best_val = val
                best_a = a
                best_edge = e
        if untried >= 0:
            pick = _choice(st, cfg, rng, 0.0)
            if _child(first, sib, key, node, base + pick) >= 0:
                pick = untried
            e = used[0]
            used[0] = e + 1
            en[e] = 0
            ew[e] = 0.0
            eav[e] = 1
            key[e] = base + pick
            first[e] = -1
            sib[e] = first[node]
            first[node] = e
            k.apply(st, cfg, pick, prefix, mt, buf, deck, gh, ghl, gd, gdl)
            path_e[depth] = e
            path_p[depth] = p
            depth += 1
            break
        k.apply(st, cfg, best_a, prefix, mt, buf, deck, gh, ghl, gd, gdl)
        path_e[depth] = best_edge
        path_p[depth] = p
        depth += 1
        node = best_edge
    steps = 0
    while st[k.S_TO_MOVE] >= 0 and st[k.S_ROUND] == start_round and steps < limit:
        if elimination and st[k.O_ALIVE + me] == 0:
            break
        if st[k.S_PENDING] >= 0:
            k.apply(st, cfg, k.DRAW, prefix, mt, buf, deck, gh, ghl, gd, gdl)
            continue
        k.apply(st, cfg, _choice(st, cfg, rng, eps), prefix, mt, buf, deck, gh, ghl, gd, gdl)
        steps += 1
    seat_rewards(st, cfg, alive0, tokens0, scores0, rewards)
    for j in range(depth):
        en[path_e[j]] += 1
        ew[path_e[j]] += rewards[path_p[j]]
    return float(rewards[me])


@njit(cache=True)
def _search(
    tpl: I64, cfg: I64, bot_rng: U32, me: int, laid: I64, legal: I64, pi: int,
    iterations: int, c: float, eps: float, limit: int, z: float, mt: U32, buf: U8,
    deck: I64, gh: I64, ghl: I64, gd: I64, gdl: I64,
) -> int:  # fmt: skip
    """``ISMCTSBot.search`` with believed worlds: the index in ``legal`` of the move."""
    nk = legal.shape[0]
    cap = nk * (iterations + 1)
    en = np.zeros(cap, np.int64)
    ew = np.zeros(cap, np.float64)
    eav = np.ones(cap, np.int64)
    key = np.zeros(cap, np.int64)
    first = np.full(cap, -1, np.int64)
    sib = np.full(cap, -1, np.int64)
    used = np.array([nk], np.int64)  # edges 0..nk-1: the roots
    path_e = np.zeros(iterations + 2, np.int64)
    path_p = np.zeros(iterations + 2, np.int64)
    rewards = np.zeros(k.MAXP, np.float64)
    pool = np.empty(k.PILE_CAP, np.int64)
    world = k.new_state()
    st = k.new_state()
    prefix = np.empty(20, np.uint8)
    seeded = np.zeros(625, np.uint32)
    rng = np.zeros(625, np.uint32)
    words = np.zeros(2, np.uint64)
    vals = np.zeros(nk, np.float64)
    diffs_sum = np.zeros(nk, np.float64)
    diffs_sq = np.zeros(nk, np.float64)
    for _ in range(iterations):
        seed = believed(bot_rng, tpl, cfg, me, laid, world, pool)
        plen = digits(seed, prefix)
        # random.Random(rng.getrandbits(64)): the low word is drawn first
        words[0] = np.uint64(mt_next(bot_rng))
        words[1] = np.uint64(mt_next(bot_rng))
        seed_words(seeded, words)
        for i in range(nk):
            st[:] = world
            rng[:] = seeded
            vals[i] = _iterate(
                st, cfg, legal[i], i, me, rng, c, eps, limit, en, ew, eav, key, first, sib,
                used, path_e, path_p, rewards, prefix[:plen], mt, buf, deck, gh, ghl, gd, gdl,
            )  # fmt: skip
        add_world(vals, pi, diffs_sum, diffs_sq)
    return choose(diffs_sum, diffs_sq, pi, iterations, z)


def search(
    view: PlayerView,
    prior: int,
    rng: random.Random,
    iterations: int,
    c: float,
    epsilon: float,
    horizon: int,
    z: float,
) -> int:
    """``ISMCTSBot.search`` on believed worlds with the greedy rollout policy, compiled:
    the same move, and ``rng`` advanced exactly as the Python search advances it."""
    laid = [bool(h) for h in view.laid_down]
    work = scratch()
    version, state, gauss = rng.getstate()
    mt = np.array(state, np.uint32)
    legal = view.legal
    best = _search(
        view_state(view, laid), rules_cfg(view.rules), mt, view.seat, np.array(laid, np.int64),
        np.array(legal, np.int64), legal.index(prior), iterations, c, epsilon,
        horizon or MAX_ROLLOUT, z, work.mt, work.buf, work.deck, *NO_DEALS,
    )  # fmt: skip
    rng.setstate((version, tuple(mt.tolist()), gauss))
    return legal[int(best)]


def warm() -> None:
    """Compile the tree search (or load it from Numba's disk cache)."""
    from ono99.bots.heuristic import HeuristicBot
    from ono99.game import Game

    g = Game("classic1980", 3, seed=1, events=False, options={"scoring": "points"})
    p = g.to_move or 0
    view = g.view(p)
    search(view, HeuristicBot(0).act(view), random.Random(0), 2, 0.7, 0.1, 8, 1.0)
