"""A batch of games stepped together, observations included: the fast simulator for
reinforcement learning (``FastVecEnv``).

Each of ``batch`` slots holds one game on the fast engine. :meth:`FastVecEnv.step` takes one
action per slot (for the seat to move there), takes pending draws at once (R-DRAW-1, as
the environments of :mod:`ono99.envs` do), and returns for every slot the observation and
the action mask of the seat to move next, with :mod:`ono99.envs.encoding`'s layout and
values exactly (``docs/envs.md``): a policy trained here plays in those environments
unchanged. A game that ends gives its rewards (the winners share +1, the losers -1) and
is replaced in the same step by a new one (``done`` marks the slot).

Seeds: game ``i`` of the batch (numbered in the order the games start) is dealt from seed
``seed + i`` (mod 2**256), exactly as ``Game(rules, players, seed=seed + i)`` deals it, so any game can
be replayed on the reference engine (:meth:`FastVecEnv.game_seeds`). Without a seed the
base seed is a fresh 128-bit ``secrets`` seed.

Every observation is built from what the seat to move may know (its hand, the public
state), never another hand or the draw order (R-SET-1). ``history=True`` appends who played
what this round, observer-relative (the layout and values of
:class:`ono99.envs.encoding.PlayLog`'s vector, as ``aec_env(..., history=True)``).
``play_order=K`` appends instead the last ``K`` cards of the discard pile, most recent
first, one-hot (:func:`ono99.envs.policy.play_order` of the view: what a policy file with
``"play_order": K`` in its ``meta`` reads as a bot).

>>> env = FastVecEnv("mattel2022", players=3, batch=4, seed=7)
>>> step = env.reset()
>>> step.obs.shape, step.mask.shape, step.player.tolist()
((4, 81), (4, 18), [0, 0, 0, 0])
>>> step = env.step(step.mask.argmax(axis=1))
>>> step.player.tolist(), step.done.tolist()
([1, 1, 1, 1], [False, False, False, False])
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt
from numba import njit

from ono99.cards import FOUR_99_CARDS, NUM_CARDS, Card
from ono99.chance import SEED_LIMIT
from ono99.errors import IllegalAction
from ono99.fast import core as k
from ono99.fast.core import B8, F32, I8, I64, U64
from ono99.fast.game import NO_DEALS, FastGame, Scratch, rules_vector
from ono99.fast.notice import announce_first_call
from ono99.fast.obs import DISCARD_AT, OBS_PER_SEAT, OBS_SEATS_AT, encode_row
from ono99.fast.obs import advance as _advance
from ono99.fast.rng import SEED_WORDS, seed_words
from ono99.game import check_seed, illegal_action_error, new_seed
from ono99.rules import Rules, make_rules

__all__ = [
    "FastVecEnv",
    "clear_played",
    "first_illegal",
    "game_rewards",
    "VecStep",
    "OBS_PER_SEAT",
    "OBS_SEATS_AT",
    "observe_slot",
    "random_legal",
    "record_play",
    "start_slot",
    "write_order",
    "write_played",
]

_CARDS = NUM_CARDS  # card types
_C99 = int(Card.NINETY_NINE)


class VecStep(NamedTuple):
    """What :meth:`FastVecEnv.reset` and :meth:`FastVecEnv.step` return, one row per slot."""

    #: observation of the seat to move (float32, ``(batch, 54 + 9 * players)``; with
    #: ``history``, ``16 * players`` more)
    obs: F32
    #: its legal actions (int8 0/1, ``(batch, 18)``)
    mask: I8
    #: the seat to move (int64, ``(batch,)``)
    player: I64
    #: rewards of every seat for a game that ended in this step, else 0 (``(batch, players)``)
    rewards: F32
    #: the slot's game ended in this step (and a new one started there)
    done: B8


@njit(cache=True, inline="always")
def _legal_row(st: I64, mask: I8, legal: I64, player: I64, b: int) -> int:
    """Row ``b``'s seat to move (returned, and in ``player``) and its legal actions
    (``mask``, and as the bits of ``legal[b]`` for the next step's check). Inlined into
    :func:`_step_all`'s loop, where a call would cost at every row (measured as fast as
    these lines written out there)."""
    p = st[k.S_TO_MOVE]
    player[b] = p
    bits = 0
    for i in range(st[k.S_N_LEGAL]):
        bits |= 1 << st[k.O_LEGAL + i]
    legal[b] = bits
    for a in range(mask.shape[1]):
        mask[b, a] = (bits >> a) & 1  # no branch on the cards held
    return int(p)


@njit(cache=True)
def _observe(
    st: I64, cfg: I64, obs: F32, mask: I8, legal: I64, player: I64, b: int
) -> None:  # fmt: skip
    """Row ``b`` of the outputs for the seat to move in ``st``: its seat, its legal actions
    and its observation."""
    encode_row(st, cfg, _legal_row(st, mask, legal, player, b), obs, b)


@njit(cache=True, inline="always")
def _game_rewards(st: I64, n: int, rewards: F32, b: int) -> None:
    """Row ``b`` of ``rewards`` for the game over in ``st``: the winners share +1, the
    losers -1 (all winners: 0; the row was cleared before)."""
    w = st[k.S_N_WINNERS]
    if 0 < w < n:
        for s in range(n):
            rewards[b, s] = -1.0 / (n - w)
        for i in range(w):
            rewards[b, st[k.O_WINNERS + i]] = 1.0 / w


@njit(cache=True)
def record_play(
    played: F32, b: int, seat: int, action: int, round_before: int, round_after: int
) -> None:
    """:meth:`ono99.envs.encoding.PlayLog.record` in row ``b`` of ``played`` (``(batch,
    players, 16)``): ``seat`` made ``action``; a move after which a new round was dealt
    leaves the round's counts empty (R-END-2)."""
    if round_after != round_before:
        for s in range(played.shape[1]):
            for c in range(_CARDS):
                played[b, s, c] = 0.0
    elif action == k.FOUR_99:
        played[b, seat, _C99] += FOUR_99_CARDS  # R-99-3: four ONO 99 cards
    elif action < _CARDS:
        played[b, seat, action] += 1.0


