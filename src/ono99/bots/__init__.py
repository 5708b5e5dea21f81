"""Bots: players that see only their own :class:`~ono99.view.PlayerView`.

>>> from ono99 import Game
>>> from ono99.bots import make_bot
>>> g = Game("mattel2022", 2, seed=3)
>>> bot = make_bot("random", seed=1)
>>> bot.act(g.view(g.to_move)) in g.legal_actions()
True
"""

from ono99.bots.base import BOTS, Bot, make_bot, register
from ono99.bots.random_bot import RandomBot

__all__ = ["BOTS", "Bot", "RandomBot", "make_bot", "register"]
