"""Persistence of web tables with SQLAlchemy 2: SQLite by default, PostgreSQL by URL.

Every table (settings, seed, seats with hashed tokens) and every move is written here
before the change is broadcast; a restarted server rebuilds each table by replaying
its moves through the engine. The store is synchronous; the server calls it from a
worker thread (one for SQLite, whose writes are serial anyway).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import select as io_select
import sqlite3
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from sqlalchemy import (
    Boolean,
    Column,
    Connection,
    Engine,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    bindparam,
    create_engine,
    delete,
    event,
    inspect,
    select,
    text,
    update,
)
from sqlalchemy.engine import make_url
from sqlalchemy.exc import DisconnectionError, IntegrityError

from ono99.web.notices import move_payloads

__all__ = [
    "CHANNEL",
    "Conflict",
    "Fanout",
    "Store",
    "StoredTable",
    "StoredSeat",
    "create_schema",
    "default_db_url",
    "engine_url",
    "libpq_dsn",
    "open_engine",
    "token_hash",
]

metadata = MetaData()

tables_t = Table(
    "ono99_tables",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("code", String(16), nullable=False, unique=True),
    Column("created", Float, nullable=False),
    Column("settings", Text, nullable=False),  # JSON
    Column("seed", Text, nullable=False),  # decimal: up to 2**256
    Column("seed_fixed", Boolean, nullable=False),
    Column("started", Boolean, nullable=False, default=False),
    Column("finished", Boolean, nullable=False, default=False),
    Column("names", Text),  # JSON list, set at the start
    Column("bot_seats", Text),  # JSON list, set at the start
    Column("version", Integer, nullable=False, default=0),
    Column("next_table", String(32)),
    # the turn timer's deadline (seconds since the epoch), stored with each game change so
    # that it survives a restart; added after the first release (_migrate)
    Column("deadline", Float),
    # the version of the seeded shuffle the game deals with (R-REC ``rng``); a table stored
    # before versions existed deals with version 1, as it did (_migrate)
    Column("rng", Integer, nullable=False, server_default="1"),
)

seats_t = Table(
    "ono99_seats",
    metadata,
    Column("table_id", String(32), ForeignKey("ono99_tables.id"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("name", Text, nullable=False),
    Column("token_hash", String(64), nullable=False),
)

moves_t = Table(
    "ono99_moves",
    metadata,
    Column("table_id", String(32), ForeignKey("ono99_tables.id"), primary_key=True),
    Column("idx", Integer, primary_key=True),
    Column("move", String(8), nullable=False),
    Column("version", Integer, nullable=False),
    # the seat a bot played this move for (away, or out of time); None: its own player
    Column("by_bot", Integer, nullable=True),
)


# Several processes on one PostgreSQL database (web/shared.py): each process is a row with
# the time its lease runs out (the database's clock), and each started table has the
# process that runs its bots and timers.
procs_t = Table(
    "ono99_procs",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("expires", Float, nullable=False),  # seconds since the epoch, database clock
    # where the others reach it, and the key they prove they read here (web/peers.py);
    # added after the first release (_migrate), None for a process without links
    Column("addr", Text),
    Column("key", String(64)),
)

owners_t = Table(
    "ono99_owners",
    metadata,
    Column("table_id", String(32), ForeignKey("ono99_tables.id"), primary_key=True),
    Column("owner", String(32), nullable=False),
)

#: the channel of PostgreSQL NOTIFY: after every stored change, a payload of web/notices.py
CHANNEL = "ono99"


#: ``Connection.info`` key of the payloads a transaction announces after its commit
_PUSH = "ono99_push"


class Fanout(Protocol):
    """How a process announces its stored changes to the others besides ``NOTIFY``
    (web/peers.py)."""

    def linked(self) -> bool:
        """Whether every other live process hears ``push``: no ``NOTIFY`` needed."""
        ...

    def push(self, payloads: list[str]) -> None:
        """Announce committed changes (any thread)."""
        ...


class Conflict(Exception):
    """Another process changed the table first (a move index, a seat, the start, the
    rematch): reload it and decide again."""


def token_hash(token: str) -> str:
    """SHA-256 of a token (tokens are 256 random bits: no salt needed)."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def default_db_url() -> str:
    """``sqlite:///`` a file ``ono99.db`` in the user's data folder."""
    try:
        import platformdirs

        folder = Path(platformdirs.user_data_dir("ono99", appauthor=False))
    except ImportError:  # pragma: no cover
        folder = Path.home() / ".local" / "share" / "ono99"
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'ono99.db'}"


