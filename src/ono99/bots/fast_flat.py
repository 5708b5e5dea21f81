"""The flat rollout search, compiled whole: ``ismcts:N:heuristic`` (plain ``ismcts`` and the
``expert`` level in elimination games and with tokens) making the same choices with no
Python between its worlds.

:meth:`ISMCTSBot.search <ono99.bots.ismcts.ISMCTSBot.search>` with ``rollout="heuristic"``
takes, for each of its worlds, a world read from the others' plays
(:class:`~ono99.bots.inference.HandTracker`, or the plain belief), then plays every root
action out with the heuristic (:func:`~ono99.bots.fast_rollout.play_out`), and keeps the
paired statistics. Its parts were already compiled one by one (the tracker's tries in
:mod:`ono99.bots.fast_inference`, the rollouts in :mod:`ono99.bots.fast_rollout`), but each
world went through Python: a :class:`~ono99.Game` built from the tracker's state vector,
then turned back into one for the rollouts. Here the loop runs in one kernel on the state
vector: the same tries from the bot's own generator (handed in and out by its state), the
same fallback to the plain belief, the same rollouts, the same sums in the same order.
``benchmarks/check_same_bots.py`` pins the moves; ``tests/fast/test_search.py`` compares
the two searches at every decision of random games.
"""

from __future__ import annotations

import random

import numpy as np
from numba import njit

from ono99.bots.fast_inference import arrays, believed, digits, replay_plays, view_state
from ono99.bots.fast_paired import add_world, choose
from ono99.bots.fast_rollout import heuristic_work, play_out, rules_cfg, scratch
from ono99.fast import core as k
from ono99.fast.core import I64, U8, U32
from ono99.fast.game import NO_DEALS
from ono99.fast.rng import mt_next
from ono99.view import PlayerView

__all__ = ["search", "warm"]


@njit(cache=True)
def _search(
    tpl: I64, cfg: I64, bot_rng: U32, me: int, laid: I64, legal: I64, pi: int,
    iterations: int, z: float, tries: int, prev_tpl: I64, prev_laid: I64, action: int,
    drawn: int, played: I64, target: I64, mt: U32, buf: U8, deck: I64, gh: I64, ghl: I64,
    gd: I64, gdl: I64, counts: I64,
) -> int:  # fmt: skip
    """``ISMCTSBot.search`` with heuristic rollouts: the index in ``legal`` of the move.
    ``tries`` > 0: worlds read from the plays since ``prev_tpl`` (``HandTracker.world``),
    falling back to the plain belief; 0: the plain belief. ``counts`` gets the worlds
    kept and the fallbacks."""
    nk = legal.shape[0]
    ci, weights, hrng = heuristic_work()
    rewards = np.zeros(k.MAXP, np.float64)
    pool = np.empty(k.PILE_CAP, np.int64)
    world = k.new_state()
    st = k.new_state()
    prefix = np.empty(20, np.uint8)
    vals = np.zeros(nk, np.float64)
    diffs_sum = np.zeros(nk, np.float64)
    diffs_sq = np.zeros(nk, np.float64)
    for _ in range(iterations):
        seed = -1
        for _ in range(tries):
            s = believed(bot_rng, prev_tpl, cfg, me, prev_laid, world, pool)
            plen = digits(s, prefix)
            if replay_plays(
                world, cfg, bot_rng, me, action, drawn, played, target, prefix[:plen], mt, buf,
                deck, gh, ghl, gd, gdl, ci, weights, hrng,
            ):  # fmt: skip
                seed = s
                break
        if seed >= 0:
            counts[0] += 1
        else:
            counts[1] += 1
            seed = believed(bot_rng, tpl, cfg, me, laid, world, pool)
        mt_next(bot_rng)  # the search draws getrandbits(64) for the tree's rollouts
        mt_next(bot_rng)
        plen = digits(seed, prefix)
        for i in range(nk):
            st[:] = world
            vals[i] = play_out(
                st, cfg, legal[i], me, prefix[:plen], mt, buf, deck, gh, ghl, gd, gdl, ci,
                weights, hrng, rewards,
            )  # fmt: skip
        add_world(vals, pi, diffs_sum, diffs_sq)
    return choose(diffs_sum, diffs_sq, pi, iterations, z)


_EMPTY = np.zeros(0, np.int64)


def search(
    view: PlayerView,
    prior: int,
    rng: random.Random,
    iterations: int,
    z: float,
    plan: tuple[PlayerView, int, list[int], list[int]] | None,
    tries: int,
) -> tuple[int, int, int]:
    """``ISMCTSBot.search`` with heuristic rollouts, compiled: the move, the worlds read
    from the plays (``plan``: ``HandTracker._plan``'s; None: none, the plain belief) and
    the fallbacks; ``rng`` advanced exactly as the Python search advances it."""
    laid = [bool(h) for h in view.laid_down]
    work = scratch()
    if plan is None:
        prev_tpl = target = prev_laid = played = _EMPTY
        action = drawn = 0
        tries = 0
    else:
        prev, action, drawn_cards, played_cards = plan
        prev_tpl, target, prev_laid, _, played = arrays(prev, view, played_cards)
        drawn = drawn_cards[0]
    counts = np.zeros(2, np.int64)
    version, state, gauss = rng.getstate()
    mt = np.array(state, np.uint32)
    legal = view.legal
    best = _search(
        view_state(view, laid), rules_cfg(view.rules), mt, view.seat, np.array(laid, np.int64),
        np.array(legal, np.int64), legal.index(prior), iterations, z, tries, prev_tpl,
        prev_laid, action, drawn, played, target, work.mt, work.buf, work.deck,
        *NO_DEALS, counts,
    )  # fmt: skip
    rng.setstate((version, tuple(mt.tolist()), gauss))
    return legal[int(best)], int(counts[0]), int(counts[1])


def warm() -> None:
    """Compile the search (or load it from Numba's disk cache)."""
    from ono99.bots.heuristic import HeuristicBot
    from ono99.game import Game

    g = Game("classic1980", 3, seed=1, events=False)
    view = g.view(g.to_move or 0)
    search(view, HeuristicBot(0).act(view), random.Random(0), 2, 1.0, None, 8)