@njit(cache=True)
def write_played(played: F32, b: int, p: int, n: int, obs: F32) -> None:
    """Row ``b``'s who-played-what block, relative to the observer ``p``, into the end of
    ``obs`` row ``b`` (:meth:`ono99.envs.encoding.PlayLog.vector`)."""
    at = obs.shape[1] - _CARDS * n
    for j in range(n):
        s = (p + j) % n
        for c in range(_CARDS):
            obs[b, at + _CARDS * j + c] = played[b, s, c]


@njit(cache=True)
def write_order(states: I64, rows: I64, order: int, obs: F32) -> None:
    """The play order of each row in ``rows``: the last ``order`` cards of its discard pile,
    most recent first, one-hot, into the end of its ``obs`` row
    (:func:`ono99.envs.policy.play_order`; rows past the pile's bottom are 0)."""
    at = obs.shape[1] - _CARDS * order
    for i in range(rows.shape[0]):
        b = rows[i]
        st = states[b]
        for j in range(_CARDS * order):
            obs[b, at + j] = 0.0
        top = st[k.S_N_DISCARD] - 1
        for j in range(min(order, top + 1)):
            obs[b, at + _CARDS * j + st[k.O_DISCARD + top - j]] = 1.0


@njit(cache=True)
def clear_played(played: F32, b: int) -> None:
    """A new game in row ``b``: nothing played yet."""
    for s in range(played.shape[1]):
        for c in range(_CARDS):
            played[b, s, c] = 0.0


@njit(cache=True, inline="always")
def _count_discard(st: I64, discard: F32, seen: I64, b: int, obs: F32) -> None:
    """The discard pile's counts of row ``b`` into its observation, kept in ``discard[b]``
    from step to step: the engine only appends to the pile between a reshuffle (R-TURN-3)
    and a deal (R-END-2), so only the new cards are counted (a pile of 30 cards is 30
    loads a step otherwise). ``seen[b]`` is the pile's length and its reshuffle and round
    then (-1: count it all again, as after a new game)."""
    length = st[k.S_N_DISCARD]
    key = st[k.S_RESHUFFLES] * 4096 + st[k.S_ROUND]
    start = seen[b, 0]
    if seen[b, 1] != key or length < start:
        for c in range(_CARDS):
            discard[b, c] = 0.0
        start = 0
    for i in range(start, length):
        discard[b, st[k.O_DISCARD + i]] += 1.0
    seen[b, 0] = length
    seen[b, 1] = key
    for c in range(_CARDS):
        obs[b, DISCARD_AT + c] = discard[b, c]