def engine_url(url: str) -> str:
    """The URL SQLAlchemy gets: plain ``postgresql://`` uses psycopg 3.

    Raises ValueError for a URL that is not SQLite or PostgreSQL."""
    u = make_url(url)
    backend = u.get_backend_name()
    if backend == "postgresql":
        if u.drivername in ("postgresql", "postgres"):
            u = u.set(drivername="postgresql+psycopg")
        return u.render_as_string(hide_password=False)
    if backend == "sqlite":
        return url
    raise ValueError(f"unsupported database {backend!r}: use sqlite:///PATH or postgresql://...")


def libpq_dsn(url: str) -> str:
    """The ``postgresql://`` URL of ``--db URL`` as psycopg itself takes it (the
    connections that are not SQLAlchemy's: the listener, the event loop's writer)."""
    u = make_url(engine_url(url)).set(drivername="postgresql")
    return u.render_as_string(hide_password=False)


@dataclass
class StoredSeat:
    seat: int
    name: str
    token_hash: str


@dataclass
class StoredTable:
    id: str
    code: str
    created: float
    settings: dict[str, Any]
    seed: int
    seed_fixed: bool
    #: the version of the seeded shuffle (R-REC ``rng``): 2 for every new table
    rng: int = 2
    started: bool = False
    finished: bool = False
    names: list[str] | None = None
    bot_seats: list[int] | None = None
    version: int = 0
    next_table: str | None = None
    deadline: float | None = None
    seats: list[StoredSeat] = field(default_factory=list)
    moves: list[str] = field(default_factory=list)
    #: move index -> the seat a bot played that move for
    by_bot: dict[int, int] = field(default_factory=dict)

    def marked_moves(self, start: int = 0) -> list[tuple[str, int | None]]:
        """The moves from index ``start`` on, each with the seat a bot played it for
        (as ``Store.moves_since`` gives them)."""
        return [(self.moves[i], self.by_bot.get(i)) for i in range(start, len(self.moves))]


#: one stored move: (table id, move index, move code, version, game over, turn deadline,
#: the seat a bot played it for or None)
MoveRow = tuple[str, int, str, int, bool, float | None, int | None]


class CodeTaken(Exception):
    """The table id or code is already in use (retry with another)."""


