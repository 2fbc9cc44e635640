"""The server's settings: DICEHALL_* variables, the config file and flags reach the server."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import text
from typer.testing import CliRunner

from dicehall.cli import app as cli
from dicehall.server.http import commands
from dicehall.server.ops.limits import Limits
from dicehall.server.ops.settings import (
    ServerConfig,
    ServerSettings,
    SettingsError,
    load_settings,
    section,
)

SECTIONS = [Limits, ServerConfig]
"""The server's dataclasses of knobs; each field must be a setting of the same name."""


@pytest.fixture
def served(monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """What `dicehall serve` hands uvicorn, with uvicorn and the GC tuning stubbed out."""
    seen: dict[str, Any] = {}

    def run(app: FastAPI, **kwargs: Any) -> None:
        seen.update(kwargs, app=app)

    monkeypatch.setattr("uvicorn.run", run)
    monkeypatch.setattr(commands, "tune_gc", lambda: None)
    # The process-wide tunings stay out of the test run: a log handler bound to the
    # runner's captured stderr would outlive it, and the switch interval is global.
    monkeypatch.setattr(commands, "tune_threads", lambda: None)
    monkeypatch.setattr(commands.logging.config, "dictConfig", lambda config: None)
    monkeypatch.setattr(commands, "check_port_free", lambda host, port: None)
    for name in ServerSettings.model_fields:
        monkeypatch.delenv(f"DICEHALL_{name.upper()}", raising=False)
    monkeypatch.delenv("DICEHALL_CONFIG", raising=False)
    return seen


def serve(*args: str) -> str:
    result = CliRunner().invoke(cli, ["serve", *args])
    assert result.exit_code == 0, result.output
    return result.output


@pytest.mark.usefixtures("window_start")
def test_environment_variables_reach_the_server(
    served: dict[str, Any], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    db = tmp_path / "env.sqlite"
    monkeypatch.setenv("DICEHALL_DB", str(db))
    monkeypatch.setenv("DICEHALL_HOST", "127.0.0.2")
    monkeypatch.setenv("DICEHALL_PORT", "8123")
    monkeypatch.setenv("DICEHALL_LOG_LEVEL", "WARNING")
    monkeypatch.setenv("DICEHALL_SQLITE_SYNCHRONOUS", "full")
    monkeypatch.setenv("DICEHALL_TABLES_BURST", "2")
    monkeypatch.setenv("DICEHALL_GRACE_SECONDS", "7.5")
    monkeypatch.setenv("DICEHALL_BOT_THREADS", "3")
    monkeypatch.setenv("DICEHALL_RETRY_GIVE_UP_SECONDS", "12.5")
    monkeypatch.setenv("DICEHALL_COMPUTE_IN_PROCESSES", "false")
    output = serve()
    assert "http://127.0.0.2:8123/" in output
    assert (served["host"], served["port"], served["log_level"]) == ("127.0.0.2", 8123, "warning")
    app = served["app"]
    config = app.state.hall.config
    assert (config.bot_threads, config.retry_give_up_seconds) == (3, 12.5)
    assert not config.compute_in_processes
    with app.state.hall.store.engine.connect() as connection:
        assert connection.execute(text("PRAGMA synchronous")).scalar() == 2  # FULL
    assert db.exists()
    with TestClient(app) as client:
        made = [client.post("/api/tables", json={"game": "kariki"}) for _ in range(3)]
        assert [r.status_code for r in made] == [200, 200, 429]  # a burst of two, as set
        table = app.state.hall.get(made[0].json()["table_id"])
        assert table.settings.grace_seconds == 7.5  # the server's grace, the host chose none


def test_flags_override_the_environment_which_overrides_the_config_file(
    served: dict[str, Any], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    config = tmp_path / "dicehall.toml"
    config.write_text(f'port = 7001\nhost = "127.0.0.3"\ndb = "{tmp_path / "file.sqlite"}"\n')
    monkeypatch.setenv("DICEHALL_CONFIG", str(config))
    serve()
    assert (served["host"], served["port"]) == ("127.0.0.3", 7001)
    monkeypatch.setenv("DICEHALL_PORT", "7002")
    serve()
    assert (served["host"], served["port"]) == ("127.0.0.3", 7002)
    serve("--port", "7003", "--host", "127.0.0.4")
    assert (served["host"], served["port"]) == ("127.0.0.4", 7003)


@pytest.mark.parametrize(
    ("env", "said"),
    [
        ({"DICEHALL_PORT": "eighty"}, "setting port (DICEHALL_PORT)"),
        ({"DICEHALL_PORT": "70000"}, "less than or equal to 65535"),
        ({"DICEHALL_SQLITE_SYNCHRONOUS": "sometimes"}, "DICEHALL_SQLITE_SYNCHRONOUS"),
        ({"DICEHALL_CONFIG": "/nonexistent/dicehall.toml"}, "config file"),
    ],
)
def test_a_bad_setting_is_one_clear_line_and_no_server(
    served: dict[str, Any], monkeypatch: pytest.MonkeyPatch, env: dict[str, str], said: str
) -> None:
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    result = CliRunner().invoke(cli, ["serve"])
    assert result.exit_code == 2
    assert said in result.output
    assert "Traceback" not in result.output
    assert not served


def test_an_unknown_key_in_the_config_file_is_named(tmp_path: Path) -> None:
    config = tmp_path / "dicehall.toml"
    config.write_text("tables_per_minut = 3\n")
    with pytest.raises(SettingsError, match="unknown setting 'tables_per_minut'"):
        load_settings(config)
    config.write_text("port = \n")
    with pytest.raises(SettingsError, match="is not TOML"):
        load_settings(config)


def test_every_knob_of_the_server_is_a_setting_with_the_same_default() -> None:
    defaults = ServerSettings()
    for cls in SECTIONS:
        for f in dataclasses.fields(cls):
            assert f.name in ServerSettings.model_fields, (
                f"{cls.__name__}.{f.name} is not a setting"
            )
        assert section(cls, defaults) == cls()


def test_serve_help_lists_every_setting() -> None:
    result = CliRunner().invoke(cli, ["serve", "--help"], terminal_width=200)
    assert result.exit_code == 0
    for name in ServerSettings.model_fields:
        assert f"DICEHALL_{name.upper()}" in result.output


def test_docs_list_every_setting() -> None:
    doc = (Path(__file__).parents[2] / "docs" / "operators" / "settings.md").read_text()
    for name in ServerSettings.model_fields:
        assert f"`DICEHALL_{name.upper()}`" in doc, f"the settings page does not list {name}"
