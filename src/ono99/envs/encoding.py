"""The observation vector, the action mask and the rewards shared by every environment.

Everything here is a function of one seat's :class:`~ono99.view.PlayerView` (what
that seat may know, R-SET-1), never of the game: :func:`encode` takes a view and
nothing else. docs/envs.md lists the layout index by index; :func:`field_names`
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

from ono99.cards import DRAW, FOUR_99, NUM_ACTIONS, Card, action_code
from ono99.envs._deps import missing
from ono99.layout import (  # the indices encode writes
    ACTIVE,
    ALIVE,
    BUST_MODE,
    DIRECTION,
    DISCARD_AT,
    DRAW_PILE,
    GLOBAL_FIELDS,
    HAND_SIZE,
    LAID_AT,
    NUM_CARDS,
    OWES_TWO,
    PENDING_DRAW,
    PER_SEAT,
    PLAYED_99,
    PLAYS_LEFT,
    SCORE,
    SCORE_SLACK,
    SEAT_FIELDS,
    SEATS_AT,
    TO_MOVE,
    TOKENS,
    TOTAL,
    TOTAL_LOW,
    WINNER,
)
from ono99.rules import Rules
from ono99.view import PlayerView

try:
    import numpy as np
    import numpy.typing as npt
except ImportError as e:  # pragma: no cover - the rl extra is installed in tests
    raise missing(__name__, e) from None

if TYPE_CHECKING:
    from gymnasium import spaces

    from ono99.game import Game

__all__ = [
    "NUM_CARDS",
    "NUM_ACTIONS",
    "PER_SEAT",
    "PlayLog",
    "SEAT_FIELDS",
    "TOTAL_LOW",
    "action_mask",
    "advance",
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
    """The observation vector of ``view`` (float32, :func:`field_names` order).

    A function of the view alone: the observer's own hand, public counters and
    piles, hand sizes — never another hand or the draw order (R-SET-1). Built in a
    Python list and converted once (an item set on a NumPy array costs several times
    a list's, and this runs at every step of every environment)."""
    n = len(view.names)
    me = view.seat
    out = [0.0] * (SEATS_AT + PER_SEAT * n)
    for c in view.hand:
        out[c] += 1.0
    t = view.total
    out[TOTAL] = 99.0 if t > 99 else (TOTAL_LOW if t < TOTAL_LOW else t)
    out[DIRECTION] = view.direction
    out[PLAYS_LEFT] = view.plays_left
    out[PLAYED_99] = view.played_99
    out[BUST_MODE] = view.bust_mode
    out[DRAW_PILE] = view.draw_pile
    for c in view.discard:
        out[DISCARD_AT + c] += 1.0
    for hand in view.laid_down:
        for c in hand:
            out[LAID_AT + c] += 1.0
    winners = _winners(view.winner)
    top_score = float(view.rules.target + SCORE_SLACK)
    sizes, alive, active, tokens, scores = (
        view.hand_sizes, view.alive, view.active, view.tokens, view.scores,
    )  # fmt: skip
    to_move, owes, pending = view.to_move, view.owes_two, view.pending_draw
    b = SEATS_AT
    for k in range(n):
        s = (me + k) % n
        out[b + HAND_SIZE] = sizes[s]
        out[b + ALIVE] = alive[s]
        out[b + ACTIVE] = active[s]
        out[b + TO_MOVE] = to_move == s
        out[b + OWES_TWO] = owes == s
        out[b + PENDING_DRAW] = pending == s
        out[b + WINNER] = s in winners
        if tokens is not None:
            out[b + TOKENS] = tokens[s]
        if scores is not None:
            out[b + SCORE] = min(top_score, float(scores[s]))
        b += PER_SEAT
    return np.array(out, dtype=np.float32)


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
    mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
    for a in view.legal:
        mask[a] = 1
    return mask


def _winners(winner: int | tuple[int, ...] | list[int] | None) -> tuple[int, ...]:
    if winner is None:
        return ()
    if isinstance(winner, int):
        return (winner,)
    return tuple(winner)


def outcome(game: Game) -> list[float]:
    """Each seat's reward at the end of ``game`` (zeros while it goes on).

    The winners share +1 (a shared win is a fraction), the losers share -1, so the
    rewards sum to 0; if every seat shares the win, every reward is 0."""
    n = game.n
    winners = _winners(game.winner)
    if not winners or len(winners) == n:
        return [0.0] * n
    win, lose = 1.0 / len(winners), -1.0 / (n - len(winners))
    return [win if s in winners else lose for s in range(n)]


def advance(game: Game) -> None:
    """Take every pending draw at once (R-DRAW-1: bots always draw at once), so that
    exactly one seat, ``game.to_move``, may act and ``DRAW`` is never legal."""
    while game.pending_draw is not None and not game.is_over:
        game.apply(DRAW)


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
