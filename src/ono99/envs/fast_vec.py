"""Training against bots at simulator speed: the batched fast simulator with compiled
opponents in every seat but the learner's (docs/envs.md).

:class:`OpponentVecEnv` is :class:`ono99.fast.vec.FastVecEnv` with the other seats played
inside the compiled step by ``random``, ``greedy`` or ``heuristic`` bots, so every row of
every step is the learner's decision. The bots read, for the seat to move, what that
seat's view holds (its own hand and the public state, R-SET-1), like the bots of
:mod:`ono99.bots`:

- ``random``: a uniformly random legal action (its own seeded generator);
- ``greedy``: :func:`ono99.bots.greedy.greedy_choice`, move for move;
- ``heuristic``: ``HeuristicBot(samples=4)`` move for move (the search's rollout policy,
  :func:`ono99.bots.fast_rollout.heuristic_act`; the ``heuristic`` level itself samples 24).

:class:`Ono99VectorEnv` wraps it as a ``gymnasium.vector.VectorEnv`` (next-step autoreset).

>>> env = OpponentVecEnv("mattel2022", players=3, batch=4, opponents="greedy", seed=7)
>>> step = env.reset()
>>> step.player.tolist(), step.obs.shape
([0, 0, 0, 0], (4, 81))
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Sequence
from typing import Any

from ono99.envs._checks import check_seat
from ono99.envs._deps import missing
from ono99.envs._opponents import opponent_names

try:
    import numpy as np
    import numpy.typing as npt
    from numba import njit
except ImportError as e:  # pragma: no cover - the rl and fast extras are installed in tests
    raise missing(__name__, e) from None

from ono99.bots.fast_rollout import bust_card, greedy_card, heuristic_act, heuristic_work
from ono99.chance import PICK
from ono99.errors import IllegalAction
from ono99.fast import core as k
from ono99.fast.core import B8, F32, F64, I8, I64, U64
from ono99.fast.notice import announce_first_call
from ono99.fast.obs import advance
from ono99.fast.rng import new_stream, random_float, seed_stream, seed_words
from ono99.fast.vec import (
    FastVecEnv,
    VecStep,
    clear_played,
    first_illegal,
    game_rewards,
    record_play,
    start_slot,
    write_played,
)
from ono99.fast.vec import observe_slot as _observe
from ono99.rules import Rules

__all__ = ["BOTS", "BatchPolicy", "Ono99VectorEnv", "OpponentVecEnv"]

_RANDOM, _GREEDY, _HEURISTIC = 0, 1, 2
#: the compiled opponents, by name (their kernel codes)
BOTS = {"random": _RANDOM, "greedy": _GREEDY, "heuristic": _HEURISTIC}
_LEARNER = -1
#: a seat played outside the kernels: a policy evaluated on a batch of rows (Python/NumPy)
_EXTERNAL = -2


@njit(cache=True)
def _greedy(st: I64) -> int:
    """:func:`ono99.bots.greedy.greedy_choice` of the seat to move (no pending draw)."""
    for i in range(st[k.S_N_LEGAL]):
        if st[k.O_LEGAL + i] == k.FOUR_99:
            return k.FOUR_99  # R-99-3
    if st[k.S_BUST_MODE] != 0:
        return bust_card(st)
    return greedy_card(st)


@njit(cache=True)
def _bot_move(st: I64, cfg: I64, kind: int, rng: U64, ci: I64, weights: F64, hrng: U64) -> int:
    if kind == _RANDOM:
        return int(st[k.O_LEGAL + int(random_float(rng) * st[k.S_N_LEGAL])])
    if kind == _GREEDY:
        return _greedy(st)
    return heuristic_act(st, cfg, ci, weights, hrng)


@njit(cache=True)
def _play(
    st: I64, cfg: I64, first: int, bots: I64, seed: U64, rng: U64, ci: I64, weights: F64,
    hrng: U64, hist: bool, played: F32, b: int, rs: U64, deck: I64, gh: I64, ghl: I64, gd: I64,
    gdl: I64,
) -> None:  # fmt: skip
    """``first`` (the learner's or a policy seat's action; -1: none) for the seat to move,
    then the compiled bots until the learner or a policy seat must act or the game is over
    (draws at once); with ``hist``, each play is counted in row ``b`` of ``played``."""
    a = first
    while st[k.S_TO_MOVE] >= 0 and (a >= 0 or bots[st[k.S_TO_MOVE]] >= 0):
        seat, round_before = st[k.S_TO_MOVE], st[k.S_ROUND]
        if a < 0:
            a = _bot_move(st, cfg, bots[seat], rng, ci, weights, hrng)
        # the common case without the generator's arrays, written out (every array a
        # compiled call takes costs two atomic reference counts: ono99.fast.vec's note)
        r = k.play_fast(st, cfg, a)
        if r == k.FAST_NO:
            k.apply(st, cfg, a, seed, rs, deck, gh, ghl, gd, gdl)
        elif r == k.FAST_SETTLE:
            k.settle(st, cfg, -1, seed, rs, deck, gh, ghl, gd, gdl)
        if st[k.S_PENDING] >= 0:
            advance(st, cfg, seed, rs, deck, gh, ghl, gd, gdl)
        if hist:
            record_play(played, b, seat, a, round_before, st[k.S_ROUND])
        a = -1


@njit(cache=True)
def _restart(
    states: I64, cfg: I64, n: int, b: int, bots: I64, seeds: U64, nxt: U64, next_id: int,
    game_ids: I64, fresh: B8, rng: U64, ci: I64, weights: F64, hrng: U64, hist: bool,
    played: F32, rs: U64, deck: I64, gh: I64, ghl: I64, gd: I64, gdl: I64,
) -> int:  # fmt: skip
    """New games in slot ``b`` until one reaches the learner's or a policy seat's turn (a
    game over before it is dealt again, as ``GymEnv.reset`` does); ``fresh[b]`` marks a
    game the learner has not moved in yet. Returns the next game's id."""
    fresh[b] = True
    while True:
        start_slot(states, cfg, n, b, seeds, nxt, rs, deck, gh, ghl, gd, gdl)
        game_ids[b] = next_id
        next_id += 1
        st = states[b]
        if hist:
            clear_played(played, b)
        _play(
            st, cfg, -1, bots, seeds[b], rng, ci, weights, hrng, hist, played, b, rs, deck, gh,
            ghl, gd, gdl,
        )  # fmt: skip
        if st[k.S_TO_MOVE] >= 0:
            return next_id


