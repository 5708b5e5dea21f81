"""Parsing helpers shared by subcommands."""

from __future__ import annotations

import json
from typing import Any

from ono99.errors import RulesError
from ono99.i18n import N_

__all__ = ["parse_options"]


def parse_options(items: list[str] | None) -> dict[str, Any]:
    """``--option key=value`` pairs; values are JSON when they parse (true, 150,
    "points"), else plain strings."""
    out: dict[str, Any] = {}
    for item in items or []:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise RulesError(N_("--option takes key=value, not {item}"), item=repr(item))
        try:
            out[key.strip()] = json.loads(value)
        except json.JSONDecodeError:
            out[key.strip()] = value
    return out
