"""The server's settings: one object, read from DICEHALL_* variables and a config file.

`load_settings` gives each setting, highest first, from: the `dicehall serve`
flag that names it, the environment variable `DICEHALL_<NAME>`, the TOML
config file (`--config FILE` or `DICEHALL_CONFIG`; flat `name = value` keys),
and the default. Unknown keys in the file and values of the wrong type or
range are refused with the setting, its variable and what was wrong, before
the server starts.

The limits and other knobs the server's modules define as plain dataclasses
(`limits.Limits` ...) are settings of the same names here: `section(Limits)`
builds one from the settings, and tests/server/test_server_settings.py checks that
every field of such a dataclass is a setting with the same default. A new
knob is one line in that dataclass and one field below.
"""

from __future__ import annotations

import dataclasses
import os
import tomllib
from contextvars import ContextVar
from pathlib import Path
from typing import Any, Literal, TypeVar, cast

from pydantic import Field, ValidationError, field_validator
from pydantic_settings import (
    BaseSettings,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
    TomlConfigSettingsSource,
)

from dicehall.core.errors import DicehallError
from dicehall.server.commands import DEFAULT_DB
from dicehall.server.config import ServerConfig
from dicehall.server.limits import Limits
from dicehall.server.settings import DEFAULT_GRACE_SECONDS

ENV_PREFIX = "DICEHALL_"
CONFIG_ENV = "DICEHALL_CONFIG"

_LIMITS = Limits()
_CONFIG = ServerConfig()
_config_file: ContextVar[Path | None] = ContextVar("dicehall_config_file", default=None)


class SettingsError(DicehallError):
    """A setting that cannot be used; the message names it and its variable."""


class ServerSettings(BaseSettings):
    """Every setting of `dicehall serve` (docs/server.md lists them)."""

    model_config = SettingsConfigDict(
        env_prefix=ENV_PREFIX, extra="forbid", frozen=True, validate_default=True
    )

    # where the server listens and keeps its tables
    db: str = Field(DEFAULT_DB, description="SQLAlchemy URL; a bare path is an SQLite file")
    redis: str | None = Field(
        None,
        description="Redis URL: this process is one of several serving the tables of one"
        " PostgreSQL database (docs/server.md, Several processes)",
    )
    host: str = Field("127.0.0.1", description="address to listen on")
    port: int = Field(8000, ge=0, le=65535, description="port to listen on")
    log_level: Literal["critical", "error", "warning", "info", "debug"] = Field(
        "info", description="the server's log level"
    )
    access_log: bool = Field(True, description="a log line per HTTP request and connection")
    sqlite_synchronous: Literal["OFF", "NORMAL", "FULL", "EXTRA"] = Field(
        "NORMAL",
        description="SQLite's synchronous pragma: NORMAL survives a crash of the server,"
        " FULL a power cut too",
    )

    grace_seconds: float = Field(
        DEFAULT_GRACE_SECONDS,
        gt=0,
        le=3600,
        description="seconds a gone seat waits before the table's bot plays it,"
        " unless its host chose another",
    )

    # each WebSocket connection's messages (create_app's rate and burst)
    message_rate: float = Field(20.0, gt=0, description="messages a second per connection")
    message_burst: int = Field(40, ge=1, description="messages at once per connection")

    # limits.Limits: what one client address may create and join
    tables_per_minute: float = Field(
        _LIMITS.tables_per_minute, gt=0, description="new tables a minute per address"
    )
    tables_burst: int = Field(
        _LIMITS.tables_burst, ge=1, description="new tables at once per address"
    )
    joins_per_minute: float = Field(
        _LIMITS.joins_per_minute, gt=0, description="seat requests a minute per address"
    )
    joins_burst: int = Field(
        _LIMITS.joins_burst, ge=1, description="seat requests at once per address"
    )
    max_waiting_tables: int = Field(
        _LIMITS.max_waiting_tables, ge=1, description="tables waiting for players, in all"
    )
    waiting_minutes: float = Field(
        _LIMITS.waiting_minutes, gt=0, description="minutes a table may wait for players"
    )
    odds_per_minute: float = Field(
        _LIMITS.odds_per_minute, gt=0, description="odds requests a minute per address"
    )
    odds_burst: int = Field(_LIMITS.odds_burst, ge=1, description="odds requests at once")
    logins_per_minute: float = Field(
        _LIMITS.logins_per_minute, gt=0, description="login attempts a minute per address and name"
    )
    logins_burst: int = Field(
        _LIMITS.logins_burst, ge=1, description="login attempts at once per address and name"
    )

    # config.ServerConfig: the worker pools, the database's retries, Retry-After
    compute_workers: int = Field(
        _CONFIG.compute_workers, ge=1, le=64, description="worker processes for odds and advice"
    )
    compute_in_processes: bool = Field(
        _CONFIG.compute_in_processes,
        description="odds and advice in processes (false: threads of the server)",
    )
    compute_queue: int = Field(
        _CONFIG.compute_queue, ge=1, description="odds and advice jobs running or waiting"
    )
    odds_wait_seconds: float = Field(
        _CONFIG.odds_wait_seconds,
        gt=0,
        le=60,
        description="seconds an odds request waits for its answer, then 503 (it is cached)",
    )
    odds_cache_size: int = Field(
        _CONFIG.odds_cache_size, ge=1, description="odds answers kept in the cache"
    )
    bot_threads: int = Field(
        _CONFIG.bot_threads, ge=1, le=64, description="threads the bots think in"
    )
    bot_queue: int = Field(_CONFIG.bot_queue, ge=1, description="bot turns running or waiting")
    outside_bot_ms: int = Field(
        _CONFIG.outside_bot_ms,
        ge=1,
        le=60_000,
        description="milliseconds a bot from outside has for each decision",
    )
    ladder_games_per_minute: float = Field(
        _CONFIG.ladder_games_per_minute,
        ge=0,
        le=600,
        description="rated games of the built-in bots against one another a minute, the"
        " standing ladder (0: none)",
    )
    ladder_bot_delay_ms: int = Field(
        _CONFIG.ladder_bot_delay_ms,
        ge=0,
        le=10_000,
        description="milliseconds a bot of the ladder pauses before each move",
    )
    write_queue: int = Field(
        _CONFIG.write_queue, ge=1, description="database writes waiting for the writer thread"
    )
    busy_timeout_seconds: float = Field(
        _CONFIG.busy_timeout_seconds,
        ge=0,
        le=600,
        description="seconds an SQLite write waits for another writer's lock",
    )
    retry_first_seconds: float = Field(
        _CONFIG.retry_first_seconds,
        gt=0,
        description="first pause before a refused step's write is tried again",
    )
    retry_max_seconds: float = Field(
        _CONFIG.retry_max_seconds, gt=0, description="longest pause between those retries"
    )
    retry_give_up_seconds: float = Field(
        _CONFIG.retry_give_up_seconds,
        gt=0,
        description="then the table goes back to its last stored step and the mover is told",
    )
    throw_wait_seconds: float = Field(
        _CONFIG.throw_wait_seconds,
        gt=0,
        le=3600,
        description="seconds a person's own throw waits at an untimed table, then the table"
        " throws for them",
    )
    retry_after_seconds: int = Field(
        _CONFIG.retry_after_seconds,
        ge=1,
        le=3600,
        description="the Retry-After of a 503 when the server is busy",
    )
    password_time_cost: int = Field(
        _CONFIG.password_time_cost, ge=1, le=20, description="Argon2id passes for passwords"
    )
    password_memory_kib: int = Field(
        _CONFIG.password_memory_kib,
        ge=64,
        le=4 * 1024 * 1024,
        description="Argon2id memory for a password, KiB",
    )
    password_threads: int = Field(
        _CONFIG.password_threads, ge=1, le=64, description="threads that hash passwords"
    )
    password_queue: int = Field(
        _CONFIG.password_queue, ge=1, description="password checks running or waiting"
    )

    @field_validator("log_level", mode="before")
    @classmethod
    def _lower(cls, value: object) -> object:
        return value.lower() if isinstance(value, str) else value

    @field_validator("sqlite_synchronous", mode="before")
    @classmethod
    def _upper(cls, value: object) -> object:
        return value.upper() if isinstance(value, str) else value

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        """Flags (init arguments), then the environment, then the config file."""
        path = _config_file.get()
        if path is None:
            return (init_settings, env_settings)
        return (init_settings, env_settings, TomlConfigSettingsSource(settings_cls, path))

    def limits(self) -> Limits:
        return section(Limits, self)

    def config(self) -> ServerConfig:
        return section(ServerConfig, self)


