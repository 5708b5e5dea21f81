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

    # ------------------------------------------------------------------ setup
    @property
    def rules(self) -> Rules: ...
    @property
    def n(self) -> int: ...
    @property
    def names(self) -> list[str]: ...
    @property
    def seed(self) -> int | str: ...
    @property
    def dealer(self) -> int: ...

    # ------------------------------------------------------------------ state
    @property
    def to_move(self) -> int | None: ...
    @property
    def owes_two(self) -> int | None: ...
    @property
    def pending_draw(self) -> int | None: ...
    @property
    def must_bust_play(self) -> bool: ...
    @property
    def is_over(self) -> bool: ...
    @property
    def winner(self) -> int | list[int] | None: ...
    @property
    def total(self) -> int: ...
    @property
    def direction(self) -> int: ...
    @property
    def plays_left(self) -> int: ...
    @property
    def played_99(self) -> bool: ...
    @property
    def round(self) -> int: ...
    @property
    def reshuffles(self) -> int: ...
    @property
    def n_active(self) -> int: ...
    @property
    def alive(self) -> list[bool]: ...
    @property
    def active(self) -> list[bool]: ...
    @property
    def out(self) -> list[int]: ...
    @property
    def round_out(self) -> list[int]: ...
    @property
    def hands(self) -> list[list[int]]: ...
    @property
    def draw_pile(self) -> list[int]: ...
    @property
    def discard(self) -> list[int]: ...
    @property
    def tokens(self) -> list[int] | None: ...
    @property
    def scores(self) -> list[int] | None: ...

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
