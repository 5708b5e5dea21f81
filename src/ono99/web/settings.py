"""A table's settings, as the lobby asks for them and the database keeps them."""

from __future__ import annotations

from typing import Any

from pydantic import ConfigDict

from ono99.game import Game
from ono99.i18n import N_
from ono99.web.errors import WebError
from ono99.web.protocol import CreateTable, TableSettings

__all__ = ["Settings"]


class Settings(TableSettings):
    """The settings of one table (the fields of :class:`TableSettings`, declared once),
    checked by the engine when made from a request."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    @classmethod
    def from_request(cls, req: CreateTable) -> Settings:
        if 0 < req.turn_seconds < 1:
            raise WebError(400, N_("turn_seconds must be 0 (no timer) or at least 1"))
        settings = cls(
            rules=req.rules, options=dict(req.options), players=req.players, bots=req.bots,
            turn_seconds=req.turn_seconds, takeover=req.takeover,
            away_seconds=req.away_seconds, draw_window=req.draw_window,
            bot_delay=req.bot_delay, hints=req.hints,
        )  # fmt: skip
        # The engine checks the preset, its options and the player count (R-SET-5, R-SET-6).
        Game(settings.rules, settings.players, options=settings.options, seed=0, events=False)
        return settings

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Settings:
        return cls(**data)

    def to_json(self) -> dict[str, Any]:
        """What the database keeps and ``TableInfo`` shows."""
        return self.model_dump()
