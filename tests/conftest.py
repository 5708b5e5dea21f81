"""Shared test setup: hypothesis profiles and small helpers for explicit deals."""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

# "dev" (default) keeps the default run fast; CI may pick "ci" for more examples:
# HYPOTHESIS_PROFILE=ci python -m pytest
settings.register_profile(
    "dev", max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile(
    "ci",
    max_examples=200,
    deadline=None,
    derandomize=True,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev"))
