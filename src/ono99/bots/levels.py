"""Difficulty levels for people: names that :func:`~ono99.bots.make_bot` accepts.

======== ============================================= ==========================
level    bot                                           per decision
======== ============================================= ==========================
easy     greedy, with a random card 30 % of the time   instant
medium   heuristic                                     about 0.1–0.5 ms
hard     ismcts, 300 worlds (greedy rollouts)          median well under 100 ms
expert   plain ``ismcts``: heuristic rollouts to the   up to about half a second
         end of the game (mattel2022) or of the
         round (tokens) on worlds read from the
         others' plays (120 worlds); as hard with
         points
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

__all__ = ["LEVELS", "LEVEL_PLAYS", "HARD_ITERATIONS"]

HARD_ITERATIONS = DEFAULT_ITERATIONS

#: level -> what it plays, for help texts
LEVEL_PLAYS: dict[str, str] = {
    "easy": "greedy, 30% random cards",
    "medium": "heuristic",
    "hard": f"ismcts, {HARD_ITERATIONS} iterations",
    "expert": f"ismcts: heuristic rollouts, {ROLLOUT_ITERATIONS} worlds (points mode: as hard)",
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


@register("expert")
def _expert(seed: int) -> Bot:
    return PresetISMCTS(seed)
