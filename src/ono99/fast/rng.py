"""The reference engine's shuffles, compiled with Numba and bit-exact.

``ono99.game`` shuffles with ``random.Random(f"{seed}:{purpose}:{number}")`` and its own
Fisher-Yates walk (``_shuffle``). The fast engine must deal the same cards for the same seed
(records replay exactly, R-REC; reshuffles too, R-TURN-3), so this module reproduces, word for
word, CPython's string seeding (SHA-512, then MT19937 ``init_by_array``), its Mersenne Twister,
``getrandbits`` and that walk, on NumPy arrays inside ``njit`` code.

State: a ``np.uint32`` array of ``STATE_SIZE`` (625): the 624 MT words, then the index (624 after
seeding), the same numbers as ``random.Random(s).getstate()[1]``.
"""

from __future__ import annotations

import numba
import numpy as np
import numpy.typing as npt

__all__ = [
    "DEAL",
    "RESHUFFLE",
    "STATE_SIZE",
    "getrandbits",
    "mt_next",
    "mt_seed_bytes",
    "mt_seed_int",
    "random_float",
    "randbelow",
    "init_by_array",
    "seed_for",
    "sha512",
    "shuffle",
    "shuffle_seeded",
]

#: ``kind`` of :func:`seed_for`: the seed string of a round's deal, ``f"{seed}:deal:{round}"``
DEAL = 0
#: ``kind`` of :func:`seed_for`: the seed string of a reshuffle, ``f"{seed}:reshuffle:{n}"``
RESHUFFLE = 1
#: length of an MT state array: 624 words and the index
STATE_SIZE = 625

_N = 624
_M = 397
_U32 = np.uint64(0xFFFFFFFF)
_UPPER = np.uint64(0x80000000)
_LOWER = np.uint64(0x7FFFFFFF)
_MATRIX_A = np.uint64(0x9908B0DF)


def _init_genrand(seed: int) -> npt.NDArray[np.uint32]:
    mt = [seed]
    for i in range(1, _N):
        mt.append((1812433253 * (mt[-1] ^ (mt[-1] >> 30)) + i) & 0xFFFFFFFF)
    return np.array(mt, dtype=np.uint32)


# init_by_array always starts from init_genrand(19650218): computed once, here
_GENRAND_19650218 = _init_genrand(19650218)

_DEAL_BYTES = np.frombuffer(b":deal:", dtype=np.uint8).copy()
_RESHUFFLE_BYTES = np.frombuffer(b":reshuffle:", dtype=np.uint8).copy()

# fmt: off
_SHA512_K = np.array([
    0x428A2F98D728AE22, 0x7137449123EF65CD, 0xB5C0FBCFEC4D3B2F, 0xE9B5DBA58189DBBC,
    0x3956C25BF348B538, 0x59F111F1B605D019, 0x923F82A4AF194F9B, 0xAB1C5ED5DA6D8118,
    0xD807AA98A3030242, 0x12835B0145706FBE, 0x243185BE4EE4B28C, 0x550C7DC3D5FFB4E2,
    0x72BE5D74F27B896F, 0x80DEB1FE3B1696B1, 0x9BDC06A725C71235, 0xC19BF174CF692694,
    0xE49B69C19EF14AD2, 0xEFBE4786384F25E3, 0x0FC19DC68B8CD5B5, 0x240CA1CC77AC9C65,
    0x2DE92C6F592B0275, 0x4A7484AA6EA6E483, 0x5CB0A9DCBD41FBD4, 0x76F988DA831153B5,
    0x983E5152EE66DFAB, 0xA831C66D2DB43210, 0xB00327C898FB213F, 0xBF597FC7BEEF0EE4,
    0xC6E00BF33DA88FC2, 0xD5A79147930AA725, 0x06CA6351E003826F, 0x142929670A0E6E70,
    0x27B70A8546D22FFC, 0x2E1B21385C26C926, 0x4D2C6DFC5AC42AED, 0x53380D139D95B3DF,
    0x650A73548BAF63DE, 0x766A0ABB3C77B2A8, 0x81C2C92E47EDAEE6, 0x92722C851482353B,
    0xA2BFE8A14CF10364, 0xA81A664BBC423001, 0xC24B8B70D0F89791, 0xC76C51A30654BE30,
    0xD192E819D6EF5218, 0xD69906245565A910, 0xF40E35855771202A, 0x106AA07032BBD1B8,
    0x19A4C116B8D2D0C8, 0x1E376C085141AB53, 0x2748774CDF8EEB99, 0x34B0BCB5E19B48A8,
    0x391C0CB3C5C95A63, 0x4ED8AA4AE3418ACB, 0x5B9CCA4F7763E373, 0x682E6FF3D6B2B8A3,
    0x748F82EE5DEFB2FC, 0x78A5636F43172F60, 0x84C87814A1F0AB72, 0x8CC702081A6439EC,
    0x90BEFFFA23631E28, 0xA4506CEBDE82BDE9, 0xBEF9A3F7B2C67915, 0xC67178F2E372532B,
    0xCA273ECEEA26619C, 0xD186B8C721C0C207, 0xEADA7DD6CDE0EB1E, 0xF57D4F7FEE6ED178,
    0x06F067AA72176FBA, 0x0A637DC5A2C898A6, 0x113F9804BEF90DAE, 0x1B710B35131C471B,
    0x28DB77F523047D84, 0x32CAAB7B40C72493, 0x3C9EBE0A15C9BEBC, 0x431D67C49C100D4C,
    0x4CC5D4BECB3E42B6, 0x597F299CFC657E2A, 0x5FCB6FAB3AD6FAEC, 0x6C44198C4A475817,
], dtype=np.uint64)
_SHA512_H0 = np.array([
    0x6A09E667F3BCC908, 0xBB67AE8584CAA73B, 0x3C6EF372FE94F82B, 0xA54FF53A5F1D36F1,
    0x510E527FADE682D1, 0x9B05688C2B3E6C1F, 0x1F83D9ABFB41BD6B, 0x5BE0CD19137E2179,
], dtype=np.uint64)
# fmt: on


