"""Memory of one ``ono99 serve`` process over many finished tables: what the RSS does, what
holds it, and whether the C allocator (glibc malloc) is what keeps it.

The web app runs as ``ono99 serve`` runs it (uvicorn, the serving collector settings),
in a thread of this process so that the tables can be looked at; each round creates
``--tables`` four-seat tables (one player who never connects, so a bot plays the seat
after ``away_seconds`` 0, and three easy bots) and plays them to the end, ``--batch`` at a
time (by default all of them at once: the peak), then waits until every finished table has
left memory (``--finished-seconds``, ``ONO99_FINISHED_SECONDS``). After each round it prints one JSON line::

    {"round", "tables", "in_memory", "rss_mb", "rss_after_trim_mb", "python_mb",
     "gc_objects"}

``rss_mb`` is the resident set then, ``python_mb`` what Python's own allocations add up to
(``tracemalloc``, with ``--trace``; else null), ``rss_after_trim_mb`` the resident set once
``malloc_trim(0)`` has handed glibc's free memory back to the system (Linux/glibc only;
else null). With ``--trace`` the last line also lists the allocation sites that grew
most from the end of the first round to the end of the last (the first round's snapshot is
kept for that, so from the second round on the resident set and the object count include
it: read them from a run without ``--trace``).

    python benchmarks/web_memory.py --tables 900 --rounds 3
    python benchmarks/web_memory.py --tables 300 --rounds 3 --trace
"""

from __future__ import annotations

import argparse
import asyncio
import ctypes
import ctypes.util
import dataclasses
import gc
import json
import sys
import tempfile
import threading
import time
import tracemalloc
from pathlib import Path
from typing import Any

import httpx
import uvicorn

from ono99.web.app import create_app, serving_gc
from ono99.web.limits import FRAME_LIMIT, Limits


def rss_mb() -> float:
    """This process's resident set, in MB (Linux ``/proc``)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return round(int(line.split()[1]) / 1024, 1)
    raise RuntimeError("no VmRSS in /proc/self/status")


def _malloc_trim() -> Any:
    """glibc's ``malloc_trim``, or None where there is none."""
    name = ctypes.util.find_library("c")
    if name is None:
        return None
    libc = ctypes.CDLL(name)
    return getattr(libc, "malloc_trim", None)


class Served:
    """The app under uvicorn in a thread, as ``ono99 serve`` serves it."""

    def __init__(self, db: str, finished_seconds: float) -> None:
        limits = dataclasses.replace(Limits.off(), finished_seconds=finished_seconds)
        self.app = create_app(db, limits=limits)
        config = uvicorn.Config(
            # log_config=None: uvicorn's own dictConfig would close every logging handler of
            # the process (pytest's too, when a test runs this in-process)
            self.app, host="127.0.0.1", port=0, ws_max_size=FRAME_LIMIT, log_config=None,
            log_level="warning",
            access_log=False, lifespan="on", timeout_keep_alive=120,  # no close mid-reuse
        )  # fmt: skip
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self) -> Served:
        self.thread.start()
        while not self.server.started:
            if not self.thread.is_alive():
                raise RuntimeError("the server did not start")
            time.sleep(0.02)
        port = self.server.servers[0].sockets[0].getsockname()[1]
        self.url = f"http://127.0.0.1:{port}"
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(30)

    @property
    def tables(self) -> dict[str, Any]:
        return dict(self.app.state.hub.tables)


async def play_round(srv: Served, tables: int, batch: int, first_seed: int) -> None:
    """``tables`` tables made, started and played to the end, ``batch`` at a time."""
    pool = httpx.Limits(max_connections=50)  # requests queue here, not at the server
    async with httpx.AsyncClient(timeout=httpx.Timeout(60, pool=None), limits=pool) as http:

        async def one(seed: int) -> str:
            r = await http.post(srv.url + "/api/tables", json={
                "players": 4, "bots": "easy", "seed": seed, "bot_delay": 0,
                "away_seconds": 0, "draw_window": 0, "name": "Ana"})  # fmt: skip
            r.raise_for_status()
            t = r.json()
            r = await http.post(f"{srv.url}/api/tables/{t['table']}/start",
                                json={"token": t["token"]})  # fmt: skip
            r.raise_for_status()
            return str(t["table"])

        for start in range(0, tables, batch):
            ids = await asyncio.gather(
                *(one(first_seed + i) for i in range(start, min(tables, start + batch)))
            )
            # each game plays itself (bots, and a bot for the absent player): wait until
            # every one is over or has already left memory
            while any((t := srv.tables.get(i)) is not None and t.phase != "over" for i in ids):
                await asyncio.sleep(0.05)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    p.add_argument("--tables", type=int, default=900, help="tables per round")
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--batch", type=int, default=900, help="tables played at once")
    p.add_argument(
        "--finished-seconds",
        type=float,
        default=2.0,
        help="ONO99_FINISHED_SECONDS: how long a finished table stays in memory",
    )
    p.add_argument("--trace", action="store_true", help="tracemalloc: Python's own bytes")
    args = p.parse_args(argv)
    trim = _malloc_trim()
    if args.trace:
        tracemalloc.start(8)
    first: tracemalloc.Snapshot | None = None
    with (
        tempfile.TemporaryDirectory() as tmp,
        Served(f"sqlite:///{tmp}/web.db", args.finished_seconds) as srv,
    ):
        serving_gc()  # as ono99 serve: what exists now frozen, the young generation larger
        print(json.dumps({"round": 0, "rss_mb": rss_mb()}), flush=True)
        for k in range(1, args.rounds + 1):
            asyncio.run(play_round(srv, args.tables, args.batch, k * 1_000_000))
            while srv.tables:  # every finished table leaves memory (the sweep)
                time.sleep(0.05)
            gc.collect()
            line: dict[str, Any] = {
                "round": k, "tables": args.tables * k, "in_memory": len(srv.tables),
                "rss_mb": rss_mb(), "gc_objects": len(gc.get_objects()),
                "python_mb": round(tracemalloc.get_traced_memory()[0] / 2**20, 1)
                if args.trace else None,
            }  # fmt: skip
            line["rss_after_trim_mb"] = None
            if trim is not None:
                trim(0)
                line["rss_after_trim_mb"] = rss_mb()
            if args.trace:  # last: the first round's snapshot is kept, and holds memory
                snap = tracemalloc.take_snapshot().filter_traces(
                    [tracemalloc.Filter(False, tracemalloc.__file__)]
                )
                if first is None:
                    first = snap
                elif k == args.rounds:
                    grew = snap.compare_to(first, "lineno")[:8]
                    line["grew"] = [
                        f"{s.traceback[0]}: {s.size_diff / 1024:+.0f} KiB" for s in grew
                    ]
            print(json.dumps(line), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
