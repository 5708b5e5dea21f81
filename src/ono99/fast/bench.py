"""``ono99 bench --engine fast``: random legal play with the whole loop compiled.

It plays the very games the reference bench plays (:func:`ono99.bench.run_bench`):
game ``g`` is dealt from seed ``seed + g``, and each move is ``legal[int(u * len(legal))]``,
``u`` the next float of the same stream (version 2, purpose PICK). So for a number of games both engines
report the same steps (``tests/fast/test_cli.py``), and only the time differs.
"""

from __future__ import annotations

import time

from numba import njit

from ono99.chance import PICK
from ono99.fast import core as k
from ono99.fast.core import I64, U64
from ono99.fast.game import NO_DEALS, FastGame, Scratch, rules_vector
from ono99.fast.notice import compiling_notice
from ono99.fast.rng import new_stream, random_float, seed_stream, seed_words
from ono99.rules import Rules

__all__ = ["run_bench_fast"]


@njit(cache=True)
def play_games(
    cfg: I64,
    n: int,
    games: int,
    seed: U64,
    pick: U64,
    st: I64,
    rs: U64,
    deck: I64,
    gh: I64,
    ghl: I64,
    gd: I64,
    gdl: I64,
) -> int:
    """Play ``games`` random games, the first dealt from ``seed`` (four words), each next
    one from the seed plus one (``seed`` is left holding the next game's). Returns the
    steps."""
    # the loop's arrays, borrowed: no atomic reference counts at each call (core.borrow)
    cfg, pick, st, rs = k.borrow(cfg), k.borrow(pick), k.borrow(st), k.borrow(rs)
    deck, seed = k.borrow(deck), k.borrow(seed)
    gh, ghl, gd, gdl = k.borrow(gh), k.borrow(ghl), k.borrow(gd), k.borrow(gdl)
    steps = 0
    for _ in range(games):
        k.new_game(st, cfg, n, n - 1, seed, rs, deck, gh, ghl, gd, gdl)
        while st[k.S_TO_MOVE] >= 0:
            count = st[k.S_N_LEGAL]
            pending = st[k.S_PENDING]
            extra = pending >= 0 and pending != st[k.S_TO_MOVE]
            i = int(random_float(pick) * (count + 1 if extra else count))
            action = k.DRAW if i == count else st[k.O_LEGAL + i]
            r = k.play_fast(st, cfg, action)  # the common case, without the arrays below
            if r == k.FAST_NO:
                k.apply(st, cfg, action, seed, rs, deck, gh, ghl, gd, gdl)
            elif r == k.FAST_SETTLE:
                k.settle(st, cfg, -1, seed, rs, deck, gh, ghl, gd, gdl)
            steps += 1
        k.next_seed(seed)
    return steps


def run_bench_fast(
    r: Rules, players: int, seconds: float, seed: int, games: int | None = None
) -> tuple[int, int, float]:
    """The games of :func:`ono99.bench.run_bench` (``engine="fast"``, which calls this)
    on the fast engine, for rules already made: the games played, the decision steps and
    the seconds taken. The compiled loop runs in batches of games (about a twentieth of
    a second each) between looks at the clock."""
    cfg = rules_vector(r)
    pick = new_stream()
    seed_stream(pick, PICK, seed_words(seed), 0)
    words = seed_words(seed)
    FastGame(r, players, seed=seed)  # checks the player count; compiles (or loads) the kernel
    st = k.new_state()
    work = Scratch()
    args = (work.rs, work.deck, *NO_DEALS)
    with compiling_notice():
        play_games(cfg, players, 0, words, pick, st, *args)  # compile outside the clock
    clock = time.perf_counter
    played = steps = 0
    batch = 16
    start = clock()
    while True:
        todo = batch if games is None else min(batch, games - played)
        steps += play_games(cfg, players, todo, words, pick, st, *args)
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
