"""The argument checks the environments share (``GymEnv``, ``aec_env``,
``OpponentVecEnv``): each raises a one-line :class:`ValueError` naming the argument and
the value given, so every environment words a bad argument alike."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ono99.game import Game
from ono99.rules import Rules, make_rules

__all__ = ["check_history", "check_render_mode", "check_seat", "env_rules"]


def env_rules(rules: str, players: int, options: Mapping[str, Any]) -> Rules:
    """The preset ``rules`` with ``options`` (R-SET-6), for ``players`` seats (R-SET-5)."""
    r = make_rules(rules, options or None)
    Game(r, players, seed=0, events=False)  # checks players (R-SET-5)
    return r


def check_seat(seat: object, players: int) -> None:
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
        raise ValueError(f"seat must be from 0 to {players - 1}, not {seat!r}")


def check_history(history: object) -> None:
    if not isinstance(history, bool):
        raise ValueError(f"history must be True or False, not {history!r}")


def check_render_mode(render_mode: str | None, modes: Sequence[str]) -> None:
    if render_mode is not None and render_mode not in modes:
        raise ValueError(f"render_mode must be 'ansi', 'human' or None, not {render_mode!r}")