@njit(cache=True)
def _reset_all(
    states: I64, cfg: I64, n: int, bots: I64, seeds: U64, nxt: U64, game_ids: I64, obs: F32,
    mask: I8, legal: I64, player: I64, fresh: B8, rng: U64, ci: I64, weights: F64, hrng: U64,
    hist: bool, played: F32, rs: U64, deck: I64, gh: I64, ghl: I64, gd: I64, gdl: I64,
) -> int:  # fmt: skip
    next_id = 0
    for b in range(states.shape[0]):
        next_id = _restart(
            states, cfg, n, b, bots, seeds, nxt, next_id, game_ids, fresh, rng, ci, weights,
            hrng, hist, played, rs, deck, gh, ghl, gd, gdl,
        )  # fmt: skip
        _observe(states[b], cfg, obs, mask, legal, player, b)
        if hist:
            write_played(played, b, player[b], n, obs)
    return next_id


@njit(cache=True)
def _step_rows(
    states: I64, cfg: I64, n: int, bots: I64, rows: I64, actions: I64, learner: bool,
    seeds: U64, nxt: U64, next_id: int, game_ids: I64, obs: F32, mask: I8, legal: I64,
    player: I64, rewards: F32, done: B8, fresh: B8, rng: U64, ci: I64, weights: F64, hrng: U64,
    hist: bool, played: F32, rs: U64, deck: I64, gh: I64, ghl: I64, gd: I64, gdl: I64,
) -> int:  # fmt: skip
    """``actions[i]`` for the seat to move in row ``rows[i]`` (the learner's, with
    ``learner``; else the policy seats'), then the compiled bots up to the learner or a
    policy seat. A game over gives its rewards and ``done`` (both cleared by the caller)
    only if the learner moved in it (else it is dealt again, as :func:`_restart` does)."""
    for i in range(rows.shape[0]):
        b = rows[i]
        st = states[b]
        if learner:
            fresh[b] = False
        _play(
            st, cfg, actions[i], bots, seeds[b], rng, ci, weights, hrng, hist, played, b, rs,
            deck, gh, ghl, gd, gdl,
        )  # fmt: skip
        if st[k.S_TO_MOVE] < 0:
            if not fresh[b]:
                done[b] = True
                game_rewards(st, n, rewards, b)
            next_id = _restart(
                states, cfg, n, b, bots, seeds, nxt, next_id, game_ids, fresh, rng, ci,
                weights, hrng, hist, played, rs, deck, gh, ghl, gd, gdl,
            )  # fmt: skip
        _observe(st, cfg, obs, mask, legal, player, b)
        if hist:
            write_played(played, b, player[b], n, obs)
    return next_id


