"""What the long runs (``ono99 arena``, ``ono99 analyze``) share: bounds on their sizes, a
progress bar, and a clean stop on Ctrl-C or SIGTERM.

- The bar is Rich's, on stderr, shown only when stderr is a terminal and no JSON is being
  printed to one (it would mix with the JSON on the same screen).
- Ctrl-C (SIGINT) and SIGTERM stop the run with one line, ``ono99: interrupted``, exit
  status 130 or 143 (128 + the signal), no traceback; the worker processes ignore SIGINT
  (the parent stops them), so none of them prints one either.
"""

from __future__ import annotations

import signal
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import FrameType
from typing import Any

import typer

from ono99.i18n import N_, _

__all__ = ["check_range", "check_workers", "check_backend", "check_ray", "games_run", "long_run",
           "show_progress"]  # fmt: skip


def check_range(option: str, value: float, low: float, high: float) -> None:
    """``option`` must lie from ``low`` to ``high``: else the one-line error, exit 2
    (a NaN is outside every range)."""
    from ono99.cli.base import fail

    if not low <= value <= high:
        raise fail(
            _("{option} must be from {low} to {high}, not {value}").format(
                option=option, low=f"{low:,}", high=f"{high:,}", value=value
            )
        )


def check_workers(workers: int | None) -> None:
    """``--workers``: from 1 to the CPU cores this process may use (more would only fork
    processes that wait for a core)."""
    from ono99.arena import default_workers

    if workers is not None:
        check_range("--workers", workers, 1, default_workers())


class _Terminated(Exception):
    """SIGTERM arrived (raised in the main thread by the handler)."""


def _on_sigterm(signum: int, frame: FrameType | None) -> None:
    raise _Terminated


def _bar(total: int) -> tuple[Any, Callable[[int], None]]:
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    bar = Progress(
        "[progress.description]{task.description}",
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        transient=True,
    )
    # TRANSLATORS: the label of the progress bar of ono99 arena / analyze
    task = bar.add_task(_("games"), total=total)

    def progress(done: int) -> None:
        bar.update(task, completed=done)

    return bar, progress


def show_progress(as_json: bool) -> bool:
    """Whether a long run shows its progress bar (see the module's docstring)."""
    return sys.stderr.isatty() and not (as_json and sys.stdout.isatty())


@contextmanager
def long_run(total: int, bar: bool) -> Iterator[Callable[[int], None] | None]:
    """Run the body with a progress callback for ``total`` games (a bar when ``bar``, else
    None) and SIGTERM turned into a clean stop; Ctrl-C or SIGTERM inside it prints one
    line and raises :class:`typer.Exit` (130 or 143)."""
    previous = signal.getsignal(signal.SIGTERM)
    try:
        signal.signal(signal.SIGTERM, _on_sigterm)
    except ValueError:  # not the main thread: no handler, the default applies
        previous = None
    shown: Any = None
    try:
        progress = None
        if bar:
            shown, progress = _bar(total)
            shown.start()
        yield progress
    except (KeyboardInterrupt, _Terminated) as e:
        if shown is not None:
            shown.stop()
            shown = None
        print("ono99: " + _("interrupted"), file=sys.stderr)
        raise typer.Exit(143 if isinstance(e, _Terminated) else 130) from None
    finally:
        if shown is not None:
            shown.stop()
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)


#: the one line of --backend ray without Ray
RAY_NEEDED = N_("the ray backend needs Ray: pip install 'ono99[ray]'")


def check_backend(backend: str, workers: int | None) -> None:
    """``--backend`` (local or ray, Ray installed) and ``--workers``: else the one-line
    error, exit 2."""
    from ono99.cli.base import fail

    if backend not in ("local", "ray"):
        raise fail(_("--backend must be local or ray, not {backend}").format(backend=repr(backend)))
    check_workers(workers)


def check_ray(backend: str) -> None:
    """With ``--backend ray``, Ray must be installed: else the one-line error, exit 2."""
    from ono99.cli.base import fail

    if backend == "ray":
        try:
            import ray  # noqa: F401
        except ImportError:
            raise fail(_(RAY_NEEDED)) from None


@contextmanager
def games_run(total: int, as_json: bool) -> Iterator[Callable[[int], None] | None]:
    """:func:`long_run` for ``total`` games of the arena's backends, with the bar where
    :func:`show_progress` shows it; a Ray cluster that is gone is the one-line error."""
    from ono99.arena import RayMissing
    from ono99.cli.base import fail

    try:
        with long_run(total, show_progress(as_json)) as progress:
            yield progress
    except RayMissing:
        raise fail(_(RAY_NEEDED)) from None
