"""The database's schema, migrated in place with Alembic.

`upgrade(engine)` brings any database the server has ever made to the newest
schema, inside one transaction: an empty database gets every table; one made
before migrations existed (no `alembic_version` table) starts at the first
revision, which only adds what such a database may lack; one already
migrated runs the revisions after its own. Nothing stored is dropped or
rewritten. Each server runs it on start (store.py), after taking the
database's server lock on PostgreSQL, so two servers never migrate at once.

A change to the schema is a new file in versions/ (`alembic revision -m "..."`
from the repository's root, where alembic.ini points here), and the tables of
the modules that define them (store.py, settings.py, chat.py, accounts.py,
results.py) must match what the revisions build: tests/server/test_migrations.py
compares the two.
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


def upgrade(engine: Engine, revision: str = "head") -> None:
    """Migrate the database to `revision` (the newest by default), in one transaction."""
    with engine.begin() as connection:
        command.upgrade(config(connection), revision)
