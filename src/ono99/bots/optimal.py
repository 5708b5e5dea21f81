"""``optimal``: a near-equilibrium of the research variant ``mini``, read from a table.

The table (``data/mini_optimal.json.gz``) was made by ``benchmarks/mini_solve.py solve``:
CFR+ (the script's own, in NumPy) on the whole game tree of ``python_ono99(rules=mini)``,
then keyed by what
a player's view holds (:func:`view_key`: its seat, its hand, the cards played in order).
For each key it holds the action probabilities and each action's exact value (the player's
expected return, +1 for a win and -1 for a loss, given the view, against the table's own
play); its NashConv is stored beside them (docs/mini.md). The bot sees only its view.

Holding Play 2 and Reverse at the first move of seed 6, Reverse is worth +0.933 under
the solved play, Play 2 +0.375 (``make_bot("optimal")`` plays by the table's probabilities):

>>> from ono99 import Game
>>> from ono99.cards import action_code
>>> view = Game("mini", 2, seed=6).view(0)
>>> {action_code(a): round(v, 3) for a, v in action_values(view).items()}
{'P2': 0.375, 'R': 0.933}
"""

from __future__ import annotations

import functools
import gzip
import json
import random
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ono99.bots.base import Bot, register
from ono99.cards import action_code, parse_action
from ono99.errors import Ono99Error
from ono99.i18n import N_
from ono99.view import PlayerView

if TYPE_CHECKING:
    from ono99.rules import Rules

__all__ = ["TABLE_PATH", "OptimalBot", "load_table", "view_key", "action_values"]

#: the solved table, shipped in the package
TABLE_PATH = Path(__file__).with_name("data") / "mini_optimal.json.gz"


def _codes(cards: Iterable[int]) -> str:
    return " ".join(action_code(c) for c in cards)


def view_key(seat: int, hand: Iterable[int], discard: Iterable[int]) -> str:
    """What a mini player's view tells of its position, as a string: its seat, its hand
    (sorted) and the cards played, in order. In mini the rest of the view (whose play each
    card was, the total, the hand sizes) follows from these: the pile is never reshuffled.

    >>> view_key(1, (3, 1), (2, 13))
    '1|1 3|2 P2'
    """
    return f"{seat}|{_codes(sorted(hand))}|{_codes(discard)}"


@functools.cache
def load_table() -> dict[str, Any]:
    """The solved table (read once per process): ``policy`` and ``values`` by view key,
    ``nash_conv`` and how it was solved."""
    with gzip.open(TABLE_PATH, "rt", encoding="utf-8") as f:
        data: dict[str, Any] = json.load(f)
    return data


def action_values(view: PlayerView) -> dict[int, float]:
    """The exact value of each legal action of ``view`` under the solved play (the
    player's expected return, +1 win / -1 loss): for comparing an evaluator with it."""
    key = view_key(view.seat, view.hand, view.discard)
    return {parse_action(c): v for c, v in load_table()["values"][key].items()}


@register("optimal")
class OptimalBot(Bot):
    """Plays the solved table's probabilities for its view (``mini``, its small size, 2
    players only)."""

    name = "optimal"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def check_game(self, rules: Rules, players: int) -> None:
        if rules.preset != "mini" or players != 2:
            raise Ono99Error(
                # TRANSLATORS: the bot "optimal" asked to play another game than the one
                # it was solved for; {preset} is a preset name (not translated)
                N_("the optimal bot plays only {preset} with 2 players, the game it solved"),
                preset="mini",
            )
        if rules.options.get("size", "small") != "small":
            raise Ono99Error(
                # TRANSLATORS: the bot "optimal" asked to play mini's larger size; {preset}
                # is a preset name, {option} an option name and {value} a value (none
                # translated: they are written so in --option)
                N_(
                    "the optimal bot plays only {preset} with 2 players and {option} {value},"
                    " the game it solved"
                ),
                preset="mini", option="size", value=repr("small"),
            )  # fmt: skip

    def act(self, view: PlayerView) -> int:
        self.check_game(view.rules, view.players)
        probs = load_table()["policy"][view_key(view.seat, view.hand, view.discard)]
        actions = [parse_action(c) for c in probs]
        weights = list(probs.values())
        choice: int = self.rng.choices(actions, weights)[0]
        return choice
