"""The one-line hint for a missing optional dependency (CONTRACTS.md "Install and run")."""

from __future__ import annotations

__all__ = ["HINT", "MissingExtra", "missing"]

HINT = "pip install 'ono99[rl]'"


class MissingExtra(ModuleNotFoundError):
    """An optional package of the ``rl`` extra is not installed.

    A :class:`ModuleNotFoundError` (so an ``ImportError``) whose message is one line
    ending in the install hint.

    >>> str(MissingExtra("ono99.envs.aec", "pettingzoo"))
    "ono99.envs.aec needs pettingzoo, which is not installed: pip install 'ono99[rl]'"
    """

    def __init__(self, feature: str, package: str) -> None:
        super().__init__(f"{feature} needs {package}, which is not installed: {HINT}")
        self.name = package


def missing(feature: str, error: ImportError) -> MissingExtra:
    """The :class:`MissingExtra` for an ``ImportError`` met while importing ``feature``."""
    return MissingExtra(feature, (error.name or "a package of the rl extra").partition(".")[0])
