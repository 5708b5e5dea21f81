"""The environments' observation and step, compiled: what :mod:`ono99.fast.vec` and the
fast PettingZoo environment (``aec_env(engine="fast")``) share.

:func:`encode` writes :func:`ono99.envs.encoding.encode` of one seat's view, from the state
vector: the seat's own hand and the public state only, never another hand or the draw
order (R-SET-1). ``tests/fast/test_vec.py`` and ``tests/envs/test_aec_fast.py`` compare it
with ``encode(game.view(seat))`` after every move of many games.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ono99 import layout as L
from ono99.cards import HAND_SIZE
from ono99.fast import core as k
from ono99.fast.core import F32, I8, I64, U64

__all__ = [
    "DISCARD_AT",
    "OBS_PER_SEAT",
    "OBS_SEATS_AT",
    "advance",
    "encode",
    "encode_row",
    "env_step",
    "observe_seat",
]

# The layout is ono99.layout's, the one the reference encoder writes by.
_NUM_CARDS = L.NUM_CARDS
DISCARD_AT = L.DISCARD_AT
OBS_SEATS_AT = L.SEATS_AT
OBS_PER_SEAT = L.PER_SEAT
_TOTAL_LOW = float(L.TOTAL_LOW)
_TOTAL_HIGH = float(L.TOTAL_HIGH)


@njit(cache=True)
def encode_row(st: I64, cfg: I64, seat: int, obs: F32, r: int, discard: bool = True) -> None:
    """:func:`ono99.envs.encoding.encode` of ``seat``'s view, from the state vector, into
    row ``r`` of ``obs`` (a row index, not a row view: a view per call costs). Writes the
    first ``54 + 9 * players`` entries, each once (entries after them are the caller's);
    with ``discard`` false, all but the discard pile's counts (``DISCARD_AT`` … +15: a
    caller that keeps them counted writes them)."""
    n = st[k.S_N]
    # the counted blocks start at 0; every other entry is written below
    for i in range(_NUM_CARDS):
        obs[r, i] = 0.0
    for i in range(L.LAID_AT, OBS_SEATS_AT):
        obs[r, i] = 0.0
    base = k.O_HANDS + seat * k.HAND_CAP
    for i in range(st[k.O_HAND_LEN + seat]):
        obs[r, st[base + i]] += 1.0
    obs[r, L.TOTAL] = max(_TOTAL_LOW, min(_TOTAL_HIGH, float(st[k.S_TOTAL])))
    obs[r, L.DIRECTION] = st[k.S_DIR]
    obs[r, L.PLAYS_LEFT] = st[k.S_PLAYS_LEFT]
    obs[r, L.PLAYED_99] = st[k.S_PLAYED99]
    obs[r, L.BUST_MODE] = 1.0 if st[k.S_BUST_MODE] != 0 and seat == st[k.S_TO_MOVE] else 0.0
    obs[r, L.DRAW_PILE] = st[k.S_N_DRAW]
    if discard:
        for i in range(DISCARD_AT, L.LAID_AT):
            obs[r, i] = 0.0
        for i in range(st[k.S_N_DISCARD]):
            obs[r, DISCARD_AT + st[k.O_DISCARD + i]] += 1.0
    mode = cfg[k.C_MODE]
    if mode == k.ELIMINATION:  # R-END-1: the hands of eliminated players, face up
        for s in range(n):
            if st[k.O_ALIVE + s] == 0:
                hb = k.O_HANDS + s * k.HAND_CAP
                for i in range(st[k.O_HAND_LEN + s]):
                    obs[r, L.LAID_AT + st[hb + i]] += 1.0
    top_score = float(cfg[k.C_TARGET] + L.SCORE_SLACK)
    to_move, owes, pending = st[k.S_TO_MOVE], st[k.S_OWES], st[k.S_PENDING]
    n_winners = st[k.S_N_WINNERS]
    s = seat
    for j in range(n):
        b = OBS_SEATS_AT + OBS_PER_SEAT * j
        obs[r, b + L.HAND_SIZE] = st[k.O_HAND_LEN + s]
        obs[r, b + L.ALIVE] = st[k.O_ALIVE + s]
        obs[r, b + L.ACTIVE] = st[k.O_ACTIVE + s]
        obs[r, b + L.TO_MOVE] = 1.0 if to_move == s else 0.0
        obs[r, b + L.OWES_TWO] = 1.0 if owes == s else 0.0
        obs[r, b + L.PENDING_DRAW] = 1.0 if pending == s else 0.0
        won = 0.0
        for w in range(n_winners):
            if st[k.O_WINNERS + w] == s:
                won = 1.0
        obs[r, b + L.WINNER] = won
        obs[r, b + L.TOKENS] = st[k.O_TOKENS + s] if mode == k.TOKENS else 0.0
        obs[r, b + L.SCORE] = min(top_score, float(st[k.O_SCORES + s])) if mode == k.POINTS else 0.0
        s = s + 1 if s + 1 < n else 0


@njit(cache=True)
def encode(st: I64, cfg: I64, seat: int, out: F32) -> None:
    """:func:`encode_row` into the 1-dimensional ``out``."""
    encode_row(st, cfg, seat, out.reshape((1, out.shape[0])), 0)


@njit(cache=True)
def advance(
    st: I64, cfg: I64, seed: U64, rs: U64, deck: I64, gh: I64, ghl: I64, gd: I64,
    gdl: I64,
) -> None:  # fmt: skip
    """Take every pending draw at once (R-DRAW-1), as :meth:`ono99.Game.take_draws`.
    (Callers test ``st[S_PENDING] >= 0`` first: a call with these arrays costs.)"""
    while st[k.S_PENDING] >= 0 and st[k.S_TO_MOVE] >= 0:
        k.play(st, cfg, k.DRAW, seed, rs, deck, gh, ghl, gd, gdl)


@njit(cache=True)
def observe_seat(st: I64, cfg: I64, seat: int, obs: F32, mask: I8) -> None:
    """``encode`` and ``action_mask`` of ``seat``'s view into ``obs`` and ``mask`` (rows):
    the mask is all 0 for a seat that may not act (pending draws are taken at once)."""
    mask[:] = 0
    if seat == st[k.S_TO_MOVE]:
        for i in range(st[k.S_N_LEGAL]):
            mask[st[k.O_LEGAL + i]] = 1
    encode(st, cfg, seat, obs)


@njit(cache=True)
def env_step(st: I64, cfg: I64, action: int, seat: int, seed: U64, rs: U64, deck: I64) -> int:
    """``seat`` makes ``action`` if it is legal for it now, then every pending draw is taken
    at once (dealt games: no record's deals). Returns the seat to move next (-1: the game is
    over), or -2 for an action ``seat`` may not make (nothing changed): one call per step."""
    if seat != st[k.S_TO_MOVE] or action < 0 or action >= k.DRAW or not k.is_legal(st, action):
        return -2
    gh = np.zeros((0, k.MAXP, HAND_SIZE), np.int64)  # no given deals (fast.game.NO_DEALS)
    ghl = np.zeros((0, k.MAXP), np.int64)
    gd = np.zeros((0, k.PILE_CAP), np.int64)
    gdl = np.zeros(0, np.int64)
    k.play(st, cfg, action, seed, rs, deck, gh, ghl, gd, gdl)
    if st[k.S_PENDING] >= 0:
        advance(st, cfg, seed, rs, deck, gh, ghl, gd, gdl)
    return int(st[k.S_TO_MOVE])