class Store:
    """The database of tables, seats and moves."""

    def __init__(self, url: str) -> None:
        self.url = url
        real = engine_url(url)
        self.is_sqlite = real.startswith("sqlite")
        #: this process's id, set when several processes share the database (PostgreSQL):
        #: every change is then announced on CHANNEL
        self.proc: str | None = None
        #: the direct links to the other processes, when they share the base (web/peers.py)
        self.fanout: Fanout | None = None
        self.engine: Engine = open_engine(url)
        #: SQLite on a file: the event loop's own connection for ``try_add_moves``
        #: (opened on first use), which never waits for a lock another process holds:
        #: plain sqlite3, no pool or compiled statements between a move and its commit
        self._quick_path: str | None = None
        self._quick: sqlite3.Connection | None = None
        if self.is_sqlite:
            path = make_url(real).database
            if path and path != ":memory:" and not path.startswith("file:"):
                self._quick_path = path
        create_schema(self.engine, metadata, _migrate)

    def close(self) -> None:
        if self._quick is not None:
            self._quick.close()
            self._quick = None
        self.engine.dispose()

    # ------------------------------------------------------------------ writes

    def create_table(self, t: StoredTable) -> None:
        try:
            with self.engine.begin() as c:
                c.execute(
                    tables_t.insert().values(
                        id=t.id, code=t.code, created=t.created,
                        settings=json.dumps(t.settings), seed=str(t.seed),
                        seed_fixed=t.seed_fixed, rng=t.rng, started=False, finished=False,
                        version=t.version,
                    )
                )  # fmt: skip
        except IntegrityError as e:
            raise CodeTaken(t.code) from e

    def _notify(self, c: Connection, table_ids: list[str]) -> None:
        """Announce (on commit) that these tables changed, when processes share the base."""
        if self.proc is None or self.is_sqlite:
            return
        self._send(c, [f"{self.proc}:{tid}" for tid in dict.fromkeys(table_ids)])

    @contextlib.contextmanager
    def _tx(self) -> Iterator[Connection]:
        """``engine.begin()``, and what ``_send`` left to the direct links pushed once it
        has committed."""
        with self.engine.begin() as c:
            c.info.pop(_PUSH, None)
            yield c
            pushed: list[str] | None = c.info.pop(_PUSH, None)
        if pushed and self.fanout is not None:
            self.fanout.push(pushed)

    def _send(self, c: Connection, payloads: list[str]) -> None:
        """Announce each payload on commit: to the direct links when every other process
        hears them (``_tx`` pushes them after the commit), else with NOTIFY CHANNEL, in one
        statement (sent on commit)."""
        if self.fanout is not None and self.fanout.linked():
            c.info.setdefault(_PUSH, []).extend(payloads)
            return
        if len(payloads) == 1:
            c.execute(text("select pg_notify(:ch, :p)"), {"ch": CHANNEL, "p": payloads[0]})
        elif payloads:
            c.execute(
                text("select pg_notify(:ch, p) from unnest(cast(:ps as text[])) as p"),
                {"ch": CHANNEL, "ps": payloads},
            )

    def add_seat(self, table_id: str, seat: StoredSeat, version: int) -> None:
        """Conflict when the seat is taken or the game started (by another process)."""
        try:
            with self._tx() as c:
                started = c.execute(
                    select(tables_t.c.started).where(tables_t.c.id == table_id).with_for_update()
                ).scalar()
                if started:
                    raise Conflict(table_id)
                c.execute(
                    seats_t.insert().values(
                        table_id=table_id, seat=seat.seat, name=seat.name,
                        token_hash=seat.token_hash,
                    )
                )  # fmt: skip
                c.execute(update(tables_t).where(tables_t.c.id == table_id).values(version=version))
                self._notify(c, [table_id])
        except IntegrityError as e:
            raise Conflict(table_id) from e

    def start(
        self,
        table_id: str,
        names: list[str],
        bot_seats: list[int],
        version: int,
        deadline: float | None = None,
    ) -> None:
        """Conflict when the game had started already (in another process)."""
        with self._tx() as c:
            done = c.execute(
                update(tables_t)
                .where(tables_t.c.id == table_id, tables_t.c.started.is_(False))
                .values(
                    started=True,
                    names=json.dumps(names),
                    bot_seats=json.dumps(bot_seats),
                    version=version,
                    deadline=deadline,
                )
            )
            if done.rowcount != 1:
                raise Conflict(table_id)
            self._notify(c, [table_id])

    def add_moves(self, items: list[MoveRow]) -> list[Exception | None]:
        """Store several tables' moves in one transaction (group commit): one entry per
        item, None when it was stored. When the batch as a whole fails each item is tried
        on its own, so one bad item (a move index another process took first: Conflict)
        fails only itself."""
        if not items:
            return []
        try:
            with self._tx() as c:
                self._insert_moves(c, items)
            return [None] * len(items)
        except IntegrityError as e:
            if len(items) == 1:
                raise Conflict(items[0][0]) from e
        except Exception:
            if len(items) == 1:
                raise
        out: list[Exception | None] = []
        for item in items:
            try:
                with self._tx() as c:
                    self._insert_moves(c, [item])
                out.append(None)
            except IntegrityError as e:
                conflict = Conflict(item[0])
                conflict.__cause__ = e
                out.append(conflict)
            except Exception as e:
                out.append(e)
        return out

    def try_add_moves(self, items: list[MoveRow]) -> list[Exception | None] | None:
        """``add_moves`` for the event loop itself: on SQLite it never waits for a lock
        (another process's write transaction): None, and nothing stored, when the batch
        could not go in at once (locked, or an item failed: ``add_moves`` in a thread then
        stores what it can and tells each item's error)."""
        if self._quick_path is None:
            return None
        if not items:
            return []
        try:
            con = self._quick
            if con is None:
                # autocommit mode: the transaction is the explicit BEGIN below
                con = sqlite3.connect(
                    self._quick_path, timeout=0, isolation_level=None, check_same_thread=False
                )
                _sqlite_pragmas(con, None)
                self._quick = con
            con.execute("BEGIN IMMEDIATE")  # fails at once when another process writes
            try:
                con.executemany(_INSERT_MOVE, [(t, i, m, v, b) for t, i, m, v, _f, _d, b in items])
                con.executemany(_UPDATE_TABLE, [(v, f, d, t) for t, _i, _m, v, f, d, _b in items])
                con.execute("COMMIT")
            except BaseException:
                con.execute("ROLLBACK")
                raise
        except Exception:
            if self._quick is not None and self._quick.in_transaction:
                self._quick.close()  # a rollback that failed: start afresh next time
                self._quick = None
            return None
        return [None] * len(items)

    def delete_expired_lobbies(self, before: float) -> list[str]:
        """Delete the tables made before ``before`` (seconds since the epoch) that never
        started, with their seats; their ids."""
        with self.engine.begin() as c:
            ids = [
                r[0]
                for r in c.execute(
                    select(tables_t.c.id).where(
                        tables_t.c.started.is_(False), tables_t.c.created < before
                    )
                )
            ]
            for i in range(0, len(ids), 500):
                chunk = ids[i : i + 500]
                c.execute(delete(seats_t).where(seats_t.c.table_id.in_(chunk)))
                c.execute(delete(owners_t).where(owners_t.c.table_id.in_(chunk)))
                c.execute(
                    delete(tables_t).where(tables_t.c.id.in_(chunk), tables_t.c.started.is_(False))
                )
            return ids

    def _insert_moves(self, c: Connection, items: list[MoveRow]) -> None:
        c.execute(
            moves_t.insert(),
            [
                {"table_id": t, "idx": i, "move": m, "version": v, "by_bot": b}
                for t, i, m, v, _f, _d, b in items
            ],
        )
        c.execute(
            update(tables_t)
            .where(tables_t.c.id == bindparam("tid"))
            .values(version=bindparam("v"), finished=bindparam("f"), deadline=bindparam("d")),
            [{"tid": t, "v": v, "f": f, "d": d} for t, _i, _m, v, f, d, _b in items],
        )
        if self.proc is not None and not self.is_sqlite:
            stored = [(t, i, m, v, b) for t, i, m, v, _f, _d, b in items]
            self._send(c, move_payloads(self.proc, stored))

    def set_next_table(self, table_id: str, next_id: str, version: int) -> None:
        """Conflict when the table has its rematch already (from another process)."""
        with self._tx() as c:
            done = c.execute(
                update(tables_t)
                .where(tables_t.c.id == table_id, tables_t.c.next_table.is_(None))
                .values(next_table=next_id, version=version)
            )
            if done.rowcount != 1:
                raise Conflict(table_id)
            self._notify(c, [table_id])

    # ------------------------------------------------------------------ processes

    def heartbeat(
        self,
        proc: str,
        lease: float,
        table_ids: list[str] | None = None,
        addr: str | None = None,
        key: str | None = None,
        hello: bool = False,
    ) -> tuple[set[str], list[tuple[str, str | None, str | None]]]:
        """This process is alive for ``lease`` more seconds (the database's clock), reached
        at ``addr`` with ``key`` (web/peers.py), and runs these of ``table_ids`` from now on
        (``claim``): one transaction. (Those tables, the other live processes: (id,
        address, key) each.) ``hello``: also NOTIFY ``PROC:`` on commit, so that the
        others know at once that this process is there (web/peers.py)."""
        with self.engine.begin() as c:
            if hello:
                c.execute(text("select pg_notify(:ch, :p)"), {"ch": CHANNEL, "p": proc + ":"})
            c.execute(
                text(
                    "insert into ono99_procs (id, expires, addr, key) values "
                    "(:p, extract(epoch from clock_timestamp()) + :lease, :a, :k) "
                    "on conflict (id) do update set expires = excluded.expires"
                ),
                {"p": proc, "lease": lease, "a": addr, "k": key},
            )
            owned = self._claim(c, table_ids or [], proc)
            live = c.execute(
                text(
                    "select id, addr, key from ono99_procs where id <> :p "
                    "and expires > extract(epoch from clock_timestamp())"
                ),
                {"p": proc},
            )
            return owned, [(r[0], r[1], r[2]) for r in live]

    def retire(self, proc: str) -> None:
        """This process stops: its tables go to others at their next heartbeat."""
        with self.engine.begin() as c:
            c.execute(delete(owners_t).where(owners_t.c.owner == proc))
            c.execute(delete(procs_t).where(procs_t.c.id == proc))

    def claim(self, table_ids: list[str], proc: str) -> set[str]:
        """Of ``table_ids``, the tables ``proc`` runs after this call: those it ran, those
        nobody ran and those whose process's lease ran out (taken over)."""
        if not table_ids:
            return set()
        with self.engine.begin() as c:
            return self._claim(c, table_ids, proc)

    def _claim(self, c: Connection, table_ids: list[str], proc: str) -> set[str]:
        owned: set[str] = set()
        for i in range(0, len(table_ids), 1000):
            rows = c.execute(
                text(
                    "insert into ono99_owners (table_id, owner) "
                    "select t, :p from unnest(cast(:ids as text[])) as t "
                    "on conflict (table_id) do update set owner = excluded.owner "
                    "where ono99_owners.owner = excluded.owner or not exists ("
                    " select 1 from ono99_procs p where p.id = ono99_owners.owner"
                    " and p.expires > extract(epoch from clock_timestamp())) "
                    "returning table_id"
                ),
                {"p": proc, "ids": table_ids[i : i + 1000]},
            )
            owned.update(r[0] for r in rows)
        return owned

    # ------------------------------------------------------------------ reads

    def unfinished_ids(self) -> list[str]:
        with self.engine.connect() as c:
            rows = c.execute(select(tables_t.c.id).where(tables_t.c.finished.is_(False)))
            return [r[0] for r in rows]

    def id_for_code(self, code: str) -> str | None:
        with self.engine.connect() as c:
            row = c.execute(select(tables_t.c.id).where(tables_t.c.code == code)).first()
            return None if row is None else str(row[0])

    def moves_since(self, table_id: str, idx: int) -> list[tuple[str, int | None]]:
        """The moves of a table from index ``idx`` on, in order, each with the seat a bot
        played it for (or None)."""
        with self.engine.connect() as c:
            rows = c.execute(
                select(moves_t.c.move, moves_t.c.by_bot)
                .where(moves_t.c.table_id == table_id, moves_t.c.idx >= idx)
                .order_by(moves_t.c.idx)
            )
            return [(r[0], r[1]) for r in rows]

    def load(self, table_id: str) -> StoredTable | None:
        with self.engine.connect() as c:
            row = c.execute(select(tables_t).where(tables_t.c.id == table_id)).mappings().first()
            if row is None:
                return None
            seats = c.execute(
                select(seats_t).where(seats_t.c.table_id == table_id).order_by(seats_t.c.seat)
            ).mappings()
            moves = c.execute(
                select(moves_t.c.move, moves_t.c.by_bot)
                .where(moves_t.c.table_id == table_id)
                .order_by(moves_t.c.idx)
            ).all()
            return StoredTable(
                id=row["id"],
                code=row["code"],
                created=row["created"],
                settings=json.loads(row["settings"]),
                seed=int(row["seed"]),
                seed_fixed=bool(row["seed_fixed"]),
                rng=int(row["rng"]),
                started=bool(row["started"]),
                finished=bool(row["finished"]),
                names=None if row["names"] is None else json.loads(row["names"]),
                bot_seats=None if row["bot_seats"] is None else json.loads(row["bot_seats"]),
                version=int(row["version"]),
                next_table=row["next_table"],
                deadline=row["deadline"],
                seats=[StoredSeat(s["seat"], s["name"], s["token_hash"]) for s in seats],
                moves=[m[0] for m in moves],
                by_bot={i: m[1] for i, m in enumerate(moves) if m[1] is not None},
            )


