"""Load on the web server: many concurrent 4-seat tables played to the end over websockets.

Starts ``ono99 serve`` (one or more processes on the same database), sets up ``--tables``
tables of 4 human seats, each seat driven by its own scripted websocket client (4
connections per table, no bots: every move is a real client round trip and is fanned out
to 4 connections), starts every table at once and plays them all to the end. A client waits
``--think`` seconds (uniform 0.5x..1.5x) before each of its moves, then plays a random legal
move. The tables start one after the other over ``--ramp`` seconds (2 x think by default), all
of them then playing at once. Prints ONE JSON object on stdout::

    {"tables", "finished", "moves", "seconds", "moves_per_s", "rtt_ms": {"p50", "p99", ...},
     "errors", "error_samples", "replayed", "settings": {...}}

``rtt_ms`` is the move round trip: from the moment a client sends its move until it
receives the ``state`` that acknowledges it (the new state). ``errors`` counts error
messages, failed connections, tables not finished in time and records whose replay does
not end with the winner the clients saw; every finished table's record
(``GET /api/tables/{id}/record``) is replayed through ``ono99.records.replay``.

Bounded: at most ``--seconds`` of play, then it stops by itself. Clients run in
``--client-procs`` processes of their own, apart from the server(s)::

    python benchmarks/load.py --tables 500 --think 1.0
    python benchmarks/load.py --tables 500 --db postgresql://postgres@127.0.0.1:5432/test
    python benchmarks/load.py --tables 500 --servers 2 --db postgresql://...
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import multiprocessing as mp
import os
import random
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

SEATS = 4

try:  # the clients' own parsing, not the server's: the faster the better
    import orjson

    _loads: Callable[[str | bytes], Any] = orjson.loads
except ImportError:  # pragma: no cover
    _loads = json.loads
NAMES = ("Ana", "Bo", "Cy", "Di")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * (len(xs) - 1) + 0.5))] if xs else 0.0


# ---------------------------------------------------------------- clients


@dataclass
class Seat:
    table: str
    seat: int
    token: str
    url: str  # ws base of the server this seat talks to
    ws: Any = None
    state: dict[str, Any] | None = None
    tried: int = -1
    sent_at: dict[int, float] = field(default_factory=dict)
    next_id: int = 0


@dataclass
class Tally:
    moves: int = 0
    rtts: list[float] = field(default_factory=list)
    errors: int = 0
    samples: list[str] = field(default_factory=list)
    winners: dict[str, Any] = field(default_factory=dict)
    finished: int = 0
    last_state_at: float = 0.0

    def error(self, text: str) -> None:
        self.errors += 1
        if len(self.samples) < 10:
            self.samples.append(text[:300])


async def _http(
    client: Any, method: str, url: str, body: dict[str, Any] | None = None
) -> dict[str, Any]:
    for attempt in range(5):
        try:
            r = await client.request(method, url, json=body)
        except Exception:
            if attempt == 4:
                raise
            await asyncio.sleep(0.2 * (attempt + 1))
            continue
        if r.status_code >= 400:
            raise RuntimeError(f"{method} {url}: {r.status_code} {r.text[:200]}")
        return dict(r.json())
    raise RuntimeError("unreachable")  # pragma: no cover


async def _setup_table(
    client: Any, servers: list[str], k: int, tally: Tally
) -> tuple[str, list[Seat], str]:
    """Create table ``k``, join its 4 seats (seat s on server (k + s) % len(servers)), open
    their websockets and wait for their first state. Returns (table, seats, start token)."""
    from websockets.asyncio.client import connect

    home = servers[k % len(servers)]
    t = await _http(client, "POST", f"{home}/api/tables",
                    {"players": SEATS, "bots": "easy", "bot_delay": 0, "draw_window": 0,
                     "away_seconds": 600})  # fmt: skip
    tid = t["table"]
    seats: list[Seat] = []
    for s in range(SEATS):
        srv = servers[(k + s) % len(servers)]
        j = await _http(client, "POST", f"{srv}/api/tables/{tid}/join", {"name": NAMES[s]})
        seats.append(Seat(tid, j["seat"], j["token"], srv.replace("http://", "ws://")))
    for st in seats:
        # no client pings: browsers do not send them (the server pings every 20 s)
        st.ws = await connect(
            f"{st.url}/ws/{tid}?token={st.token}", max_size=2**22, ping_interval=None
        )
    for st in seats:
        while st.state is None:
            msg = _loads(await asyncio.wait_for(st.ws.recv(), 30))
            if msg["type"] == "state":
                st.state = msg
    return tid, seats, seats[0].token


async def _play_seat(st: Seat, tally: Tally, think: float, rng: random.Random, end: float) -> None:
    """Read this seat's messages until the game is over; move when it may."""
    mover: asyncio.Task[None] | None = None

    async def move_later(version: int, legal: list[str]) -> None:
        await asyncio.sleep(think * (0.5 + rng.random()) if think > 0 else 0)
        if st.state is None or st.state["version"] != version:
            return
        st.next_id += 1
        st.sent_at[st.next_id] = time.perf_counter()
        await st.ws.send(
            json.dumps(
                {"type": "move", "move": rng.choice(legal), "version": version, "id": st.next_id}
            )
        )

    try:
        # no timeout per message (cheaper): a watchdog closes every socket at the deadline
        async for raw in st.ws:
            now = time.perf_counter()
            msg = _loads(raw)
            if msg["type"] == "error":
                tally.error(f"table {st.table} seat {st.seat}: {msg.get('error')}")
                st.sent_at.pop(msg.get("id", -1), None)
                continue
            if msg["type"] != "state":
                continue
            ack = msg.get("ack")
            if ack is not None and ack in st.sent_at:
                tally.rtts.append(now - st.sent_at.pop(ack))
                tally.moves += 1
            st.state = msg
            tally.last_state_at = time.time()
            view = msg["view"]
            if view["phase"] == "over":
                tally.winners.setdefault(st.table, []).append(view["winner"])
                return
            if view["legal"] and msg["version"] != st.tried:
                st.tried = msg["version"]
                mover = asyncio.create_task(move_later(msg["version"], list(view["legal"])))
        late = time.time() >= end
        tally.error(
            f"table {st.table} seat {st.seat}: " + ("not over in time" if late else "closed")
        )
    except Exception as e:
        if time.time() >= end:
            tally.error(f"table {st.table} seat {st.seat}: not over in time")
        else:
            tally.error(f"table {st.table} seat {st.seat}: {type(e).__name__}: {e}")
    finally:
        if mover is not None:
            mover.cancel()