#: a policy seat's player: the actions (int, ``(m,)``) for ``m`` rows of observations
#: (float32, ``(m, observation_size)``) and legal-action masks (int8 0/1, ``(m, 18)``),
#: each row the view of that seat in its own game (``MLPPolicy.act`` is one)
BatchPolicy = Callable[[F32, I8], Any]
Opponent = str | BatchPolicy


def _opponent_list(opponents: Opponent | Sequence[Opponent], count: int) -> list[Opponent]:
    """``opponents`` as one entry per other seat: names (a name, a comma list, a
    sequence) as :func:`opponent_names` reads them, callables as they are."""
    if callable(opponents):
        return [opponents] * count
    if isinstance(opponents, str):
        return list(opponent_names(opponents, count))
    if isinstance(opponents, Sequence) and all(
        isinstance(s, str) or callable(s) for s in opponents
    ):
        items = [s.strip() if isinstance(s, str) else s for s in opponents]
        return items * count if len(items) == 1 else items
    raise _bad_opponents(opponents, count)


def _bad_opponents(opponents: object, count: int) -> ValueError:
    return ValueError(
        "opponents must be one of random, greedy, heuristic, policy:PATH or a policy"
        f" (a callable), or {count} of them, not {opponents!r}"
    )


def _bot_codes(
    opponents: Opponent | Sequence[Opponent], players: int, seat: int, obs_size: int
) -> tuple[np.ndarray[Any, Any], dict[int, BatchPolicy]]:
    """The kernel code of every seat, and the policy of each policy seat."""
    items = _opponent_list(opponents, players - 1)
    if len(items) != players - 1 or any(
        isinstance(s, str) and s not in BOTS and not s.startswith("policy:") for s in items
    ):
        raise _bad_opponents(opponents, players - 1)
    codes: list[int] = []
    policies: dict[int, BatchPolicy] = {}
    loaded: dict[str, BatchPolicy] = {}  # one network for the seats that name one file
    for s, item in zip([x for x in range(players) if x != seat], items, strict=True):
        if isinstance(item, str) and item in BOTS:
            codes.append(BOTS[item])
            continue
        if isinstance(item, str):
            path = item.removeprefix("policy:")
            if path not in loaded:
                loaded[path] = _load_policy(path, obs_size)
            item = loaded[path]
        codes.append(_EXTERNAL)
        policies[s] = item
    codes.insert(seat, _LEARNER)
    return np.array(codes, np.int64), policies


def _load_policy(path: str, obs_size: int) -> BatchPolicy:
    """``policy:PATH``'s network (:class:`~ono99.envs.policy.MLPPolicy`), batched."""
    from ono99.envs.policy import MLPPolicy, policy_file

    policy = MLPPolicy.load(policy_file(path))
    size = int(policy.scale.shape[0])
    if size != obs_size:
        raise ValueError(
            f"policy:{path} reads {size} observation entries, this environment gives"
            f" {obs_size} (another player count, or history=)"
        )
    return policy.act


