"""The observation vector, the action mask and the rewards shared by every environment.

Every observation is a function of one seat's :class:`~ono99.view.PlayerView` (what
that seat may know, R-SET-1), never of the game: :func:`encode` takes a view and
nothing else (:mod:`ono99.observation` writes the values). docs/envs.md lists the layout index by index; :func:`field_names`
gives the same list in code.

Seats in the vector are *relative*: block ``k`` of the per-seat part is the seat
``k`` places after the observer, clockwise (block 0 is the observer itself), so a
policy learnt in one seat plays in any other.

>>> from ono99 import Game
>>> g = Game("mattel2022", 3, seed=7)
>>> obs = encode(g.view(0))
>>> obs.shape == (obs_size(3),) and obs.dtype.name
'float32'
>>> int(obs[:16].sum())            # seat 0 holds four cards
4
>>> field_names(3)[16:19]
['total', 'direction', 'plays_left']
>>> [int(i) for i in action_mask(g.view(0)).nonzero()[0]] == list(g.legal_actions(0))
True
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ono99.cards import FOUR_99, NUM_ACTIONS, Card, action_code
from ono99.envs._deps import missing
from ono99.layout import (
    GLOBAL_FIELDS,
    NUM_CARDS,
    PER_SEAT,
    SCORE_SLACK,
    SEAT_FIELDS,
    SEATS_AT,
    TOTAL_LOW,
)
from ono99.observation import mask_values, observation_values, winners
from ono99.rules import Rules
from ono99.view import PlayerView

try:
    import numpy as np
    import numpy.typing as npt
except ImportError as e:  # pragma: no cover - the rl extra is installed in tests
    raise missing(__name__, e) from None

if TYPE_CHECKING:
    from gymnasium import spaces

    from ono99.engine import EngineGame

__all__ = [
    "NUM_CARDS",
    "NUM_ACTIONS",
    "PER_SEAT",
    "PlayLog",
    "SEAT_FIELDS",
    "TOTAL_LOW",
    "action_mask",
    "bounds",
    "encode",
    "field_names",
    "obs_size",
    "observation_space",
    "outcome",
    "to_action",
]

_C99 = int(Card.NINETY_NINE)

Array = npt.NDArray[np.float32]
Mask = npt.NDArray[np.int8]


def obs_size(players: int, history: bool = False) -> int:
    """Length of the observation vector for ``players`` seats (with the play history:
    ``NUM_CARDS`` more per seat, :class:`PlayLog`)."""
    return SEATS_AT + PER_SEAT * players + (NUM_CARDS * players if history else 0)


def field_names(players: int, history: bool = False) -> list[str]:
    """The name of every index of the observation vector (docs/envs.md)."""
    cards = [action_code(c) for c in range(NUM_CARDS)]
    names = [f"hand[{c}]" for c in cards]
    names += list(GLOBAL_FIELDS)
    names += [f"discard[{c}]" for c in cards]
    names += [f"laid_down[{c}]" for c in cards]
    for k in range(players):
        names += [f"seat+{k}.{f}" for f in SEAT_FIELDS]
    if history:
        for k in range(players):
            names += [f"seat+{k}.played[{c}]" for c in cards]
    return names


def bounds(rules: Rules, players: int, history: bool = False) -> tuple[Array, Array]:
    """The ``low`` and ``high`` of the observation Box for ``rules`` and ``players``."""
    deck = np.array(rules.deck, dtype=np.float32)
    size = float(sum(rules.deck))
    tokens = rules.scoring.start_tokens(players)
    top_tokens = float(max(tokens)) if tokens else 0.0
    top_score = float(rules.target + SCORE_SLACK) if rules.scoring.counts_hand_points else 0.0
    low_total = 0.0 if rules.floor_zero else float(TOTAL_LOW)
    low = [0.0] * NUM_CARDS + [low_total, -1.0, 0.0, 0.0, 0.0, 0.0]
    high = [*deck.tolist(), 99.0, 1.0, 2.0, 1.0, 1.0, size]
    low += [0.0] * (2 * NUM_CARDS)
    high += [*deck.tolist(), *deck.tolist()]
    seat_high = [size, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, top_tokens, top_score]
    low += [0.0] * (PER_SEAT * players)
    high += seat_high * players
    if history:  # a seat plays at most every copy of a card in a round
        low += [0.0] * (NUM_CARDS * players)
        high += deck.tolist() * players
    # high >= 1 everywhere: a field that is always 0 here (tokens in 2022) keeps a
    # Box whose low and high differ
    return np.array(low, dtype=np.float32), np.maximum(np.array(high, dtype=np.float32), 1.0)


def observation_space(rules: Rules, players: int, history: bool = False) -> spaces.Dict:
    """The observation space every environment declares: ``observation`` (the Box of
    :func:`bounds`) and ``action_mask`` (0/1 per action)."""
    from gymnasium import spaces  # only the environments that declare a space need it

    low, high = bounds(rules, players, history)
    return spaces.Dict(
        {
            "observation": spaces.Box(low, high, dtype=np.float32),
            "action_mask": spaces.Box(0, 1, (NUM_ACTIONS,), dtype=np.int8),
        }
    )


def encode(view: PlayerView) -> Array:
    """The observation vector of ``view`` (float32, :func:`field_names` order): a function
    of the view alone (R-SET-1), :func:`ono99.observation.observation_values`."""
    return np.array(observation_values(view), dtype=np.float32)


class PlayLog:
    """Who played what this round, for the observation option ``history=True``: the copies
    of each card every seat has played face up since the round was dealt (a Four 99 is four
    ONO 99s; a points-mode bust's thrown card counts, R-END-3). Public: every player saw
    each of these cards played (R-SET-1); the environment records the actions it applies.

    :meth:`vector` is observer-relative, like the seat blocks: block ``k`` is the seat
    ``k`` places after the observer.

    >>> from ono99 import Game
    >>> g = Game("mattel2022", 2, seed=1)
    >>> log = PlayLog(2)
    >>> log.start(g.round)
    >>> card = g.legal_actions()[0]
    >>> _ = g.apply(card)
    >>> log.record(0, card, g.round)
    >>> int(log.vector(0)[card]), int(log.vector(1)[NUM_CARDS + card])
    (1, 1)
    """

    __slots__ = ("n", "round", "counts", "_orders")

    def __init__(self, players: int) -> None:
        self.n = players
        self.round = -1
        self.counts = np.zeros((players, NUM_CARDS), dtype=np.float32)
        self._orders = [
            np.array([(s + k) % players for k in range(players)]) for s in range(players)
        ]

    def start(self, round_number: int) -> None:
        """A new game (or round) numbered ``round_number``: nothing played yet."""
        self.round = round_number
        self.counts[:] = 0.0

    def record(self, seat: int, action: int, round_after: int) -> None:
        """``seat`` made ``action``; ``round_after`` is the game's round once it is made
        (a move that ended the round leaves the new round empty)."""
        if action == FOUR_99:
            self.counts[seat, _C99] += 4.0  # four ONO 99 cards
        elif action < NUM_CARDS:
            self.counts[seat, action] += 1.0
        if round_after != self.round:
            self.start(round_after)

    def vector(self, observer: int) -> Array:
        """The counts, seat blocks relative to ``observer`` (float32)."""
        out: Array = self.counts[self._orders[observer]].ravel()
        return out


def action_mask(view: PlayerView) -> Mask:
    """1 for each action id in ``view.legal`` (int8, :data:`NUM_ACTIONS` long)."""
    return np.array(mask_values(view), dtype=np.int8)


def outcome(game: EngineGame) -> list[float]:
    """Each seat's reward at the end of ``game`` (zeros while it goes on).

    The winners share +1 (a shared win is a fraction), the losers share -1, so the
    rewards sum to 0; if every seat shares the win, every reward is 0."""
    n = game.n
    won = winners(game.winner)
    if not won or len(won) == n:
        return [0.0] * n
    win, lose = 1.0 / len(won), -1.0 / (n - len(won))
    return [win if s in won else lose for s in range(n)]


def to_action(action: object) -> int:
    """``action`` as a plain int action id (numpy integers accepted), or raise
    :class:`~ono99.errors.IllegalAction` in one line."""
    from ono99.errors import IllegalAction
    from ono99.i18n import N_

    if isinstance(action, np.ndarray) and action.shape == ():
        action = action.item()
    if isinstance(action, bool) or not isinstance(action, (int, np.integer)):
        raise IllegalAction(N_("{action} is not an action"), action=repr(action))
    value = int(action)
    if not 0 <= value < NUM_ACTIONS:
        raise IllegalAction(N_("{action} is not an action"), action=repr(action))
    return value
