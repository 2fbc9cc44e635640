"""The databases the account, rating and migration tests run on: a fresh SQLite file,
and PostgreSQL when DICEHALL_TEST_PG_URL names one (wiped first: it must be one you can
wipe, as for test_postgres.py)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from alembic import command
from sqlalchemy import create_engine, text

from dicehall.server import migrations
from dicehall.server.migrations.schema import metadata
from dicehall.server.ops.settings import ServerConfig
from tests.server.helpers import sqlite_url

PG_URL = os.environ.get("DICEHALL_TEST_PG_URL")

# Argon2id at its cheapest: the tests hash many passwords and check behaviour, not cost
CHEAP = ServerConfig(compute_in_processes=False, password_time_cost=1, password_memory_kib=64)


def as_before_migrations(url: str) -> None:
    """Turn a database the server made into one as servers wrote before migrations: the
    first revision's tables and rows, no migrations' record."""
    engine = create_engine(url)
    try:
        with engine.begin() as db:
            command.downgrade(migrations.config(db), "0001")
            db.execute(text("DROP TABLE alembic_version"))
    finally:
        engine.dispose()


def wipe(url: str) -> None:
    """Every table the server makes, and the migrations' record, gone."""
    engine = create_engine(url)
    try:
        metadata.drop_all(engine)
        with engine.begin() as db:
            db.execute(text("DROP TABLE IF EXISTS alembic_version"))
    finally:
        engine.dispose()


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return sqlite_url(tmp_path)
    if not PG_URL:
        pytest.skip("set DICEHALL_TEST_PG_URL to a PostgreSQL URL to run these")
    wipe(PG_URL)
    return PG_URL
