"""Stable-Baselines3 over the batched simulator: :func:`sb3_vec_env` (CONTRACTS.md
"Python"; docs/envs.md).

SB3 trains on its own ``VecEnv`` class, not on a ``gymnasium.vector.VectorEnv``, so
:class:`SB3VecEnv` is :class:`~ono99.envs.fast_vec.OpponentVecEnv` behind SB3's interface:
``n_envs`` learners, each against ``opponents`` (compiled bots, ``policy:PATH`` or a
callable, as ``OpponentVecEnv`` takes them), every step one decision of every learner.
``action_masks()`` gives the legal actions, the method sb3-contrib's ``MaskablePPO`` asks
for::

    from sb3_contrib import MaskablePPO
    from ono99.envs import sb3_vec_env

    env = sb3_vec_env(rules="mattel2022", players=2, opponents="heuristic", n_envs=64)
    MaskablePPO("MlpPolicy", env).learn(100_000)

The observation is the vector of :func:`ono99.envs.encoding.encode` (``Box``, float32;
the mask is not in it: it comes from ``action_masks()``), the action space
``Discrete(18)``. A game that ends gives the learner's reward (the winners share +1, the
losers -1) with ``done`` in that step, and the row's observation is already the next
game's (SB3's convention). A game never stops early, so no ``terminal_observation`` is
needed for bootstrapping; ``infos`` are empty dicts. An illegal action raises
:class:`~ono99.errors.IllegalAction` and changes nothing.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from ono99.envs._deps import missing

try:
    import numpy as np
    import numpy.typing as npt
    from gymnasium import spaces
except ImportError as e:  # pragma: no cover - the rl extra is installed in tests
    raise missing(__name__, e) from None
try:
    from stable_baselines3.common.vec_env import VecEnv
except ImportError as e:
    raise missing(__name__, e, extra="sb3") from None

from ono99.envs.encoding import observation_space
from ono99.envs.fast_vec import Opponent, OpponentVecEnv
from ono99.envs.policy import MLPPolicy
from ono99.errors import IllegalAction
from ono99.fast import core as k
from ono99.fast.vec import VecStep
from ono99.rules import Rules

__all__ = ["RELU_POLICY", "SB3VecEnv", "policy_from_sb3", "sb3_vec_env"]

#: ``policy_kwargs`` for a MaskablePPO whose policy :func:`policy_from_sb3` can export: ReLU
#: between the layers, as :class:`~ono99.envs.policy.MLPPolicy` evaluates them (SB3's
#: default is tanh)
RELU_POLICY: dict[str, Any] = {"net_arch": {"pi": [64, 64], "vf": [64, 64]}}

Indices = None | int | Iterable[int]


def sb3_vec_env(
    rules: str | Rules = "mattel2022",
    players: int = 2,
    opponents: Opponent | Sequence[Opponent] = "heuristic",
    n_envs: int = 64,
    *,
    seat: int = 0,
    seed: int | None = None,
    history: bool = False,
    **options: Any,
) -> SB3VecEnv:
    """An SB3 ``VecEnv`` of ``n_envs`` games of ``rules`` for ``players`` seats, the
    learner in ``seat`` and ``opponents`` in the others (see :class:`SB3VecEnv`);
    ``options`` are the preset's (R-SET-6)."""
    sim = OpponentVecEnv(
        rules, players, n_envs, opponents=opponents, seat=seat, seed=seed, history=history,
        **options,
    )  # fmt: skip
    return SB3VecEnv(sim)


