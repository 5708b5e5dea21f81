"""What a game offers on either engine: :class:`EngineGame`, one typed Protocol.

The reference engine's :class:`ono99.game.Game` and the fast engine's
:class:`ono99.fast.FastGame` both satisfy it (mypy checks each against it), so the code
that plays either one -- the environments, the R-REC state JSON -- names this type and
never asks which engine it holds. Both are held to the same golden playthroughs
(``tests/test_golden.py``).

>>> from ono99 import Game
>>> def first_move(game: EngineGame) -> int:
...     return game.apply(game.legal_actions()[0])
>>> first_move(Game("mattel2022", 3, seed=7))
0
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from ono99.rules import Rules

if TYPE_CHECKING:  # the environments' arrays; the engine itself runs without NumPy
    import numpy as np
    import numpy.typing as npt

__all__ = ["EngineGame", "ViewedGame"]


class EngineGame(Protocol):
    """One game of ONO 99 on an engine: its setup, its public counters, every hand (the
    engine's side: a player's side is a view), the actions and the environments' step."""

    # What both engines keep as plain attributes (read here; nothing outside an engine
    # writes them): the setup, then the public counters and seat lists.
    rules: Rules
    n: int
    names: list[str]
    seed: int
    rng: int
    dealer: int
    total: int
    direction: int
    plays_left: int
    played_99: bool
    round: int
    reshuffles: int
    n_active: int
    alive: list[bool]
    active: list[bool]
    out: list[int]
    round_out: list[int]

    # What one engine or the other computes when asked.
    @property
    def to_move(self) -> int | None:
        """The seat that plays next, or None when the game is over."""

    @property
    def owes_two(self) -> int | None:
        """R-P2-6: the seat that must play two cards, or None."""

    @property
    def pending_draw(self) -> int | None:
        """R-DRAW-1: the seat whose draw is pending, or None."""

    @property
    def must_bust_play(self) -> bool:
        """R-END-3: the legal actions are unsafe cards to throw."""

    @property
    def is_over(self) -> bool: ...
    @property
    def winner(self) -> int | list[int] | None:
        """The winning seat, the seats sharing a win, or None while playing."""

    @property
    def hands(self) -> list[list[int]]:
        """Every hand (the engine's side: a player sees a view)."""

    @property
    def draw_pile(self) -> list[int]:
        """The draw pile, top card last."""

    @property
    def discard(self) -> list[int]: ...
    @property
    def tokens(self) -> list[int] | None:
        """R-SET-4: each seat's tokens, or None (a mode without tokens)."""

    @property
    def scores(self) -> list[int] | None:
        """R-END-3: each seat's points, or None (a mode without points)."""

    # ------------------------------------------------------------------ actions
    def legal_actions(self, seat: int | None = None) -> tuple[int, ...]:
        """The actions accepted now, sorted (a pending ``DRAW`` included)."""
        ...

    def acting(self) -> dict[int, tuple[int, ...]]:
        """Who may act now, and with what."""
        ...

    def verify(self, action: int | str, seat: int | None = None) -> int:
        """The seat that would make ``action``, or the error :meth:`apply` would raise."""
        ...

    def can_apply(self, action: int | str) -> bool: ...

    def apply(self, action: int | str, seat: int | None = None) -> int:
        """Make ``action``; the seat that made it. Illegal: raises, changes nothing."""
        ...

    # ------------------------------------------------------------------ environments
    def take_draws(self) -> None:
        """Take every pending draw at once (R-DRAW-1), as the environments do."""
        ...

    def env_step(self, action: int, seat: int) -> int:
        """``seat`` plays ``action``, then every pending draw is taken; the seat to move
        next, -1 once the game is over. Anything else raises and changes nothing."""
        ...

    def observe(self, seat: int, obs: npt.NDArray[np.float32], mask: npt.NDArray[np.int8]) -> None:
        """Write ``seat``'s observation vector (``obs``, ``ono99.envs.encoding.obs_size``
        long) and action mask (``mask``, ``NUM_ACTIONS`` long) from its hand and the
        public state only (R-SET-1)."""
        ...


class ViewedGame(EngineGame, Protocol):
    """A game players are shown views of (:func:`ono99.view.view_of`): the reference
    engine's, which also keeps the round each seat went out in (the places, R-END-3). The
    fast engine gives no views (its players are the environments' and the bots' rollouts)."""

    @property
    def out_rounds(self) -> list[int]:
        """The round each seat of ``out`` went out in, in the same order."""
        ...
