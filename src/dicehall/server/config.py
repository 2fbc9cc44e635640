"""The server's settings that are not per-client limits (those are `limits.Limits`).

Plain values with defaults that suit one server for people; `create_app(config=...)`
takes them and `dicehall serve` fills them from its options.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ServerConfig:
    """How the server logs, how much slow work it queues, and how it retries the database."""

    # logging (commands.logging_config)
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

    # a bot from outside has this long for each decision (outside_bots.py)
    outside_bot_ms: int = 250

    # the standing bot ladder (ladder.py): rated games of the built-in bots against one
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

    # Argon2id for account passwords (accounts.py): argon2-cffi's defaults, RFC 9106's
    # low-memory profile (3 passes over 64 MiB); a bounded pool of threads hashes them
    password_time_cost: int = 3
    password_memory_kib: int = 65536
    password_threads: int = 1
    password_queue: int = 32
