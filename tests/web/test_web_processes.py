"""Several ``ono99 serve`` processes on one real PostgreSQL (web/shared.py): clients on
both play the same tables and each sees every move at once; ``kill -9`` of one process
mid-game and the clients go on through the other with nothing lost. Needs PostgreSQL
(``ONO99_TEST_PG``); with ``CI`` set, a missing PostgreSQL fails these tests."""

from __future__ import annotations

import asyncio
import random
import time
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


@pytest.fixture
def pg_url() -> Iterator[str]:
    """A fresh schema of the shared test database, dropped afterwards."""
    import sqlalchemy as sa

    engine = pg_engine()
    schema = "ono99_p_" + uuid.uuid4().hex[:12]
    with engine.begin() as c:
        c.execute(sa.text(f"create schema {schema}"))
    try:
        yield f"{PG_URL}?options=-csearch_path%3D{schema}"
    finally:
        with engine.begin() as c:
            c.execute(sa.text(f"drop schema {schema} cascade"))
        engine.dispose()


@pytest.fixture
def pg_database() -> Iterator[tuple[str, Any]]:
    """A fresh database of its own (PostgreSQL counts transactions per database: the shared
    test database has other people's in it): (its URL, a function that gives its committed
    and rolled-back transactions so far)."""
    import sqlalchemy as sa

    admin = pg_engine(isolation_level="AUTOCOMMIT")
    name = "ono99_x_" + uuid.uuid4().hex[:12]
    with admin.connect() as c:
        c.execute(sa.text(f"create database {name}"))

    def xacts() -> int:
        with admin.connect() as c:
            c.execute(sa.text("select pg_stat_clear_snapshot()"))
            row = c.execute(
                sa.text(
                    "select xact_commit + xact_rollback from pg_stat_database where datname = :d"
                ),
                {"d": name},
            ).scalar()
            return int(row or 0)

    try:
        yield PG_URL.rsplit("/", 1)[0] + "/" + name, xacts
    finally:
        with admin.connect() as c:
            c.execute(sa.text(f"drop database {name} with (force)"))
        admin.dispose()


@pytest.fixture
def two_servers(
    pg_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest
) -> Iterator[tuple[Server, Server]]:
    """Two processes on one database, linked directly (web/peers.py); with the parameter
    "a-without-links", process A has no links (``ONO99_PEER_HOST=off``, as an older
    release): every change between them then goes by NOTIFY."""
    monkeypatch.setenv("ONO99_LEASE_SECONDS", "1.5")  # a dead process's tables move on soon
    # every client here is 127.0.0.1 and the bots play at once: no per-address rate limit
    monkeypatch.setenv("ONO99_LIMITS", "off")
    if getattr(request, "param", "linked") == "a-without-links":
        monkeypatch.setenv("ONO99_PEER_HOST", "off")
    a = Server(pg_url, tmp_path / "a.log").start()
    monkeypatch.delenv("ONO99_PEER_HOST", raising=False)
    b = Server(pg_url, tmp_path / "b.log").start()
    try:
        yield a, b
    finally:
        a.stop()
        b.stop()


class Timed(Client):
    """A client that notes when it first saw each number of moves."""

    seen: dict[int, float]

    async def recv(self, timeout: float = 20.0) -> dict[str, Any]:
        msg = await super().recv(timeout)
        if msg["type"] == "state":
            self.__dict__.setdefault("seen", {}).setdefault(msg["view"]["moves"], time.monotonic())
        return msg


def _told(c: Client) -> list[tuple[Any, ...]]:
    """The public announcements a client received (after its catch-up), in order."""
    out = []
    for m in c.messages:
        if m["type"] == "state" and not m.get("catchup"):
            out += [(e["kind"], e["seat"], e["total"]) for e in m["events"] if e["kind"] != "draw"]
    return out


def _stable(view: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in view.items() if k not in ("connected", "deadline", "away", "bots")}