@numba.njit(cache=True)
def _rotr(x: np.uint64, n: int) -> np.uint64:
    s = np.uint64(n)
    return (x >> s) | (x << (np.uint64(64) - s))


@numba.njit(cache=True)
def sha512(msg: npt.NDArray[np.uint8], length: int, out: npt.NDArray[np.uint8]) -> None:
    """Write the SHA-512 digest (64 bytes) of ``msg[:length]`` into ``out[:64]``."""
    if length < 0 or length > msg.shape[0] or out.shape[0] < 64:
        raise ValueError("sha512: bad length or output too short")
    h = _SHA512_H0.copy()
    w = np.empty(80, dtype=np.uint64)
    nblocks = (length + 17 + 127) // 128  # message, 0x80, 128-bit length, padded
    for b in range(nblocks):
        for t in range(16):
            v = np.uint64(0)
            for q in range(8):
                p = b * 128 + t * 8 + q
                if p < length:
                    byte = np.uint64(msg[p])
                elif p == length:
                    byte = np.uint64(0x80)
                else:
                    byte = np.uint64(0)
                v = (v << np.uint64(8)) | byte
            w[t] = v
        if b == nblocks - 1:
            w[15] = np.uint64(length) * np.uint64(8)  # w[14] (high length bits) stays 0
        for t in range(16, 80):
            x = w[t - 15]
            y = w[t - 2]
            s0 = _rotr(x, 1) ^ _rotr(x, 8) ^ (x >> np.uint64(7))
            s1 = _rotr(y, 19) ^ _rotr(y, 61) ^ (y >> np.uint64(6))
            w[t] = w[t - 16] + s0 + w[t - 7] + s1
        a, bb, c, d, e, f, g, hh = h[0], h[1], h[2], h[3], h[4], h[5], h[6], h[7]
        for t in range(80):
            t1 = (
                hh
                + (_rotr(e, 14) ^ _rotr(e, 18) ^ _rotr(e, 41))
                + ((e & f) ^ (~e & g))
                + _SHA512_K[t]
                + w[t]
            )
            t2 = (_rotr(a, 28) ^ _rotr(a, 34) ^ _rotr(a, 39)) + ((a & bb) ^ (a & c) ^ (bb & c))
            hh = g
            g = f
            f = e
            e = d + t1
            d = c
            c = bb
            bb = a
            a = t1 + t2
        h[0] += a
        h[1] += bb
        h[2] += c
        h[3] += d
        h[4] += e
        h[5] += f
        h[6] += g
        h[7] += hh
    for i in range(8):
        for q in range(8):
            out[i * 8 + q] = np.uint8((h[i] >> np.uint64(56 - 8 * q)) & np.uint64(0xFF))


