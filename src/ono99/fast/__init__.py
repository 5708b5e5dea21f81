"""The fast engine: the rules of :mod:`ono99.game` compiled with Numba (``pip install
'ono99[fast]'``).

:class:`FastGame` has the reference engine's interface and gives the same states for
the same seed, deals and moves (the differential tests in ``tests/fast/`` hold it to
that after every move). ``ono99 bench --engine fast`` and ``ono99 replay --engine
fast`` use it. Without Numba, importing this package raises :class:`MissingFast`, a
one-line error ending in the install hint.
"""

from __future__ import annotations

__all__ = ["FastGame", "MissingFast", "HINT"]

HINT = "pip install 'ono99[fast]'"


class MissingFast(ModuleNotFoundError):
    """Numba (the ``fast`` extra) is not installed.

    >>> str(MissingFast())
    "the fast engine needs numba, which is not installed: pip install 'ono99[fast]'"
    """

    def __init__(self) -> None:
        super().__init__(f"the fast engine needs numba, which is not installed: {HINT}")
        self.name = "numba"


try:
    import numba  # noqa: F401
    import numpy  # noqa: F401
except ImportError:  # pragma: no cover - the test extra installs numba
    raise MissingFast() from None

from ono99.fast.game import FastGame  # noqa: E402