async def _client_main(
    servers: list[str], first: int, count: int, think: float, ramp: float, seconds: float,
    seed: int,
    ready: Any, go: Any, out: Any,
) -> None:  # fmt: skip
    import httpx

    tally = Tally()
    limits = httpx.Limits(max_connections=20)
    async with httpx.AsyncClient(timeout=60, limits=limits) as client:
        sem = asyncio.Semaphore(16)
        tables: list[tuple[str, list[Seat], str]] = []

        async def one(k: int) -> None:
            async with sem:
                try:
                    tables.append(await _setup_table(client, servers, k, tally))
                except Exception as e:
                    tally.error(f"setup of table {k}: {type(e).__name__}: {e}")

        await asyncio.gather(*(one(k) for k in range(first, first + count)))
        # The measuring clients must not add pauses of their own to what they measure:
        # with 2,000 connections a full collection here took 100-230 ms (gc.callbacks,
        # 2026-12-02), time every move in flight was charged as round trip. The setup's
        # objects are frozen out of collection and collections come less often.
        gc.collect()
        gc.freeze()
        gc.set_threshold(100_000, 50, 50)
        ready.set()
        while not go.is_set():  # bounded by the parent's deadline
            await asyncio.sleep(0.01)
        t0 = time.time()
        end = t0 + seconds
        rng = random.Random(seed)
        players = [
            asyncio.create_task(_play_seat(st, tally, think, random.Random(rng.random()), end))
            for _tid, seats, _tok in tables
            for st in seats
        ]

        async def start(k: int, tid: str, token: str, home: str) -> None:
            # table k starts at k/n of the ramp: tables that open together in real life
            # still do not all start in the same instant
            await asyncio.sleep(ramp * k / max(1, len(tables)))
            async with sem:
                try:
                    await _http(client, "POST", f"{home}/api/tables/{tid}/start", {"token": token})
                except Exception as e:
                    tally.error(f"start of {tid}: {e}")

        await asyncio.gather(
            *(
                start(k, tid, tok, seats[0].url.replace("ws://", "http://"))
                for k, (tid, seats, tok) in enumerate(tables)
            )
        )

        async def watchdog() -> None:
            await asyncio.sleep(max(0.0, end - time.time()))
            for _tid, seats, _tok in tables:
                for st in seats:
                    with contextlib.suppress(Exception):
                        await st.ws.close()

        dog = asyncio.create_task(watchdog())
        await asyncio.gather(*players)
        dog.cancel()
        t1 = max(tally.last_state_at, t0)
        # Every finished table's record replays to the winner its clients saw.
        from ono99.records import replay

        replayed = 0
        for tid, seats, _tok in tables:
            seen = tally.winners.get(tid, [])
            if len(seen) != SEATS:
                continue
            tally.finished += 1
            if any(w != seen[0] for w in seen):
                tally.error(f"table {tid}: the clients saw different winners {seen}")
                continue
            try:
                rec = await _http(client, "GET", f"{seats[0].url.replace('ws://', 'http://')}"
                                  f"/api/tables/{tid}/record")  # fmt: skip
                game = replay(rec)
            except Exception as e:
                tally.error(f"table {tid}: record: {type(e).__name__}: {e}")
                continue
            if not game.is_over or game.winner != seen[0]:
                tally.error(f"table {tid}: the record replays to {game.winner}, seen {seen[0]}")
                continue
            replayed += 1
        for _tid, seats, _tok in tables:
            for st in seats:
                with contextlib.suppress(Exception):
                    await st.ws.close()
    import resource

    ru = resource.getrusage(resource.RUSAGE_SELF)
    out.put(
        {"cpu_s": ru.ru_utime + ru.ru_stime, "t0": t0, "t1": t1, "moves": tally.moves, "rtts": tally.rtts, "errors": tally.errors,
         "samples": tally.samples, "finished": tally.finished, "replayed": replayed,
         "tables": len(tables)}
    )  # fmt: skip


