"""Reinforcement-learning environments (CONTRACTS.md "Python"; docs/envs.md).

- :func:`aec_env` — a PettingZoo AEC environment, one agent per seat.
- :class:`GymEnv` — a Gymnasium environment: one learner against bots.
- :func:`parallel_env` — the PettingZoo parallel API over the AEC environment.
- :func:`sb3_vec_env` — a Stable-Baselines3 ``VecEnv`` over the batched simulator, with
  action masks (the ``sb3`` extra).
- ``import ono99.envs.openspiel`` registers the OpenSpiel game ``python_ono99``.

They are front ends: they import the engine and the bots, and every observation is
built from one seat's :class:`~ono99.view.PlayerView`. Importing this package needs
nothing beyond ono99 itself; each environment needs the ``rl`` extra and raises
:class:`MissingExtra` (``pip install 'ono99[rl]'``) when it is not installed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ono99.envs._deps import MissingExtra

if TYPE_CHECKING:
    from ono99.envs.aec import Ono99AEC, aec_env
    from ono99.envs.gym_env import GymEnv
    from ono99.envs.parallel import parallel_env
    from ono99.envs.sb3 import SB3VecEnv, sb3_vec_env

__all__ = [
    "GymEnv",
    "MissingExtra",
    "Ono99AEC",
    "SB3VecEnv",
    "aec_env",
    "parallel_env",
    "sb3_vec_env",
]

_LAZY = {
    "aec_env": "ono99.envs.aec",
    "Ono99AEC": "ono99.envs.aec",
    "GymEnv": "ono99.envs.gym_env",
    "parallel_env": "ono99.envs.parallel",
    "SB3VecEnv": "ono99.envs.sb3",
    "sb3_vec_env": "ono99.envs.sb3",
}


def __getattr__(name: str) -> Any:
    """Import an environment only when it is asked for (its extra may be missing)."""
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'ono99.envs' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(module), name)
