"""Say that the fast engine is compiling, instead of sitting silent (issue 38).

Numba compiles each kernel the first time it is called, and keeps it in ``__pycache__``:
on a machine without that cache the first game, step or batch waits 17-49 s (minutes on
a loaded machine) with nothing on the screen. :func:`announce_first_call` wraps the
entry points that call kernels; during their first call in a process, Numba's own
``numba:compile`` event (sent when a function is really compiled, not when it is loaded
from the cache) makes one translated line go to stderr, once per process, and only when
stderr is a terminal: a script's or a test's stderr keeps its one-line errors. After its
first call the wrapper takes itself off the class, so the calls after it cost nothing
extra (they run at every step of the environments).
"""

from __future__ import annotations

import functools
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

from numba.core import event

from ono99.i18n import _

__all__ = ["TTY_ONLY", "announce_first_call", "compiling_notice"]

#: say it only when stderr is a terminal (a person waiting at it)
TTY_ONLY = True

_said = threading.Event()

F = TypeVar("F", bound=Callable[..., Any])


class _Compiling(event.Listener):
    """Says it at the start of the first real compilation."""

    def on_start(self, ev: Any) -> None:
        if _said.is_set() or (TTY_ONLY and not sys.stderr.isatty()):
            return
        _said.set()
        # TRANSLATORS: shown once, on stderr, while Numba compiles the fast engine's
        # functions at their first use on this machine (then they are loaded from a cache)
        print(_("Compiling the fast engine (first use on this machine, about a minute)…"),
              file=sys.stderr, flush=True)  # fmt: skip

    def on_end(self, ev: Any) -> None:
        pass


@contextmanager
def compiling_notice() -> Iterator[None]:
    """The notice if Numba compiles anything in the block (and it was not yet shown)."""
    if _said.is_set():
        yield
        return
    with event.install_listener("numba:compile", _Compiling()):
        yield


def announce_first_call(method: F) -> F:
    """``method`` (of a class) with its first call under :func:`compiling_notice`; after
    it, the class holds ``method`` itself again (no wrapper at later calls)."""

    @functools.wraps(method)
    def first(self: Any, *args: Any, **kwargs: Any) -> Any:
        with compiling_notice():
            result = method(self, *args, **kwargs)
        for klass in type(self).__mro__:
            if klass.__dict__.get(method.__name__) is first:
                setattr(klass, method.__name__, method)
        return result

    return first  # type: ignore[return-value]
