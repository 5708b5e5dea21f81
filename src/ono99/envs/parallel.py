"""The PettingZoo parallel API over the AEC environment (docs/envs.md).

ONO 99 is turn-based: one seat acts at a time, so the AEC environment (:func:`aec_env`)
is its natural API. For code written against ``ParallelEnv``, :func:`parallel_env` is
PettingZoo's own turn-based adapter over it: each ``step`` takes a dict of actions, uses
only the action of the seat to move (``infos[agent]["active_agent"]`` names it; the
others' masks are all zero) and ignores the rest.

A parallel loop that samples every agent's action space ignoring masks (PettingZoo's
``parallel_seed_test`` does) needs ``illegal="lose"``: an illegal action then ends the
game, -1 for the seat that made it (PettingZoo's ``TerminateIllegalWrapper``). The
default, ``"raise"``, keeps the AEC environment's one-line ``IllegalAction``.

>>> env = parallel_env("mattel2022", players=3)
>>> obs, infos = env.reset(seed=7)
>>> while env.agents:
...     mover = env.unwrapped.agent_selection
...     legal = obs[mover]["action_mask"].nonzero()[0]
...     obs, rewards, terms, truncs, infos = env.step({mover: int(legal[0])})
>>> env.unwrapped.game.is_over
True
"""

from __future__ import annotations

from typing import Any

from ono99.envs._deps import missing
from ono99.envs.aec import aec_env

try:
    from pettingzoo import ParallelEnv
    from pettingzoo.utils.conversions import turn_based_aec_to_parallel
    from pettingzoo.utils.wrappers import TerminateIllegalWrapper
except ImportError as e:  # pragma: no cover - the rl extra is installed in tests
    raise missing(__name__, e) from None

__all__ = ["parallel_env"]


def parallel_env(
    rules: str = "mattel2022",
    players: int = 2,
    *,
    illegal: str = "raise",
    **kwargs: Any,
) -> ParallelEnv[str, Any, Any]:
    """A ``ParallelEnv`` for ``rules`` with ``players`` seats; ``kwargs`` as
    :func:`aec_env` takes them (``engine``, ``history``, the preset's options).
    ``illegal``: ``"raise"`` (an illegal action raises) or ``"lose"`` (it ends the game,
    -1 for its seat)."""
    if illegal not in ("raise", "lose"):
        raise ValueError(f"illegal must be 'raise' or 'lose', not {illegal!r}")
    env: Any = aec_env(rules, players, **kwargs)
    if illegal == "lose":
        env = TerminateIllegalWrapper(env, illegal_reward=-1)
    return turn_based_aec_to_parallel(env)
