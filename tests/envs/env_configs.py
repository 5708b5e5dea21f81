"""The presets and options the PettingZoo environments' API tests play (test_aec.py,
test_parallel.py): each preset, and each scoring mode of 1980, once."""

from __future__ import annotations

from typing import Any

CONFIGS: list[tuple[str, dict[str, Any], int]] = [
    ("mattel2022", {}, 3),
    ("classic1980", {"draw_penalty": True}, 4),
    ("classic1980", {"scoring": "points"}, 3),
    ("gamerules", {}, 2),
]