@njit(cache=True)
def _start(
    states: I64, cfg: I64, n: int, b: int, seeds: U64, nxt: U64, rs: U64, deck: I64,
    gh: I64, ghl: I64, gd: I64, gdl: I64,
) -> None:  # fmt: skip
    """A new game in slot ``b`` from the next seed (``nxt``, then one more)."""
    seeds[b, :] = nxt
    st = states[b]
    seed = seeds[b]
    k.new_game(st, cfg, n, n - 1, seed, rs, deck, gh, ghl, gd, gdl)
    _advance(st, cfg, seed, rs, deck, gh, ghl, gd, gdl)
    k.next_seed(nxt)


@njit(cache=True)
def _reset_all(
    states: I64, cfg: I64, n: int, seeds: U64, nxt: U64, game_ids: I64, obs: F32, mask: I8,
    legal: I64, player: I64, hist: bool, played: F32, rs: U64, deck: I64, gh: I64, ghl: I64,
    gd: I64, gdl: I64,
) -> None:  # fmt: skip
    for b in range(states.shape[0]):
        _start(states, cfg, n, b, seeds, nxt, rs, deck, gh, ghl, gd, gdl)
        game_ids[b] = b
        _observe(states[b], cfg, obs, mask, legal, player, b)
        if hist:
            clear_played(played, b)
            write_played(played, b, player[b], n, obs)


@njit(cache=True)
def _first_illegal(legal: I64, actions: I64) -> int:
    """The first slot whose action is not legal there, -1 if none: from the bits of the
    legal actions the last step left in ``legal`` (one word per slot, not the states)."""
    bad = 0
    for b in range(actions.shape[0]):
        a = actions[b]
        bad |= int(a < 0) | int(a >= k.DRAW) | int(((legal[b] >> (a & 31)) & 1) == 0)
    if bad == 0:
        return -1
    for b in range(actions.shape[0]):
        a = actions[b]
        if a < 0 or a >= k.DRAW or ((legal[b] >> a) & 1) == 0:
            return b
    return -1


@njit(cache=True)
def _step_all(
    states: I64, cfg: I64, n: int, actions: I64, seeds: U64, nxt: U64, next_id: int,
    game_ids: I64, obs: F32, mask: I8, legal: I64, player: I64, rewards: F32, done: B8,
    hist: bool, played: F32, discard: F32, seen: I64, rs: U64, deck: I64, gh: I64, ghl: I64,
    gd: I64, gdl: I64,
) -> int:  # fmt: skip
    rewards[:, :] = 0.0
    for b in range(states.shape[0]):
        st = states[b]
        seat, round_before = st[k.S_TO_MOVE], st[k.S_ROUND]
        # the common case without the generator's arrays: every array a compiled call
        # takes (or view it makes) costs two atomic reference counts. Written out, as in
        # ono99.envs.fast_vec: a helper for these lines, inlined or not, takes all of them
        # at every row (measured 2-5% slower)
        r = k.play_fast(st, cfg, actions[b])
        if r == k.FAST_NO:
            k.apply(st, cfg, actions[b], seeds[b], rs, deck, gh, ghl, gd, gdl)
        elif r == k.FAST_SETTLE:
            k.settle(st, cfg, -1, seeds[b], rs, deck, gh, ghl, gd, gdl)
        if st[k.S_PENDING] >= 0:
            _advance(st, cfg, seeds[b], rs, deck, gh, ghl, gd, gdl)
        if hist:
            record_play(played, b, seat, actions[b], round_before, st[k.S_ROUND])
        done[b] = st[k.S_TO_MOVE] < 0
        if done[b]:
            _game_rewards(st, n, rewards, b)
            _start(states, cfg, n, b, seeds, nxt, rs, deck, gh, ghl, gd, gdl)
            game_ids[b] = next_id
            next_id += 1
            seen[b, 1] = -1  # a new pile
            if hist:
                clear_played(played, b)
        p = _legal_row(st, mask, legal, player, b)
        encode_row(st, cfg, p, obs, b, False)  # the discard pile's counts kept, below
        _count_discard(st, discard, seen, b, obs)
        if hist:
            write_played(played, b, p, n, obs)
    return next_id


#: the slot kernels, for simulators built on this one (:mod:`ono99.envs.fast_vec`)
first_illegal = _first_illegal
start_slot = _start
observe_slot = _observe
game_rewards = _game_rewards


