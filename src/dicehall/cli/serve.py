"""`dicehall serve`: online tables and the browser page.

Its flags override the server's settings (dicehall.server.ops.settings), which
come from DICEHALL_* variables and an optional config file; `--help` lists
every setting, read from the settings object itself when the server extra is
installed.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from typer.core import TyperCommand

from dicehall.cli.common import app, fail, guarded

NEEDS_EXTRA = "dicehall serve needs the server extra: pip install 'dicehall[server]'"


class _SettingsHelp(TyperCommand):
    """`serve --help` ends with every setting; built only when help is shown."""

    @property
    def epilog(self) -> str:
        from dicehall.server import missing_modules

        if missing_modules():
            return NEEDS_EXTRA
        from dicehall.server.ops.settings import settings_help

        sources = (
            "Every setting comes from, highest first: its flag, its variable DICEHALL_<NAME>,"
            " the config file (TOML: name = value, the name in lower case), its default."
        )
        return f"{sources}\n\n{settings_help()}"

    @epilog.setter
    def epilog(self, _value: str | None) -> None:
        pass


def _from(setting: str) -> str:
    return f"(setting {setting}; DICEHALL_{setting.upper()})"


@app.command(rich_help_panel="Host", cls=_SettingsHelp)
def serve(
    host: Annotated[
        str | None, typer.Option(help=f"Address to listen on {_from('host')}.", show_default=False)
    ] = None,
    port: Annotated[
        int | None, typer.Option(help=f"Port {_from('port')}.", show_default=False)
    ] = None,
    db: Annotated[
        str | None,
        typer.Option(help=f"SQLAlchemy database URL {_from('db')}.", show_default=False),
    ] = None,
    redis: Annotated[
        str | None,
        typer.Option(
            help=f"Redis URL: one of several processes on one PostgreSQL {_from('redis')}.",
            show_default=False,
        ),
    ] = None,
    log_level: Annotated[
        str | None,
        typer.Option(help=f"debug, info, warning, error {_from('log_level')}.", show_default=False),
    ] = None,
    access_log: Annotated[
        bool | None,
        typer.Option(
            help=f"a line per HTTP request and connection {_from('access_log')}.",
            show_default=False,
        ),
    ] = None,
    config: Annotated[
        Path | None,
        typer.Option(help="A TOML file of settings (or DICEHALL_CONFIG).", show_default=False),
    ] = None,
) -> None:
    """Host online tables and the browser page."""
    from dicehall.server import missing_modules

    if missing := missing_modules():
        fail(f"{NEEDS_EXTRA} (missing: {', '.join(missing)})")
    from dicehall.server.http.commands import serve as run_server
    from dicehall.server.ops.settings import load_settings

    settings = guarded(
        lambda: load_settings(
            config,
            host=host,
            port=port,
            db=db,
            redis=redis,
            log_level=log_level,
            access_log=access_log,
        )
    )
    guarded(lambda: run_server(settings))
