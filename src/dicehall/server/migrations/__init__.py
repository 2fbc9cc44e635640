"""The database's schema, migrated in place with Alembic.

`upgrade(engine)` brings any database the server has ever made to the newest
schema, inside one transaction: an empty database gets every table; one made
before migrations existed (no `alembic_version` table) starts at the first
revision, which only adds what such a database may lack; one already
migrated runs the revisions after its own; one at a revision this code does
not know (migrated by a newer dicehall) is refused with `DatabaseAhead`, so
an older server never starts on it. Nothing stored is dropped or rewritten.
Each server runs it on start (tables/store.py), and `dicehall migrate` runs it
before a rolling deploy; on PostgreSQL an advisory lock held for the
transaction keeps two migrations from running at once.

A change to the schema is a new file in versions/ (`alembic revision -m "..."`
from the repository's root, where alembic.ini points here), and the tables of
the modules that define them (tables/: store.py, house_rules.py, chat.py,
outside_bots.py; people/: accounts.py, results.py; schema.py gathers them)
must match what the revisions build: tests/server/test_migrations.py compares
the two.
"""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy.engine import Connection, Engine

HERE = Path(__file__).parent


def config(connection: Connection | None = None) -> Config:
    """Alembic's configuration for these revisions; with a connection, to run on it."""
    cfg = Config()
    cfg.set_main_option("script_location", str(HERE))
    cfg.attributes["connection"] = connection
    return cfg


def head() -> str:
    """The newest revision: what a database is at once `upgrade` has run."""
    found = ScriptDirectory.from_config(config()).get_current_head()
    assert found is not None
    return found


def current(connection: Connection) -> str | None:
    """The revision a database is at; None before its first migration."""
    return MigrationContext.configure(connection).get_current_revision()


class DatabaseAhead(RuntimeError):
    """The database was migrated by a newer dicehall: this code does not know its schema."""


MIGRATE_LOCK = 0x64696365  # PostgreSQL advisory lock: one migration at a time, server or command


def known(revision: str) -> bool:
    """Whether these revisions include `revision` (a database at an unknown one is ahead)."""
    try:
        return ScriptDirectory.from_config(config()).get_revision(revision) is not None
    except Exception:  # alembic's ResolutionError and kin: not one of ours
        return False


def refuse_if_ahead(connection: Connection) -> None:
    """DatabaseAhead, naming both revisions, when the database is past what this code knows:
    running on it would read and write a schema the code was not written for."""
    at = current(connection)
    if at is not None and not known(at):
        raise DatabaseAhead(
            f"the database is at schema revision {at}, which this dicehall does not know"
            f" (its newest is {head()}): it was migrated by a newer dicehall; run that"
            " version, or restore a backup made before the upgrade"
        )


def behind(connection: Connection) -> bool:
    """Whether `upgrade` has anything to do here (DatabaseAhead if the database is ahead)."""
    refuse_if_ahead(connection)
    return current(connection) != head()


def upgrade(engine: Engine, revision: str = "head") -> None:
    """Migrate the database to `revision` (the newest by default), in one transaction;
    DatabaseAhead, changing nothing, if it is past the newest this code knows."""
    with engine.begin() as connection:
        if connection.dialect.name == "postgresql":  # released when the transaction ends
            connection.exec_driver_sql(f"SELECT pg_advisory_xact_lock({MIGRATE_LOCK})")
        refuse_if_ahead(connection)
        command.upgrade(config(connection), revision)