@pytest.mark.parametrize("two_servers", ["linked", "a-without-links"], indirect=True)
def test_two_processes_share_a_table(two_servers: tuple[Server, Server]) -> None:
    """Three people on two processes and a bot: every move reaches every client at once,
    whichever process it came through, over the processes' direct links or, where one
    process has none, by NOTIFY; the record replays to the winner everyone saw."""
    a, b = two_servers
    t = create(a, players=4, bots="easy", seed=31)
    tid = t["table"]
    # joins and the start through different processes than the table was made on
    seats = [join(b, tid, "Ana"), join(a, tid, "Bo"), join(b, tid, "Cy")]
    where = [a, b, a]  # Ana plays through A, Bo through B, Cy through A
    rng = random.Random(7)

    async def game() -> tuple[list[Timed], dict[str, Any]]:
        clients = []
        for i, s in enumerate(seats):
            c = await Timed.open(where[i], tid, s["token"], seat=s["seat"])
            assert isinstance(c, Timed)
            await c.next_state()
            clients.append(c)
        watcher = await Timed.open(b, tid)  # a spectator on B
        await watcher.next_state()
        start(b, tid, seats[1]["token"])
        final = await play_to_end([*clients, watcher], rng, timeout=120)
        for c in [*clients, watcher]:
            await c.drain(0.3)
        return [*clients, watcher], final

    clients, final = arun(game())
    moves = final["view"]["moves"]
    assert final["view"]["phase"] == "over" and moves > 10
    for c in clients:
        assert c.state is not None
        assert c.state["view"]["moves"] == moves
        assert c.state["view"]["winner"] == final["view"]["winner"]
        assert not c.errors, c.errors
    # each client heard the same announcements in the same order: every move, none lost
    told = [_told(c) for c in clients]
    assert all(x == told[0] for x in told) and len(told[0]) >= moves // 2
    # at once: every move count reached every client within a second of the first one
    lags = [max(c.seen[k] for c in clients) - min(c.seen[k] for c in clients)
            for k in range(1, moves + 1) if all(k in c.seen for c in clients)]  # fmt: skip
    assert lags and max(lags) < 1.0, max(lags)
    rec = httpx.get(f"{b.url}/api/tables/{tid}/record", timeout=10).json()
    game = replay(rec)
    assert game.is_over and game.winner == final["view"]["winner"] and len(rec["moves"]) == moves


