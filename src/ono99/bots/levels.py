"""Difficulty levels for people: names that :func:`~ono99.bots.make_bot` accepts.

======== ============================================= ==========================
level    bot                                           per decision
======== ============================================= ==========================
easy     greedy, with a random card 30 % of the time   instant
medium   heuristic                                     about 0.1–0.5 ms
hard     ismcts, 300 worlds (greedy rollouts); the     under 0.2 s (p99)
         heuristic (as medium) with points, where
         the tree search trails it
expert   plain ``ismcts``: heuristic rollouts to the   under 0.5 s (p99) with the
         end of the game (mattel2022) or of the        rollouts compiled
         round (classic1980) on worlds read from the   (ono99[fast]), about 1 s
         others' plays (120 worlds); the heuristic     with 4 players in Python
         (as medium) in elimination games of 5 or      (and while the compiled
         more players, where no search has been        rollouts load in a new
         measured                                      process)
======== ============================================= ==========================

See docs/strength.md for measured strength and decision times.
"""

from __future__ import annotations

from ono99.bots.base import Bot, register
from ono99.bots.greedy import GreedyBot
from ono99.bots.heuristic import HeuristicBot
from ono99.bots.ismcts import (
    DEFAULT_ITERATIONS,
    ROLLOUT_ITERATIONS,
    ISMCTSBot,
    PresetISMCTS,
)
from ono99.view import PlayerView

__all__ = [
    "LEVELS", "LEVEL_PLAYS", "HARD_ITERATIONS", "HardBot", "ExpertBot", "EXPERT_HEURISTIC_FROM",
    "HARD_HEURISTIC_MODES",
]  # fmt: skip

HARD_ITERATIONS = DEFAULT_ITERATIONS
#: scoring modes where ``hard`` plays the heuristic, as ``medium`` does: with points
#: (R-END-3) the tree search trails the heuristic (the strength table's fixed 18,000-game row
#: ``c3p-ismcts-heuristic``, docs/strength.md)
HARD_HEURISTIC_MODES = frozenset({"points"})
#: elimination games (mattel2022) with this many players or more: ``expert`` plays the
#: heuristic, not the search, which has been measured only up to 4 players
#: (docs/strength.md, "Where search helps")
EXPERT_HEURISTIC_FROM = 5

#: level -> what it plays, for help texts
LEVEL_PLAYS: dict[str, str] = {
    "easy": "greedy, 30% random cards",
    "medium": "heuristic",
    "hard": f"ismcts, {HARD_ITERATIONS} iterations (points mode: heuristic)",
    "expert": (
        f"ismcts: heuristic rollouts, {ROLLOUT_ITERATIONS} worlds"
        f" (elimination with {EXPERT_HEURISTIC_FROM}+ players: heuristic)"
    ),
}
#: the difficulty levels, easiest first
LEVELS: tuple[str, ...] = tuple(LEVEL_PLAYS)


@register("easy")
def _easy(seed: int) -> Bot:
    return GreedyBot(seed, epsilon=0.3)


@register("medium")
def _medium(seed: int) -> Bot:
    return HeuristicBot()


class HardBot(ISMCTSBot):
    """The ``hard`` level: the tree search with :data:`HARD_ITERATIONS` worlds, except in
    the scoring modes of :data:`HARD_HEURISTIC_MODES` (points), where it plays the heuristic's
    card: there the search is weaker than ``medium``, and a harder level must not be."""

    name = "hard"

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed, iterations=HARD_ITERATIONS)
        self.heuristic = HeuristicBot()

    def act(self, view: PlayerView) -> int:
        if view.rules.mode in HARD_HEURISTIC_MODES:
            return self.heuristic.act(view)
        return super().act(view)


@register("hard")
def _hard(seed: int) -> Bot:
    return HardBot(seed)


class ExpertBot(PresetISMCTS):
    """The ``expert`` level: plain ``ismcts`` (:class:`PresetISMCTS`), except in
    elimination games of :data:`EXPERT_HEURISTIC_FROM` or more players, where it plays the
    heuristic's card at once. The search beats the heuristic with 4 players (the fixed
    3,200-game row of docs/strength.md, +1.3 % per seat) at 0.41 s a move (p99, CPU,
    rollouts compiled); with 5 and 6 players no run has measured it, and its rollouts to the end of
    the game grow with the table, so there the level keeps the heuristic."""

    name = "expert"

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        self.heuristic = HeuristicBot()

    def act(self, view: PlayerView) -> int:
        if view.rules.scoring.bust_eliminates and view.players >= EXPERT_HEURISTIC_FROM:
            return self.heuristic.act(view)
        return super().act(view)


@register("expert")
def _expert(seed: int) -> Bot:
    return ExpertBot(seed)
