"""The seeded generator of version 2 (:mod:`ono99.chance`, docs/records.md), compiled.

The fast engine deals and reshuffles with the same streams as the reference engine:
SHAKE-256 of a key of 64-bit words, its output read as 64-bit words (both little-endian),
and the Fisher-Yates walk ``j = word mod (i + 1)``. So a seed gives the same cards in both
engines (records replay exactly, R-REC). The bots' samples
(:mod:`ono99.bots.fast_rollout`) and random play (``ono99 bench``, the batched simulator's
opponents) draw from streams of their own purpose, as their Python twins do.

A stream's state is one ``np.uint64`` array of ``RS_LEN`` words (``rs``): Keccak's 25
lanes, then the next word to read (17: squeeze a new block first), then scratch. A key of at most 15
words fits SHAKE-256's one 136-byte block with its padding, so absorbing is one
permutation; each 17 words of output take one more.
"""

from __future__ import annotations

import numba
import numpy as np
import numpy.typing as npt

from ono99.chance import BOT, DEAL, PICK, RESHUFFLE

__all__ = [
    "BOT", "DEAL", "PICK", "RESHUFFLE", "RS_LEN", "SEED_WORDS", "below", "new_stream",
    "next_word", "random_float", "seed_stream", "seed_words", "shuffle", "start",
]  # fmt: skip

U64 = npt.NDArray[np.uint64]

#: length of a stream's state array: 25 lanes, the next word, a permutation's scratch
RS_LEN = 56
#: words of a seed (256 bits, the least significant first)
SEED_WORDS = 4
_RATE = 17  # SHAKE-256: 136 bytes a block, 17 lanes
_NEXT = 25  # the next lane to read (_RATE: none left)
_C = 26  # theta's five column parities
_B = 31  # the 25 lanes after rho and pi

# fmt: off
_RC = np.array([
    0x0000000000000001, 0x0000000000008082, 0x800000000000808A, 0x8000000080008000,
    0x000000000000808B, 0x0000000080000001, 0x8000000080008081, 0x8000000000008009,
    0x000000000000008A, 0x0000000000000088, 0x0000000080008009, 0x000000008000000A,
    0x000000008000808B, 0x800000000000008B, 0x8000000000008089, 0x8000000000008003,
    0x8000000000008002, 0x8000000000000080, 0x000000000000800A, 0x800000008000000A,
    0x8000000080008081, 0x8000000000008080, 0x0000000080000001, 0x8000000080008008,
], dtype=np.uint64)
# rho's rotation of lane x + 5y, and pi's destination lane y + 5((2x + 3y) mod 5)
_ROT = np.array([
    0, 1, 62, 28, 27, 36, 44, 6, 55, 20, 3, 10, 43, 25, 39,
    41, 45, 15, 21, 8, 18, 2, 61, 56, 14,
], dtype=np.uint64)
# fmt: on
_PI = np.array([y + 5 * ((2 * x + 3 * y) % 5) for y in range(5) for x in range(5)], np.int64)


def seed_words(seed: int) -> U64:
    """A seed (0 <= seed < 2**256) as four 64-bit words, the least significant first."""
    mask = 0xFFFFFFFFFFFFFFFF
    return np.array([(seed >> (64 * i)) & mask for i in range(SEED_WORDS)], np.uint64)


def new_stream() -> U64:
    """A stream's state array (start it with :func:`seed_stream` or :func:`start`)."""
    return np.zeros(RS_LEN, np.uint64)


@numba.njit(cache=True)
def _rotl(x: np.uint64, n: np.uint64) -> np.uint64:
    if n == 0:
        return x
    return (x << n) | (x >> (np.uint64(64) - n))


@numba.njit(cache=True)
def _keccak(rs: U64) -> None:
    """Keccak-f[1600] on the lanes ``rs[:25]`` (lane x + 5y)."""
    a = rs[:25]
    c = rs[_C : _C + 5]
    b = rs[_B : _B + 25]
    one = np.uint64(1)
    for rnd in range(24):
        for x in range(5):  # theta
            c[x] = a[x] ^ a[x + 5] ^ a[x + 10] ^ a[x + 15] ^ a[x + 20]
        for x in range(5):
            d = c[(x + 4) % 5] ^ _rotl(c[(x + 1) % 5], one)
            for y in range(0, 25, 5):
                a[x + y] ^= d
        for i in range(25):  # rho and pi
            b[_PI[i]] = _rotl(a[i], _ROT[i])
        for y in range(0, 25, 5):  # chi
            for x in range(5):
                a[x + y] = b[x + y] ^ (~b[(x + 1) % 5 + y] & b[(x + 2) % 5 + y])
        a[0] ^= _RC[rnd]  # iota


@numba.njit(cache=True)
def start(rs: U64, nkey: int) -> None:
    """Start the stream whose key is the ``nkey`` words already in ``rs[:nkey]`` (1 to 15):
    absorb them with SHAKE-256's padding; its first word is the first lane squeezed."""
    if nkey < 1 or nkey > 15:
        raise ValueError("start: a key is 1 to 15 words")
    rs[nkey:25] = 0
    rs[nkey] = np.uint64(0x1F)  # SHAKE's domain bits and the pad's first 1, after the key
    rs[_RATE - 1] ^= np.uint64(0x8000000000000000)  # the pad's last 1: the block's last bit
    _keccak(rs)
    rs[_NEXT] = np.uint64(0)


@numba.njit(cache=True)
def seed_stream(rs: U64, purpose: int, seed: U64, number: int) -> None:
    """Start the stream of a seeded chance event: the key is ``purpose``, the seed's four
    words and ``number`` (a round, a reshuffle's count, a game's number)."""
    rs[0] = np.uint64(purpose)
    for i in range(SEED_WORDS):
        rs[1 + i] = seed[i]
    rs[1 + SEED_WORDS] = np.uint64(number)
    start(rs, 2 + SEED_WORDS)


@numba.njit(cache=True)
def next_word(rs: U64) -> np.uint64:
    """The stream's next 64-bit word."""
    i = np.int64(rs[_NEXT])  # int() of a uint64 stays unsigned in Numba
    if i == _RATE:
        _keccak(rs)  # squeeze the next block
        i = np.int64(0)
    rs[_NEXT] = np.uint64(i + 1)
    w: np.uint64 = rs[i]
    return w


@numba.njit(cache=True)
def shuffle(rs: U64, x: npt.NDArray[np.integer], n: int) -> None:
    """Shuffle ``x[:n]`` in place as :func:`ono99.chance.shuffle`: for i = n - 1 down to 1,
    swap ``x[i]`` and ``x[word mod (i + 1)]``."""
    for i in range(n - 1, 0, -1):
        j = np.int64(next_word(rs) % np.uint64(i + 1))
        x[i], x[j] = x[j], x[i]


@numba.njit(cache=True)
def random_float(rs: U64) -> float:
    """:meth:`ono99.chance.Stream.random`: the next word's top 53 bits over 2**53."""
    return float(next_word(rs) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@numba.njit(cache=True)
def below(rs: U64, m: int) -> int:
    """:meth:`ono99.chance.Stream.below`: the next word mod ``m`` (``m`` >= 1)."""
    return int(np.int64(next_word(rs) % np.uint64(m)))