D = TypeVar("D")


def section(cls: type[D], settings: ServerSettings) -> D:
    """A settings dataclass (`Limits` ...) built from the settings of its fields' names."""
    names = [f.name for f in dataclasses.fields(cast(Any, cls))]
    return cls(**{name: getattr(settings, name) for name in names})


def load_settings(config: str | Path | None = None, **flags: Any) -> ServerSettings:
    """The settings from flags (None: not given), DICEHALL_* variables and the config file."""
    path = config or os.environ.get(CONFIG_ENV) or None
    if path is not None and not Path(path).is_file():
        raise SettingsError(f"config file {path} not found")
    token = _config_file.set(Path(path) if path is not None else None)
    try:
        return ServerSettings(**{k: v for k, v in flags.items() if v is not None})
    except ValidationError as e:
        raise SettingsError(describe(e, path)) from None
    except tomllib.TOMLDecodeError as e:
        raise SettingsError(f"config file {path} is not TOML: {e}") from None
    finally:
        _config_file.reset(token)


def describe(error: ValidationError, path: str | Path | None) -> str:
    """One line per refused setting, naming it and its environment variable."""
    lines = []
    for e in error.errors():
        name = str(e["loc"][0]) if e["loc"] else "?"
        if e["type"] == "extra_forbidden":
            lines.append(f"unknown setting {name!r}" + (f" in {path}" if path else ""))
            continue
        lines.append(
            f"setting {name} ({ENV_PREFIX}{name.upper()}): {e['msg']}; got {e.get('input')!r}"
        )
    return "; ".join(lines)


def settings_help() -> str:
    """Every setting with its variable and default, for `dicehall serve --help`."""
    rows = []
    for name, field in ServerSettings.model_fields.items():
        rows.append(f"{ENV_PREFIX}{name.upper()} (default {field.default!r}): {field.description}")
    return "\n".join(rows)