class SB3VecEnv(VecEnv):
    """An :class:`OpponentVecEnv` as a Stable-Baselines3 ``VecEnv``, one row a game (the
    module's text)."""

    #: the methods whose answer is one row per game (``env_method`` splits them)
    ROW_METHODS = frozenset({"action_masks"})

    def __init__(self, sim: OpponentVecEnv) -> None:
        self.sim = sim
        self.render_mode = None  # read by VecEnv.__init__ through get_attr
        space = observation_space(sim.rules, sim.players, sim.history)["observation"]
        super().__init__(sim.batch, space, spaces.Discrete(k.N_ACTIONS))
        self._actions: npt.NDArray[np.int64] | None = None
        self._last: VecStep | None = None

    def reset(self) -> npt.NDArray[np.float32]:
        """New games in every row: from the seed :meth:`seed` set (SB3's ``seed=``),
        else the constructor's, else a fresh ``secrets`` seed."""
        seed = self._seeds[0]
        self._reset_seeds()
        self._last = self.sim.reset(seed)
        return self._last.obs

    def step_async(self, actions: npt.NDArray[Any]) -> None:
        self._actions = np.asarray(actions)

    def step_wait(
        self,
    ) -> tuple[
        npt.NDArray[np.float32],
        npt.NDArray[np.float32],
        npt.NDArray[np.bool_],
        list[dict[str, Any]],
    ]:
        if self._actions is None or self._last is None:
            raise IllegalAction("call reset() before step()")
        actions, self._actions = self._actions, None
        self._last = step = self.sim.step(actions)
        reward = np.ascontiguousarray(step.rewards[:, self.sim.seat])
        return step.obs, reward, step.done, [{} for _ in range(self.num_envs)]

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The learners' legal actions now, ``(n_envs, 18)`` booleans."""
        if self._last is None:
            return np.zeros((self.num_envs, k.N_ACTIONS), np.bool_)
        return self._last.mask.astype(np.bool_)

    def close(self) -> None:
        """Nothing to release: the games live in this process's arrays."""

    def get_attr(self, attr_name: str, indices: Indices = None) -> list[Any]:
        """The attribute of this environment, once per row (the rows share it)."""
        value = getattr(self, attr_name)
        return [value for _ in self._get_indices(indices)]

    def set_attr(self, attr_name: str, value: Any, indices: Indices = None) -> None:
        setattr(self, attr_name, value)

    def env_method(
        self, method_name: str, *method_args: Any, indices: Indices = None, **method_kwargs: Any
    ) -> list[Any]:
        """A per-row method's answer for each row (``action_masks``: each row's mask)."""
        if method_name not in self.ROW_METHODS:
            raise AttributeError(
                f"{type(self).__name__} has no per-game method {method_name!r}"
                f" (it has {', '.join(sorted(self.ROW_METHODS))})"
            )
        rows = getattr(self, method_name)(*method_args, **method_kwargs)
        return [rows[i] for i in self._get_indices(indices)]

    def env_is_wrapped(self, wrapper_class: type, indices: Indices = None) -> list[bool]:
        return [False for _ in self._get_indices(indices)]


def policy_from_sb3(model: Any, meta: dict[str, Any]) -> MLPPolicy:
    """The policy network of a trained SB3 ``MaskablePPO`` (``MlpPolicy`` with
    ``activation_fn=torch.nn.ReLU``, e.g. ``policy_kwargs={**RELU_POLICY, "activation_fn":
    torch.nn.ReLU}``) as an :class:`MLPPolicy`: saved with ``.save(PATH)``, it plays as the
    bot ``policy:PATH`` and as an ``OpponentVecEnv`` opponent, with NumPy only. ``meta``
    is written into the file (at least ``rules`` and ``players``). Its action is the
    legal action of highest logit, SB3's ``predict(..., deterministic=True)``."""
    import torch

    policy = model.policy
    if not isinstance(policy.activation_fn(), torch.nn.ReLU):
        raise ValueError("the policy must use ReLU (policy_kwargs activation_fn=torch.nn.ReLU)")
    linears = [m for m in policy.mlp_extractor.policy_net if isinstance(m, torch.nn.Linear)]
    linears.append(policy.action_net)
    layers = [
        (lin.weight.detach().cpu().numpy().T.copy(), lin.bias.detach().cpu().numpy().copy())
        for lin in linears
    ]
    size = layers[0][0].shape[0]
    return MLPPolicy(layers, np.ones(size, np.float32), {**meta, "obs_size": size})
