"""Uniformly random legal play; draws at once when a draw is pending."""

from __future__ import annotations

import random

from ono99.bots.base import Bot, register
from ono99.cards import DRAW
from ono99.view import PlayerView

__all__ = ["RandomBot"]


@register("random")
class RandomBot(Bot):
    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def act(self, view: PlayerView) -> int:
        legal = view.legal
        if DRAW in legal:
            return DRAW  # R-DRAW-1: bots always draw at once
        return legal[self.rng.randrange(len(legal))]
