"""Bots: players that see only their own :class:`~ono99.view.PlayerView`.

Names for :func:`make_bot`: ``random``, ``greedy``, ``heuristic``, ``ismcts`` (and
``ismcts:N`` for N iterations per decision), and the difficulty levels ``easy``,
``medium``, ``hard``, ``expert`` (:mod:`ono99.bots.levels`).

>>> from ono99 import Game
>>> from ono99.bots import make_bot
>>> g = Game("mattel2022", 2, seed=3)
>>> bot = make_bot("random", seed=1)
>>> bot.act(g.view(g.to_move)) in g.legal_actions()
True
>>> make_bot("hard", seed=1).act(g.view(g.to_move)) in g.legal_actions()
True
"""

from ono99.bots.base import BOTS, PARAM_BOTS, Bot, make_bot, register, register_param
from ono99.bots.greedy import GreedyBot
from ono99.bots.heuristic import HeuristicBot
from ono99.bots.ismcts import ISMCTSBot
from ono99.bots.levels import LEVEL_PLAYS, LEVELS
from ono99.bots.optimal import OptimalBot
from ono99.bots.random_bot import RandomBot

__all__ = [
    "BOTS", "PARAM_BOTS", "Bot", "GreedyBot", "HeuristicBot", "ISMCTSBot", "LEVELS",
    "LEVEL_PLAYS", "OptimalBot", "RandomBot", "make_bot", "register", "register_param",
]  # fmt: skip
