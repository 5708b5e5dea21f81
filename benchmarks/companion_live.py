"""How soon the other phones on a companion game hear a tap (docs/companion.md "Several
phones on one game").

    python benchmarks/companion_live.py [TAPS] [PAGES]

Starts ``ono99 serve`` (SQLite, the server following the game), opens PAGES (default 3)
sockets on one game (``/ws/companion/{id}``, as the pages do), and taps TAPS (default 200)
cards through the API, one at a time, as one phone does. For each tap it measures the time
from sending it until every socket has the new version. Prints one JSON object
(milliseconds: median, 90th and 99th percentile, the slowest).
"""

from __future__ import annotations

import asyncio
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

import httpx
from websockets.asyncio.client import connect

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "web"))
from server_helpers import Server  # type: ignore[import-not-found]

from ono99.errors import Ono99Error
from ono99.tracking import Tracker


def _taps(count: int, rng: random.Random) -> list[str]:
    """Up to ``count`` legal taps of one mattel2022 game (random cards the rules allow)."""
    out: list[str] = []
    t = Tracker("mattel2022", ["Ana", "Bo", "Cy"], 0)
    while len(out) < count and not t.is_over:
        code = rng.choice([*t.card_codes(), "bust"])
        try:
            t.tap(code)
        except Ono99Error:
            continue
        out.append(code)
    return out


async def run(srv: Server, taps: int, pages: int) -> list[float]:
    async with httpx.AsyncClient(base_url=srv.url) as client:
        delays: list[float] = []
        rng = random.Random(1)
        while len(delays) < taps:
            r = await client.post(
                "/api/companion", json={"rules": "mattel2022", "players": ["Ana", "Bo", "Cy"]}
            )
            gid, version = r.json()["id"], r.json()["version"]
            socks = [await connect(f"{srv.ws_url}/ws/companion/{gid}") for _ in range(pages)]
            for ws in socks:
                await ws.recv()  # the game as it stands
            for code in _taps(taps - len(delays), rng):
                t0 = time.perf_counter()
                r = await client.post(
                    f"/api/companion/{gid}/tap", json={"tap": code, "version": version}
                )
                version = r.json()["version"]
                for ws in socks:
                    while json.loads(await ws.recv())["version"] < version:
                        pass
                delays.append((time.perf_counter() - t0) * 1000)
            for ws in socks:
                await ws.close()
        return delays


def main(taps: int, pages: int) -> dict[str, object]:
    with tempfile.TemporaryDirectory() as tmp:
        srv = Server(f"sqlite:///{tmp}/b.db", Path(tmp) / "s.log").start()
        try:
            delays = sorted(asyncio.run(run(srv, taps, pages)))
        finally:
            srv.stop()
    q = statistics.quantiles(delays, n=100)
    return {"taps": len(delays), "pages": pages, "median_ms": round(statistics.median(delays), 2),
            "p90_ms": round(q[89], 2), "p99_ms": round(q[98], 2), "max_ms": round(delays[-1], 2)}  # fmt: skip


if __name__ == "__main__":
    args = [int(a) for a in sys.argv[1:3]]
    print(json.dumps(main(*(args + [200, 3][len(args) :]))))
