"""The serve command's helpers: database URLs and keeping tokens out of the logs."""

from __future__ import annotations

import logging
from pathlib import Path

from dicehall.server.commands import _RedactTokens, database_url


def test_database_url_makes_sqlite_folders(tmp_path: Path) -> None:
    path = tmp_path / "deep" / "x.sqlite"
    assert database_url(str(path)) == f"sqlite:///{path}"
    assert (tmp_path / "deep").is_dir()
    assert database_url("postgresql://h/db") == "postgresql://h/db"


def test_tokens_never_reach_a_log_line() -> None:
    record = logging.LogRecord(
        "uvicorn.error",
        logging.INFO,
        __file__,
        1,
        '%s - "WebSocket %s" [accepted]',
        ("127.0.0.1:5", "/ws/tables/abc?token=s3cr3t-Tok_en&x=1"),
        None,
    )
    assert _RedactTokens().filter(record)
    assert (
        record.getMessage() == '127.0.0.1:5 - "WebSocket /ws/tables/abc?token=***&x=1" [accepted]'
    )