class OpponentVecEnv(FastVecEnv):
    """``batch`` games of ``rules`` for ``players`` seats: the learner in ``seat`` (0 by
    default), ``opponents`` in the others (one for all, or a comma list or sequence of one
    per other seat, in seat order): the compiled bots ``random``, ``greedy``,
    ``heuristic``; ``policy:PATH``, a saved network (:class:`~ono99.envs.policy.MLPPolicy`)
    evaluated with NumPy on all the rows where its seat is to move at once; or a callable
    :data:`BatchPolicy` (``f(obs, mask) -> actions`` for a batch of rows: a league's or
    self-play's current network). The compiled ``heuristic`` samples 4 worlds per
    decision (``HeuristicBot(samples=4)``, the search's rollout policy); the arena's
    ``heuristic`` samples 24 and plays a little better (docs/envs.md).

    :meth:`reset` and :meth:`step` return :class:`~ono99.fast.vec.VecStep` rows that are
    all the learner's: ``obs`` and ``mask`` of the learner's view (``history=True``: with
    who played what this round, the bots' plays included; ``play_order=K``: with the last
    ``K`` cards played, most recent first, as ``policy:PATH`` files with ``"play_order": K``
    read them, the policy seats' observations too), ``player`` always
    ``seat``, ``rewards`` of every seat for a game that ended in this step, ``done``. A
    game that ends (the learner's move, or the bots' after it; a learner knocked out
    early sees the bots play the game out in that step) is replaced in the same step by
    the next seed's game, played by the bots up to the learner's first turn.

    Seeds as :class:`FastVecEnv`'s (game ``i`` from ``seed + i``; a game over before the
    learner's first turn takes the next number); the random bots draw from a generator
    seeded from ``seed`` too, so a seeded run replays; without a seed, from ``secrets``.
    """

    def __init__(
        self,
        rules: str | Rules = "mattel2022",
        players: int = 2,
        batch: int = 256,
        *,
        opponents: Opponent | Sequence[Opponent] = "heuristic",
        seat: int = 0,
        seed: int | None = None,
        history: bool = False,
        play_order: int = 0,
        **options: Any,
    ) -> None:
        super().__init__(
            rules, players, batch, seed=seed, history=history, play_order=play_order, **options
        )
        check_seat(seat, players)
        self.seat = seat
        self.opponents = opponents
        self._bots, self._policies = _bot_codes(opponents, players, seat, self.observation_size)
        #: the policy seats grouped by policy: one call per policy and round of moves
        self._groups: list[tuple[BatchPolicy, np.ndarray[Any, Any]]] = []
        for fn in {id(f): f for f in self._policies.values()}.values():
            seats = [s for s, f in self._policies.items() if f is fn]
            self._groups.append((fn, np.array(seats, np.int64)))
        self._fresh_games = np.ones(batch, np.bool_)
        self._all_rows = np.arange(batch, dtype=np.int64)
        self._rng = new_stream()
        self._ci, self._weights, self._hrng = heuristic_work()

    def _bot_work(self) -> tuple[Any, ...]:
        return self._rng, self._ci, self._weights, self._hrng, self.history, self._played

    def _play_policies(self) -> None:
        """The policy seats move, a batch of rows per policy, until the learner is to
        move in every row (their moves, and the compiled bots' after them, in the
        kernel)."""
        while True:
            waiting = np.flatnonzero(self._player != self.seat)
            if waiting.size == 0:
                return
            self._write_order(waiting)
            seats = self._player[waiting]
            acts = np.zeros(waiting.size, np.int64)
            for fn, group in self._groups:
                sel = np.isin(seats, group)
                if sel.any():
                    rows = waiting[sel]
                    acts[sel] = np.asarray(fn(self._obs[rows], self._mask[rows])).reshape(-1)
            bad = int(first_illegal(self._legal_bits[waiting], acts))
            if bad >= 0:
                b = int(waiting[bad])
                raise IllegalAction(
                    f"the policy of seat {int(seats[bad])} chose {int(acts[bad])}, not a legal"
                    f" action, in game {b}: {self._illegal(b, int(acts[bad]))}"
                )
            self._step_rows(waiting, acts, learner=False)

    def _step_rows(self, rows: np.ndarray[Any, Any], actions: I64, *, learner: bool) -> None:
        self._next_id = _step_rows(
            self._states, self._cfg, self.players, self._bots, rows, actions, learner,
            self._seeds, self._next, self._next_id, self.game_ids, self._obs, self._mask, self._legal_bits, self._player,
            self._rewards, self._done, self._fresh_games, *self._bot_work(), *self._work(),
        )  # fmt: skip

    @announce_first_call
    def reset(self, seed: int | None = None) -> VecStep:
        """Deal ``batch`` new games and let the bots play up to the learner's turn."""
        explicit = seed if seed is not None else self._seed_arg
        super().reset(seed)  # checks the seed, deals (then dealt again below, bots first)
        # the random bots' stream (R-REC version 2, purpose PICK): from the seed, or secret
        picks = self.seed if explicit is not None else secrets.randbits(128)
        seed_stream(self._rng, PICK, seed_words(picks), 0)
        self._next[:] = seed_words(self.seed)
        self._fresh()
        self._next_id = _reset_all(
            self._states, self._cfg, self.players, self._bots, self._seeds, self._next,
            self.game_ids, self._obs, self._mask, self._legal_bits, self._player,
            self._fresh_games, *self._bot_work(), *self._work(),
        )  # fmt: skip
        self._rewards[:] = 0.0
        self._done[:] = False
        if self._policies:
            self._play_policies()
        self._write_order()
        return self._result()

    @announce_first_call
    def step(self, actions: Any) -> VecStep:
        """Play the learner's ``actions[b]`` in every slot, then the bots up to the
        learner's next turn. An illegal action anywhere raises :class:`IllegalAction`
        (one line, naming the slot and the rule) and changes nothing."""
        acts = self._checked(actions)
        self._fresh()
        self._rewards[:] = 0.0
        self._done[:] = False
        self._step_rows(self._all_rows, acts, learner=True)
        if self._policies:
            self._play_policies()
        self._write_order()
        return self._result()