# ``try_add_moves``'s statements, the same as ``_insert_moves`` makes (qmark style)
_INSERT_MOVE = (
    "insert into ono99_moves (table_id, idx, move, version, by_bot) values (?, ?, ?, ?, ?)"
)
_UPDATE_TABLE = "update ono99_tables set version = ?, finished = ?, deadline = ? where id = ?"


def _migrate(c: Connection) -> None:
    """Bring a database made by an earlier release up to this schema."""
    if "deadline" not in {col["name"] for col in inspect(c).get_columns("ono99_tables")}:
        c.execute(text("alter table ono99_tables add column deadline float"))
    if "by_bot" not in {col["name"] for col in inspect(c).get_columns("ono99_moves")}:
        c.execute(text("alter table ono99_moves add column by_bot integer"))
    procs = {col["name"] for col in inspect(c).get_columns("ono99_procs")}
    if "addr" not in procs:  # the processes' direct links (web/peers.py)
        c.execute(text("alter table ono99_procs add column addr text"))
    if "key" not in procs:
        c.execute(text("alter table ono99_procs add column key varchar(64)"))
    if "rng" not in {col["name"] for col in inspect(c).get_columns("ono99_tables")}:
        # the tables stored so far deal with version 1 of the seeded shuffle, as they did
        c.execute(text("alter table ono99_tables add column rng integer not null default 1"))


