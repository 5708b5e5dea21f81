"""The compiled shuffles (``ono99.fast.rng``) are bit-exact with the reference engine's:
CPython's string seeding, Mersenne Twister and ``getrandbits``, and ``game._shuffle``, so the
fast engine deals the same cards for the same seed (R-REC: records replay exactly)."""

from __future__ import annotations

import hashlib
import random

import numpy as np
import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from ono99.fast import rng
from ono99.game import _rng, _shuffle

# Seed strings: plain ASCII, the engine's own "seed:purpose:n" shape, any Unicode (non-BMP
# too, and NUL, which leaves leading zero bytes in the seed integer), and lengths that cross
# the SHA-512 block boundaries (111/112 bytes of message fit one padded block, 128 do not).
ASCII = st.text(st.characters(codec="ascii"), max_size=150)
ENGINE_SHAPED = st.builds(
    lambda s, k, n: f"{s}:{k}:{n}",
    st.integers(-(2**256), 2**256),
    st.sampled_from(["deal", "reshuffle"]),
    st.integers(0, 10**9),
)
UNICODE = st.text(max_size=80)
AROUND_BLOCKS = st.builds(
    lambda n, tail: "x" * n + tail,
    st.integers(100, 260),
    st.sampled_from(["", "é", "€", "\U0001f600", "\x00"]),
)
SEED_STRINGS = st.one_of(ASCII, ENGINE_SHAPED, UNICODE, AROUND_BLOCKS)
SEEDS = st.one_of(st.integers(0, 2**256), st.integers(-(2**256), -1), st.text(max_size=60), ASCII)
BOUNDARY_LENGTHS = [0, 1, 55, 56, 110, 111, 112, 113, 127, 128, 129, 239, 240, 255, 256, 257]


def _bytes(s: str) -> np.ndarray:
    return np.frombuffer(s.encode(), dtype=np.uint8)


def _seeded(s: str) -> np.ndarray:
    state = np.zeros(rng.STATE_SIZE, dtype=np.uint32)
    b = _bytes(s)
    rng.mt_seed_bytes(b, len(b), state)
    return state


def _state_tuple(state: np.ndarray) -> tuple[int, ...]:
    return tuple(int(v) for v in state)


def _seed_for(seed: int | str, kind: int, number: int) -> np.ndarray:
    prefix = _bytes(str(seed))
    buf = np.zeros(len(prefix) + 32, dtype=np.uint8)
    state = np.zeros(rng.STATE_SIZE, dtype=np.uint32)
    rng.seed_for(prefix, len(prefix), kind, number, buf, state)
    return state


@given(st.one_of(st.binary(max_size=300), st.builds(bytes, st.integers(0, 300))))
@example(b"")
@example(b"x" * 111)
@example(b"x" * 112)
@example(b"x" * 128)
def test_sha512_matches_hashlib(data: bytes) -> None:
    """R-REC: the seed string's SHA-512 (the seed integer's low 512 bits) is hashlib's."""
    out = np.zeros(64, dtype=np.uint8)
    rng.sha512(np.frombuffer(data, dtype=np.uint8), len(data), out)
    assert out.tobytes() == hashlib.sha512(data).digest()


@pytest.mark.parametrize("n", BOUNDARY_LENGTHS)
def test_seeding_at_block_boundaries(n: int) -> None:
    """R-REC: seeding with n-byte strings around the SHA-512 block sizes gives
    ``random.Random(s)``'s state (624 words and the index)."""
    s = "7" * n
    assert _state_tuple(_seeded(s)) == random.Random(s).getstate()[1]


@given(SEED_STRINGS)
@example("")
@example("\x00")
@example("\x00" * 9 + "a")
@example("12345:deal:3")
def test_seeding_matches_cpython(s: str) -> None:
    """R-REC: ``mt_seed_bytes`` leaves the state ``random.Random(s)`` has."""
    assert _state_tuple(_seeded(s)) == random.Random(s).getstate()[1]


@given(SEED_STRINGS, st.randoms(use_true_random=False), st.integers(1, 1500))
def test_getrandbits_matches_cpython(s: str, pick: random.Random, count: int) -> None:
    """R-REC: a run of ``getrandbits(k)``, random k in 1..32, long enough to regenerate the
    twister's words, draws CPython's numbers and leaves CPython's state."""
    state = _seeded(s)
    ref = random.Random(s)
    ks = [pick.randint(1, 32) for _ in range(count)]
    assert [rng.getrandbits(state, k) for k in ks] == [ref.getrandbits(k) for k in ks]
    assert _state_tuple(state) == ref.getstate()[1]


def test_mt_next_is_genrand_uint32() -> None:
    """R-REC: ``mt_next`` is ``getrandbits(32)``, across several regenerations."""
    state = _seeded("0:deal:1")
    ref = random.Random("0:deal:1")
    assert [int(rng.mt_next(state)) for _ in range(2000)] == [
        ref.getrandbits(32) for _ in range(2000)
    ]