def test_a_process_that_has_just_started_hears_every_change(
    pg_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A process that starts while another runs is not yet in the other's list of live
    processes (read at its heartbeat, here every 20 s), so that one would announce its
    changes by the links alone, which the newcomer, without links
    (``ONO99_PEER_HOST=off``, as an older release), does not hear. The newcomer's hello
    (NOTIFY at its first heartbeat) makes the other announce by NOTIFY at once: the start
    and every move made on the first process reach the client on the second
    (R-TURN-1), long before the first one's next heartbeat."""
    monkeypatch.setenv("ONO99_LIMITS", "off")
    monkeypatch.setenv("ONO99_LEASE_SECONDS", "60")  # A's heartbeat: every 20 s
    a = Server(pg_url, tmp_path / "a.log").start()
    b = None
    try:
        t = create(a, players=2, seed=37)
        ana = join(a, t["table"], "Ana")
        monkeypatch.setenv("ONO99_PEER_HOST", "off")
        monkeypatch.setenv("ONO99_LEASE_SECONDS", "1.5")
        b = Server(pg_url, tmp_path / "b.log").start()
        bo = join(b, t["table"], "Bo")
        rng = random.Random(37)

        async def game() -> dict[str, Any]:
            ca = await Client.open(a, t["table"], ana["token"], seat=0)
            cb = await Client.open(b, t["table"], bo["token"], seat=1)
            await ca.next_state()
            await cb.next_state()
            start(a, t["table"], ana["token"])
            final = await play_to_end([ca, cb], rng, timeout=60)
            for c in (ca, cb):
                assert not c.errors, c.errors
            await cb.drain(0.3)
            assert cb.state is not None and cb.state["view"]["moves"] == final["view"]["moves"]
            return final

        final = arun(game())
        assert final["view"]["phase"] == "over" and final["view"]["moves"] > 10
    finally:
        a.stop()
        if b is not None:
            b.stop()


@pytest.mark.slow
def test_kill_9_one_process_mid_game(two_servers: tuple[Server, Server]) -> None:
    """The process that runs the bots dies (kill -9) mid-game: the player on it reconnects
    to the other process and finds the table as it was; the other process takes the bots
    over after the lease and the game ends, its record whole."""
    a, b = two_servers
    t = create(a, players=4, bots="easy", seed=44)
    tid = t["table"]
    ana, bo = join(a, tid, "Ana"), join(b, tid, "Bo")
    rng = random.Random(3)

    async def first_half() -> dict[str, Any]:
        ca = await Client.open(a, tid, ana["token"], seat=0)
        cb = await Client.open(b, tid, bo["token"], seat=1)
        await ca.next_state()
        await cb.next_state()
        start(a, tid, ana["token"])  # A runs the bots
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            await ca.drain(0.3)
            await cb.drain(0.3)
            assert ca.state is not None and cb.state is not None
            if ca.state["view"]["moves"] >= 12 or ca.state["view"]["phase"] != "playing":
                break
            for c in (ca, cb):
                assert c.state is not None
                if c.state["view"]["legal"]:
                    await c.move(rng.choice(c.state["view"]["legal"]))
                    await c.next_state()
        await ca.drain(0.5)
        await cb.drain(0.5)
        assert ca.state is not None and cb.state is not None
        assert ca.state["view"]["phase"] == "playing", "the game ended before the kill"
        assert ca.state["view"]["moves"] == cb.state["view"]["moves"] >= 12
        assert not ca.errors and not cb.errors
        await cb.close()
        return ca.state

    before = arun(first_half())
    a.stop(kill=True)  # kill -9: no shutdown code, the lease of A just runs out

    async def second_half() -> dict[str, Any]:
        ca = await Client.open(b, tid, ana["token"], seat=0)
        cb = await Client.open(b, tid, bo["token"], seat=1)
        now = await ca.next_state()
        await cb.next_state()
        assert _stable(now["view"]) == _stable(before["view"])  # nothing lost
        return await play_to_end([ca, cb], rng, timeout=120)

    final = arun(second_half())
    rec = httpx.get(f"{b.url}/api/tables/{tid}/record", timeout=10).json()
    game = replay(rec)
    assert game.is_over and game.winner == final["view"]["winner"]
    # the stored moves up to the kill rebuild exactly what Ana saw before it
    n = before["view"]["moves"]
    then = replay({**rec, "moves": rec["moves"][:n]}).view(0).to_json()
    for key in ("hand", "hand_sizes", "total", "to_move", "tokens", "discard"):
        assert then[key] == before["view"][key], key
    assert len(rec["moves"]) == final["view"]["moves"] > before["view"]["moves"]
    log = (b.log).read_text()
    assert "this process runs it now" in log


def test_processes_starting_together_on_an_empty_database(pg_url: str) -> None:
    """docs/deploy.md "Several processes": every process started with the same URL serves
    every table, so they may all start at once (one unit per port, a `for` loop) on an
    empty database. Each opens the store and its companion table at the same moment,
    several times over; every one of them opens it (no duplicate-type error from two
    concurrent ``CREATE TABLE``) and the schema is whole afterwards."""
    import threading

    import sqlalchemy as sa

    from ono99.web.companion import CompanionStore
    from ono99.web.store import Store

    def open_both(gate: threading.Barrier, errors: list[BaseException]) -> None:
        try:
            gate.wait()
            Store(pg_url).close()
            CompanionStore(pg_url).engine.dispose()
        except BaseException as e:  # every failure is the finding
            errors.append(e)

    n = 6
    for _round in range(4):
        gate = threading.Barrier(n)
        errors: list[BaseException] = []
        threads = [threading.Thread(target=open_both, args=(gate, errors)) for _ in range(n)]
        for th in threads:
            th.start()
        for th in threads:
            th.join(60)
        assert not errors, [str(e).splitlines()[0] for e in errors]
        store = Store(pg_url)
        have = set(sa.inspect(store.engine).get_table_names())
        assert {"ono99_tables", "ono99_seats", "ono99_moves", "ono99_owners"} <= have
        assert "ono99_companion" in have
        with store.engine.begin() as c:  # empty again for the next round
            c.execute(sa.text("drop table " + ", ".join(sorted(have)) + " cascade"))
        store.close()


def test_phones_on_two_processes_follow_one_companion_game(
    two_servers: tuple[Server, Server],
) -> None:
    """docs/companion.md "Several phones on one game", R-TURN-1: a companion game on two
    processes (one PostgreSQL): a page on B hears each tap made through A at once (NOTIFY),
    and taps through either process, each on the version its phone last saw, are all
    counted once, in order (a process that had the game loaded never stores over the
    other's change)."""
    import asyncio
    import json as _json

    from websockets.asyncio.client import connect

    from ono99.tracking import Tracker

    a, b = two_servers
    setup = {"rules": "mattel2022", "players": ["Ana", "Bo", "Cy"], "first": 0}
    r = httpx.post(f"{a.url}/api/companion", json=setup)
    gid, v = r.json()["id"], r.json()["version"]
    assert httpx.get(f"{b.url}/api/companion/{gid}").json()["version"] == v  # loaded on B
    twin = Tracker("mattel2022", ["Ana", "Bo", "Cy"], 0)

    async def follow() -> None:
        nonlocal v
        async with connect(f"{b.ws_url}/ws/companion/{gid}") as ws:
            assert _json.loads(await ws.recv())["version"] == v
            for i, code in enumerate(["7", "P2", "R", "10", "5", "3"]):
                via = a if i % 2 == 0 else b
                got = httpx.post(
                    f"{via.url}/api/companion/{gid}/tap", json={"tap": code, "version": v}
                )
                assert got.status_code == 200 and "merged" not in got.json(), got.text
                v = got.json()["version"]
                twin.tap(code)
                while True:  # B's page: the change, whichever process took it
                    msg = _json.loads(await asyncio.wait_for(ws.recv(), 10))
                    if msg["version"] == v:
                        break
                assert msg["state"]["total"] == twin.state()["total"]
                assert msg["record"]["moves"] == twin.taps

    arun(follow())
    for srv in (a, b):
        got = httpx.get(f"{srv.url}/api/companion/{gid}/record").json()
        assert got["moves"] == twin.taps


@pytest.mark.slow
@pytest.mark.parametrize("together", [8, 1], ids=["under-load", "at-a-trickle"])
def test_at_most_three_transactions_per_move(
    together: int, pg_database: tuple[str, Any], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 35's floor: two processes, tables whose four seats are split between them
    (every move crosses from one process to the other), played to the end (R-END-4):
    eight at once (moves of several tables commit together), or three one after another
    (a trickle: every move commits alone). Every transaction of the database over both
    processes' whole lives (start, the games' set-up, heartbeats, stop), counted by
    PostgreSQL itself, is at most 3 per stored move: a move is one write, sent to the
    other process over their direct link (web/peers.py), which applies it without reading
    it back; no NOTIFY (PostgreSQL reads its queue in a transaction per listening
    connection) and no ``select 1`` before each use of a pooled connection."""
    url, xacts = pg_database
    monkeypatch.setenv("ONO99_LIMITS", "off")  # every client is 127.0.0.1
    monkeypatch.delenv("ONO99_LEASE_SECONDS", raising=False)  # the default lease
    monkeypatch.delenv("ONO99_PEER_HOST", raising=False)  # the default links
    servers = [Server(url, tmp_path / f"s{i}.log").start() for i in range(2)]
    rng = random.Random(35)

    async def table(k: int) -> list[Client]:
        t = create(servers[k % 2], players=4, seed=350 + k)
        seats = [join(servers[(k + s) % 2], t["table"], f"P{s}") for s in range(4)]
        cs = []
        for s, info in enumerate(seats):
            c = await Client.open(servers[(k + s) % 2], t["table"], info["token"], seat=s)
            await c.next_state()
            cs.append(c)
        start(servers[k % 2], t["table"], seats[0]["token"])
        return cs

    async def games() -> list[dict[str, Any]]:
        finals: list[dict[str, Any]] = []
        for first in range(0, 8 if together > 1 else 3, together):
            clients = [await table(k) for k in range(first, first + together)]
            finals += await asyncio.gather(*(play_to_end(cs, rng, timeout=120) for cs in clients))
            for cs in clients:
                for c in cs:
                    assert not c.errors, c.errors
                    await c.close()
        return finals

    try:
        finals = arun(games())
    finally:
        for srv in servers:
            srv.stop()  # a backend reports its counts when its connection ends
    moves = sum(f["view"]["moves"] for f in finals)
    assert all(f["view"]["phase"] == "over" for f in finals) and moves > 100
    # the counts of the ended connections arrive a moment after they end
    total, deadline = xacts(), time.monotonic() + 10
    while time.monotonic() < deadline:
        time.sleep(0.2)
        now = xacts()
        if now == total:
            break
        total = now
    assert 0 < total <= 3 * moves, f"{total} transactions for {moves} moves"


@pytest.mark.slow
def test_connections_the_server_ended_are_replaced(
    pg_database: tuple[str, Any], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """PostgreSQL ends every connection of both processes (as a restart of the database
    does) in the middle of a game: no move is refused for it. A pooled connection the
    server closed is replaced when it is taken from the pool, without a ``select 1`` before
    every use; the listener reconnects and the other process catches up (R-TURN-1: the
    game goes on from where it was)."""
    import sqlalchemy as sa

    url, _xacts = pg_database
    monkeypatch.setenv("ONO99_LIMITS", "off")
    a, b = (Server(url, tmp_path / f"{n}.log").start() for n in "ab")
    name = url.rsplit("/", 1)[1]
    rng = random.Random(36)
    try:
        t = create(a, players=2, seed=36)
        ana, bo = join(a, t["table"], "Ana"), join(b, t["table"], "Bo")

        async def game() -> dict[str, Any]:
            ca = await Client.open(a, t["table"], ana["token"], seat=0)
            cb = await Client.open(b, t["table"], bo["token"], seat=1)
            await ca.next_state()
            await cb.next_state()
            start(a, t["table"], ana["token"])
            await ca.next_state()
            await cb.next_state()
            engine = sa.create_engine(PG_URL.replace("postgresql://", "postgresql+psycopg://", 1))
            with engine.begin() as c:
                ended = c.execute(
                    sa.text(
                        "select count(pg_terminate_backend(pid)) from pg_stat_activity "
                        "where datname = :d and pid <> pg_backend_pid()"
                    ),
                    {"d": name},
                ).scalar()
            engine.dispose()
            assert ended and ended >= 4  # both processes' pool and listener connections
            final = await play_to_end([ca, cb], rng, timeout=120)
            for c in (ca, cb):
                assert not c.errors, c.errors
            await cb.drain(0.3)
            assert cb.state is not None and cb.state["view"]["moves"] == final["view"]["moves"]
            return final

        final = arun(game())
        assert final["view"]["phase"] == "over"
        rec = httpx.get(f"{b.url}/api/tables/{t['table']}/record", timeout=10).json()
        assert len(rec["moves"]) == final["view"]["moves"]
    finally:
        a.stop()
        b.stop()


def test_the_loop_stores_a_batch_of_moves_whole_or_not_at_all(pg_url: str) -> None:
    """The event loop's one-statement group commit (web/pg_moves.py): a batch of moves of
    several tables goes in with their tables' versions and one notice per table carrying
    the move; a batch with a move index another process took first stores nothing and
    announces nothing (the thread path then stores each move it can and refuses the other:
    R-TURN-1, one move per turn), and a connection the server ended is replaced."""
    import psycopg

    from ono99.web.notices import MovesNotice, move_payloads, parse
    from ono99.web.pg_moves import QuickMoves
    from ono99.web.store import CHANNEL, Conflict, Store, StoredTable, libpq_dsn

    store = Store(pg_url)
    for tid in ("tableAAA", "tableBBB"):
        store.create_table(StoredTable(tid, tid[-3:] + "XYZ", 0.0, {}, 1, False))
    listener = psycopg.connect(libpq_dsn(pg_url), autocommit=True)
    listener.execute(f"LISTEN {CHANNEL}")

    async def scenario() -> None:
        quick = QuickMoves(pg_url)
        try:
            first = [
                ("tableAAA", 0, "7", 1, False, 12.5, None),
                ("tableBBB", 0, "R", 1, True, None, 2),
            ]
            payloads = move_payloads("procA", [r[:4] + r[6:] for r in first])
            assert await quick.add_moves(first, payloads) == [None, None]
            clash = [
                ("tableAAA", 1, "5", 2, False, None, None),
                ("tableBBB", 0, "3", 1, False, None, None),
            ]
            assert await quick.add_moves(clash, ["procA:tableAAA"]) is None
            done = store.add_moves(clash)  # the thread path: each move on its own
            assert done[0] is None and isinstance(done[1], Conflict)
            assert quick._conn is not None
            with psycopg.connect(libpq_dsn(pg_url), autocommit=True) as admin:
                admin.execute("select pg_terminate_backend(%s)", [quick._conn.info.backend_pid])
            late = [("tableAAA", 2, "9", 3, False, None, None)]
            assert await quick.add_moves(late, []) is None  # the connection was ended
            late_payloads = move_payloads("procA", [("tableAAA", 2, "9", 3, None)])
            assert await quick.add_moves(late, late_payloads) == [None]
        finally:
            await quick.close()

    try:
        arun(scenario())
        got = [parse(n.payload) for n in listener.notifies(timeout=1.0, stop_after=3)]
    finally:
        listener.close()
    a = store.load("tableAAA")
    b = store.load("tableBBB")
    store.close()
    assert a is not None and b is not None
    assert a.moves == ["7", "5", "9"] and a.version == 3 and not a.finished
    assert b.moves == ["R"] and b.by_bot == {0: 2} and b.version == 1 and b.finished
    assert ("procA", "tableAAA", MovesNotice(0, 1, [("7", None)])) in got
    assert ("procA", "tableBBB", MovesNotice(0, 1, [("R", 2)])) in got
    assert ("procA", "tableAAA", MovesNotice(2, 3, [("9", None)])) in got


def test_the_loop_heartbeat_renews_claims_and_lists_the_others(pg_url: str) -> None:
    """The heartbeat sent from the event loop (web/pg_moves.py, one statement) does what
    ``Store.heartbeat`` does: renews the lease, claims the tables nobody alive runs (and
    only those: a table stays its live owner's), and lists the other live processes with
    their addresses and keys; once an owner's lease has run out, its tables are taken
    over."""
    from ono99.web.pg_moves import QuickMoves
    from ono99.web.store import Store, StoredTable

    store = Store(pg_url)
    for tid in ("tableAAA", "tableBBB"):
        store.create_table(StoredTable(tid, tid[-3:] + "XYZ", 0.0, {}, 1, False))

    async def scenario() -> None:
        quick = QuickMoves(pg_url)
        try:
            a = await quick.heartbeat("procA", 60.0, ["tableAAA"], "127.0.0.1:1", "aa" * 32)
            assert a == ({"tableAAA"}, [])
            owned, live = store.heartbeat("procB", 60.0, ["tableAAA", "tableBBB"], None, None)
            assert owned == {"tableBBB"} and live == [("procA", "127.0.0.1:1", "aa" * 32)]
            b = await quick.heartbeat("procA", 60.0, ["tableAAA", "tableBBB"], None, None)
            assert b == ({"tableAAA"}, [("procB", None, None)])
            await quick.heartbeat("procB", -1.0, [], None, None)  # B's lease has run out
            c = await quick.heartbeat("procA", 60.0, ["tableAAA", "tableBBB"], None, None)
            assert c == ({"tableAAA", "tableBBB"}, [])
        finally:
            await quick.close()

    try:
        arun(scenario())
    finally:
        store.close()
