"""Where the games run: in this process, in a multiprocessing pool, or on Ray.

Every backend maps :func:`~ono99.arena.tournament.play_games` (or another module-level
function of the same shape, :func:`run_chunks`: ``ono99 analyze`` plays its games this
way) over chunks of game indices; results are re-sorted by game index, so wins and games
are identical whatever the backend and the number of workers.
"""

from __future__ import annotations

import os
import signal
from collections.abc import Callable, Iterator
from typing import Any, Protocol, TypeVar

from ono99.arena.tournament import ArenaSpec, GameResult, play_games
from ono99.errors import Ono99Error
from ono99.i18n import N_

__all__ = ["BACKENDS", "RayMissing", "chunks", "default_workers", "run_chunks", "run_games"]

BACKENDS = ("local", "ray")

#: called with the number of games finished so far
Progress = Callable[[int], None]


class _Indexed(Protocol):
    @property
    def index(self) -> int: ...


R = TypeVar("R", bound=_Indexed)
#: plays the games of one chunk of indices, in order (a module-level function: workers
#: receive it by reference)
Player = Callable[[ArenaSpec, range], list[R]]


class RayMissing(ImportError):
    """The ``ray`` backend was asked for but Ray is not installed."""


def default_workers() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not on Linux
        return max(1, os.cpu_count() or 1)


def chunks(games: int, workers: int) -> list[range]:
    """Split ``range(games)`` into contiguous chunks (several per worker, for balance).

    >>> parts = chunks(40, 2)
    >>> len(parts), parts[0], parts[-1]
    (8, range(0, 5), range(35, 40))
    """
    size = max(1, min(50, games // (workers * 4) or 1))
    return [range(i, min(i + size, games)) for i in range(0, games, size)]


def _worker_signals() -> None:
    """A pool worker leaves stopping to its parent: it ignores Ctrl-C (SIGINT goes to the
    whole terminal's process group; the parent stops the pool) and dies quietly of SIGTERM
    (what the pool sends it), whatever handlers it inherited from the parent."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def _play_chunk(args: tuple[Player[R], ArenaSpec, range]) -> list[R]:
    play, spec, idx = args
    return play(spec, idx)


def _local(
    spec: ArenaSpec, play: Player[R], workers: int, progress: Progress | None
) -> Iterator[R]:
    parts = chunks(spec.games, workers)
    done = 0
    if workers <= 1:
        for part in parts:
            res = play(spec, part)
            done += len(res)
            if progress:
                progress(done)
            yield from res
        return
    import multiprocessing as mp

    ctx = mp.get_context("spawn" if os.name == "nt" else "fork")
    with ctx.Pool(workers, initializer=_worker_signals) as pool:
        for res in pool.imap_unordered(_play_chunk, [(play, spec, p) for p in parts]):
            done += len(res)
            if progress:
                progress(done)
            yield from res


def _ray(
    spec: ArenaSpec, play: Player[R], workers: int | None, progress: Progress | None
) -> Iterator[R]:
    try:
        import ray
    except ImportError:
        raise RayMissing("pip install 'ono99[ray]'") from None
    started = False
    if not ray.is_initialized():
        kwargs: dict[str, Any] = {
            "include_dashboard": False,
            "logging_level": "ERROR",
            "log_to_driver": False,
        }
        if workers:
            kwargs["num_cpus"] = workers
        ray.init(**kwargs)
        started = True
    try:
        # the chunk function, not ``play`` itself: ray.remote takes only a function or a
        # class, and ``play`` may be a functools.partial (the analysis's reviews)
        remote: Any = ray.remote(num_cpus=1)(_play_chunk)
        parts = chunks(spec.games, workers or default_workers())
        pending = [remote.remote((play, spec, p)) for p in parts]
        done = 0
        while pending:
            ready, pending = ray.wait(pending, num_returns=1)
            for ref in ready:
                res: list[R] = ray.get(ref)
                done += len(res)
                if progress:
                    progress(done)
                yield from res
    finally:
        if started:
            ray.shutdown()


def run_games(
    spec: ArenaSpec,
    backend: str = "local",
    workers: int | None = None,
    progress: Progress | None = None,
) -> list[GameResult]:
    """Play every game of ``spec`` on ``backend``; results in game order."""
    return run_chunks(spec, play_games, backend, workers, progress)


def run_chunks(
    spec: ArenaSpec,
    play: Player[R],
    backend: str = "local",
    workers: int | None = None,
    progress: Progress | None = None,
) -> list[R]:
    """Map ``play`` over chunks of ``range(spec.games)`` on ``backend``; the results
    (anything with an ``index``) in game order."""
    if backend == "local":
        results = list(_local(spec, play, workers or default_workers(), progress))
    elif backend == "ray":
        results = list(_ray(spec, play, workers, progress))
    else:
        raise Ono99Error(N_("--backend must be local or ray, not {backend}"), backend=repr(backend))
    results.sort(key=lambda r: r.index)
    return results
