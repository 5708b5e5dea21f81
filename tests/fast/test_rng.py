"""The compiled generator (``ono99.fast.rng``) is version 2 of the seeded shuffle, word for
word (:mod:`ono99.chance`, docs/records.md): the same SHA-512 blocks, the same Fisher-Yates
walk, the same floats and bounded integers. So the fast engine deals the same cards for
the same seed (R-REC: records replay exactly), and the compiled heuristic draws the same
samples as the Python one."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from ono99 import chance
from ono99.fast import rng
from ono99.fast.core import next_seed

SEEDS = st.one_of(st.integers(0, 2**256 - 1), st.sampled_from([0, 1, 2**64 - 1, 2**256 - 1]))
PURPOSES = st.sampled_from([chance.DEAL, chance.RESHUFFLE, chance.PICK])
NUMBERS = st.integers(0, 2**63 - 1)
# keys of 1 to 15 words: with the counter, 13 words fit one SHA-512 block, 14 and more two
FIELDS = st.lists(st.integers(-(2**63), 2**63 - 1), min_size=0, max_size=14)


def _stream(purpose: int, seed: int, number: int) -> np.ndarray:
    rs = rng.new_stream()
    rng.seed_stream(rs, purpose, rng.seed_words(seed), number)
    return rs


def _fields_stream(fields: list[int]) -> np.ndarray:
    rs = rng.new_stream()
    key = chance.fields_key(chance.BOT, tuple(fields))
    words = np.frombuffer(key, dtype="<u8").astype(np.uint64)
    rs[: len(words)] = words
    rng.start(rs, len(words))
    return rs


@given(SEEDS, PURPOSES, NUMBERS, st.integers(1, 40))
def test_words_match_chance(seed: int, purpose: int, number: int, count: int) -> None:
    """R-REC: a seeded stream's words are version 2's, across block boundaries."""
    rs = _stream(purpose, seed, number)
    got = [int(rng.next_word(rs)) for _ in range(count)]
    assert got == list(chance.words(chance.stream_key(purpose, seed, number), count))


@given(FIELDS, st.integers(1, 20))
def test_keys_of_any_length_match_chance(fields: list[int], count: int) -> None:
    """Keys of 1 to 15 words (one SHA-512 block or two) give version 2's words."""
    rs = _fields_stream(fields)
    got = [int(rng.next_word(rs)) for _ in range(count)]
    assert got == list(chance.words(chance.fields_key(chance.BOT, tuple(fields)), count))


@given(SEEDS, PURPOSES, NUMBERS, st.integers(0, 112))
def test_shuffle_matches_chance(seed: int, purpose: int, number: int, n: int) -> None:
    """R-SET-1, R-TURN-3: the compiled shuffle puts the cards where version 2 does."""
    x = list(range(n))
    chance.shuffle(chance.stream_key(purpose, seed, number), x)
    arr = np.arange(n + 5, dtype=np.int64)  # room past n: left alone
    rng.shuffle(_stream(purpose, seed, number), arr, n)
    assert arr[:n].tolist() == x
    assert arr[n:].tolist() == list(range(n, n + 5))


@given(FIELDS, st.lists(st.integers(1, 200), min_size=1, max_size=30))
def test_floats_and_bounded_integers_match_stream(fields: list[int], draws: list[int]) -> None:
    """The heuristic's draws: floats in [0, 1) and integers below m, as Stream's."""
    rs = _fields_stream(fields)
    ref = chance.Stream(chance.fields_key(chance.BOT, tuple(fields)))
    for m in draws:
        if m % 2:
            u = rng.random_float(rs)
            assert u == ref.random() and 0.0 <= u < 1.0
        else:
            assert rng.below(rs, m) == ref.below(m)


@given(SEEDS)
def test_next_seed_adds_one_modulo_2_256(seed: int) -> None:
    """The batched simulators' game i + 1 is dealt from seed + 1 (mod 2**256)."""
    words = rng.seed_words(seed)
    next_seed(words)
    assert words.tolist() == rng.seed_words((seed + 1) % 2**256).tolist()


def test_bad_key_lengths_raise() -> None:
    rs = rng.new_stream()
    for bad in (0, 16):
        with pytest.raises(ValueError, match="1 to 15 words"):
            rng.start(rs, bad)
