"""Server CPU per move: two processes on PostgreSQL against one process on SQLite, side by
side (issue 35's floor: at most 2 times), with PostgreSQL's transactions per move.

Runs ``benchmarks/load.py``'s play (4 scripted websocket clients per table, every move a
client round trip, every record replayed) ``--rounds`` times for each of the two set-ups,
alternating which goes first in each round, so that both see the same background load.
Each PostgreSQL run gets a database of its own (``CREATE DATABASE``, dropped afterwards):
PostgreSQL counts transactions per database (``pg_stat_database``), so that count is the
two processes' own, over their whole lives (start, set-up, play, stop). Prints ONE JSON
object: every run, the medians of each set-up, the ratio of the medians, the median of the
rounds' ratios and the load averages::

    python benchmarks/processes_cpu.py --rounds 3 --tables 100 --think 1.0 \\
        --pg postgresql://postgres@127.0.0.1:5432/test
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import statistics
import sys
import time
import uuid
from pathlib import Path
from types import ModuleType
from typing import Any


def _load_script() -> ModuleType:
    # on the path by its own name: the client processes (spawned) import it again
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    return importlib.import_module("load")


def _fresh_database(url: str) -> tuple[str, Any, Any]:
    """(URL of a new database on the server of ``url``, its transaction count, drop)."""
    import sqlalchemy as sa

    admin = sa.create_engine(
        url.replace("postgresql://", "postgresql+psycopg://", 1), isolation_level="AUTOCOMMIT"
    )
    name = "ono99_bench_" + uuid.uuid4().hex[:10]
    with admin.connect() as c:
        c.execute(sa.text(f"create database {name}"))

    def xacts() -> int:
        with admin.connect() as c:
            c.execute(sa.text("select pg_stat_clear_snapshot()"))
            n = c.execute(
                sa.text(
                    "select xact_commit + xact_rollback from pg_stat_database where datname = :d"
                ),
                {"d": name},
            ).scalar()
            return int(n or 0)

    def drop() -> None:
        with admin.connect() as c:
            c.execute(sa.text(f"drop database {name} with (force)"))
        admin.dispose()

    base, _, rest = url.partition("?")
    fresh = base.rsplit("/", 1)[0] + "/" + name + ("?" + rest if rest else "")
    return fresh, xacts, drop


def _settled(count: Any) -> int:
    """The count once the ended connections' figures have arrived (it stops moving)."""
    last, deadline = count(), time.monotonic() + 15
    while time.monotonic() < deadline:
        time.sleep(0.5)
        now = count()
        if now == last:
            return int(now)
        last = now
    return int(last)


def _one(load: ModuleType, args: argparse.Namespace, kind: str) -> dict[str, Any]:
    run_args = argparse.Namespace(
        tables=args.tables, think=args.think, ramp=2 * args.think, seconds=args.seconds,
        seed=args.seed, client_procs=1, profile=None, profile_seconds=0.0,
        servers=1 if kind == "sqlite" else 2, db=None,
    )  # fmt: skip
    drop = None
    if kind == "postgresql":
        run_args.db, xacts, drop = _fresh_database(args.pg)
    try:
        r = load.run(run_args)
        out = {
            "db": kind,
            "servers": run_args.servers,
            "moves": r["moves"],
            "errors": r["errors"],
            "finished": r["finished"],
            "server_ms_per_move": r["cpu_s"]["server_ms_per_move"],
            "p50_ms": r["rtt_ms"]["p50"],
            "p99_ms": r["rtt_ms"]["p99"],
            "loadavg_before": r["settings"]["loadavg_before"],
        }
        if kind == "postgresql":
            total = _settled(xacts)
            out["transactions"] = total
            out["transactions_per_move"] = round(total / max(1, r["moves"]), 3)
        return out
    finally:
        if drop is not None:
            drop()


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--tables", type=int, default=100, help="concurrent 4-seat tables")
    p.add_argument("--think", type=float, default=1.0, help="mean think time per move (s)")
    p.add_argument("--seconds", type=float, default=240.0, help="limit on each play (s)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument(
        "--pg",
        default="postgresql://postgres@127.0.0.1:5432/test",
        help="a PostgreSQL URL whose user may create databases",
    )
    args = p.parse_args(argv)
    if args.rounds < 1 or args.tables < 1 or args.think < 0 or args.seconds <= 0:
        p.error("--rounds, --tables and --seconds must be positive, --think not negative")
    load = _load_script()
    before = os.getloadavg()
    runs: list[dict[str, Any]] = []
    ratios: list[float] = []
    for k in range(args.rounds):
        order = ["sqlite", "postgresql"] if k % 2 == 0 else ["postgresql", "sqlite"]
        pair = {kind: _one(load, args, kind) for kind in order}
        runs += [pair[kind] for kind in order]
        sq, pg = pair["sqlite"]["server_ms_per_move"], pair["postgresql"]["server_ms_per_move"]
        ratios.append(pg / sq)
    sqlite_ms = statistics.median(r["server_ms_per_move"] for r in runs if r["db"] == "sqlite")
    pg_ms = statistics.median(r["server_ms_per_move"] for r in runs if r["db"] == "postgresql")
    per_move = statistics.median(r["transactions_per_move"] for r in runs if "transactions" in r)
    print(
        json.dumps(
            {
                "runs": runs,
                "sqlite_1_server_ms_per_move": round(sqlite_ms, 3),
                "postgresql_2_servers_ms_per_move": round(pg_ms, 3),
                "ratio_of_medians": round(pg_ms / sqlite_ms, 2),
                "median_of_round_ratios": round(statistics.median(ratios), 2),
                "postgresql_transactions_per_move": per_move,
                "errors": sum(r["errors"] for r in runs),
                "settings": {
                    "rounds": args.rounds,
                    "tables": args.tables,
                    "think_s": args.think,
                    "cpus": os.cpu_count(),
                    "loadavg_before": [round(x, 2) for x in before],
                    "loadavg_after": [round(x, 2) for x in os.getloadavg()],
                },
            }
        ),
        flush=True,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
