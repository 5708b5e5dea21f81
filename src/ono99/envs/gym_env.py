"""A Gymnasium environment: one learner against bots (docs/envs.md).

>>> env = GymEnv("mattel2022", players=3, opponents="random,greedy")
>>> obs, info = env.reset(seed=7)
>>> done = False
>>> while not done:
...     action = int(info["action_mask"].nonzero()[0][-1])   # the last legal action
...     obs, reward, done, truncated, info = env.step(action)
>>> reward in (1.0, -0.5)
True
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from typing import Any

from ono99.bots import Bot, make_bot
from ono99.cards import NUM_ACTIONS, action_code
from ono99.envs._checks import check_history, check_render_mode, check_seat, env_rules
from ono99.envs._deps import missing
from ono99.envs._opponents import opponent_names
from ono99.envs.encoding import (
    PlayLog,
    action_mask,
    encode,
    observation_space,
    outcome,
    to_action,
)
from ono99.errors import IllegalAction
from ono99.game import Game

try:
    import gymnasium
    import numpy as np
    from gymnasium import spaces
    from gymnasium.envs.registration import WrapperSpec
except ImportError as e:
    raise missing(__name__, e) from None

__all__ = ["ActionMasks", "GymEnv"]

Obs = dict[str, Any]


def _opponent_names(opponents: str | Sequence[str], count: int) -> list[str]:
    names = opponent_names(opponents, count)
    if len(names) != count or not all(names):
        raise ValueError(
            f"opponents must be one bot name or {count} comma-separated names, not {opponents!r}"
        )
    for name in names:
        make_bot(name, 0)  # an unknown name fails here, in one line
    return names


class GymEnv(gymnasium.Env[Obs, np.int64]):
    """ONO 99 for one learner (seat ``seat``, 0 by default) against bots.

    ``opponents``: one bot name for every other seat, or a comma list (or sequence)
    naming one bot per other seat, in seat order (``random``, ``greedy``,
    ``heuristic``, ``ismcts``, the levels …; see :func:`ono99.bots.make_bot`). The
    bots receive their own views, never the game.

    Observations are ``{"observation": float32 vector, "action_mask": int8
    vector}`` built from the learner's view; ``info["action_mask"]`` is the same
    mask. Pending draws are taken at once (R-DRAW-1). The reward is 0 until the
    game ends, then the learner's share: +1 split among the winners, -1 split
    among the losers. If the learner is out before the end, the bots play the
    game out within that step.

    ``history=True`` appends who played what this round (every seat's face-up plays,
    the bots' included: :class:`~ono99.envs.encoding.PlayLog`) to the observation.

    An illegal action changes nothing in the game. With ``illegal="lose"`` (the
    default) it ends the episode at once with reward -1 and the engine's one-line
    reason in ``info["illegal_action"]``; with ``illegal="raise"`` it raises
    :class:`~ono99.errors.IllegalAction`. Stepping after the end always raises.
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi", "human"]}  # noqa: RUF012

    def __init__(
        self,
        rules: str = "mattel2022",
        players: int = 2,
        opponents: str | Sequence[str] = "heuristic",
        *,
        seat: int = 0,
        illegal: str = "lose",
        history: bool = False,
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        self.rules = env_rules(rules, players, options)
        check_seat(seat, players)
        check_render_mode(render_mode, self.metadata["render_modes"])
        if illegal not in ("lose", "raise"):
            raise ValueError(f"illegal must be 'lose' or 'raise', not {illegal!r}")
        check_history(history)
        self.illegal = illegal
        self.history = history
        self._log = PlayLog(players)
        self.render_mode = render_mode
        self.n = players
        self.seat = seat
        self.opponents = _opponent_names(opponents, players - 1)
        self.observation_space = observation_space(self.rules, players, history)
        self.action_space = spaces.Discrete(NUM_ACTIONS)
        self._seeded = False
        self._done = True  # until reset()
        self.game = Game(self.rules, players, seed=0)
        self.bots: dict[int, Bot] = {}

    def _draw_seed(self) -> int:
        if self._seeded:
            return int(self.np_random.integers(2**63))
        return secrets.randbits(63)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Obs, dict[str, Any]]:
        """A new game, played by the bots up to the learner's first turn.

        ``seed`` makes this game and the ones after it (``reset()`` without a seed)
        reproducible, bots included; an environment never seeded deals from a fresh
        ``secrets`` seed. ``options`` is accepted and ignored."""
        super().reset(seed=seed)
        if seed is not None:
            self._seeded = True
        while True:
            game_seed = self._draw_seed() if self._seeded else None
            self.game = Game(self.rules, self.n, seed=game_seed)
            others = [s for s in range(self.n) if s != self.seat]
            self.bots = {
                s: make_bot(name, self._draw_seed())
                for s, name in zip(others, self.opponents, strict=True)
            }
            self.game.take_draws()
            self._log.start(self.game.round)
            self._play_bots()
            if not self.game.is_over:  # a game over before the learner's first turn is redealt
                break
        self._done = False
        return self._observe()

    def _play_bots(self) -> None:
        """Bots move until the learner must act or the game is over."""
        game = self.game
        game.take_draws()
        while not game.is_over and game.to_move != self.seat:
            seat = game.to_move
            assert seat is not None
            view = game.view(seat)
            action = self.bots[seat].act(view)
            if action not in view.legal:
                raise IllegalAction(f"the bot in seat {seat} chose an illegal action {action!r}")
            game.apply(action)
            game.take_draws()
            self._log.record(seat, action, game.round)

    def action_masks(self) -> np.ndarray[Any, np.dtype[np.bool_]]:
        """The learner's legal actions now, as booleans (what sb3-contrib's MaskablePPO
        asks an environment for); all False once the episode is over."""
        if self._done:
            return np.zeros(NUM_ACTIONS, dtype=bool)
        return action_mask(self.game.view(self.seat)).astype(bool)

    def _observe(self) -> tuple[Obs, dict[str, Any]]:
        view = self.game.view(self.seat)
        mask = action_mask(view)
        obs = encode(view)
        if self.history:
            obs = np.concatenate((obs, self._log.vector(self.seat)))
        return {"observation": obs, "action_mask": mask}, {"action_mask": mask.copy()}

    def step(self, action: Any) -> tuple[Obs, float, bool, bool, dict[str, Any]]:
        """Make the learner's ``action`` (an action id), then let the bots play up to
        the learner's next turn or the end of the game."""
        if self._done:
            raise IllegalAction("the episode is over: call reset()")
        try:
            act = to_action(action)
            self.game.verify(act, self.seat)  # the reason from this seat's view; no change
            if act not in self.game.legal_actions(self.seat):  # pragma: no cover
                raise IllegalAction(f"seat {self.seat} may not act now")
        except IllegalAction as e:
            if self.illegal == "raise":
                raise
            # illegal="lose": the learner forfeits; the game is left as it was
            obs, info = self._observe()
            info["illegal_action"] = str(e)
            self._done = True
            return obs, -1.0, True, False, info
        self.game.apply(act)
        self.game.take_draws()
        self._log.record(self.seat, act, self.game.round)
        self._play_bots()
        obs, info = self._observe()
        over = self._done = self.game.is_over
        reward = outcome(self.game)[self.seat] if over else 0.0
        if self.render_mode == "human":
            self.render()
        return obs, reward, over, False, info

    def render(self) -> str | None:
        """The public state and the learner's hand in one line (printed for
        ``render_mode="human"``)."""
        if self.render_mode is None:
            return None
        v = self.game.view(self.seat)
        text = " ".join(
            [
                f"total {v.total}",
                f"hand {' '.join(action_code(c) for c in v.hand)}",
                f"to_move {v.to_move}",
                f"hands {list(v.hand_sizes)}",
                f"winner {v.winner}",
            ]
        )
        if self.render_mode == "human":
            print(text)
            return None
        return text


#: ``gymnasium.make`` ids, one per preset (``gymnasium.make("ono99/Mattel2022-v0",
#: players=4, opponents="greedy")``; the module is imported by ``"ono99.envs.gym_env:ID"``
#: or by importing :mod:`ono99.envs.gym_env` first)
GYM_IDS = {
    "ono99/Mattel2022-v0": "mattel2022",
    "ono99/Classic1980-v0": "classic1980",
    "ono99/GameRules-v0": "gamerules",
}


class ActionMasks(gymnasium.Wrapper[Any, Any, Any, Any]):
    """``action_masks()`` on the outside of what ``gymnasium.make`` returns: Gymnasium's
    own wrappers (order enforcing, the checker) no longer pass unknown attributes
    through, and MaskablePPO users call ``env.action_masks()`` (issue 38). Under more
    wrappers of your own: ``env.get_wrapper_attr("action_masks")()``."""

    def action_masks(self) -> np.ndarray[Any, np.dtype[np.bool_]]:
        """The learner's legal actions now (:meth:`GymEnv.action_masks`)."""
        masks: np.ndarray[Any, np.dtype[np.bool_]] = self.env.get_wrapper_attr("action_masks")()
        return masks


_WRAPPERS = (WrapperSpec("ActionMasks", f"{__name__}:ActionMasks", {}),)
for _id, _rules in GYM_IDS.items():
    if _id not in gymnasium.registry:
        gymnasium.register(
            _id, entry_point=GymEnv, kwargs={"rules": _rules}, additional_wrappers=_WRAPPERS
        )
