"""`dicehall serve` and `dicehall verify`, as plain functions the CLI calls."""

from __future__ import annotations

import errno
import gc
import logging
import logging.config
import re
import socket
import sys
from typing import TYPE_CHECKING, Any

from dicehall.core.errors import TranscriptError
from dicehall.core.transcript import load
from dicehall.server.tables.fairness import verify_transcript

if TYPE_CHECKING:
    from dicehall.server.ops.settings import ServerSettings

MAX_FRAME = 64 * 1024  # a WebSocket frame above this closes the connection (messages: 8 KiB)
# How uvicorn runs the server's WebSockets. No per-message compression: a table's messages
# are a kilobyte or two, and deflating each one for each connection (a compressor per
# connection, so nothing is shared) cost about a tenth of the server's CPU per move.
WEBSOCKET_OPTIONS: dict[str, Any] = {"ws_max_size": MAX_FRAME, "ws_per_message_deflate": False}


class _RedactTokens(logging.Filter):
    """Seat tokens travel in the WebSocket URL: keep them out of every log line."""

    pattern = re.compile(r"token=[^&\s\"']*")

    def filter(self, record: logging.LogRecord) -> bool:
        if record.name.startswith("uvicorn.access") and isinstance(record.args, tuple):
            # its formatters read the request's parts from args: blank them one by one
            record.args = tuple(
                self.pattern.sub("token=***", a) if isinstance(a, str) else a for a in record.args
            )
            return True
        record.msg = self.pattern.sub("token=***", record.getMessage())
        record.args = None
        return True


def tune_gc() -> None:
    """Fewer, cheaper collections for a long-running server.

    Every step allocates many short-lived dicts (views, events, messages);
    with the default thresholds the collector runs hundreds of times a second
    and now and then scans the whole heap, stalling every table for tens or
    hundreds of milliseconds. Freezing what exists after start-up keeps it out
    of those scans.
    """
    gc.collect()
    gc.freeze()
    gc.set_threshold(50_000, 20, 100)


LOG_LEVELS = ("critical", "error", "warning", "info", "debug")


def logging_config(level: str = "info", access_log: bool = True) -> dict[str, Any]:
    """Time-stamped lines on stderr for the server's own log and uvicorn's, seat tokens
    blanked; the access log (a line per request and connection) only if asked."""
    if level not in LOG_LEVELS:
        raise ValueError(f"log level must be one of {', '.join(LOG_LEVELS)}; got {level!r}")
    upper = level.upper()
    handler = {"class": "logging.StreamHandler", "formatter": "lines", "filters": ["tokens"]}
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "filters": {"tokens": {"()": _RedactTokens}},
        "formatters": {
            "lines": {
                "format": "%(asctime)s %(levelname)-7s %(name)s: %(message)s",
                "datefmt": "%Y-%m-%dT%H:%M:%S%z",
            }
        },
        "handlers": {"stderr": handler},
        "loggers": {
            "dicehall": {"handlers": ["stderr"], "level": upper, "propagate": False},
            "uvicorn": {"handlers": ["stderr"], "level": upper, "propagate": False},
            "uvicorn.access": {
                "handlers": ["stderr"] if access_log else [],
                "level": upper if access_log else "CRITICAL",
                "propagate": False,
            },
        },
    }


def check_port_free(host: str, port: int) -> None:
    """Stop with one plain line, before anything else is printed, if the port is taken."""
    try:
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        with socket.socket(family, socket.SOCK_STREAM) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind((host, port))
    except OSError as e:
        if e.errno == errno.EADDRINUSE:
            raise SystemExit(
                f"dicehall serve: port {port} on {host} is already in use (another server?);"
                " stop it or choose another with --port (make serve PORT=...)"
            ) from None
        raise SystemExit(f"dicehall serve: cannot listen on {host}:{port}: {e.strerror}") from None


SWITCH_SECONDS = 0.0005


def tune_threads() -> None:
    """Hand the interpreter lock between threads every half millisecond, not every five.

    The database writer thread gives the lock up at every SQLite call and must wait
    for it back while the event loop computes; at the default interval one step's
    write waited up to tens of milliseconds that way, and every table's writes queue
    behind it.
    """
    sys.setswitchinterval(SWITCH_SECONDS)


def serve(settings: ServerSettings) -> None:
    """Run the server with these settings (ops/settings.py's load_settings) until it is stopped."""
    import uvicorn

    from dicehall.server.http.app import create_app
    from dicehall.server.http.heads import MAX_HEAD, HeadLimits
    from dicehall.server.migrations import DatabaseAhead
    from dicehall.server.ops.settings import database_url
    from dicehall.server.tables.store import DatabaseInUse

    host, port = settings.host, settings.port
    check_port_free(host, port)
    config = settings.config()
    log_config = logging_config(config.log_level, config.access_log)
    logging.config.dictConfig(log_config)
    try:
        app = create_app(
            database_url(settings.db),
            rate=settings.message_rate,
            burst=settings.message_burst,
            limits=settings.limits(),
            sqlite_synchronous=settings.sqlite_synchronous,
            grace_seconds=settings.grace_seconds,
            config=config,
            redis_url=settings.redis,
        )
    except (DatabaseInUse, DatabaseAhead, ValueError) as e:
        raise SystemExit(f"dicehall serve: {e}") from None
    if settings.redis is not None:
        from dicehall.server.cluster.node import reachable

        if (why := reachable(settings.redis)) is not None:
            shown = re.sub(r"//[^@/]*@", "//***@", settings.redis)  # no password on screen
            raise SystemExit(f"dicehall serve: cannot reach Redis at {shown}: {why}")
    tune_gc()
    tune_threads()
    shown = f"[{host}]" if ":" in host else host
    print(f"dicehall server: open http://{shown}:{port}/ (API docs at /docs)", flush=True)
    uvicorn.run(
        app,
        host=host,
        port=port,
        **WEBSOCKET_OPTIONS,
        # too long a URL or headers answered 414/431 (heads.py), and h11's own limit on a
        # head still arriving set to the same size
        http=HeadLimits,
        h11_max_incomplete_event_size=MAX_HEAD,
        log_config=log_config,
        log_level=config.log_level,
        access_log=config.access_log,
        # behind a reverse proxy, the client's address from the proxies trusted (docs/operators/
        # proxy.md): ops/limits.py counts by it
        proxy_headers=bool(settings.trusted_proxies),
        forwarded_allow_ips=settings.trusted_proxies or None,
    )


def verify(path: str, openings: str | None = None) -> dict[str, Any]:
    """The verify report of a transcript file, with a player's openings file if given
    (see fairness.verify_transcript)."""
    try:
        data = load(path)
        mine = None if openings is None else load(openings, "an openings file")
    except TranscriptError as e:
        return {"ok": False, "error": str(e), "step": None}
    return verify_transcript(data, mine=mine)
