"""The evaluator's rollouts, compiled: every seat plays the heuristic to the end of the game.

:mod:`ono99.bots.evaluate` values an action by playing it in a sampled world and letting the
heuristic (:class:`~ono99.bots.heuristic.HeuristicBot`, ``samples=4``) play every seat until
the game is over: the seat's share of the win is the sample. This module is that rollout on
the fast engine, with the compiled heuristic of :mod:`ono99.bots.fast_rollout` (the same
moves as the Python bot, the same random numbers), so a world and an action give the same
value here as :func:`ono99.bots.evaluate.play_game` gives in Python, bit for bit
(``tests/test_evaluate.py``). Unlike the search's rollouts it does not stop at the end of a
round: a win is a win of the game (tokens, points).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from numba import njit

from ono99.bots.fast_rollout import heuristic_act, heuristic_work, scratch, world_state
from ono99.fast import core as k
from ono99.fast.core import I64, U64
from ono99.fast.game import NO_DEALS
from ono99.game import Game

__all__ = ["MAX_GAME_STEPS", "game_values", "warm"]

F64 = npt.NDArray[np.float64]

#: decisions after which a rollout is cut off and the win shared by the seats still in the
#: game (no preset comes near it: a classic1980 game to 100 points is a few hundred)
MAX_GAME_STEPS = 20_000


@njit(cache=True)
def _share(st: I64, me: int) -> float:
    """``me``'s share of the win: 1 / winners if it is one of them; a game cut off is
    shared by the seats still alive."""
    w = st[k.S_N_WINNERS]
    if w > 0:
        for i in range(w):
            if st[k.O_WINNERS + i] == me:
                return float(1.0 / w)
        return 0.0
    alive = 0
    for s in range(st[k.S_N]):
        alive += st[k.O_ALIVE + s]
    return 1.0 / alive if st[k.O_ALIVE + me] != 0 and alive > 0 else 0.0


@njit(cache=True)
def _games(
    st0: I64, cfg: I64, actions: I64, me: int, seed: U64, rs: U64, deck: I64,
    gh: I64, ghl: I64, gd: I64, gdl: I64, out: F64,
) -> None:  # fmt: skip
    """For each of ``actions`` (-1: none, the game goes on as it stands): play it in a copy
    of ``st0``, then the heuristic in every seat to the end of the game; ``me``'s share."""
    ci, weights, rng = heuristic_work()
    st = st0.copy()
    for i in range(actions.shape[0]):
        st[:] = st0
        if actions[i] >= 0:
            k.apply(st, cfg, actions[i], seed, rs, deck, gh, ghl, gd, gdl)
        steps = 0
        while st[k.S_TO_MOVE] >= 0 and steps < MAX_GAME_STEPS:
            a = k.DRAW if st[k.S_PENDING] >= 0 else heuristic_act(st, cfg, ci, weights, rng)
            k.apply(st, cfg, a, seed, rs, deck, gh, ghl, gd, gdl)
            steps += 1
        out[i] = _share(st, me)


def game_values(world: Game, actions: list[int], me: int) -> list[float]:
    """Seat ``me``'s share of the win after each of ``actions`` (-1: no action) in
    ``world`` (left as it was), the heuristic playing every seat to the end of the game."""
    st, cfg, seed = world_state(world)
    work = scratch()
    out = np.zeros(len(actions), np.float64)
    _games(st, cfg, np.array(actions, np.int64), me, seed, work.rs, work.deck, *NO_DEALS, out)
    return [float(v) for v in out]


def warm() -> None:
    """Compile the rollouts, or load them from Numba's disk cache."""
    g = Game("mattel2022", 2, seed=1, events=False)
    game_values(g, [*g.legal_actions(), -1], g.to_move or 0)