@given(SEEDS, st.sampled_from([rng.DEAL, rng.RESHUFFLE]), st.integers(0, 2**62))
@example(0, rng.DEAL, 0)
@example(-1, rng.RESHUFFLE, 10)
@example("", rng.DEAL, 1)
@example(2**256, rng.RESHUFFLE, 2**62)
def test_seed_for_matches_game_rng(seed: int | str, kind: int, number: int) -> None:
    """R-REC, R-TURN-3: ``seed_for`` seeds as ``game._rng(seed, "deal" | "reshuffle", n)``."""
    purpose = "deal" if kind == rng.DEAL else "reshuffle"
    ref = _rng(seed, purpose, number)
    assert _state_tuple(_seed_for(seed, kind, number)) == ref.getstate()[1]


@given(
    SEEDS,
    st.sampled_from([rng.DEAL, rng.RESHUFFLE]),
    st.integers(0, 50),
    st.integers(0, 300),
    st.sampled_from([np.int16, np.int32, np.int64, np.uint16]),
)
@example(7, rng.DEAL, 1, 112, np.int64)
@example(7, rng.RESHUFFLE, 3, 257, np.int32)
@example(0, rng.DEAL, 0, 0, np.int64)
@example(0, rng.DEAL, 0, 1, np.int64)
def test_shuffle_matches_game_shuffle(
    seed: int | str, kind: int, number: int, n: int, dtype: type[np.integer]
) -> None:
    """R-REC, R-TURN-3: the compiled Fisher-Yates walk orders a list of 0..300 cards as
    ``game._shuffle`` does, twice in a row from one seed (a given deal's rest, then more),
    and only ``x[:n]`` moves."""
    purpose = "deal" if kind == rng.DEAL else "reshuffle"
    ref = _rng(seed, purpose, number)
    state = _seed_for(seed, kind, number)
    for size in (n, n // 2):
        expected = list(range(size))
        _shuffle(ref, expected)
        x = np.arange(size + 3, dtype=dtype)
        rng.shuffle(state, x, size)
        assert x[:size].tolist() == expected
        assert x[size:].tolist() == [size, size + 1, size + 2]
    assert _state_tuple(state) == ref.getstate()[1]


@given(SEEDS, st.sampled_from([rng.DEAL, rng.RESHUFFLE]), st.integers(0, 50), st.integers(0, 1300))
@example(7, rng.DEAL, 1, 112)
@example(3, rng.RESHUFFLE, 2, 1300)  # more than 624 words: the lazy twist, then a whole one
@example(0, rng.DEAL, 0, 0)
def test_shuffle_seeded_matches_game_shuffle(
    seed: int | str, kind: int, number: int, n: int
) -> None:
    """R-REC, R-TURN-3: the walk with the twist made word by word (the engine's deals and
    reshuffles, right after seeding) orders the cards as ``game._shuffle`` does."""
    purpose = "deal" if kind == rng.DEAL else "reshuffle"
    expected = list(range(n))
    _shuffle(_rng(seed, purpose, number), expected)
    x = np.arange(n, dtype=np.int64)
    rng.shuffle_seeded(_seed_for(seed, kind, number), x, n)
    assert x.tolist() == expected


def test_shuffle_of_a_deck_with_repeated_cards() -> None:
    """R-REC: a real deck (repeated card values, int8) shuffles to the engine's order."""
    deck = [c for c in range(16) for _ in range(7)]  # 112 cards
    expected = list(deck)
    _shuffle(_rng(12345, "deal", 3), expected)
    x = np.array(deck, dtype=np.int8)
    rng.shuffle(_seed_for(12345, rng.DEAL, 3), x, len(deck))
    assert x.tolist() == expected


def test_bad_arguments_raise() -> None:
    """Out-of-range arguments raise instead of writing past the arrays."""
    prefix = _bytes("12345")
    state = np.zeros(rng.STATE_SIZE, dtype=np.uint32)
    with pytest.raises(ValueError):
        rng.seed_for(prefix, 5, rng.DEAL, 1, np.zeros(8, dtype=np.uint8), state)
    with pytest.raises(ValueError):
        rng.seed_for(prefix, 5, 2, 1, np.zeros(64, dtype=np.uint8), state)
    with pytest.raises(ValueError):
        rng.seed_for(prefix, 5, rng.DEAL, -1, np.zeros(64, dtype=np.uint8), state)
    with pytest.raises(ValueError):
        rng.mt_seed_bytes(prefix, 5, np.zeros(624, dtype=np.uint32))
    with pytest.raises(ValueError):
        rng.sha512(prefix, 6, np.zeros(64, dtype=np.uint8))
