"""`dicehall serve`: online tables and the browser page."""

from __future__ import annotations

from typing import Annotated

import typer

from dicehall.cli.common import app, guarded


@app.command(rich_help_panel="Host")
def serve(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port.")] = 8000,
    db: Annotated[
        str, typer.Option(help="SQLAlchemy database URL.")
    ] = "sqlite:///data/dicehall.sqlite",
) -> None:
    """Host online tables and the browser page."""
    from dicehall.server.commands import serve as run_server

    guarded(lambda: run_server(host, port, db))
