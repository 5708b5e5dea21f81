"""ono99 — the card game ONO 99 (Mattel 2022) and O'NO 99 (1980): engine, records, bots.

>>> from ono99 import Game
>>> g = Game("classic1980", ["Ana", "Bo", "Cy"], seed=1)
>>> g.rules.deck_size
54
"""

from ono99.cards import ACTION_CODES, DRAW, FOUR_99, Card, action_code, parse_action
from ono99.determinize import sample_world, unseen_cards
from ono99.errors import IllegalAction, Ono99Error, RecordError, RulesError
from ono99.events import Event
from ono99.game import Game, hand_points
from ono99.records import ReplayError, load_record, parse_record, replay, state_json, to_record
from ono99.rules import PRESETS, Rules, make_rules
from ono99.view import PlayerView, view_of

__version__ = "0.1.0"

__all__ = [
    "ACTION_CODES", "DRAW", "FOUR_99", "Card", "action_code", "parse_action", "sample_world",
    "unseen_cards", "IllegalAction", "Ono99Error", "RecordError", "RulesError", "Event", "Game",
    "hand_points", "ReplayError", "load_record", "parse_record", "replay", "state_json",
    "to_record", "PRESETS", "Rules", "make_rules", "PlayerView", "view_of", "__version__",
]  # fmt: skip