@numba.njit(cache=True)
def mt_seed_bytes(msg: npt.NDArray[np.uint8], length: int, state: npt.NDArray[np.uint32]) -> None:
    """Seed ``state`` as ``random.Random(msg[:length].decode())`` does (version 2 seeding).

    The seed integer is ``int.from_bytes(b + sha512(b).digest(), "big")``; its 32-bit words,
    least significant first, are the key of MT19937 ``init_by_array``.
    """
    if length < 0 or length > msg.shape[0] or state.shape[0] < _N + 1:
        raise ValueError("mt_seed_bytes: bad length or state too short")
    digest = np.empty(64, dtype=np.uint8)
    sha512(msg, length, digest)
    total = length + 64
    nwords = (total + 3) // 4
    key = np.empty(nwords, dtype=np.uint64)
    for i in range(nwords):
        v = np.uint64(0)
        for q in range(4):  # q = 0: the word's least significant byte
            p = total - 1 - (4 * i + q)
            if p >= 0:
                byte = np.uint64(msg[p]) if p < length else np.uint64(digest[p - length])
                v |= byte << np.uint64(8 * q)
        key[i] = v
    keylen = nwords  # up to the highest nonzero word (leading NUL bytes add none), at least 1
    while keylen > 1 and key[keylen - 1] == 0:
        keylen -= 1

    init_by_array(state, key, keylen)


@numba.njit(cache=True)
def mt_seed_int(value: int, state: npt.NDArray[np.uint32]) -> None:
    """Seed ``state`` as ``random.Random(value)`` does, for ``-2**63 < value < 2**63`` (an
    int seed is not hashed: the 32-bit words of ``abs(value)`` are the key)."""
    a = np.uint64(-value) if value < 0 else np.uint64(value)
    key = np.empty(2, dtype=np.uint64)
    key[0] = a & _U32
    key[1] = a >> np.uint64(32)
    init_by_array(state, key, 2 if key[1] != 0 else 1)


@numba.njit(cache=True)
def init_by_array(state: npt.NDArray[np.uint32], key: npt.NDArray[np.uint64], keylen: int) -> None:
    """MT19937 ``init_by_array`` with the 32-bit words ``key[:keylen]``, as CPython."""
    # prev is always the word just written (state[i - 1]). The arithmetic is in uint32 (it
    # wraps as C's): each step waits on the one before, so a 64-bit mask per step costs.
    state[:_N] = _GENRAND_19650218
    prev = np.uint32(state[0])
    m1 = np.uint32(1664525)
    m2 = np.uint32(1566083941)
    i = 1
    j = 0
    for _ in range(max(_N, keylen)):
        prev = np.uint32(
            (state[i] ^ ((prev ^ (prev >> np.uint32(30))) * m1)) + np.uint32(key[j] + np.uint64(j))
        )
        state[i] = prev
        i += 1
        j += 1
        if i >= _N:
            state[0] = state[_N - 1]
            i = 1
        if j >= keylen:
            j = 0
    for _ in range(_N - 1):
        prev = np.uint32((state[i] ^ ((prev ^ (prev >> np.uint32(30))) * m2)) - np.uint32(i))
        state[i] = prev
        i += 1
        if i >= _N:
            state[0] = state[_N - 1]
            i = 1
    state[0] = np.uint32(0x80000000)
    state[_N] = np.uint32(_N)


@numba.njit(cache=True)
def _mt_twist(state: npt.NDArray[np.uint32]) -> None:
    # CPython's three loops in one: past N - M, state[kk + M - N] is already new, as there
    for kk in range(_N):
        nxt = kk + 1 if kk + 1 < _N else 0
        far = kk + _M if kk + _M < _N else kk + _M - _N
        y = (np.uint64(state[kk]) & _UPPER) | (np.uint64(state[nxt]) & _LOWER)
        odd = np.uint64(0) - (y & np.uint64(1))  # all ones when y is odd: no branch
        state[kk] = np.uint32(np.uint64(state[far]) ^ (y >> np.uint64(1)) ^ (odd & _MATRIX_A))


@numba.njit(cache=True)
def _temper(y: np.uint64) -> np.uint64:
    y ^= y >> np.uint64(11)
    y ^= (y << np.uint64(7)) & np.uint64(0x9D2C5680)
    y ^= (y << np.uint64(15)) & np.uint64(0xEFC60000)
    y ^= y >> np.uint64(18)
    return y & _U32


@numba.njit(cache=True)
def mt_next(state: npt.NDArray[np.uint32]) -> np.uint32:
    """The next 32-bit output (CPython's ``genrand_uint32``)."""
    idx = int(state[_N])
    if idx >= _N:
        _mt_twist(state)
        idx = 0
    state[_N] = np.uint32(idx + 1)
    return np.uint32(_temper(np.uint64(state[idx])))


@numba.njit(cache=True)
def getrandbits(state: npt.NDArray[np.uint32], k: int) -> int:
    """``random.Random.getrandbits(k)`` for ``1 <= k <= 32``."""
    return int(np.int64(mt_next(state)) >> np.int64(32 - k))


