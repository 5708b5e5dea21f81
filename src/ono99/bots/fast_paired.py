"""The compiled searches' paired statistics over their root actions (``ISMCTSBot.search``):
every root action valued in the same worlds, each compared with the heuristic's card."""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt
from numba import njit

__all__ = ["add_world", "choose"]

F64 = npt.NDArray[np.float64]


@njit(cache=True)
def add_world(vals: F64, pi: int, diffs_sum: F64, diffs_sq: F64) -> None:
    """One world's values: each action's difference from the prior's (action ``pi``)."""
    base = vals[pi]
    for i in range(vals.shape[0]):
        d = vals[i] - base
        diffs_sum[i] += d
        diffs_sq[i] += d * d


@njit(cache=True)
def choose(diffs_sum: F64, diffs_sq: F64, pi: int, n: int, z: float) -> int:
    """The index of the action to play after ``n`` worlds: the prior's (``pi``) unless
    another beats it by ``z`` standard errors of the paired difference (the largest such
    margin; the first on ties), with the same floating-point operations as the Python."""
    best = pi
    best_score = 0.0
    for i in range(diffs_sum.shape[0]):
        if i == pi:
            continue
        mean = diffs_sum[i] / n
        var = diffs_sq[i] / n - mean * mean
        if not var > 0.0:  # max(0.0, var)
            var = 0.0
        se = math.sqrt(var / n) if n > 1 else 1.0
        score = mean - z * se
        if score > best_score:
            best = i
            best_score = score
    return best
