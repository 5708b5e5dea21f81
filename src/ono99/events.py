"""Typed announcements the engine emits as a game goes on.

Every event is public but one field: a ``draw`` event's ``info["cards"]`` names the
cards drawn, which only the drawer may see. Front ends get events through
:meth:`ono99.Game.events_for`, which drops them for everyone else, and turn events
into words (see :mod:`ono99.narrate`).
"""

from __future__ import annotations

from typing import Any, NamedTuple

__all__ = ["Event", "EVENT_KINDS"]

EVENT_KINDS = (
    "round_start",  # seat = starter; info: {"round": r}
    "play",  # seat played card; total = new total
    "four99",  # seat discarded four ONO 99 cards (R-99-3)
    "draw",  # seat drew `info["count"]` cards; `info["cards"]`: the drawer's eyes only
    "reshuffle",  # discard pile became the draw pile (R-TURN-3)
    "reverse",  # direction changed; info: {"direction": d}
    "owes_two",  # seat must play two cards (R-P2)
    "bust",  # seat has no safe card; card = the unsafe card played (points) or None
    "out_of_round",  # points mode: seat is out of this round
    "token_lost",  # seat lost a token; info: {"tokens": left}
    "eliminated",  # seat is out of the game
    "draw_lost",  # seat's pending draw was lost to a card played first (R-DRAW-1)
    "round_end",  # info: {"round": r, "loser"/"scores"/"hands": ...}
    "game_over",  # info: {"winner": seat or list}
)


class Event(NamedTuple):
    kind: str
    seat: int | None = None
    card: int | None = None
    total: int | None = None
    info: dict[str, Any] | None = None

    def heard_by(self, seat: int | None) -> Event:
        """This event as ``seat`` may hear it (None: a spectator): a draw by anyone else
        without the cards drawn."""
        info = self.info
        if self.kind == "draw" and self.seat != seat and info and "cards" in info:
            return self._replace(info={"count": info["count"]})
        return self
