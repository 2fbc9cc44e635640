"""A copy of an SQLite database taken while the server runs (`dicehall backup`).

Copying the file itself is unsafe while the server writes: the write-ahead log
beside it holds the newest steps, and a copy taken mid-commit can be torn.
SQLite's online backup API copies the database through a connection as one
consistent snapshot; in WAL mode (the store's) a reader never blocks the
writer, so the tables keep moving while it runs. The copy is written beside
its destination under a temporary name, checked (`PRAGMA integrity_check`,
its schema revision) and renamed into place only then: a failed backup leaves
no half file where the good one was expected.

PostgreSQL has its own tools (`pg_dump`, docs/operators/backup.md); the command
says so rather than copying a server it cannot snapshot as well.
"""

from __future__ import annotations

import os
import sqlite3
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy.engine import make_url

from dicehall.core.errors import DicehallError


class BackupError(DicehallError):
    """A backup that cannot be made; the message says what was wrong, nothing was written."""


@dataclass(frozen=True)
class Backup:
    """What a finished backup holds, for the command's report."""

    path: Path
    bytes: int
    revision: str | None
    tables: dict[str, int]  # tables by status: "over", "playing", "waiting", ...


def sqlite_path(url: str) -> Path:
    """The file of an SQLite URL; BackupError for any other database."""
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite":
        raise BackupError(
            f"dicehall backup copies SQLite databases; {parsed.get_backend_name()} has its own"
            " tools: pg_dump for PostgreSQL (docs/operators/backup.md)"
        )
    if parsed.database in (None, "", ":memory:"):
        raise BackupError("an in-memory database has nothing on disk to back up")
    return Path(parsed.database)


def backup_sqlite(url: str, destination: Path, *, overwrite: bool = False) -> Backup:
    """Copy the SQLite database at `url` to `destination` with the online backup API."""
    source = sqlite_path(url)
    if not source.is_file():
        raise BackupError(f"no database at {source}")
    if destination.exists() and not overwrite:
        raise BackupError(f"{destination} exists already (--overwrite to replace it)")
    if not destination.parent.is_dir():
        raise BackupError(f"no folder {destination.parent} for the backup")
    if destination.resolve() == source.resolve():
        raise BackupError("the backup would overwrite the database itself")
    partial = destination.with_name(f".{destination.name}.partial")
    partial.unlink(missing_ok=True)
    try:
        # read-only: a backup never creates, migrates or writes the database it copies
        src = sqlite3.connect(f"{source.resolve().as_uri()}?mode=ro", uri=True)
        try:
            dst = sqlite3.connect(partial)
            try:
                src.backup(dst)  # in one step: one snapshot, the writer carries on meanwhile
            finally:
                dst.close()
        finally:
            src.close()
        result = _check(partial)
        os.replace(partial, destination)
    except sqlite3.Error as e:
        raise BackupError(f"the backup of {source} failed: {e}") from None
    finally:
        partial.unlink(missing_ok=True)
    return Backup(destination, destination.stat().st_size, *result)


def _check(path: Path) -> tuple[str | None, dict[str, int]]:
    """The copy's integrity, its schema revision and its tables by status."""
    db = sqlite3.connect(path)
    try:
        (ok,) = db.execute("PRAGMA integrity_check").fetchone()
        if ok != "ok":
            raise BackupError(f"the copy failed SQLite's integrity check: {ok}")
        names = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        revision = None
        if "alembic_version" in names:
            row = db.execute("SELECT version_num FROM alembic_version").fetchone()
            revision = row[0] if row else None
        tables: dict[str, int] = {}
        if "tables" in names:
            rows = db.execute("SELECT status, COUNT(*) FROM tables GROUP BY status")
            tables = {status: count for status, count in rows}
    finally:
        db.close()
    return revision, tables
