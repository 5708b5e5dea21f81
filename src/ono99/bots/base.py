"""The bot interface and the registry that resolves bot names."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import TYPE_CHECKING

from ono99.errors import Ono99Error
from ono99.i18n import N_
from ono99.view import PlayerView

if TYPE_CHECKING:
    from ono99.rules import Rules

__all__ = ["BOTS", "PARAM_BOTS", "Bot", "make_bot", "register", "register_param"]


class Bot(ABC):
    """A player. :meth:`act` gets the player's view (never the game) and returns one
    of ``view.legal``. Bots draw at once under the draw penalty (R-DRAW-1)."""

    name: str = "bot"

    @abstractmethod
    def act(self, view: PlayerView) -> int:
        """Choose an action from ``view.legal``."""

    def reset(self) -> None:  # noqa: B027 (optional hook)
        """Forget anything remembered from an earlier game."""

    def check_game(self, rules: Rules, players: int) -> None:  # noqa: B027 (optional hook)
        """Raise :class:`ValueError` (one line) if this bot cannot play such a game: called
        when a tournament is set up, before any game is played."""


#: name -> factory(seed) for every registered bot
BOTS: dict[str, Callable[[int], Bot]] = {}


def register(name: str) -> Callable[[Callable[[int], Bot]], Callable[[int], Bot]]:
    """Class decorator / factory decorator: make ``name`` resolvable by :func:`make_bot`."""

    def deco(factory: Callable[[int], Bot]) -> Callable[[int], Bot]:
        BOTS[name] = factory
        return factory

    return deco


#: name -> factory(seed, arg) for bots that take a parameter, spelled ``name:arg``
#: (``ismcts:400`` = ISMCTS with 400 iterations per decision)
PARAM_BOTS: dict[str, Callable[[int, str], Bot]] = {}
#: names of PARAM_BOTS that an unknown name's error leaves out of its choices: those that a
#: front end registers when imported (``policy:PATH``, ``ono99.envs.policy``), so that the
#: message does not depend on what this process happened to import
UNLISTED: set[str] = set()


def register_param(
    name: str, *, listed: bool = True
) -> Callable[[Callable[[int, str], Bot]], Callable[[int, str], Bot]]:
    """Make ``name:ARG`` resolvable by :func:`make_bot` (the factory gets seed, ARG);
    ``listed=False`` leaves it out of the choices an unknown name's error lists."""

    def deco(factory: Callable[[int, str], Bot]) -> Callable[[int, str], Bot]:
        PARAM_BOTS[name] = factory
        if not listed:
            UNLISTED.add(name)
        return factory

    return deco


def make_bot(name: str, seed: int = 0) -> Bot:
    """A new bot by name (``random``, ``greedy``, ``heuristic``, ``ismcts``, a level
    ``easy``/``medium``/``hard``/``expert``, or ``ismcts:N``), seeded for reproducible play.

    Raises :class:`ValueError` naming the choices for an unknown name."""
    factory = BOTS.get(name)
    if factory is not None:
        return factory(seed)
    base, sep, arg = name.partition(":")
    pfactory = PARAM_BOTS.get(base)
    if sep and pfactory is not None:
        return pfactory(seed, arg)
    listed = sorted(set(PARAM_BOTS) - UNLISTED)
    choices = ", ".join([*sorted(BOTS), *(f"{k}:N" for k in listed)])
    raise Ono99Error(N_("unknown bot {name} (choose {choices})"), name=repr(name), choices=choices)
