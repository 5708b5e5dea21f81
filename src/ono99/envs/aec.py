"""A PettingZoo AEC environment: one agent per seat (docs/envs.md).

>>> env = aec_env("mattel2022", players=3)
>>> env.reset(seed=7)
>>> for agent in env.agent_iter():
...     obs, reward, terminated, truncated, info = env.last()
...     if terminated or truncated:
...         action = None
...     else:
...         action = int(obs["action_mask"].nonzero()[0][0])   # the first legal action
...     env.step(action)
>>> env.unwrapped.game.is_over
True
"""

from __future__ import annotations

import importlib.util
from collections.abc import Callable
from typing import Any, ClassVar

from ono99.cards import NUM_ACTIONS
from ono99.engine import EngineGame
from ono99.envs._checks import check_history, check_render_mode, env_rules
from ono99.envs._deps import missing
from ono99.envs.encoding import PlayLog, obs_size, observation_space, outcome, to_action
from ono99.game import Game
from ono99.rules import Rules

try:
    import numpy as np
    from gymnasium import spaces
    from gymnasium.utils import seeding
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
    from pettingzoo.utils.env_logger import EnvLogger
    from pettingzoo.utils.wrappers.order_enforcing import (
        AECOrderEnforcingIterable,
        AECOrderEnforcingIterator,
    )
except ImportError as e:
    raise missing(__name__, e) from None

__all__ = ["ENGINES", "Ono99AEC", "aec_env", "default_engine"]

Obs = dict[str, Any]


def _reference(rules: Rules, players: int, seed: int | None) -> EngineGame:
    return Game(rules, players, seed=seed, events=False)  # no announcement log: unread here


def _fast(rules: Rules, players: int, seed: int | None) -> EngineGame:
    from ono99.fast import FastGame  # MissingFast (one line) without numba

    return FastGame(rules, players, seed=seed)


#: ``engine=``: the reference engine (``Game``), or the compiled one (``FastGame``,
#: ``pip install 'ono99[fast]'``), each a new game from (rules, players, seed)
ENGINES: dict[str, Callable[[Rules, int, int | None], EngineGame]] = {
    "reference": _reference,
    "fast": _fast,
}


def default_engine(rules: Rules | None = None) -> str:
    """``engine="auto"``: the compiled engine where Numba is installed (the same games,
    several times faster: issue 38's floor) and it plays ``rules`` (not the research variant
    ``mini``), else the reference engine."""
    if rules is not None and not rules.standard_deal:
        return "reference"
    return "fast" if importlib.util.find_spec("numba") is not None else "reference"


def aec_env(
    rules: str = "mattel2022",
    players: int = 2,
    *,
    engine: str = "auto",
    history: bool = False,
    render_mode: str | None = None,
    **options: Any,
) -> AECEnv[str, Obs, int]:
    """The AEC environment for ``rules`` (a preset) with ``players`` seats and the
    preset's ``options`` (R-SET-6), wrapped in PettingZoo's order-enforcing checks
    (``env.unwrapped`` is the :class:`Ono99AEC`). ``engine="auto"`` (the default) plays
    on the compiled engine where Numba is installed (the same games, several times
    faster), else on the reference one; ``"fast"`` or ``"reference"`` chooses;
    ``history=True`` adds who played what
    this round to the observation (:class:`~ono99.envs.encoding.PlayLog`). Bad rules,
    players or options raise :class:`~ono99.errors.RulesError` (one line)."""
    env = Ono99AEC(
        rules, players, engine=engine, history=history, render_mode=render_mode, **options
    )
    return _OrderEnforcing(env)


class _OrderEnforcing(wrappers.OrderEnforcingWrapper[str, Obs, int]):  # type: ignore[misc]
    """PettingZoo's order-enforcing wrapper, the same checks, with the per-step calls
    (``agent_iter``'s next, ``last``, ``step``) going to the environment directly rather
    than through ``__getattr__`` at every attribute: they were most of a step's time."""

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        if not self._has_reset:
            raise AttributeError("agent_selection cannot be accessed before reset")
        return self.env.last(observe)  # type: ignore[no-any-return]

    def step(self, action: Any) -> None:
        if not self._has_reset:
            EnvLogger.error_step_before_reset()
        elif not self.env.agents:
            self._has_updated = True
            EnvLogger.warn_step_after_terminated_truncated()
        else:
            self._has_updated = True
            self.env.step(action)

    def agent_iter(self, max_iter: int = 2**63) -> AECOrderEnforcingIterable[str, Obs, int]:
        if not self._has_reset:
            EnvLogger.error_agent_iter_before_reset()
        return _Iterable(self, max_iter)


class _Iterable(AECOrderEnforcingIterable[str, Obs, int]):  # type: ignore[misc]
    def __iter__(self) -> _Iterator:
        return _Iterator(self.env, self.max_iter)


class _Iterator(AECOrderEnforcingIterator[str, Obs, int]):  # type: ignore[misc]
    def __next__(self) -> str:
        inner = self.env.env
        if not inner.agents or self.iters_til_term <= 0:
            raise StopIteration
        self.iters_til_term -= 1
        if not self.env._has_updated:
            raise AssertionError("need to call step() or reset() in a loop over `agent_iter`")
        self.env._has_updated = False
        return inner.agent_selection  # type: ignore[no-any-return]