@njit(cache=True)
def _pick_legal(mask: I8, u: npt.NDArray[np.float64], out: I64) -> None:
    # Branch-free: the j-th legal action (0-based) is the number of actions whose running
    # count of legal ones is at most j (a branch on random data mispredicts half the time).
    for b in range(mask.shape[0]):
        count = 0
        for a in range(mask.shape[1]):
            count += mask[b, a] != 0
        j = int(u[b] * count)
        running = 0
        pick = 0
        for a in range(mask.shape[1]):
            running += mask[b, a] != 0
            pick += running <= j
        out[b] = pick if count > 0 else 0


def random_legal(mask: I8, rng: np.random.Generator) -> I64:
    """One uniformly random legal action per row of ``mask`` (one uniform draw of ``rng``
    per row): the random baseline, compiled. A row with no legal action gets 0."""
    m = np.ascontiguousarray(mask, dtype=np.int8)
    if m.ndim != 2:
        raise ValueError(f"mask must be 2-dimensional (batch, actions), not {m.shape}")
    out = np.zeros(m.shape[0], np.int64)
    u = rng.random((m.shape[0],))
    _pick_legal(m, u, out)
    return out


class FastVecEnv:
    """``batch`` games of ``rules`` for ``players`` seats, stepped together on the fast
    engine (see the module's text). ``options`` are the preset's (R-SET-6); ``history``
    appends who played what this round to every observation, ``play_order`` (an int ``K``)
    the last ``K`` cards played (not both)."""

    def __init__(
        self,
        rules: str | Rules = "mattel2022",
        players: int = 2,
        batch: int = 256,
        *,
        seed: int | None = None,
        history: bool = False,
        play_order: int = 0,
        **options: Any,
    ) -> None:
        if not isinstance(history, bool):
            raise ValueError(f"history must be True or False, not {history!r}")
        if isinstance(play_order, bool) or not isinstance(play_order, int) or play_order < 0:
            raise ValueError(f"play_order must be an integer >= 0, not {play_order!r}")
        if history and play_order:
            # the policy bot reads the play order right after the plain observation
            raise ValueError("history and play_order cannot be used together")
        self.rules = rules if isinstance(rules, Rules) else make_rules(rules, options or None)
        if isinstance(batch, bool) or not isinstance(batch, int) or batch < 1:
            raise ValueError(f"batch must be a positive integer, not {batch!r}")
        FastGame(self.rules, players, seed=0)  # checks the player count (R-SET-5)
        self.players = players
        self.batch = batch
        self.history = history
        self.play_order = play_order
        self.observation_size = (
            OBS_SEATS_AT + (OBS_PER_SEAT + _CARDS * history) * players + _CARDS * play_order
        )
        self._rows = np.arange(batch, dtype=np.int64)
        #: who played what this round, per row and seat (only with ``history``)
        self._played = np.zeros((batch if history else 0, players, _CARDS), np.float32)
        self.num_actions = k.DRAW + 1
        self._cfg = rules_vector(self.rules)
        self._states = np.zeros((batch, k.STATE_LEN), np.int64)
        self._seeds = np.zeros((batch, SEED_WORDS), np.uint64)
        self._next = np.zeros(SEED_WORDS, np.uint64)
        self._next_id = 0
        self.game_ids = np.zeros(batch, np.int64)
        self._obs = np.zeros((batch, self.observation_size), np.float32)
        self._mask = np.zeros((batch, self.num_actions), np.int8)
        self._player = np.zeros(batch, np.int64)
        #: the legal actions of each slot's seat to move as bits (for the check of a step)
        self._legal_bits = np.zeros(batch, np.int64)
        #: each slot's discard pile counted, and the pile's length, reshuffle and round then
        self._discard = np.zeros((batch, _CARDS), np.float32)
        self._seen = np.full((batch, 2), -1, np.int64)
        self._rewards = np.zeros((batch, players), np.float32)
        self._done = np.zeros(batch, np.bool_)
        self._scratch = Scratch()
        self.seed = -1
        self._seed_arg = seed
        self._ready = False

    def _work(self) -> tuple[Any, ...]:
        s = self._scratch
        return s.rs, s.deck, *NO_DEALS

    def _fresh(self) -> None:
        """New output arrays for the next step: the kernels write every entry, and a step
        already returned keeps its own arrays (no copy per step)."""
        self._obs = np.empty_like(self._obs)
        self._mask = np.empty_like(self._mask)
        self._player = np.empty_like(self._player)
        self._rewards = np.empty_like(self._rewards)
        self._done = np.empty_like(self._done)

    def _write_order(self, rows: I64 | None = None) -> None:
        """The play order of ``rows`` (all by default) into their observations."""
        if self.play_order:
            write_order(
                self._states, self._rows if rows is None else rows, self.play_order, self._obs
            )

    def _result(self) -> VecStep:
        return VecStep(self._obs, self._mask, self._player, self._rewards, self._done)

    @announce_first_call
    def reset(self, seed: int | None = None) -> VecStep:
        """Deal ``batch`` new games: game ``i`` from seed ``(seed + i) mod 2**256`` (``seed``:
        this argument, else the constructor's, else a fresh ``secrets`` seed)."""
        if seed is None:
            seed = self._seed_arg if self._seed_arg is not None else new_seed()
        seed = check_seed(seed)
        self._seed_arg = None  # a later reset() without a seed continues with new games
        self.seed = seed
        self._next[:] = seed_words(seed)
        self._fresh()
        _reset_all(
            self._states, self._cfg, self.players, self._seeds, self._next, self.game_ids,
            self._obs, self._mask, self._legal_bits, self._player, self.history, self._played,
            *self._work(),
        )  # fmt: skip
        self._next_id = self.batch
        self._seen[:] = -1  # the discard piles are counted again at the next step
        self._rewards[:] = 0.0
        self._done[:] = False
        self._ready = True
        self._write_order()
        return self._result()

    @announce_first_call
    def step(self, actions: Any) -> VecStep:
        """Play ``actions[b]`` for the seat to move in slot ``b``, for every slot. An
        illegal action anywhere raises :class:`IllegalAction` (one line, naming the slot
        and the rule) and changes nothing."""
        acts = self._checked(actions)
        self._fresh()
        self._next_id = _step_all(
            self._states, self._cfg, self.players, acts, self._seeds, self._next,
            self._next_id, self.game_ids, self._obs, self._mask,
            self._legal_bits, self._player, self._rewards, self._done, self.history, self._played,
            self._discard, self._seen, *self._work(),
        )  # fmt: skip
        self._write_order()
        return self._result()

    def _checked(self, actions: Any) -> I64:
        """``actions`` as int64, one legal action per slot, or :class:`IllegalAction`."""
        if not self._ready:
            raise IllegalAction("call reset() before step()")
        acts = np.asarray(actions)
        if acts.shape != (self.batch,) or not np.issubdtype(acts.dtype, np.integer):
            raise IllegalAction(
                f"actions must be {self.batch} integers, one per game, not a {acts.dtype}"
                f" array of shape {acts.shape}"
            )
        acts = np.ascontiguousarray(acts, dtype=np.int64)
        bad = int(_first_illegal(self._legal_bits, acts))
        if bad >= 0:
            raise self._illegal(bad, int(acts[bad]))
        return acts

    def _illegal(self, b: int, action: int) -> IllegalAction:
        st = self._states[b]
        if not 0 <= action < k.DRAW:
            return IllegalAction(f"game {b}: {action!r} is not an action")
        p = int(st[k.S_TO_MOVE])
        base = k.O_HANDS + p * k.HAND_CAP
        reason = illegal_action_error(
            self.rules, action, name=f"Player {p + 1}", seat=p,
            hand=[int(c) for c in st[base : base + st[k.O_HAND_LEN + p]]],
            total=int(st[k.S_TOTAL]), plays_left=int(st[k.S_PLAYS_LEFT]),
            played_99=bool(st[k.S_PLAYED99]), bust_mode=bool(st[k.S_BUST_MODE]),
        )  # fmt: skip
        return IllegalAction(f"game {b}: {reason}")

    def game_seeds(self) -> list[int]:
        """The seed of each slot's current game: ``Game(rules, players, seed=s)`` deals
        it on the reference engine."""
        return [(self.seed + int(i)) % SEED_LIMIT for i in self.game_ids]

    def game(self, b: int) -> FastGame:
        """Slot ``b``'s current game as a :class:`FastGame` (a copy; every hand shown:
        for analysis and tests, never for a player)."""
        g = FastGame(self.rules, self.players, seed=self.game_seeds()[b])
        g.state[:] = self._states[b]
        return g
