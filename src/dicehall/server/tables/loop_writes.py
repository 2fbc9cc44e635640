"""Steps committed on the event loop itself, when that cannot make it wait.

Handing a group commit to the writer thread and back cost a loaded server
about a third of its CPU a move (0.44 of 1.27 ms at 500 seats, measured by
leaving the store out: benchmarks/server_load.py), almost all of it the
hand-over: the thread woken, the interpreter lock passed to it and back, the
loop woken by the thread's answer. The commit itself is about 35 µs of
SQLite's own work. So on an SQLite file whose commits never wait for the disk
(WAL with synchronous NORMAL or OFF: a commit appends to the log and syncs
nothing) a group is committed right on the loop, on a connection of its own.

Nothing on the loop may wait, and this never does:

- the connection's busy timeout is zero: if anyone else holds the write lock
  (the writer thread mid-transaction, another process), the write is not
  tried and the group goes to the writer thread, which waits and retries as
  before (store.py);
- any error at all (a full disk, a read-only file) rolls back and hands the
  group to the writer thread too, whose errors are the ones the table hears;
- it never checkpoints (a checkpoint syncs the disk): every `CHECKPOINT_EVERY`
  commits the writer thread runs a passive checkpoint, which does not hold
  up writers.

A retried write (`again`, which must first read what landed) always takes the
writer thread.
"""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Sequence
from typing import TYPE_CHECKING

from dicehall.server.ops.wire import dumps

if TYPE_CHECKING:
    from dicehall.server.tables.store import Append

CHECKPOINT_EVERY = 500
"""Commits on the loop between two checkpoints in the writer thread (SQLite's own
automatic checkpoint comes at about 1,000 pages of log; a commit of steps is a few)."""

_INSERT = "INSERT INTO steps (table_id, idx, step) VALUES (?, ?, ?)"
_STATUS = "UPDATE tables SET status = ? WHERE id = ?"


def can_write_on_loop(url_database: str | None, dialect: str, synchronous: str) -> bool:
    """Whether a database's commits can be made on the loop: an SQLite file (not memory)
    whose commits sync nothing."""
    memory = url_database in (None, "", ":memory:")
    return dialect == "sqlite" and not memory and synchronous in ("OFF", "NORMAL")


def step_rows(group: Sequence[Append]) -> list[tuple[str, int, str]]:
    """The steps' rows: (table id, index, the step as JSON text), in order."""
    return [
        (table_id, first + i, dumps(step))
        for table_id, first, new_steps, _status, _again in group
        for i, step in enumerate(new_steps)
    ]


class LoopWriter:
    """A connection of the event loop's own to an SQLite file in WAL mode."""

    def __init__(self, path: str, synchronous: str) -> None:
        # autocommit mode: the transactions below are begun and ended by hand
        self.db = sqlite3.connect(path, timeout=0, isolation_level=None, check_same_thread=False)
        self.db.execute(f"PRAGMA synchronous={synchronous}")
        self.db.execute("PRAGMA wal_autocheckpoint=0")
        self.db.execute("PRAGMA foreign_keys=ON")
        self.commits = 0
        self.unchecked = 0  # commits since the last checkpoint began

    def append(self, group: Sequence[Append]) -> bool:
        """Commit the group's steps and statuses in one transaction at once, or write
        nothing and answer False (the write lock is held elsewhere, a retry, an error)."""
        if any(again for *_, again in group):
            return False
        rows = step_rows(group)
        try:
            self.db.execute("BEGIN IMMEDIATE")  # the write lock now, or SQLITE_BUSY at once
        except sqlite3.Error:
            return False
        try:
            if rows:
                self.db.executemany(_INSERT, rows)
            for table_id, _first, _new, status, _again in group:
                if status is not None:
                    self.db.execute(_STATUS, (status, table_id))
            self.db.execute("COMMIT")
        except sqlite3.Error:
            with contextlib.suppress(sqlite3.Error):
                self.db.execute("ROLLBACK")
            return False
        self.commits += 1
        self.unchecked += 1
        return True

    def checkpoint_due(self) -> bool:
        return self.unchecked >= CHECKPOINT_EVERY

    def close(self) -> None:
        self.db.close()
