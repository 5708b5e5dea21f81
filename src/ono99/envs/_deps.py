"""The one-line hint for a missing optional dependency (CONTRACTS.md "Install and run")."""

from __future__ import annotations

__all__ = ["HINT", "MissingExtra", "missing"]

HINT = "pip install 'ono99[rl]'"


class MissingExtra(ModuleNotFoundError):
    """An optional package of the ``rl`` extra (or of ``extra``) is not installed.

    A :class:`ModuleNotFoundError` (so an ``ImportError``) whose message is one line
    ending in the install hint.

    >>> str(MissingExtra("ono99.envs.aec", "pettingzoo"))
    "ono99.envs.aec needs pettingzoo, which is not installed: pip install 'ono99[rl]'"
    >>> str(MissingExtra("ono99.envs.sb3", "stable_baselines3", extra="sb3"))
    "ono99.envs.sb3 needs stable_baselines3, which is not installed: pip install 'ono99[sb3]'"
    """

    def __init__(self, feature: str, package: str, extra: str = "rl") -> None:
        hint = HINT if extra == "rl" else f"pip install 'ono99[{extra}]'"
        super().__init__(f"{feature} needs {package}, which is not installed: {hint}")
        self.name = package


def missing(feature: str, error: ImportError, extra: str = "rl") -> MissingExtra:
    """The :class:`MissingExtra` for an ``ImportError`` met while importing ``feature``."""
    package = (error.name or f"a package of the {extra} extra").partition(".")[0]
    return MissingExtra(feature, package, extra)
