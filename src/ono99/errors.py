"""Errors. All are :class:`ValueError` subclasses carrying a one-line message."""

from __future__ import annotations

__all__ = ["Ono99Error", "RulesError", "RecordError", "IllegalAction"]


class Ono99Error(ValueError):
    """Base class of every error ono99 raises for bad input."""


class RulesError(Ono99Error):
    """Unknown preset, unknown or invalid option, or a player count out of range."""


class RecordError(Ono99Error):
    """A malformed game record, deal, or card code."""


class IllegalAction(Ono99Error):
    """An action that the rules do not allow now. The message names the rule.

    The game is left exactly as it was.
    """

    def __init__(self, message: str, rule: str | None = None) -> None:
        super().__init__(f"{message} ({rule})" if rule else message)
        self.rule = rule
