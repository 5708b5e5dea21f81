"""Parsing helpers shared by subcommands."""

from __future__ import annotations

import json
from typing import Any

from ono99.errors import RulesError
from ono99.i18n import N_
from ono99.records import check_seed, parse_json_int

__all__ = ["parse_options", "check_seed_option", "check_engine"]


def check_seed_option(seed: int | None) -> None:
    """``--seed``: None, or an integer from 0 to 2**256 - 1 as in a record (R-REC);
    raises RecordError otherwise."""
    if seed is not None:
        check_seed(seed, "--seed")


def parse_options(items: list[str] | None) -> dict[str, Any]:
    """``--option key=value`` pairs; values are JSON when they parse (true, 150,
    "points"), else plain strings. A key given twice is an error: which value was meant
    cannot be guessed."""
    out: dict[str, Any] = {}
    for item in items or []:
        key, sep, value = item.partition("=")
        key = key.strip()
        if not sep or not key:
            raise RulesError(N_("--option takes key=value, not {item}"), item=repr(item))
        if key in out:
            raise RulesError(N_("--option {key} is given twice"), key=key)
        try:
            out[key] = json.loads(value, parse_int=parse_json_int)
        except json.JSONDecodeError:
            out[key] = value
    return out


def check_engine(engine: str, *, fast: bool = True) -> None:
    """``--engine``: ``reference``, or ``fast`` (:mod:`ono99.fast`) where the subcommand
    runs on it (``fast``) and Numba is installed; anything else is the one-line error,
    exit status 2, of every subcommand that takes it."""
    from ono99.cli.base import fail
    from ono99.i18n import _

    if engine not in ("reference", "fast"):
        raise fail(
            _("--engine must be reference or fast, not {engine}").format(engine=repr(engine))
        )
    if engine == "fast":
        if not fast:
            raise fail(
                _(
                    "this command plays bots, which run on the reference engine only;"
                    " use --engine reference"
                )
            )
        try:
            import ono99.fast  # noqa: F401
        except ImportError as e:
            raise fail(str(e)) from None
