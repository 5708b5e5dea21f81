"""Difficulty levels for people: names that :func:`~ono99.bots.make_bot` accepts.

======== ============================================= ==========================
level    bot                                           per decision
======== ============================================= ==========================
easy     greedy, with a random card 30 % of the time   instant
medium   heuristic                                     about 0.1–0.5 ms
hard     ismcts, 300 worlds (greedy rollouts)          under 15 ms (p99) compiled
                                                       (ono99[fast]), about 0.1 s
                                                       in Python
expert   plain ``ismcts``: heuristic rollouts to the   under 0.1 s (p99) compiled,
         end of the game (mattel2022) or of the        up to 0.7 s in Python (and
         round (tokens) on worlds read from the        while the compiled search
         others' plays (120 worlds); as hard with      loads in a new process)
         points; the heuristic (as medium) in
         elimination games of 5 or more players,
         where no search has been measured
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

__all__ = ["LEVELS", "LEVEL_PLAYS", "HARD_ITERATIONS", "ExpertBot", "EXPERT_HEURISTIC_FROM"]

HARD_ITERATIONS = DEFAULT_ITERATIONS
#: elimination games (mattel2022) with this many players or more: ``expert`` plays the
#: heuristic, not the search, which has been measured only up to 4 players
#: (docs/strength.md, "Where search helps")
EXPERT_HEURISTIC_FROM = 5

#: level -> what it plays, for help texts
LEVEL_PLAYS: dict[str, str] = {
    "easy": "greedy, 30% random cards",
    "medium": "heuristic",
    "hard": f"ismcts, {HARD_ITERATIONS} iterations",
    "expert": (
        f"ismcts: heuristic rollouts, {ROLLOUT_ITERATIONS} worlds (points mode: as hard;"
        f" elimination with {EXPERT_HEURISTIC_FROM}+ players: heuristic)"
    ),
}
#: the difficulty levels, easiest first
LEVELS: tuple[str, ...] = tuple(LEVEL_PLAYS)


@register("easy")
def _easy(seed: int) -> Bot:
    return GreedyBot(seed, epsilon=0.3)


@register("medium")
def _medium(seed: int) -> Bot:
    return HeuristicBot(seed)


@register("hard")
def _hard(seed: int) -> Bot:
    return ISMCTSBot(seed, iterations=HARD_ITERATIONS)


class ExpertBot(PresetISMCTS):
    """The ``expert`` level: plain ``ismcts`` (:class:`PresetISMCTS`), except in
    elimination games of :data:`EXPERT_HEURISTIC_FROM` or more players, where it plays the
    heuristic's card at once. The search beats the heuristic with 4 players (the fixed
    3,200-game row of docs/strength.md, +1.3 % per seat) at 0.12 s a move (p99, CPU, compiled);
    with 5 and 6 players no run has measured it, and its rollouts to the end of the
    game grow with the table, so there the level keeps the heuristic."""

    name = "expert"

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        self.heuristic = HeuristicBot(seed)

    def act(self, view: PlayerView) -> int:
        if view.rules.scoring.bust_eliminates and view.players >= EXPERT_HEURISTIC_FROM:
            return self.heuristic.act(view)
        return super().act(view)


@register("expert")
def _expert(seed: int) -> Bot:
    return ExpertBot(seed)
