"""The serve command's helpers: database URLs and keeping tokens out of the logs."""

from __future__ import annotations

import logging
import re
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from dicehall.server.http.commands import _RedactTokens
from dicehall.server.ops.settings import database_url


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


def test_server_logging_has_time_stamps_a_level_and_an_access_log_switch() -> None:
    import io
    import logging
    import logging.config

    from dicehall.server.http.commands import logging_config

    logging.config.dictConfig(logging_config("warning", access_log=False))
    written = io.StringIO()  # the test's own stream: nothing outlives the test
    for handler in logging.getLogger("dicehall").handlers:
        assert isinstance(handler, logging.StreamHandler)
        handler.setStream(written)
    try:
        logging.getLogger("dicehall.server").warning("resumed %d tables ?token=%s", 3, "s3cret")
        logging.getLogger("dicehall.server").info("not at this level")
        logging.getLogger("uvicorn.access").warning("GET /ws/tables/x?token=abc")
        logging.getLogger("uvicorn.error").error("a server error")
        lines = written.getvalue().splitlines()
        resumed = [line for line in lines if "resumed 3 tables" in line]
        assert len(resumed) == 1, lines
        assert re.match(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\S* WARNING dicehall.server: ", resumed[0])
        assert resumed[0].endswith("resumed 3 tables ?token=***")
        assert any("ERROR   uvicorn.error: a server error" in line for line in lines), lines
        assert not any("not at this level" in line or "GET /ws" in line for line in lines)
        with pytest.raises(ValueError, match="log level must be one of"):
            logging_config("loud")
    finally:
        logging.config.dictConfig({"version": 1, "disable_existing_loggers": False})
        for name in ("dicehall", "uvicorn", "uvicorn.access"):
            logging.getLogger(name).handlers.clear()
            logging.getLogger(name).propagate = True
            logging.getLogger(name).setLevel(logging.NOTSET)


def test_serve_on_a_busy_port_says_so_in_one_line_first(tmp_path: Path) -> None:
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        port = holder.getsockname()[1]
        command = Path(sys.executable).with_name("dicehall")
        done = subprocess.run(
            [str(command), "serve", "--port", str(port), "--db", str(tmp_path / "db")],
            capture_output=True,
            text=True,
            timeout=60,
        )
    assert done.returncode != 0
    assert done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert lines == [
        f"dicehall serve: port {port} on 127.0.0.1 is already in use (another server?);"
        " stop it or choose another with --port (make serve PORT=...)"
    ]
