"""Parsing helpers shared by subcommands."""

from __future__ import annotations

import json
from typing import Any

from ono99.errors import RulesError
from ono99.i18n import N_
from ono99.records import check_seed, parse_json_int

__all__ = ["parse_options", "check_seed_option"]


def check_seed_option(seed: int | None) -> None:
    """``--seed``: None, or an integer from 0 to 2**256 - 1 as in a record (R-REC);
    raises RecordError otherwise."""
    if seed is not None:
        check_seed(seed, "--seed")


def parse_options(items: list[str] | None) -> dict[str, Any]:
    """``--option key=value`` pairs; values are JSON when they parse (true, 150,
    "points"), else plain strings."""
    out: dict[str, Any] = {}
    for item in items or []:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise RulesError(N_("--option takes key=value, not {item}"), item=repr(item))
        try:
            out[key.strip()] = json.loads(value, parse_int=parse_json_int)
        except json.JSONDecodeError:
            out[key.strip()] = value
    return out
