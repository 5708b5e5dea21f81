"""The bot interface and the registry that resolves bot names."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable

from ono99.view import PlayerView

__all__ = ["BOTS", "Bot", "make_bot", "register"]


class Bot(ABC):
    """A player. :meth:`act` gets the player's view (never the game) and returns one
    of ``view.legal``. Bots draw at once under the draw penalty (R-DRAW-1)."""

    name: str = "bot"

    @abstractmethod
    def act(self, view: PlayerView) -> int:
        """Choose an action from ``view.legal``."""

    def reset(self) -> None:  # noqa: B027 (optional hook)
        """Forget anything remembered from an earlier game."""


#: name -> factory(seed) for every registered bot
BOTS: dict[str, Callable[[int], Bot]] = {}


def register(name: str) -> Callable[[Callable[[int], Bot]], Callable[[int], Bot]]:
    """Class decorator / factory decorator: make ``name`` resolvable by :func:`make_bot`."""

    def deco(factory: Callable[[int], Bot]) -> Callable[[int], Bot]:
        BOTS[name] = factory
        return factory

    return deco


def make_bot(name: str, seed: int = 0) -> Bot:
    """A new bot by name (``random``, ...), seeded for reproducible play."""
    try:
        factory = BOTS[name]
    except KeyError:
        raise ValueError(f"unknown bot {name!r} (choose {', '.join(sorted(BOTS))})") from None
    return factory(seed)
