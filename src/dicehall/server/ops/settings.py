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

`ServerConfig` is the one for everything that is not a per-client limit: how the
server logs, how much slow work it queues, how it retries the database. Plain
values with defaults that suit one server for people; `create_app(config=...)`
takes them and `dicehall serve` fills them from its settings.
"""

from __future__ import annotations

import dataclasses
import ipaddress
import os
import tomllib
from contextvars import ContextVar
from dataclasses import dataclass
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
from dicehall.server.ops.limits import Limits

ENV_PREFIX = "DICEHALL_"
CONFIG_ENV = "DICEHALL_CONFIG"

DEFAULT_DB = "sqlite:///data/dicehall.sqlite"

DEFAULT_GRACE_SECONDS = 60.0
"""How long a seat may be gone before the table's bot plays it (a table's house rules
keep their own, this one unless its host chose another)."""


@dataclass(frozen=True)
class ServerConfig:
    """How the server logs, how much slow work it queues, and how it retries the database."""

    # logging (http/commands.py's logging_config)
    log_level: str = "info"  # debug, info, warning, error
    access_log: bool = True  # one line per HTTP request and WebSocket connect

    # odds and advice: worker processes (0: threads of this process), a bounded queue,
    # and how long an odds request waits before it answers 503 (its answer is cached later)
    compute_workers: int = 1
    compute_in_processes: bool = True
    compute_queue: int = 8
    odds_wait_seconds: float = 2.0
    odds_cache_size: int = 512

    # bots think in threads; a table's bot turns wait in a bounded queue
    bot_threads: int = 2
    bot_queue: int = 256

    # a bot from outside has this long for each decision (tables/outside_bots.py)
    outside_bot_ms: int = 250

    # the standing bot ladder (tables/ladder.py): rated games of the built-in bots against one
    # another, started at this pace (0: none), each bot pausing this long before a move
    ladder_games_per_minute: float = 0.0
    ladder_bot_delay_ms: int = 100

    # the database: one writer thread, a bounded queue of writes, SQLite's busy timeout,
    # and how a table retries a step the database refused before it gives up on it
    write_queue: int = 1000
    busy_timeout_seconds: float = 5.0
    retry_first_seconds: float = 0.1
    retry_max_seconds: float = 2.0
    retry_give_up_seconds: float = 60.0

    # how long a person's own throw (a Toplshteyner roller's) waits at a table without a
    # turn timer before the table throws for them
    throw_wait_seconds: float = 30.0

    # how long a client is asked to wait (Retry-After) when the server is busy
    retry_after_seconds: int = 5

    # Argon2id for account passwords (people/accounts.py): argon2-cffi's defaults, RFC 9106's
    # low-memory profile (3 passes over 64 MiB); a bounded pool of threads hashes them
    password_time_cost: int = 3
    password_memory_kib: int = 65536
    password_threads: int = 1
    password_queue: int = 32
    # new accounts' hashes, in slots of their own: registrations never keep a login waiting
    registration_threads: int = 1
    registration_queue: int = 4


_LIMITS = Limits()
_CONFIG = ServerConfig()
_config_file: ContextVar[Path | None] = ContextVar("dicehall_config_file", default=None)


def database_url(db: str) -> str:
    """An SQLAlchemy URL; a bare path means an SQLite file. Creates an SQLite file's folder."""
    url = db or DEFAULT_DB
    if "://" not in url:
        url = f"sqlite:///{url}"
    if url.startswith("sqlite:///") and url != "sqlite:///:memory:":
        Path(url.removeprefix("sqlite:///")).parent.mkdir(parents=True, exist_ok=True)
    return url


class SettingsError(DicehallError):
    """A setting that cannot be used; the message names it and its variable."""


