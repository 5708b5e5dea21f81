"""The ``opponents=`` argument of the environments against bots (``GymEnv``,
``OpponentVecEnv``): one bot name for every other seat, or one per other seat."""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["opponent_names"]


def opponent_names(opponents: str | Sequence[str], count: int) -> list[str]:
    """``opponents`` (a name, a comma list or a sequence of names) as a list of names,
    stripped, a single name repeated for all ``count`` seats. Whether the names are bots,
    and ``count`` of them, is the caller's check (each environment has its own bots)."""
    if isinstance(opponents, str):
        names = [s.strip() for s in opponents.split(",")]
    elif isinstance(opponents, Sequence) and all(isinstance(s, str) for s in opponents):
        names = [s.strip() for s in opponents]
    else:
        raise ValueError(f"opponents must be bot names, not {opponents!r}")
    return names * count if len(names) == 1 else names
