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

from typing import Any, ClassVar

from ono99.cards import NUM_ACTIONS
from ono99.envs._deps import missing
from ono99.envs.encoding import action_mask, advance, bounds, encode, outcome, to_action
from ono99.errors import IllegalAction
from ono99.game import Game
from ono99.rules import make_rules

try:
    import numpy as np
    from gymnasium import spaces
    from gymnasium.utils import seeding
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
except ImportError as e:
    raise missing(__name__, e) from None

__all__ = ["Ono99AEC", "aec_env"]

Obs = dict[str, Any]


def aec_env(
    rules: str = "mattel2022", players: int = 2, *, render_mode: str | None = None, **options: Any
) -> AECEnv[str, Obs, int]:
    """The AEC environment for ``rules`` (a preset) with ``players`` seats and the
    preset's ``options`` (R-SET-6), wrapped in PettingZoo's order-enforcing wrapper
    (``env.unwrapped`` is the :class:`Ono99AEC`). Bad rules, players or options raise
    :class:`~ono99.errors.RulesError` (one line)."""
    env = Ono99AEC(rules, players, render_mode=render_mode, **options)
    return wrappers.OrderEnforcingWrapper(env)


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
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        super().__init__()
        self.rules = make_rules(rules, options or None)
        Game(self.rules, players, seed=0, events=False)  # checks players (R-SET-5)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be 'ansi', 'human' or None, not {render_mode!r}")
        self.render_mode = render_mode
        self.n = players
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self.agents = self.possible_agents[:]
        low, high = bounds(self.rules, players)
        self._obs_space = spaces.Dict(
            {
                "observation": spaces.Box(low, high, dtype=np.float32),
                "action_mask": spaces.Box(0, 1, (NUM_ACTIONS,), dtype=np.int8),
            }
        )
        self._act_space = spaces.Discrete(NUM_ACTIONS)
        self.observation_spaces = dict.fromkeys(self.possible_agents, self._obs_space)
        self.action_spaces = dict.fromkeys(self.possible_agents, self._act_space)
        self._np_random: np.random.Generator | None = None
        self.game: Game = Game(self.rules, players, seed=0)
        self._start()

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._obs_space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._act_space

    def _seat(self, agent: str) -> int:
        try:
            return self.possible_agents.index(agent)
        except ValueError:
            names = ", ".join(self.possible_agents)
            raise ValueError(f"no agent {agent!r} (agents: {names})") from None

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game. ``seed`` makes this game and the ones after it (``reset()``
        without a seed) reproducible; an environment never seeded deals every game
        from a fresh ``secrets`` seed. ``options`` is accepted and ignored."""
        if seed is not None:
            self._np_random, _ = seeding.np_random(seed)
        game_seed = None if self._np_random is None else int(self._np_random.integers(2**63))
        self.game = Game(self.rules, self.n, seed=game_seed)
        self._start()

    def _start(self) -> None:
        advance(self.game)
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
        """``agent``'s observation, from its :class:`~ono99.view.PlayerView` only."""
        view = self.game.view(self._seat(agent))
        return {"observation": encode(view), "action_mask": action_mask(view)}

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        seat = self._seat(agent)
        act = to_action(action)
        if act not in self.game.legal_actions(seat):
            self.game.verify(act, seat)  # the engine's reason, from what this seat sees
            raise IllegalAction(f"{agent} may not act now")  # pragma: no cover
        self._cumulative_rewards[agent] = 0.0
        self.game.apply(act)
        advance(self.game)
        self._clear_rewards()
        if self.game.is_over:
            for a, r in zip(self.possible_agents, outcome(self.game), strict=True):
                self.rewards[a] = r
                self.terminations[a] = True
        else:
            self._select()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """The public state in one line (a spectator's view: no hand); printed for
        ``render_mode="human"``."""
        if self.render_mode is None:
            return None
        v = self.game.public_view()
        text = (
            f"total {v.total} direction {v.direction:+d} to_move {v.to_move} "
            f"owes_two {v.owes_two} hands {list(v.hand_sizes)} out {list(v.out)} "
            f"winner {v.winner}"
        )
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass
