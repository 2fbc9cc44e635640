"""A database that refuses writes gets one log line per failure, no traceback, and the
same failure again soon is counted rather than logged again."""

from __future__ import annotations

import logging
from dataclasses import replace
from pathlib import Path

import pytest

from dicehall.server.ops.limits import Limits
from dicehall.server.tables import write_failures
from dicehall.server.tables.write_failures import WriteFailures
from tests.server.helpers import running
from tests.server.test_faults import FAULTS, write_lock


def test_each_refused_write_is_one_line_and_repeats_are_counted(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    db = tmp_path / "db.sqlite"
    with running(db, config=FAULTS, limits=replace(Limits.generous())) as client:
        caplog.set_level(logging.WARNING, logger="dicehall.server")
        with write_lock(db):
            codes = [
                client.post("/api/tables", json={"game": "duel"}).status_code for _ in range(5)
            ]
    assert codes == [503] * 5
    failed = [r for r in caplog.records if "a database write failed" in r.getMessage()]
    assert len(failed) == 1  # five refusals, one line
    assert failed[0].exc_info is None and "\n" not in failed[0].getMessage()
    assert "OperationalError: " in failed[0].getMessage()


def test_the_count_of_repeats_comes_with_the_next_line(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    clock = [100.0]
    monkeypatch.setattr(write_failures.time, "monotonic", lambda: clock[0])
    caplog.set_level(logging.WARNING, logger="dicehall.server")
    log = WriteFailures(repeat_seconds=10)
    for _ in range(4):
        log.failed(OSError("database or disk is full"))
    log.failed(TimeoutError("another cause"))
    clock[0] += 11
    log.failed(OSError("database or disk is full"))
    lines = [r.getMessage() for r in caplog.records]
    assert lines == [
        "a database write failed: OSError: database or disk is full",
        "a database write failed: TimeoutError: another cause",
        "a database write failed: OSError: database or disk is full"
        " (and 3 more like it since the last line)",
    ]
