"""The dicehall command: play in the terminal, simulate, replay, odds, rules, serve.

One module per command group; importing one registers its commands on
`app`. Every command reaches the games through the registry and the core API
only, and turns bad input into one clear line on stderr and exit status 2.

A run imports only the module of the command it names (Typer would otherwise
import every module and build every command's parser before running one), so
`dicehall games` costs what `games` needs; anything else (`--help`, no
command, an unknown one, shell completion) registers them all. `app`, read
from this package, always has every command.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import typer

MODULES = (
    "bots",
    "catalog",
    "database",
    "odds",
    "play",
    "ratings",
    "review",
    "serve",
    "sim",
    "strategy",
    "transcripts",
)
"""Every command module, in the order `dicehall --help` lists their commands."""

COMMANDS = {
    "backup": "database",
    "bot-token": "bots",
    "games": "catalog",
    "rules": "catalog",
    "odds": "odds",
    "play": "play",
    "ladder": "ratings",
    "review": "review",
    "practice": "review",
    "migrate": "database",
    "serve": "serve",
    "sim": "sim",
    "duel": "strategy",
    "solve": "strategy",
    "exploitability": "strategy",
    "replay": "transcripts",
    "verify": "transcripts",
}
"""Which module registers each command (a test checks this against the full app)."""

__all__ = ["COMMANDS", "MODULES", "app", "main"]


def register(modules: Sequence[str] = MODULES) -> typer.Typer:
    """Import the given command modules (registering their commands) and return the app."""
    for name in modules:
        importlib.import_module(f"dicehall.cli.{name}")
    from dicehall.cli.common import app

    return app


def __getattr__(name: str) -> typer.Typer:
    if name == "app":
        return register()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def main(argv: Sequence[str] | None = None) -> None:
    args = list(argv) if argv is not None else sys.argv[1:]
    module = COMMANDS.get(args[0]) if args else None
    app = register((module,) if module is not None else MODULES)
    app(args=args, prog_name="dicehall")