class Ono99AEC(AECEnv[str, Obs, int]):  # type: ignore[misc]
    """ONO 99 as a PettingZoo AEC environment.

    Agents ``player_0`` … are the seats. ``agent_selection`` is always the seat to
    move; pending draws are taken at once (R-DRAW-1), so ``draw`` is never legal.
    Observations are ``{"observation": float32 vector, "action_mask": int8 vector}``
    built from that seat's view only. An illegal action raises
    :class:`~ono99.errors.IllegalAction` and changes nothing. Every agent is
    terminated together when the game ends; the winners share +1 and the losers -1.
    """

    metadata: ClassVar[dict[str, Any]] = {
        "name": "ono99_v0",
        "render_modes": ["ansi", "human"],
        "is_parallelizable": False,
    }

    def __init__(
        self,
        rules: str = "mattel2022",
        players: int = 2,
        *,
        engine: str = "auto",
        history: bool = False,
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        super().__init__()
        self.rules = env_rules(rules, players, options)
        if engine == "auto":
            engine = default_engine(self.rules)
        if engine not in ENGINES:
            raise ValueError(f"engine must be 'auto', 'reference' or 'fast', not {engine!r}")
        check_history(history)
        self.engine = engine
        self.history = history
        self._log = PlayLog(players)
        self._new_game = ENGINES[engine]
        check_render_mode(render_mode, self.metadata["render_modes"])
        self.render_mode = render_mode
        self.n = players
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self._seats = {a: i for i, a in enumerate(self.possible_agents)}
        self._size = obs_size(players)  # without the history, which is appended
        self.agents = self.possible_agents[:]
        self._obs_space = observation_space(self.rules, players, history)
        self._act_space = spaces.Discrete(NUM_ACTIONS)
        self.observation_spaces = dict.fromkeys(self.possible_agents, self._obs_space)
        self.action_spaces = dict.fromkeys(self.possible_agents, self._act_space)
        self._np_random: np.random.Generator | None = None
        #: the game being played: a ``Game``, or a ``FastGame`` on the fast engine
        self.game = self._new_game(self.rules, players, 0)
        self._start()

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._obs_space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._act_space

    def _seat(self, agent: str) -> int:
        try:
            return self._seats[agent]
        except (KeyError, TypeError):
            names = ", ".join(self.possible_agents)
            raise ValueError(f"no agent {agent!r} (agents: {names})") from None

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game. ``seed`` makes this game and the ones after it (``reset()``
        without a seed) reproducible; an environment never seeded deals every game
        from a fresh ``secrets`` seed. ``options`` is accepted and ignored."""
        if seed is not None:
            self._np_random, _ = seeding.np_random(seed)
        game_seed = None if self._np_random is None else int(self._np_random.integers(2**63))
        self.game = self._new_game(self.rules, self.n, game_seed)
        self._start()

    def _start(self) -> None:
        self.game.take_draws()
        self._log.start(self.game.round)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._skip_agent_selection = None
        self._select()

    def _select(self) -> None:
        to_move = self.game.to_move
        if to_move is not None:
            self.agent_selection = self.possible_agents[to_move]

    def observe(self, agent: str) -> Obs:
        """``agent``'s observation, from its :class:`~ono99.view.PlayerView` only (the
        fast engine writes the same values from that seat's hand and the public state)."""
        seat = self._seat(agent)
        obs = np.empty(self._size, np.float32)
        mask = np.empty(NUM_ACTIONS, np.int8)
        self.game.observe(seat, obs, mask)
        if self.history:
            obs = np.concatenate((obs, self._log.vector(seat)))
        return {"observation": obs, "action_mask": mask}

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        seat = self._seats[agent]
        act = action if type(action) is int and 0 <= action < NUM_ACTIONS else to_action(action)
        game = self.game
        to_move = game.env_step(act, seat)  # an illegal action raises, nothing changes
        if self.history:
            self._log.record(seat, act, game.round)
        self._cumulative_rewards[agent] = 0.0
        if to_move < 0:  # over: every agent terminated with its reward
            self._clear_rewards()
            for a, r in zip(self.possible_agents, outcome(game), strict=True):
                self.rewards[a] = r
                self.terminations[a] = True
            self._accumulate_rewards()
        else:  # the rewards are all 0 until the end: nothing to clear or add
            self.agent_selection = self.possible_agents[to_move]
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """The public state in one line (a spectator's view: no hand); printed for
        ``render_mode="human"``."""
        if self.render_mode is None:
            return None
        g = self.game  # public facts only: hand sizes, never a hand
        sizes = [len(h) for h in g.hands]
        w = g.winner
        winner = tuple(w) if isinstance(w, list) else w
        text = (
            f"total {g.total} direction {g.direction:+d} to_move {g.to_move} "
            f"owes_two {g.owes_two} hands {sizes} out {list(g.out)} "
            f"winner {winner}"
        )
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass
