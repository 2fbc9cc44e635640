"""The database: one row per table, one row per step, in order.

Every step reaches the database, in one transaction with the table's new
status, before any player is told of it; a restarted server rebuilds each
unfinished table by replaying its steps. Any SQLAlchemy URL works (SQLite by
default, PostgreSQL for a shared server). On SQLite the journal is WAL with
synchronous=NORMAL: a committed step survives any crash or kill of the server
process; only a power cut of the machine could lose the last few commits.
The `sqlite_synchronous` setting "FULL" syncs every step to disk as well, at
the cost of an fsync per step.

One server process per database: each holds its unfinished tables in memory,
so a second one would resume and play the same tables. On PostgreSQL, where
several servers can reach one database, the store holds an advisory lock for
its lifetime and a second server refuses to start. The processes of one site
(`--redis`, server/cluster/) open it with `exclusive=False`: each holds the
same lock shared, so they run side by side (sharing the tables through
leases) while a single server and a site still exclude each other.

Writes run in one writer thread (`Store.write`), never on the event loop: a
write waiting for a lock (SQLite's busy timeout) or a slow disk would
otherwise freeze every table. A write the database refuses raises
`StorageError`, a 503 over HTTP, with the cause in words (locked, disk full).

Steps are written in group commits (`Store.save_steps`): the steps that tables
hand in while a commit is under way wait for it and then go in together, in one
transaction, so a busy server pays one commit for many tables' moves rather
than one each. A table still hears back only once its own steps are committed;
if the shared transaction fails, each table's steps are tried again alone, so
one table's refused write never fails another's. The one exception to "never
on the event loop": on an SQLite file at synchronous NORMAL or OFF, where a
commit syncs nothing, a group is committed on the loop's own connection if the
write lock is free at that instant, and goes to the writer thread otherwise
(loop_writes.py says why and how it never waits).

The schema is Alembic's (migrations/): a store migrates its database in place
when it opens it, so a database made by any earlier version keeps every row.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, TypeVar

from sqlalchemy import (
    JSON,
    Column,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    bindparam,
    create_engine,
    event,
    insert,
    select,
    text,
    update,
)
from sqlalchemy.engine import Connection, Engine, Row
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.pool import StaticPool

from dicehall.core.errors import DicehallError
from dicehall.server.ops.workers import Busy, Pool
from dicehall.server.tables.loop_writes import LoopWriter, can_write_on_loop, step_rows
from dicehall.server.tables.write_failures import WriteFailures

log = logging.getLogger("dicehall.server")

T = TypeVar("T")

SQLITE_SYNCHRONOUS = "NORMAL"

metadata = MetaData()

tables = Table(
    "tables",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("room", String(16), nullable=False, unique=True),
    Column("game", String(32), nullable=False),
    Column("seats", Integer, nullable=False),
    Column("options", JSON, nullable=False),
    Column("players", JSON, nullable=False),
    Column("status", String(16), nullable=False, index=True),
    Column("seed", String(64), nullable=False),
    Column("commitment", String(64), nullable=False),
    Column("turn_seconds", Float, nullable=True),
    Column("bot_delay_ms", Integer, nullable=False),
    Column("rematch_id", String(32), nullable=True),
    Column("created", Float, nullable=False),
    # "sealed" or "seed" (fairness.py); tables stored before there was a choice are "seed"
    Column("fairness", String(16), nullable=False, server_default="seed"),
)

steps = Table(
    "steps",
    metadata,
    Column("table_id", String(32), ForeignKey("tables.id"), primary_key=True),
    Column("idx", Integer, primary_key=True),
    Column("step", JSON, nullable=False),
)


# built once: SQLAlchemy caches their compiled form, which keeps a step's write cheap
_insert_steps = insert(steps).values(
    table_id=bindparam("t"), idx=bindparam("i"), step=bindparam("s")
)
_set_status = update(tables).where(tables.c.id == bindparam("t")).values(status=bindparam("status"))


@dataclass
class TableRecord:
    """A table's row. `players` holds per seat {"name", "bot", "token_hash", "reserved"}."""

    id: str
    room: str
    game: str
    seats: int
    options: dict[str, Any]
    players: list[dict[str, Any]]
    status: str
    seed: str
    commitment: str
    turn_seconds: float | None
    bot_delay_ms: int
    rematch_id: str | None = None
    created: float = field(default_factory=time.time)
    fairness: str = "seed"

    @classmethod
    def from_row(cls, row: Row[Any]) -> TableRecord:
        return cls(**row._asdict())

    def row(self) -> dict[str, Any]:
        return dict(self.__dict__)


# pg_try_advisory_lock key held by the one server of a PostgreSQL database ("dicehall")
SERVER_LOCK = 0x6469636568616C6C


class DatabaseInUse(RuntimeError):
    """Another server already holds this database."""


class StorageError(Busy):
    """The database refused a write (locked, disk full, gone); nothing of it was stored."""


def storage_error(e: Exception) -> StorageError:
    """A refused write in words a player can act on; never the statement's parameters."""
    text = str(getattr(e, "orig", None) or e).lower()
    if "locked" in text or "busy" in text:
        cause = "the database is locked by another writer"
    elif "full" in text or "no space" in text:
        cause = "the server's disk is full"
    elif "readonly" in text or "read-only" in text:
        cause = "the database is read-only"
    else:
        cause = "the database refused the write"
    return StorageError(f"{cause}; nothing was saved: try again in a few seconds", 5)


class Store:
    def __init__(
        self,
        url: str,
        *,
        synchronous: str = SQLITE_SYNCHRONOUS,
        busy_timeout: float = 5.0,
        write_queue: int = 1000,
        exclusive: bool = True,
    ) -> None:
        self.engine: Engine = _engine(url, synchronous, busy_timeout)
        self._lock: Connection | None = None
        self._unlock = "pg_advisory_unlock" if exclusive else "pg_advisory_unlock_shared"
        self.errors = 0  # writes the database refused (server/http/health.py's metrics)
        self.failures = WriteFailures()  # one log line each, repeats counted
        if self.engine.dialect.name == "postgresql":
            self._lock = _hold_server_lock(self.engine, shared=not exclusive)
        # the schema, migrated in place (migrations/): tables, then accounts and results
        from dicehall.server.migrations import upgrade

        upgrade(self.engine)
        # one writer thread: SQLite takes one writer at a time anyway, and order is kept;
        # an in-memory database has one connection that must stay on the loop's thread
        memory = self.engine.dialect.name == "sqlite" and self.engine.url.database in (
            None,
            "",
            ":memory:",
        )
        self.writer = Pool("saving to the database", 0 if memory else 1, write_queue)
        self._waiting: list[tuple[Append, asyncio.Future[None]]] = []  # the next group commit
        self._committing = False
        self.commits = 0  # group commits of steps, on the loop or in the writer thread
        self._checkpointing: asyncio.Task[None] | None = None
        self.on_loop: LoopWriter | None = None  # group commits made on the loop (loop_writes.py)
        path = self.engine.url.database
        if can_write_on_loop(path, self.engine.dialect.name, synchronous):
            assert path is not None
            self.on_loop = LoopWriter(path, synchronous)

    async def write(self, fn: Callable[..., None], *args: Any) -> None:
        """Run one of the write methods below in the writer thread; StorageError if refused."""
        await self.run(fn, *args)

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """Any database job in the writer thread, with its answer: the account and result
        stores' reads too, which must not wait on the event loop; StorageError if refused."""
        try:
            return await self.writer.run(fn, *args)
        except (Busy, DicehallError):  # refused, or the job's own answer (a name taken ...)
            raise
        except Exception as e:  # a driver's own error, a connection lost mid-commit, ...
            self.errors += 1
            self.failures.failed(e)
            raise storage_error(e) from e

    async def save_steps(
        self,
        table_id: str,
        first: int,
        new_steps: list[Any],
        status: str | None,
        again: bool = False,
    ) -> None:
        """`append` in the next group commit; StorageError (or Busy) if refused."""
        if not self.writer.workers:  # one connection on the loop's thread: nothing to group
            await self.write(self.append, table_id, first, new_steps, status, again)
            return
        if len(self._waiting) >= self.writer.limit:
            raise self.writer.busy()
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiting.append(((table_id, first, new_steps, status, again), done))
        if not self._committing:
            self._committing = True
            asyncio.get_running_loop().create_task(self._group_commits())
        await asyncio.shield(done)  # a caller that goes away leaves the commit to the others

    async def _group_commits(self) -> None:
        """Commit whatever waits, until nothing does: on the loop where that cannot wait
        (loop_writes.py), else in the writer thread. It runs as a task of its own, so the
        group holds every table that moved in the same turn of the loop."""
        try:
            while self._waiting:
                group, self._waiting = self._waiting, []
                appends = [a for a, _ in group]
                refused: list[Exception | None]
                if self.on_loop is not None and self.on_loop.append(appends):
                    refused = [None] * len(group)
                    if self.on_loop.checkpoint_due() and self._checkpointing is None:
                        self.on_loop.unchecked = 0
                        self._checkpointing = asyncio.create_task(self._checkpoint())
                else:
                    try:
                        refused = await self.writer.run(self.append_group, appends)
                    except Exception as e:  # the writer itself refused (Busy) or broke
                        failure = e if isinstance(e, Busy) else storage_error(e)
                        refused = [failure] * len(group)
                self.commits += 1
                for (_, done), error in zip(group, refused, strict=True):
                    if done.done():
                        continue
                    if error is None:
                        done.set_result(None)
                    else:
                        done.set_exception(error)
        finally:
            self._committing = False

    async def _checkpoint(self) -> None:
        """The log's frames copied into the database file, in the writer thread (passive:
        it waits for nobody, and nobody waits for it)."""
        try:
            with contextlib.suppress(Exception):  # missed: the next one catches up
                await self.run(self._checkpoint_now)
        finally:
            self._checkpointing = None

    def _checkpoint_now(self) -> None:
        with self.engine.connect() as db:
            db.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)")

    def append_group(self, group: list[Append]) -> list[Exception | None]:
        """In the writer thread: several tables' `append`s in one transaction; if it fails,
        each in its own, so that only a refused one fails. Its error, or None, by append."""
        try:
            with self.engine.begin() as db:
                _append(db, group)
            return [None] * len(group)
        except Exception as e:
            if len(group) == 1:
                self.failures.failed(e)
                return [storage_error(e)]
        refused: list[Exception | None] = []
        for append in group:
            try:
                with self.engine.begin() as db:
                    _append(db, [append])
                refused.append(None)
            except Exception as e:
                self.failures.failed(e)
                refused.append(storage_error(e))
        return refused

    def ping(self) -> None:
        """A round trip to the database (server/http/health.py's readiness check)."""
        with self.engine.connect() as db:
            db.execute(text("SELECT 1"))

    def insert(self, record: TableRecord, rematch_of: str | None = None) -> None:
        """A new table; with rematch_of, the old table points to it in the same transaction."""
        with self.engine.begin() as db:
            db.execute(insert(tables).values(record.row()))
            if rematch_of is not None:
                db.execute(
                    update(tables).where(tables.c.id == rematch_of).values(rematch_id=record.id)
                )

    def save_seats(self, table_id: str, players: list[dict[str, Any]]) -> None:
        """The players alone, never the status (which only the table's steps move)."""
        with self.engine.begin() as db:
            db.execute(update(tables).where(tables.c.id == table_id).values(players=players))

    def save_players(self, table_id: str, players: list[dict[str, Any]], status: str) -> None:
        with self.engine.begin() as db:
            db.execute(
                update(tables).where(tables.c.id == table_id).values(players=players, status=status)
            )

    def append(
        self,
        table_id: str,
        first: int,
        new_steps: list[Any],
        status: str | None,
        again: bool = False,
    ) -> None:
        """Steps number first, first+1, ... and, if given, the table's new status, atomically.

        `again` marks a retry of a write that failed: if that write did reach the
        database after all (an error after the commit), it is not written twice.
        """
        with self.engine.begin() as db:
            _append(db, [(table_id, first, new_steps, status, again)])

    def get(self, table_id: str) -> TableRecord | None:
        with self.engine.connect() as db:
            row = db.execute(select(tables).where(tables.c.id == table_id)).first()
        return None if row is None else TableRecord.from_row(row)

    def id_of_room(self, room: str) -> str | None:
        with self.engine.connect() as db:
            found: str | None = db.execute(
                select(tables.c.id).where(tables.c.room == room)
            ).scalar()
        return found

    def room_taken(self, room: str) -> bool:
        return self.id_of_room(room) is not None

    def steps_of(self, table_id: str) -> list[Any]:
        with self.engine.connect() as db:
            return _steps(db, table_id)

    def unfinished(self) -> list[tuple[TableRecord, list[Any]]]:
        with self.engine.connect() as db:
            query = select(tables).where(tables.c.status.notin_(("over", "closed")))
            rows = db.execute(query).all()
            return [(TableRecord.from_row(r), _steps(db, r.id)) for r in rows]

    def unfinished_ids(self) -> list[str]:
        with self.engine.connect() as db:
            query = select(tables.c.id).where(tables.c.status.notin_(("over", "closed")))
            return list(db.execute(query).scalars())

    def close(self) -> None:
        if self.on_loop is not None:
            self.on_loop.close()
            self.on_loop = None
        if self._lock is not None:
            with contextlib.suppress(SQLAlchemyError):  # a lost session has let go already
                self._lock.execute(text(f"SELECT {self._unlock}(:k)"), {"k": SERVER_LOCK})
                self._lock.commit()
            self._lock.close()
            self._lock = None
        self.writer.close()
        self.engine.dispose()


# pg_advisory_lock key held while a process of a site of several creates the schema
SCHEMA_LOCK = 0x6469636568616C6D


@contextlib.contextmanager
def schema_lock(url: str) -> Iterator[None]:
    """Several processes starting at once on one PostgreSQL database create its tables
    one after the other (CREATE TABLE IF NOT EXISTS still races in PostgreSQL)."""
    engine = create_engine(url, hide_parameters=True)
    try:
        with engine.connect() as db:
            db.execute(text("SELECT pg_advisory_lock(:k)"), {"k": SCHEMA_LOCK})
            db.commit()
            try:
                yield
            finally:
                db.execute(text("SELECT pg_advisory_unlock(:k)"), {"k": SCHEMA_LOCK})
                db.commit()
    finally:
        engine.dispose()


def _hold_server_lock(engine: Engine, shared: bool = False) -> Connection:
    """A connection holding the database's server lock, kept open (and idle, not in a
    transaction) until the store closes: alone, or `shared` with the other processes of
    a site."""
    lock = engine.connect()
    take = "pg_try_advisory_lock_shared" if shared else "pg_try_advisory_lock"
    held = lock.execute(text(f"SELECT {take}(:k)"), {"k": SERVER_LOCK}).scalar()
    lock.commit()
    if not held:
        lock.close()
        where = engine.url.render_as_string()
        if shared:
            raise DatabaseInUse(
                f"a dicehall server without --redis is using the database {where}:"
                " stop it first (a site of several processes shares a database with no other)"
            )
        raise DatabaseInUse(
            f"another dicehall server is using the database {where}:"
            " stop it first (one server process per database, or several with --redis)"
        )
    return lock


Append = tuple[str, int, list[Any], str | None, bool]
"""A table's new steps: its id, the first one's index, the steps, its new status, again."""


def _append(db: Connection, group: list[Append]) -> None:
    """Several tables' new steps in one statement, then their new statuses (a status
    changes at a game's start and end only)."""
    # a retried write whose first attempt had landed after all is not written again
    rows = step_rows([a for a in group if not (a[4] and _steps(db, a[0])[a[1] :] == a[2])])
    if rows:
        _insert_rows(db, rows)
    for table_id, _first, _new, status, _again in group:
        if status is not None:
            db.execute(_set_status, {"t": table_id, "status": status})


# The driver's own INSERT, by its parameter style: a busy server writes a step group per
# move, and SQLAlchemy's compiled statement cost about twice the driver's (JSON column
# processing, a statement cache lookup, parameter dicts) in the writer thread, which
# shares the interpreter lock with the event loop.
_MARKS = {"qmark": "?", "format": "%s", "pyformat": "%s"}


def _insert_rows(db: Connection, rows: list[tuple[str, int, str]]) -> None:
    """Step rows (table id, index, the step as JSON text) in one executemany."""
    mark = _MARKS.get(db.dialect.paramstyle)
    if mark is None:  # another driver: SQLAlchemy's statement, the JSON decoded again
        db.execute(_insert_steps, [{"t": t, "i": i, "s": json.loads(s)} for t, i, s in rows])
        return
    sql = f"INSERT INTO steps (table_id, idx, step) VALUES ({mark}, {mark}, {mark})"
    db.exec_driver_sql(sql, rows)


def _steps(db: Connection, table_id: str) -> list[Any]:
    query = select(steps.c.step).where(steps.c.table_id == table_id).order_by(steps.c.idx)
    return list(db.execute(query).scalars())


def _engine(url: str, synchronous: str = SQLITE_SYNCHRONOUS, busy_timeout: float = 5.0) -> Engine:
    """An engine whose errors never quote parameters: a table's row holds its secret seed.

    On SQLite `synchronous` is the pragma (OFF, NORMAL, FULL or EXTRA), and a write waits
    `busy_timeout` seconds for another writer's lock, then fails."""
    if synchronous not in ("OFF", "NORMAL", "FULL", "EXTRA"):
        raise ValueError(f"SQLite synchronous: OFF, NORMAL, FULL or EXTRA; got {synchronous!r}")
    if not url.startswith("sqlite"):
        return create_engine(url, pool_pre_ping=True, hide_parameters=True)
    memory = url in ("sqlite://", "sqlite:///:memory:")
    engine = create_engine(
        url,
        connect_args={"check_same_thread": False, "timeout": busy_timeout},
        poolclass=StaticPool if memory else None,
        hide_parameters=True,
    )

    @event.listens_for(engine, "connect")
    def _pragmas(dbapi_connection: Any, _record: Any) -> None:
        cursor = dbapi_connection.cursor()
        if not memory:
            cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute(f"PRAGMA synchronous={synchronous}")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.close()

    return engine