try:
    import gymnasium
    from gymnasium import spaces
    from gymnasium.vector.utils import batch_space
except ImportError as e:  # pragma: no cover
    raise missing(__name__, e) from None


class Ono99VectorEnv(gymnasium.vector.VectorEnv):
    """:class:`OpponentVecEnv` as a Gymnasium vector environment: ``num_envs`` learners,
    each against bots. ``single_observation_space`` is ``GymEnv``'s (``observation`` and
    ``action_mask``), ``single_action_space`` is ``Discrete(18)``.

    ``step`` returns per-row NumPy arrays: the observation dict, the learner's reward,
    ``terminations``, ``truncations`` (always False) and ``infos`` (``{}``). A game that
    ends gives its reward and ``terminated=True`` in that step, and the row's observation
    is already the next game's (Gymnasium's same-step autoreset: ``metadata
    ["autoreset_mode"]`` is ``SAME_STEP``; the old game's last observation is not kept:
    in ONO 99 the reward comes only at the end). An illegal action raises
    :class:`~ono99.errors.IllegalAction` and changes nothing.

    ``action_masks()`` gives the legal actions as booleans, ``(num_envs, 18)``.
    """

    metadata: dict[str, Any] = {  # noqa: RUF012
        "autoreset_mode": gymnasium.vector.AutoresetMode.SAME_STEP
    }

    def __init__(
        self,
        rules: str | Rules = "mattel2022",
        players: int = 2,
        num_envs: int = 64,
        **settings: Any,
    ) -> None:
        """``num_envs`` is :class:`OpponentVecEnv`'s ``batch``; ``settings`` are its keyword
        arguments, passed on (``opponents``, ``seat``, ``seed``, ``history``, rule options)."""
        from ono99.envs.encoding import observation_space

        if settings.get("play_order"):
            raise ValueError("Ono99VectorEnv has no play_order (its observation space lacks it)")
        self.sim = OpponentVecEnv(rules, players, num_envs, **settings)
        self.num_envs = num_envs
        self.single_observation_space = observation_space(self.sim.rules, players, self.sim.history)
        self.single_action_space = spaces.Discrete(k.N_ACTIONS)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._last: VecStep | None = None

    def _obs(self, step: VecStep) -> dict[str, Any]:
        return {"observation": step.obs, "action_mask": step.mask}

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """New games in every row (``seed``: as :meth:`OpponentVecEnv.reset`)."""
        self._last = self.sim.reset(seed)
        return self._obs(self._last), {}

    def step(self, actions: Any) -> tuple[dict[str, Any], F32, B8, B8, dict[str, Any]]:
        if self._last is None:
            raise IllegalAction("call reset() before step()")
        self._last = step = self.sim.step(actions)
        reward = np.ascontiguousarray(step.rewards[:, self.sim.seat])
        return self._obs(step), reward, step.done, np.zeros(self.num_envs, np.bool_), {}

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The learners' legal actions now, ``(num_envs, 18)`` booleans."""
        if self._last is None:
            return np.zeros((self.num_envs, k.N_ACTIONS), np.bool_)
        return self._last.mask.astype(np.bool_)