class ServerSettings(BaseSettings):
    """Every setting of `dicehall serve` (docs/operators/settings.md lists them)."""

    model_config = SettingsConfigDict(
        env_prefix=ENV_PREFIX, extra="forbid", frozen=True, validate_default=True
    )

    # where the server listens and keeps its tables
    db: str = Field(DEFAULT_DB, description="SQLAlchemy URL; a bare path is an SQLite file")
    redis: str | None = Field(
        None,
        description="Redis URL: this process is one of several serving the tables of one"
        " PostgreSQL database (docs/operators/several-processes.md)",
    )
    host: str = Field("127.0.0.1", description="address to listen on")
    port: int = Field(8000, ge=0, le=65535, description="port to listen on")
    log_level: Literal["critical", "error", "warning", "info", "debug"] = Field(
        "info", description="the server's log level"
    )
    access_log: bool = Field(True, description="a log line per HTTP request and connection")
    trusted_proxies: str = Field(
        "127.0.0.1,::1",
        description="addresses (comma-separated, CIDR ranges, * for any) of the reverse proxies"
        " whose X-Forwarded-For and X-Forwarded-Proto are believed, so the per-address limits"
        " count the client the proxy names; empty: believe none (uvicorn's forwarded-allow-ips)",
    )
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
    waiting_per_address: int = Field(
        _LIMITS.waiting_per_address, ge=1, description="tables waiting for players per address"
    )
    waiting_per_account: int = Field(
        _LIMITS.waiting_per_account, ge=1, description="tables waiting for players per account"
    )
    waiting_minutes: float = Field(
        _LIMITS.waiting_minutes, gt=0, description="minutes a table may wait for players"
    )
    odds_per_minute: float = Field(
        _LIMITS.odds_per_minute, gt=0, description="odds requests a minute per address"
    )
    odds_burst: int = Field(_LIMITS.odds_burst, ge=1, description="odds requests at once")
    reviews_per_minute: float = Field(
        _LIMITS.reviews_per_minute,
        gt=0,
        description="game reviews and practice sets a minute per address",
    )
    reviews_burst: int = Field(
        _LIMITS.reviews_burst, ge=1, description="game reviews and practice sets at once"
    )
    logins_per_minute: float = Field(
        _LIMITS.logins_per_minute, gt=0, description="password tries a minute per address"
    )
    logins_burst: int = Field(
        _LIMITS.logins_burst, ge=1, description="password tries at once per address"
    )
    name_tries_per_minute: float = Field(
        _LIMITS.name_tries_per_minute,
        gt=0,
        description="wrong passwords a minute per account name and address",
    )
    name_tries_burst: int = Field(
        _LIMITS.name_tries_burst, ge=1, description="wrong passwords at once per name and address"
    )
    name_failures_per_hour: float = Field(
        _LIMITS.name_failures_per_hour,
        gt=0,
        description="wrong passwords an hour per account name, over all addresses",
    )
    registrations_per_hour: float = Field(
        _LIMITS.registrations_per_hour, gt=0, description="new accounts an hour per address"
    )
    registrations_burst: int = Field(
        _LIMITS.registrations_burst, ge=1, description="new accounts at once per address"
    )
    sockets_per_address: int = Field(
        _LIMITS.sockets_per_address,
        ge=1,
        description="open WebSockets per address, players and spectators",
    )
    sockets_per_account: int = Field(
        _LIMITS.sockets_per_account, ge=1, description="open WebSockets per logged-in account"
    )
    lobby_page: int = Field(
        _LIMITS.lobby_page, ge=1, le=10_000, description="tables in one page of the lobby's list"
    )

    # ServerConfig: the worker pools, the database's retries, Retry-After
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
    registration_threads: int = Field(
        _CONFIG.registration_threads,
        ge=1,
        le=64,
        description="threads that hash new accounts' passwords (apart from logins')",
    )
    registration_queue: int = Field(
        _CONFIG.registration_queue, ge=1, description="new accounts' hashes running or waiting"
    )

    @field_validator("log_level", mode="before")
    @classmethod
    def _lower(cls, value: object) -> object:
        return value.lower() if isinstance(value, str) else value

    @field_validator("trusted_proxies")
    @classmethod
    def _addresses(cls, value: str) -> str:
        items = [i.strip() for i in value.split(",") if i.strip()]
        for item in items:
            if item != "*":
                try:
                    ipaddress.ip_network(item, strict=False)
                except ValueError:
                    raise ValueError(f"{item!r} is not an IP address or CIDR range") from None
        return ",".join(items)

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