@numba.njit(cache=True)
def seed_for(
    prefix: npt.NDArray[np.uint8],
    plen: int,
    kind: int,
    number: int,
    buf: npt.NDArray[np.uint8],
    state: npt.NDArray[np.uint32],
) -> None:
    """Seed ``state`` as ``game._rng(seed, "deal" or "reshuffle", number)``.

    ``prefix[:plen]`` is ``str(seed).encode()``; ``kind`` is ``DEAL`` or ``RESHUFFLE``;
    ``buf`` is scratch space for the seed string (it must hold it: ``plen + 31`` bytes do).
    """
    if kind != DEAL and kind != RESHUFFLE:
        raise ValueError("seed_for: kind must be DEAL or RESHUFFLE")
    if number < 0:
        raise ValueError("seed_for: number must be >= 0")
    tag = _DEAL_BYTES if kind == DEAL else _RESHUFFLE_BYTES
    ndigits = 1
    t = number // 10
    while t > 0:
        ndigits += 1
        t //= 10
    total = plen + tag.shape[0] + ndigits
    if plen < 0 or plen > prefix.shape[0] or total > buf.shape[0]:
        raise ValueError("seed_for: bad prefix length or buffer too short")
    for i in range(plen):
        buf[i] = prefix[i]
    for i in range(tag.shape[0]):
        buf[plen + i] = tag[i]
    t = number
    for i in range(total - 1, total - 1 - ndigits, -1):
        buf[i] = np.uint8(48 + t % 10)  # "0" + digit
        t //= 10
    mt_seed_bytes(buf, total, state)


@numba.njit(cache=True)
def _bit_length(n: int) -> int:
    """``int.bit_length`` (Numba has none)."""
    k = 0
    while n > 0:
        k += 1
        n >>= 1
    return k


@numba.njit(cache=True)
def _walk(state: npt.NDArray[np.uint32], x: npt.NDArray[np.integer], n: int, lazy: bool) -> None:
    """The Fisher-Yates walk of ``game._shuffle`` over ``x[:n]``, ``getrandbits`` inlined
    (the index kept in a local, written back at the end). ``lazy``: the generator was just
    seeded (index 624), and the twist is made word by word as the walk takes them rather
    than all 624 words first; each word depends only on words before it, so the values are
    the twist's, and the generator is left partly twisted."""
    idx = int(state[_N])
    ready = _N  # words below this are twisted
    if lazy:
        idx = 0
        ready = 0
    k = _bit_length(n)  # (i + 1).bit_length() for i = n - 1: j is drawn from 0 ... i
    for i in range(n - 1, 0, -1):
        if i + 1 < 1 << (k - 1):
            k -= 1
        shift = np.uint64(32 - k)
        while True:
            if idx >= _N:
                _mt_twist(state)  # every word was twisted once: the next twist is whole
                idx = 0
                ready = _N
            if idx >= ready:
                nxt = idx + 1 if idx + 1 < _N else 0
                far = idx + _M if idx + _M < _N else idx + _M - _N
                y = (np.uint64(state[idx]) & _UPPER) | (np.uint64(state[nxt]) & _LOWER)
                odd = np.uint64(0) - (y & np.uint64(1))
                state[idx] = np.uint32(
                    np.uint64(state[far]) ^ (y >> np.uint64(1)) ^ (odd & _MATRIX_A)
                )
                ready = idx + 1
            j = int(_temper(np.uint64(state[idx])) >> shift)
            idx += 1
            if j <= i:
                break
        x[i], x[j] = x[j], x[i]
    state[_N] = np.uint32(idx)


@numba.njit(cache=True)
def shuffle(state: npt.NDArray[np.uint32], x: npt.NDArray[np.integer], n: int) -> None:
    """Shuffle ``x[:n]`` in place exactly as ``game._shuffle`` (the same draws, the same order)."""
    _walk(state, x, n, False)


@numba.njit(cache=True)
def shuffle_seeded(state: npt.NDArray[np.uint32], x: npt.NDArray[np.integer], n: int) -> None:
    """:func:`shuffle` for a generator just seeded (index 624, as :func:`seed_for` leaves
    it): the same draws, twisting only the words the walk takes (a deal of 112 cards takes
    about 150 of 624). The generator is left partly twisted: seed it again before any other
    use (the engine always does)."""
    _walk(state, x, n, bool(state[_N] == _N))


@numba.njit(cache=True)
def random_float(state: npt.NDArray[np.uint32]) -> float:
    """``random.Random.random()``: 53 bits from two draws, as CPython makes them."""
    a = mt_next(state) >> 5
    b = mt_next(state) >> 6
    return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0)


@numba.njit(cache=True)
def randbelow(state: npt.NDArray[np.uint32], n: int) -> int:
    """``random.Random.randrange(n)`` for ``1 <= n < 2**32``, as CPython draws it."""
    bits = _bit_length(n)
    r = getrandbits(state, bits)
    while r >= n:
        r = getrandbits(state, bits)
    return r
