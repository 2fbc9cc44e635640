"""`dicehall serve`: online tables and the browser page."""

from __future__ import annotations

from typing import Annotated

import typer

from dicehall.cli.common import app, fail, guarded


@app.command(rich_help_panel="Host")
def serve(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port.")] = 8000,
    db: Annotated[
        str, typer.Option(help="SQLAlchemy database URL.")
    ] = "sqlite:///data/dicehall.sqlite",
    log_level: Annotated[
        str, typer.Option(help="Log level: debug, info, warning or error.")
    ] = "info",
    access_log: Annotated[
        bool, typer.Option(help="Log a line per HTTP request and WebSocket connection.")
    ] = True,
) -> None:
    """Host online tables and the browser page."""
    from dicehall.server.commands import LOG_LEVELS
    from dicehall.server.commands import serve as run_server
    from dicehall.server.config import ServerConfig

    if log_level not in LOG_LEVELS:
        fail(f"--log-level must be one of {', '.join(LOG_LEVELS)}; got {log_level!r}")
    config = ServerConfig(log_level=log_level, access_log=access_log)
    guarded(lambda: run_server(host, port, db, config))