def _client_proc(*args: Any) -> None:
    try:
        import uvloop

        uvloop.install()
    except ImportError:  # pragma: no cover
        pass
    asyncio.run(_client_main(*args))


# ---------------------------------------------------------------- servers


def start_server(db: str, log: Path, env: dict[str, str]) -> tuple[subprocess.Popen[bytes], str]:
    import httpx

    for _attempt in range(5):
        port = free_port()
        with log.open("ab") as f:
            proc = subprocess.Popen(
                [sys.executable, "-m", "ono99", "serve", "--host", "127.0.0.1",
                 "--port", str(port), "--db", db],
                stdout=f, stderr=subprocess.STDOUT, env=env,
            )  # fmt: skip
        url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and proc.poll() is None:
            try:
                if httpx.get(url + "/healthz", timeout=1).status_code == 200:
                    return proc, url
            except httpx.HTTPError:
                pass
            time.sleep(0.05)
        stop(proc)
    raise RuntimeError("the server did not start:\n" + log.read_text()[-2000:])


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a running process (Linux /proc)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return float("nan")


def stop(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def _pg_schema(url: str) -> tuple[str, Any]:
    """A fresh schema of the PostgreSQL database ``url``: (server URL, drop function)."""
    import sqlalchemy as sa

    engine = sa.create_engine(url.replace("postgresql://", "postgresql+psycopg://", 1))
    schema = "ono99_load_" + uuid.uuid4().hex[:10]
    with engine.begin() as c:
        c.execute(sa.text(f"create schema {schema}"))

    def drop() -> None:
        with engine.begin() as c:
            c.execute(sa.text(f"drop schema {schema} cascade"))
        engine.dispose()

    sep = "&" if "?" in url else "?"
    return f"{url}{sep}options=-csearch_path%3D{schema}", drop


def run(args: argparse.Namespace) -> dict[str, Any]:
    folder = Path(tempfile.mkdtemp(prefix="ono99-load-"))
    drop = None
    if args.db is None:
        db = f"sqlite:///{folder / 'load.db'}"
    elif args.db.startswith("postgresql"):
        db, drop = _pg_schema(args.db)
    else:
        db = args.db
    # Every client comes from 127.0.0.1: the per-address rate and connection limits
    # (web/limits.py) would refuse them, so they are off here (ONO99_LIMITS=off).
    env = {**os.environ, "PYTHONUNBUFFERED": "1", "ONO99_LIMITS": "off"}
    load_before = os.getloadavg()
    procs: list[subprocess.Popen[bytes]] = []
    try:
        urls = []
        for i in range(args.servers):
            p, u = start_server(db, folder / f"server{i}.log", env)
            procs.append(p)
            urls.append(u)
        ctx = mp.get_context("spawn")
        ready = [ctx.Event() for _ in range(args.client_procs)]
        go = ctx.Event()
        out = ctx.Queue()
        share = [args.tables // args.client_procs] * args.client_procs
        for i in range(args.tables % args.client_procs):
            share[i] += 1
        clients = []
        first = 0
        for i, n in enumerate(share):
            c = ctx.Process(
                target=_client_proc,
                args=(
                    urls,
                    first,
                    n,
                    args.think,
                    args.ramp,
                    args.seconds,
                    args.seed + i,
                    ready[i],
                    go,
                    out,
                ),
                daemon=True,
            )
            c.start()
            clients.append(c)
            first += n
        setup_deadline = time.monotonic() + args.seconds + 120
        for e in ready:
            e.wait(max(1.0, setup_deadline - time.monotonic()))
        if args.profile:
            prof = subprocess.Popen(
                ["py-spy", "record", "-o", args.profile, "--pid", str(procs[0].pid),
                 "--duration", str(int(args.profile_seconds)), "--nonblocking",
                 "--format", "raw" if args.profile.endswith(".txt") else "flamegraph"],
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            )  # fmt: skip
        cpu_before = [cpu_seconds(p.pid) for p in procs]
        go.set()
        results = []
        for _ in clients:
            results.append(out.get(timeout=args.seconds + 600))
        server_cpu = sum(cpu_seconds(p.pid) for p in procs) - sum(cpu_before)
        for c in clients:
            c.join(30)
        if args.profile:
            prof.wait(60)
    finally:
        for p in procs:
            stop(p)
        if drop is not None:
            drop()
        shutil.rmtree(folder, ignore_errors=True)
    rtts = [x for r in results for x in r["rtts"]]
    t0 = min(r["t0"] for r in results)
    t1 = max(r["t1"] for r in results)
    secs = max(1e-9, t1 - t0)
    moves = sum(r["moves"] for r in results)
    errors = sum(r["errors"] for r in results)
    samples = [s for r in results for s in r["samples"]][:10]
    made = sum(r["tables"] for r in results)
    errors += args.tables - made  # tables that could not be set up
    return {
        "tables": args.tables,
        "finished": sum(r["finished"] for r in results),
        "replayed": sum(r["replayed"] for r in results),
        "moves": moves,
        "seconds": round(secs, 2),
        "moves_per_s": round(moves / secs, 1),
        "rtt_ms": {
            "p50": round(pct(rtts, 0.5) * 1000, 2),
            "p90": round(pct(rtts, 0.9) * 1000, 2),
            "p99": round(pct(rtts, 0.99) * 1000, 2),
            "max": round(max(rtts, default=0) * 1000, 2),
            "mean": round(statistics.fmean(rtts) * 1000, 2) if rtts else 0.0,
        },
        "errors": errors,
        "error_samples": samples,
        # CPU seconds: servers from the start of play to the end of the replay checks,
        # client processes over their whole life (setup included)
        "cpu_s": {
            "servers": round(server_cpu, 1),
            "clients": round(sum(r["cpu_s"] for r in results), 1),
            "server_ms_per_move": round(1000 * server_cpu / max(1, moves), 3),
        },
        "settings": {
            "db": "sqlite" if db.startswith("sqlite") else "postgresql",
            "servers": args.servers,
            "client_procs": args.client_procs,
            "seats_per_table": SEATS,
            "humans_per_table": SEATS,
            "bots_per_table": 0,
            "think_s": args.think,
            "ramp_s": args.ramp,
            "seconds_limit": args.seconds,
            "seed": args.seed,
            "limits": "off (ONO99_LIMITS=off: every client is 127.0.0.1)",
            "cpus": os.cpu_count(),
            "loadavg_before": [round(x, 2) for x in load_before],
            "loadavg_after": [round(x, 2) for x in os.getloadavg()],
        },
    }


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    p.add_argument("--tables", type=int, default=500, help="concurrent 4-seat tables")
    p.add_argument("--db", default=None, help="database URL (default: a fresh SQLite file)")
    p.add_argument("--servers", type=int, default=1, help="ono99 serve processes")
    p.add_argument("--client-procs", type=int, default=1, help="client processes")
    p.add_argument("--think", type=float, default=1.0, help="mean think time per move (s)")
    p.add_argument(
        "--ramp",
        type=float,
        default=None,
        help="start the tables over this many seconds (default: 2 x --think)",
    )
    p.add_argument("--seconds", type=float, default=240.0, help="limit on the play (s)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument(
        "--profile",
        default=None,
        help="py-spy profile of server 0: FILE.svg a flame graph, FILE.txt collapsed stacks",
    )
    p.add_argument("--profile-seconds", type=float, default=20.0)
    args = p.parse_args(argv)
    if args.ramp is None:
        args.ramp = 2 * args.think
    if args.tables < 1 or args.servers < 1 or args.client_procs < 1 or args.seconds <= 0:
        p.error("--tables, --servers, --client-procs and --seconds must be positive")
    print(json.dumps(run(args)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
