"""Memory and storage of ``ono99 serve`` stay bounded (issue 22): lobby tables per client
address are capped and the ones nobody starts expire (memory and database, not loaded
again at startup), a create answered 400 stores nothing, finished tables leave memory
once nobody is connected (and load again from the database when asked for), and only
unfinished tables load at startup.

The app served by uvicorn in a thread of the test process (the test looks at the live
tables), on real SQLite files.
"""

from __future__ import annotations

import gc
import json
import sqlite3
import time
import weakref
from pathlib import Path
from typing import Any

import httpx
import pytest
from hostile_helpers import served

from ono99.web.limits import Limits

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def _rows(db: Path, table: str) -> int:
    with sqlite3.connect(db) as c:
        return int(c.execute(f"select count(*) from {table}").fetchone()[0])


def _post(url: str, path: str, body: dict[str, Any], source: str = "127.0.0.1") -> httpx.Response:
    transport = httpx.HTTPTransport(local_address=source)
    with httpx.Client(transport=transport, timeout=10) as http:
        return http.post(url + path, json=body)


def _until(what: Any, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while not what():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


def test_lobby_tables_per_address_are_capped(tmp_path: Path) -> None:
    with served(tmp_path, Limits(lobby_tables=3)) as (srv, records):
        made = [_post(srv.url, "/api/tables", {"players": 2}) for _ in range(3)]
        assert [r.status_code for r in made] == [201] * 3
        n = _rows(tmp_path / "web.db", "ono99_tables")
        r = _post(srv.url, "/api/tables", {"players": 2, "name": "Ana"})
        assert r.status_code == 429, r.text
        assert r.headers["x-content-type-options"] == "nosniff"
        err = r.json()["error"]
        assert err and "\n" not in err
        assert _rows(tmp_path / "web.db", "ono99_tables") == n  # nothing stored
        # another address is not counted with this one
        assert _post(srv.url, "/api/tables", {"players": 2}, source="127.0.0.2").status_code == 201
        # a table that starts is no longer an open lobby: a place is free again
        tid = made[0].json()["table"]
        seat = _post(srv.url, f"/api/tables/{tid}/join", {"name": "Ana"}).json()
        r = _post(srv.url, f"/api/tables/{tid}/start", {"token": seat["token"]})
        assert r.status_code == 200, r.text
        assert _post(srv.url, "/api/tables", {"players": 2}).status_code == 201
        assert _post(srv.url, "/api/tables", {"players": 2}).status_code == 429
        assert records.problems() == [], records.text()[-3000:]


@pytest.mark.parametrize(
    "body",
    [
        {"players": 2, "name": ""},
        {"players": 2, "name": "\u0000Ana"},
        {"players": 2, "name": "x" * 41},
        {"players": 2, "name": "\ud800"},
        {"players": 1, "name": "Ana"},
        {"rules": "no-such-rules", "name": "Ana"},
        {"players": 2, "turn_seconds": 0.5, "name": "Ana"},
    ],
)
def test_a_create_answered_400_stores_nothing(tmp_path: Path, body: dict[str, Any]) -> None:
    """Before: a bad ``name`` was refused after the table was made and stored."""
    with served(tmp_path) as (srv, _records):
        r = httpx.post(
            srv.url + "/api/tables",
            content=json.dumps(body).encode(),  # ASCII: "\ud800" travels as JSON says it
            headers={"Content-Type": "application/json"},
        )
        assert r.status_code == 400, r.text
        assert "\n" not in r.json()["error"]
        assert srv.hub.tables == {}
    assert _rows(tmp_path / "web.db", "ono99_tables") == 0
    assert _rows(tmp_path / "web.db", "ono99_seats") == 0


def test_lobby_tables_nobody_starts_expire(tmp_path: Path) -> None:
    db = tmp_path / "web.db"
    with served(tmp_path, Limits(lobby_seconds=1.0)) as (srv, _records):
        old = _post(srv.url, "/api/tables", {"players": 2, "name": "Ana"}).json()
        play = _post(srv.url, "/api/tables", {"players": 2, "name": "Bo", "takeover": False})
        started = play.json()
        r = _post(srv.url, f"/api/tables/{started['table']}/start", {"token": started["token"]})
        assert r.status_code == 200
        _until(lambda: old["table"] not in srv.hub.tables, 10)
        assert httpx.get(f"{srv.url}/api/tables/{old['table']}").status_code == 404
        assert httpx.get(f"{srv.url}/api/codes/{old['code']}").status_code == 404
        assert httpx.get(f"{srv.url}/api/tables/{started['table']}").status_code == 200
        with sqlite3.connect(db) as c:
            ids = {r[0] for r in c.execute("select id from ono99_tables")}
            seats = {r[0] for r in c.execute("select table_id from ono99_seats")}
        assert ids == {started["table"]} and seats == {started["table"]}


def test_expired_lobby_tables_are_not_loaded_at_startup(tmp_path: Path) -> None:
    db = tmp_path / "web.db"
    with served(tmp_path, Limits(lobby_seconds=0)) as (srv, _records):  # 0: never
        old = _post(srv.url, "/api/tables", {"players": 2, "name": "Ana"}).json()
    time.sleep(1.2)
    with served(tmp_path, Limits(lobby_seconds=3600)) as (srv, _records):
        fresh = _post(srv.url, "/api/tables", {"players": 2}).json()
    assert _rows(db, "ono99_tables") == 2
    with served(tmp_path, Limits(lobby_seconds=1.0)) as (srv, _records):
        assert old["table"] not in srv.hub.tables
        assert httpx.get(f"{srv.url}/api/tables/{old['table']}").status_code == 404
        with sqlite3.connect(db) as c:
            assert c.execute("select id from ono99_tables").fetchall() == [(fresh["table"],)]
            assert c.execute("select count(*) from ono99_seats").fetchone()[0] == 0


def _bot_game(url: str) -> dict[str, Any]:
    """A table whose one human never connects: bots play it to the end on their own."""
    body = {"players": 2, "name": "Ana", "away_seconds": 0, "bot_delay": 0, "draw_window": 0}
    t = _post(url, "/api/tables", body).json()
    assert _post(url, f"/api/tables/{t['table']}/start", {"token": t["token"]}).status_code == 200
    return t


def test_finished_tables_leave_memory_and_load_again(tmp_path: Path) -> None:
    """Before: every table stayed in the hub's dict for ever (RSS grew with each game)."""
    limits = Limits(finished_seconds=0.3)
    with served(tmp_path, limits) as (srv, records):
        lobby = _post(srv.url, "/api/tables", {"players": 2}).json()
        games = [_bot_game(srv.url) for _ in range(6)]
        ids = [g["table"] for g in games]
        _until(lambda: all(srv.hub.tables[i].phase == "over" for i in ids if i in srv.hub.tables))
        refs = [weakref.ref(srv.hub.tables[i]) for i in ids if i in srv.hub.tables]
        _until(lambda: not any(i in srv.hub.tables for i in ids), 10)
        assert lobby["table"] in srv.hub.tables  # a lobby is not finished: it stays
        # really gone, not only unlisted: freed once the server's tasks that closed them
        # have run on (a leak never is)
        _until(lambda: gc.collect() >= 0 and all(r() is None for r in refs), 10)
        # asked for again: loaded from the database, as it was
        for g in games:
            info = httpx.get(f"{srv.url}/api/tables/{g['table']}").json()
            assert info["phase"] == "over" and info["code"] == g["code"]
            rec = httpx.get(f"{srv.url}/api/tables/{g['table']}/record")
            assert rec.status_code == 200 and rec.json()["moves"]
        assert httpx.get(f"{srv.url}/api/codes/{games[0]['code']}").status_code == 200
        # and once nobody asks, gone again
        _until(lambda: not any(i in srv.hub.tables for i in ids), 10)
        assert records.problems() == [], records.text()[-3000:]
    # at startup only the unfinished tables load
    with served(tmp_path) as (srv, _records):
        assert set(srv.hub.tables) == {lobby["table"]}
