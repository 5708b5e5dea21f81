"""Errors. All are :class:`ValueError` subclasses carrying a one-line message.

An error is built from an English message template, marked with ``N_`` so that it
lands in the message catalog, and named parameters::

    RulesError(N_("unknown rules preset {preset} (choose {choices})"), preset="'x'", choices=...)

``str(err)`` is the English text (what tests, logs and the JSON of ``ono99 replay
--json`` show); front ends show ``err.translated(gettext)`` (see
:func:`ono99.i18n.translate_error`). The engine itself never translates. A rule ID
(``rule="R-SET-5"``) is kept out of the template and appended as `` (R-SET-5)`` in
every language. A parameter that is itself an :class:`Ono99Error` is translated
with its parent. A plain string without parameters (``RulesError("text")``) still
works: it is shown as it is, or translated if the catalog happens to hold it.

>>> from ono99.i18n import N_
>>> e = IllegalAction(N_("{name} has no {card} in hand"), "R-TURN-1", name="Ana", card="'7'")
>>> str(e)
"Ana has no '7' in hand (R-TURN-1)"
>>> catalog = {"{name} has no {card} in hand": "{name} n'a pas de {card} en main"}
>>> e.translated(lambda message: catalog.get(message, message))
"Ana n'a pas de '7' en main (R-TURN-1)"
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

__all__ = ["Ono99Error", "RulesError", "RecordError", "IllegalAction"]


def _restore(cls: type[Ono99Error], args: tuple[Any, ...], state: dict[str, Any]) -> Ono99Error:
    """Unpickle an error (worker processes send them back) with its template and params."""
    err = cls.__new__(cls)
    err.args = args
    err.__dict__.update(state)
    return err


class Ono99Error(ValueError):
    """Base class of every error ono99 raises for bad input.

    ``template`` is the English message (a ``str.format`` template when ``params``
    is not empty), ``params`` its values, ``rule`` an optional rule ID."""

    template: str
    params: dict[str, Any]
    rule: str | None

    def __init__(self, message: str, /, *, rule: str | None = None, **params: Any) -> None:
        self.template = message
        self.params = params
        self.rule = rule
        super().__init__(self._render(message, {k: _english(v) for k, v in params.items()}))

    def _render(self, template: str, params: Mapping[str, Any]) -> str:
        text = template.format(**params) if self.params else template
        return f"{text} ({self.rule})" if self.rule else text

    def translated(self, gettext: Callable[[str], str]) -> str:
        """The message in the language of ``gettext`` (e.g. :func:`ono99.i18n._`);
        nested errors among the params are translated too. A translation that does
        not fit the params falls back to the English template."""
        params = {
            k: v.translated(gettext) if isinstance(v, Ono99Error) else v
            for k, v in self.params.items()
        }
        try:
            return self._render(gettext(self.template), params)
        except (KeyError, IndexError, ValueError):
            return self._render(self.template, params)

    def __reduce__(self) -> tuple[Any, ...]:
        return (_restore, (type(self), self.args, dict(self.__dict__)))


def _english(value: Any) -> Any:
    return str(value) if isinstance(value, Ono99Error) else value


class RulesError(Ono99Error):
    """Unknown preset, unknown or invalid option, or a player count out of range."""


class RecordError(Ono99Error):
    """A malformed game record, deal, or card code."""


class IllegalAction(Ono99Error):
    """An action that the rules do not allow now. The message names the rule.

    The game is left exactly as it was.
    """

    def __init__(self, message: str, rule: str | None = None, **params: Any) -> None:
        super().__init__(message, rule=rule, **params)
