"""``ono99 bench --engine fast``: random legal play with the whole loop compiled.

It plays the very games the reference bench plays (:func:`ono99.bench.run_bench`):
game ``g`` is dealt from seed ``seed + g``, and each move is
``legal[int(rng.random() * len(legal))]`` with ``rng = random.Random(seed)``, the
Mersenne Twister reproduced draw for draw. So for a number of games both engines
report the same steps (``tests/fast/test_bench.py``), and only the time differs.
"""

from __future__ import annotations

import random
import time

import numpy as np
from numba import njit

from ono99.fast import core as k
from ono99.fast.core import I64, U8, U32
from ono99.fast.game import NO_DEALS, FastGame, Scratch, rules_vector
from ono99.fast.notice import compiling_notice
from ono99.fast.rng import random_float
from ono99.rules import Rules

__all__ = ["run_bench_fast"]


@njit(cache=True)
def play_games(
    cfg: I64,
    n: int,
    games: int,
    digits: U8,
    length: int,
    pick: U32,
    st: I64,
    mt: U32,
    buf: U8,
    deck: I64,
    gh: I64,
    ghl: I64,
    gd: I64,
    gdl: I64,
) -> tuple[int, int]:
    """Play ``games`` random games, the first dealt from the seed whose decimal digits
    are ``digits[:length]``, each next one from the seed plus one. Returns the steps
    and the digits' new length (they now spell the next game's seed)."""
    # the loop's arrays, borrowed: no atomic reference counts at each call (core.borrow)
    cfg, pick, st, mt, buf = (
        k.borrow(cfg),
        k.borrow(pick),
        k.borrow(st),
        k.borrow(mt),
        k.borrow(buf),
    )
    deck, digits = k.borrow(deck), k.borrow(digits)
    gh, ghl, gd, gdl = k.borrow(gh), k.borrow(ghl), k.borrow(gd), k.borrow(gdl)
    steps = 0
    for _ in range(games):
        k.new_game(st, cfg, n, n - 1, digits[:length], mt, buf, deck, gh, ghl, gd, gdl)
        while st[k.S_TO_MOVE] >= 0:
            count = st[k.S_N_LEGAL]
            pending = st[k.S_PENDING]
            extra = pending >= 0 and pending != st[k.S_TO_MOVE]
            i = int(random_float(pick) * (count + 1 if extra else count))
            action = k.DRAW if i == count else st[k.O_LEGAL + i]
            r = k.play_fast(st, cfg, action)  # the common case, without the arrays below
            if r == k.FAST_NO:
                k.apply(st, cfg, action, digits[:length], mt, buf, deck, gh, ghl, gd, gdl)
            elif r == k.FAST_SETTLE:
                k.settle(st, cfg, -1, digits[:length], mt, buf, deck, gh, ghl, gd, gdl)
            steps += 1
        length = k.increment_digits(digits, length)
    return steps, length


def run_bench_fast(
    r: Rules, players: int, seconds: float, seed: int, games: int | None = None
) -> tuple[int, int, float]:
    """The games of :func:`ono99.bench.run_bench` (``engine="fast"``, which calls this)
    on the fast engine, for rules already made: the games played, the decision steps and
    the seconds taken. The compiled loop runs in batches of games (about a twentieth of
    a second each) between looks at the clock."""
    cfg = rules_vector(r)
    pick = np.array(random.Random(seed).getstate()[1], np.uint32)  # 624 words + index
    digits = np.zeros(100, np.uint8)
    text = str(seed).encode()
    digits[: len(text)] = np.frombuffer(text, np.uint8)
    length = len(text)
    FastGame(r, players, seed=seed)  # checks the player count; compiles (or loads) the kernel
    st = k.new_state()
    work = Scratch()
    args = (work.mt, work.buf, work.deck, *NO_DEALS)
    with compiling_notice():
        play_games(cfg, players, 0, digits, length, pick, st, *args)  # compile outside the clock
    clock = time.perf_counter
    played = steps = 0
    batch = 16
    start = clock()
    while True:
        todo = batch if games is None else min(batch, games - played)
        s, length = play_games(cfg, players, todo, digits, length, pick, st, *args)
        steps += s
        played += todo
        spent = clock() - start
        if games is not None:
            if played >= games:
                break
        elif spent >= seconds:
            break
        else:  # batches of about 50 ms, the last one ending near the deadline
            per_game = spent / played
            left = seconds - spent
            batch = max(1, int(min(0.05, left) / per_game))
    return played, steps, clock() - start
