"""A game as text, the way python-chess prints a board: ``print(game)`` (issue 38).

:func:`table_text` writes the state of a game on either engine: the preset, the round,
the total and the direction of play, one line per seat (the seat to move marked ``>``,
its cards by their record codes, out seats said to be out, tokens or points where the
mode keeps them), and the piles. It shows **every hand**: it is the engine object's own
text, for a program's author at a debugger or a notebook, never something sent to a
player (a player's side is a :class:`~ono99.view.PlayerView`, R-SET-1).

>>> from ono99 import Game
>>> print(Game("mattel2022", 3, seed=7))
mattel2022 · round 1 · Total 0 · →
> Player 1  4 cards  1 -10 P2 99
  Player 2  4 cards  3 R R 99
  Player 3  4 cards  R R P2 99
draw pile 100 · discard pile 0
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ono99.cards import action_code
from ono99.i18n import _, ngettext

if TYPE_CHECKING:
    from ono99.engine import EngineGame

__all__ = ["table_text"]


def table_text(game: EngineGame) -> str:
    """The table of ``game`` in a few lines, every hand shown (the module's text)."""
    head = [
        game.rules.preset,
        _("round {round}").format(round=game.round),
        _("Total {total}").format(total=game.total),
        "→" if game.direction > 0 else "←",
    ]
    if game.is_over:
        w = game.winner
        winners = w if isinstance(w, list) else [] if w is None else [w]
        head.append(_("Game over"))
        head.append(f"{_('winner')}: {', '.join(game.names[s] for s in winners)}")
    lines = [" · ".join(head)]
    width = max(len(name) for name in game.names)
    for seat, name in enumerate(game.names):
        mark = ">" if seat == game.to_move else " "
        lines.append(f"{mark} {name:<{width}}  {_seat_text(game, seat)}".rstrip())
    lines.append(
        " · ".join(
            [
                _("draw pile {count}").format(count=len(game.draw_pile)),
                # TRANSLATORS: how many cards are in the discard pile (print(game))
                _("discard pile {count}").format(count=len(game.discard)),
            ]
        )
    )
    return "\n".join(lines)


def _seat_text(game: EngineGame, seat: int) -> str:
    parts: list[str] = []
    if not game.alive[seat]:
        parts.append(_("out of the game"))
    else:
        hand = game.hands[seat]
        cards = ngettext("{count} card", "{count} cards", len(hand)).format(count=len(hand))
        parts.append(f"{cards}  {' '.join(action_code(c) for c in sorted(hand))}".rstrip())
        if not game.active[seat]:
            parts.append(_("out of this round"))
    if game.tokens is not None:
        parts.append(f"{_('tokens')} {game.tokens[seat]}")
    if game.scores is not None:
        parts.append(f"{_('points')} {game.scores[seat]}")
    return " · ".join(parts)
