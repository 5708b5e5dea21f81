"""``ono99.fast.vec.random_legal``: one uniformly random legal action per row, from one
``rng.random()`` per row (the random baseline of the batched simulators, R-LIM-2: only
actions in the mask)."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from ono99.fast.vec import random_legal


@settings(max_examples=60, deadline=None)
@given(arrays(np.int8, st.tuples(st.integers(1, 40), st.just(18)), elements=st.integers(0, 1)),
       st.integers(0, 2**32))  # fmt: skip
def test_random_legal_is_the_draws_legal_action(mask: np.ndarray, seed: int) -> None:
    """Row ``b`` gets the ``int(u * count)``-th legal action (0-based, in id order) for its
    draw ``u`` of ``rng.random`` and its ``count`` legal actions; a row with none gets 0."""
    got = random_legal(mask, np.random.default_rng(seed))
    draws = np.random.default_rng(seed).random(mask.shape[0])
    for b, row in enumerate(mask):
        legal = np.flatnonzero(row)
        want = legal[int(draws[b] * len(legal))] if len(legal) else 0
        assert got[b] == want


def test_random_legal_is_uniform() -> None:
    """Over many rows with the same mask, each legal action comes up about equally often
    and no other ever does."""
    mask = np.zeros((60_000, 18), np.int8)
    mask[:, [0, 5, 11, 16]] = 1
    counts = np.bincount(random_legal(mask, np.random.default_rng(1)), minlength=18)
    assert counts[[0, 5, 11, 16]].min() > 14_000 and counts.sum() == 60_000
