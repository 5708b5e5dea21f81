"""The seeded generators of chance (R-REC): version 2, ours, and version 1, kept for old records.

Version 2 (docs/records.md specifies it with test vectors, so any program can replay a
seeded record): a stream of 64-bit words read from SHAKE-256 (FIPS 202) of a key. The key
is a purpose and fixed-width fields, each a 64-bit word of 8 bytes, little-endian; the
stream is the extendable output, 8 bytes a word, little-endian. A shuffle is the
Fisher-Yates walk from the last item down, ``j = word mod (i + 1)`` (each ``j`` within
2**-64 of uniform). Pure Python over :mod:`hashlib`: it runs in the browser's Python (the
companion) too, and one call makes a whole deck's words.

Version 1 is the engine's first generator, ``random.Random(f"{seed}:{purpose}:{n}")`` and
the Fisher-Yates walk of ``random.shuffle``: only the reference engine replays it.

>>> x = list(range(10))
>>> shuffle(deal_key(7, 1), x)
>>> x
[1, 3, 5, 7, 0, 4, 6, 2, 9, 8]
"""

from __future__ import annotations

import random
import struct
from collections.abc import Callable
from hashlib import shake_256

__all__ = [
    "DEAL", "RESHUFFLE", "BOT", "PICK", "RNG_VERSIONS", "SEED_LIMIT", "Stream",
    "deal_key", "reshuffle_key", "stream_key", "fields_key", "shuffle", "shuffle_v1",
    "random_shuffle", "words",
]  # fmt: skip

#: the record's ``rng`` versions (R-REC); a record without the key is version 1
RNG_VERSIONS = (1, 2)
#: a seed is an integer with 0 <= seed < SEED_LIMIT: four words of a version-2 key
SEED_LIMIT = 2**256

#: purposes, the first word of a key: one stream per chance event, so no event's
#: draws shift another's (a record's given deal never moves a later reshuffle)
DEAL = 1  # a round's deal: seed, round (1-based)
RESHUFFLE = 2  # a reshuffle: seed, the game's count of reshuffles so far (1-based)
BOT = 3  # a heuristic bot's samples: the fields of its view (ono99.bots.heuristic)
PICK = 4  # random play (ono99 bench, the batched simulator's opponents): seed, number

_WORD = struct.Struct("<Q")
#: words a Stream reads at a time: one SHAKE-256 block (136 bytes holds 17)
_CHUNK = 17
_UNPACK: dict[int, Callable[[bytes], tuple[int, ...]]] = {}


def stream_key(purpose: int, seed: int, number: int) -> bytes:
    """The key of a seeded stream, six 64-bit words: ``purpose``, ``seed`` (four words, the
    least significant first) and ``number``; 48 bytes, little-endian."""
    return _WORD.pack(purpose) + seed.to_bytes(32, "little") + _WORD.pack(number)


def fields_key(purpose: int, fields: tuple[int, ...]) -> bytes:
    """The key of a stream of ``purpose`` over small integer ``fields`` (at most 15, the
    compiled twin's limit): each a 64-bit word, little-endian, two's complement (-1 is
    ``ff...ff``)."""
    return struct.pack(f"<Q{len(fields)}q", purpose, *fields)


def deal_key(seed: int, round_: int) -> bytes:
    """The key of the deal of round ``round_`` (1-based)."""
    return stream_key(DEAL, seed, round_)


def reshuffle_key(seed: int, count: int) -> bytes:
    """The key of the game's ``count``-th reshuffle (1-based)."""
    return stream_key(RESHUFFLE, seed, count)


def _unpack(count: int) -> Callable[[bytes], tuple[int, ...]]:
    got = _UNPACK.get(count)
    if got is None:
        got = _UNPACK[count] = struct.Struct(f"<{count}Q").unpack
    return got


def words(key: bytes, count: int) -> tuple[int, ...]:
    """The first ``count`` 64-bit words of ``key``'s stream."""
    return _unpack(count)(shake_256(key).digest(8 * count))


def shuffle(key: bytes, x: list[int]) -> None:
    """Shuffle ``x`` in place with ``key``'s stream (version 2): for i = len - 1 down to 1,
    swap ``x[i]`` and ``x[word mod (i + 1)]``, one word per step."""
    n = len(x)
    if n < 2:
        return
    for i, w in zip(range(n - 1, 0, -1), words(key, n - 1), strict=True):
        j = w % (i + 1)
        x[i], x[j] = x[j], x[i]


class Stream:
    """A stream's words one at a time, as floats in [0, 1) (the top 53 bits) or as
    integers below ``m`` (``word mod m``): for the bots' samples and random play."""

    __slots__ = ("_key", "_words", "_next")

    def __init__(self, key: bytes) -> None:
        self._key = key
        self._words: tuple[int, ...] = ()
        self._next = 0

    def word(self) -> int:
        """The next 64-bit word."""
        i = self._next
        if i == len(self._words):  # read further: the output so far, and one block more
            self._words = words(self._key, i + _CHUNK)
        self._next = i + 1
        return self._words[i]

    def random(self) -> float:
        """The next word as a float in [0, 1): its top 53 bits over 2**53."""
        return (self.word() >> 11) * 2.0**-53

    def below(self, m: int) -> int:
        """The next word mod ``m`` (``m`` >= 1)."""
        return self.word() % m


# ---------------------------------------------------------------- version 1 (old records)

_BITS = tuple((i + 1).bit_length() for i in range(256))


def shuffle_v1(seed: int, purpose: str, number: int, x: list[int]) -> None:
    """Version 1: shuffle ``x`` in place as the engine's first generator did, with
    ``random.Random(f"{seed}:{purpose}:{number}")`` (``purpose`` "deal" or "reshuffle")."""
    random_shuffle(random.Random(f"{seed}:{purpose}:{number}"), x)


def random_shuffle(rng: random.Random, x: list[int]) -> None:
    """Shuffle ``x`` in place exactly as ``rng.shuffle(x)`` does (the same Fisher-Yates walk,
    the same draws of ``getrandbits``, so the same order), inlined for speed and pinned
    here so version 1 does not depend on the stdlib's shuffle."""
    getrandbits = rng.getrandbits
    for i in range(len(x) - 1, 0, -1):
        k = _BITS[i] if i < len(_BITS) else (i + 1).bit_length()
        j = getrandbits(k)
        while j > i:
            j = getrandbits(k)
        x[i], x[j] = x[j], x[i]
