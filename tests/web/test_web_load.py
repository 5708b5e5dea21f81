"""benchmarks/load.py as a test: many tables played to the end over websockets, every
record replayed to the winner the clients saw (README "Web server load")."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from server_helpers import PG_URL

LOAD = Path(__file__).resolve().parents[2] / "benchmarks" / "load.py"


def _load(*args: str, timeout: float = 300) -> dict[str, Any]:
    out = subprocess.run(
        [sys.executable, str(LOAD), *args], capture_output=True, text=True, timeout=timeout
    )
    assert out.returncode == 0, out.stderr[-3000:]
    lines = out.stdout.strip().splitlines()
    assert len(lines) == 1, out.stdout  # one JSON object
    return dict(json.loads(lines[0]))


def _check(res: dict[str, Any], tables: int) -> None:
    assert res["errors"] == 0, res["error_samples"]
    assert res["tables"] == res["finished"] == res["replayed"] == tables
    assert res["moves"] >= 10 * tables and res["moves_per_s"] > 0
    assert 0 < res["rtt_ms"]["p50"] <= res["rtt_ms"]["p99"] <= res["rtt_ms"]["max"]


def test_load_smoke_sqlite() -> None:
    """20 tables of 4 scripted clients on one server on SQLite."""
    res = _load("--tables", "20", "--think", "0.05", "--seconds", "120")
    _check(res, 20)
    assert res["settings"]["db"] == "sqlite" and res["settings"]["servers"] == 1


def _pg() -> str:
    try:
        import sqlalchemy as sa

        engine = sa.create_engine(PG_URL.replace("postgresql://", "postgresql+psycopg://", 1))
        with engine.connect() as c:
            c.execute(sa.text("select 1"))
        engine.dispose()
    except Exception as e:
        if os.environ.get("CI"):
            pytest.fail(f"PostgreSQL at {PG_URL} is needed in CI: {e}")
        pytest.skip(f"no PostgreSQL at {PG_URL}: {e}")
    return PG_URL


@pytest.mark.slow
def test_load_two_processes_postgresql() -> None:
    """60 tables over two server processes on PostgreSQL, every table's seats split
    between the two: moves go through both, each process tells its own clients."""
    res = _load(
        "--tables", "60", "--servers", "2", "--db", _pg(), "--think", "0.1", "--seconds", "180"
    )
    _check(res, 60)
    assert res["settings"]["db"] == "postgresql" and res["settings"]["servers"] == 2
