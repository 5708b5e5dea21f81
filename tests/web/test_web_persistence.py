"""Persistence: ``kill -9`` of the server mid-game and a restart on the same database;
tokens still valid, nothing lost, the game goes on to the end and its record replays
(R-REC). On SQLite and on a real PostgreSQL."""

from __future__ import annotations

import random
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from server_helpers import (
    PG_URL,
    Client,
    Server,
    arun,
    create,
    join,
    pg_engine,
    play_to_end,
    start,
)

from ono99.records import replay


def _pg_schema_url() -> Iterator[str]:
    """A fresh schema of the shared test database, dropped afterwards."""
    import sqlalchemy as sa

    engine = pg_engine()
    schema = "ono99_t_" + uuid.uuid4().hex[:12]
    with engine.begin() as c:
        c.execute(sa.text(f"create schema {schema}"))
    try:
        yield f"{PG_URL}?options=-csearch_path%3D{schema}"
    finally:
        with engine.begin() as c:
            c.execute(sa.text(f"drop schema {schema} cascade"))
        engine.dispose()


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'kill.db'}"
    else:
        yield from _pg_schema_url()


def _stable(view: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in view.items() if k not in ("connected", "deadline", "away", "bots")}


@pytest.mark.slow
def test_kill_9_and_restart_loses_nothing(db_url: str, tmp_path: Path) -> None:
    """R-REC: the moves stored before each broadcast rebuild every table after kill -9."""
    log = tmp_path / "server.log"
    server = Server(db_url, log).start()
    try:
        t = create(server, players=3, bots="medium", seed=21)
        tid = t["table"]
        lobby = create(server, players=2)  # a table still in its lobby survives too
        seats = [join(server, tid, n) for n in ("Ana", "Bo")]
        lobby_seat = join(server, lobby["table"], "Cy")
        rng = random.Random(5)

        async def first_half() -> tuple[dict[str, Any], dict[str, Any]]:
            a = await Client.open(server, tid, seats[0]["token"], seat=0)
            b = await Client.open(server, tid, seats[1]["token"], seat=1)
            await a.next_state()
            start(server, tid, seats[1]["token"])
            moved = 0
            while moved < 12:
                await a.drain(0.2)
                await b.drain(0.2)
                for c in (a, b):
                    assert c.state is not None and c.state["view"]["phase"] == "playing"
                    if c.state["view"]["legal"] and c.state["view"]["to_move"] == c.seat:
                        await c.move(rng.choice(c.state["view"]["legal"]))
                        await c.next_state()
                        moved += 1
                        break
            await a.drain(0.3)
            await b.drain(0.3)
            assert a.state is not None
            assert b.state is not None
            return a.state, b.state

        st_a, st_b = arun(first_half())
        assert st_a["view"]["moves"] >= 12
        server.stop(kill=True)  # kill -9: no shutdown code runs
        server = Server(db_url, log).start()

        async def second_half() -> dict[str, Any]:
            a = await Client.open(server, tid, seats[0]["token"], seat=0)
            b = await Client.open(server, tid, seats[1]["token"], seat=1)
            new_a = await a.next_state()
            new_b = await b.next_state()
            assert _stable(new_a["view"]) == _stable(st_a["view"])
            assert _stable(new_b["view"]) == _stable(st_b["view"])
            return await play_to_end([a, b], rng, timeout=120)

        final = arun(second_half())
        rec = httpx.get(f"{server.url}/api/tables/{tid}/record").json()
        game = replay(rec)
        assert game.is_over and game.winner == final["view"]["winner"]
        info = httpx.get(f"{server.url}/api/tables/{lobby['table']}").json()
        assert info["phase"] == "lobby" and info["seats"][0]["name"] == "Cy"
        r = httpx.post(
            f"{server.url}/api/tables/{lobby['table']}/start", json={"token": lobby_seat["token"]}
        )
        assert r.status_code == 200
    finally:
        server.stop()


def test_a_database_from_an_earlier_release_is_brought_up_to_date(tmp_path: Path) -> None:
    """A SQLite database made before the turn deadline and the bot-move mark were stored
    (no ``deadline`` column in ono99_tables, no ``by_bot`` in ono99_moves) opens, gains
    both columns, keeps its moves and takes new ones."""
    import sqlite3

    from ono99.web.store import Store, StoredTable

    path = tmp_path / "old.db"
    url = f"sqlite:///{path}"
    store = Store(url)
    store.create_table(StoredTable("t1", "ABC123", 0.0, {"players": 2}, seed=5, seed_fixed=True))
    store.start("t1", ["Ana", "Bo"], [1], 1, None)
    store.add_moves([("t1", 0, "5", 2, False, None, None)])
    store.close()
    with sqlite3.connect(path) as con:  # what the earlier release's schema had
        con.execute("alter table ono99_moves drop column by_bot")
        con.execute("alter table ono99_tables drop column deadline")
    store = Store(url)
    try:
        st = store.load("t1")
        assert st is not None and st.moves == ["5"] and st.by_bot == {} and st.deadline is None
        assert store.try_add_moves([("t1", 1, "draw", 3, False, 12.5, 0)]) == [None]
        st = store.load("t1")
        assert st is not None and st.moves == ["5", "draw"] and st.by_bot == {1: 0}
        assert st.version == 3 and st.deadline == 12.5
    finally:
        store.close()


def test_tables_stored_before_generator_versions_keep_dealing_version_1(tmp_path: Path) -> None:
    """R-REC: a table stored before records named their generator (no ``rng`` column) is
    version 1 after the migration and deals, replays and records as it did; a new table
    is version 2."""
    import sqlite3

    from ono99 import Game
    from ono99.web.store import Store, StoredTable

    path = tmp_path / "old.db"
    url = f"sqlite:///{path}"
    store = Store(url)
    store.create_table(StoredTable("t1", "ABC123", 0.0, {"players": 2}, seed=5, seed_fixed=True))
    store.close()
    with sqlite3.connect(path) as con:  # the schema before versions
        con.execute("alter table ono99_tables drop column rng")
    store = Store(url)
    try:
        old = store.load("t1")
        assert old is not None and old.rng == 1
        store.create_table(
            StoredTable("t2", "DEF456", 0.0, {"players": 2}, seed=5, seed_fixed=True)
        )
        new = store.load("t2")
        assert new is not None and new.rng == 2
    finally:
        store.close()
    assert Game("mattel2022", 2, seed=5, rng=1).hands != Game("mattel2022", 2, seed=5).hands