#: the PostgreSQL advisory lock (any 64-bit number of our own) held while a process
#: creates or migrates the schema
_SCHEMA_LOCK = 0x0099_5C4E_3A00


def create_schema(
    engine: Engine, meta: MetaData, migrate: Callable[[Connection], None] | None = None
) -> None:
    """Create ``meta``'s tables that are missing (and run ``migrate``) in one transaction.
    On PostgreSQL that transaction first takes an advisory lock: processes started at the
    same moment on an empty database (docs/deploy.md) create the schema one after the
    other, where two concurrent ``CREATE TABLE`` of one name fail on PostgreSQL's catalog
    (``pg_type_typname_nsp_index``) even with ``IF NOT EXISTS``."""
    with engine.begin() as c:
        if engine.dialect.name == "postgresql":
            c.execute(text("select pg_advisory_xact_lock(:k)"), {"k": _SCHEMA_LOCK})
        meta.create_all(c)
        if migrate is not None:
            migrate(c)


def open_engine(url: str) -> Engine:
    """The SQLAlchemy engine of ``--db URL`` (:func:`engine_url`): for SQLite its folder
    made, connections shared between threads with a 30 s wait for a lock, and WAL; for
    PostgreSQL a connection that the server closed meanwhile (a restart, a terminated
    backend) is replaced when it is taken from the pool (:func:`_pg_dead_on_checkout`)."""
    real = engine_url(url)
    kwargs: dict[str, Any] = {}
    sqlite = real.startswith("sqlite")
    if sqlite:
        path = make_url(real).database
        if path and path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        kwargs["connect_args"] = {"check_same_thread": False, "timeout": 30}
    engine = create_engine(real, **kwargs)
    if sqlite:
        event.listen(engine, "connect", _sqlite_pragmas)
    else:
        event.listen(engine, "checkout", _pg_dead_on_checkout)
    return engine


def _pg_dead_on_checkout(dbapi_conn: Any, _record: Any, _proxy: Any) -> None:
    """Refuse a pooled PostgreSQL connection the server has closed or written to since it
    went idle: the pool then opens a fresh one (``DisconnectionError``). An idle
    connection has nothing to read, so a readable socket means the server ended it (it
    sends its ``FATAL`` and closes). This looks at the socket without a round trip, where
    ``pool_pre_ping`` sent a ``select 1`` (a transaction of its own) before every use."""
    if dbapi_conn.closed or dbapi_conn.broken:
        raise DisconnectionError("the connection is closed")
    poller = io_select.poll()
    poller.register(dbapi_conn.fileno(), io_select.POLLIN | io_select.POLLERR | io_select.POLLHUP)
    if poller.poll(0):
        raise DisconnectionError("the server closed the connection")


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    cur = dbapi_conn.cursor()
    # WAL: a commit is in the file before the server answers, so kill -9 loses nothing.
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.close()
