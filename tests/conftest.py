"""Shared test settings: bounded Hypothesis runs so `make test` stays fast on 2 cores."""

import faulthandler
import os
import sys
import tempfile
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "default",
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    print_blob=True,
)
settings.load_profile("default")

# Tests compute every table afresh and write nothing under the user's cache
# folder; the cache's own tests point it at a temporary folder.
os.environ["DICEHALL_CACHE"] = "off"
# Nor do they read a strategy solved on this machine (a solved Tao strategy changes what
# `dicehall odds tao` shows): solved strategies go to a folder of the run's own.
os.environ["DICEHALL_STRATEGIES"] = tempfile.mkdtemp(prefix="dicehall-test-strategies-")


def _a_database_per_worker() -> None:
    """Tests run in parallel workers (pytest-xdist), and the PostgreSQL tests wipe
    their database: give each worker a database of its own beside the one named by
    DICEHALL_TEST_PG_URL, before any test module reads the variable."""
    url = os.environ.get("DICEHALL_TEST_PG_URL")
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if not url or not worker:
        return
    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url

    base = make_url(url)
    mine = base.set(database=f"{base.database}_{worker}")
    engine = create_engine(base, isolation_level="AUTOCOMMIT")
    try:
        with engine.connect() as conn:
            exists = conn.execute(
                text("SELECT 1 FROM pg_database WHERE datname = :name"), {"name": mine.database}
            ).first()
            if exists is None:
                conn.execute(text(f'CREATE DATABASE "{mine.database}"'))
    finally:
        engine.dispose()
    os.environ["DICEHALL_TEST_PG_URL"] = mine.render_as_string(hide_password=False)


_a_database_per_worker()

HUNG_TEST_SECONDS = 300
"""A test still running after this long is stuck, not slow (the slowest take about two
minutes on a loaded machine): print every thread's stack and end its worker, so that a
hang is a failure with its cause on screen rather than a run that never finishes."""


@pytest.fixture(autouse=True)
def _hang_watchdog() -> Iterator[None]:
    faulthandler.dump_traceback_later(HUNG_TEST_SECONDS, exit=True, file=sys.__stderr__)
    try:
        yield
    finally:
        faulthandler.cancel_dump_traceback_later()
