"""What every command shares: the Typer app, the consoles, clean failure and option parsing.

Every command reaches the games through the registry and the core API only,
and turns bad input into one clear line on stderr and exit status 2.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, NoReturn, TypeVar

import typer
from rich.console import Console
from rich.markup import escape

from dicehall import __version__
from dicehall.core import DicehallError, Game
from dicehall.core.options import parse_option_args
from dicehall.games import game_class, make_game

app = typer.Typer(
    help="Hidden-information dice games: play, simulate, replay, study the odds, host tables.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
)
out = Console()
err = Console(stderr=True, soft_wrap=True)


def _print_version(value: bool) -> None:
    if value:
        print(f"dicehall {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[
        bool,
        typer.Option(
            "--version", callback=_print_version, is_eager=True, help="Print the version and exit."
        ),
    ] = False,
) -> None:
    """Options of the command itself (--version; --install-completion for your shell)."""


T = TypeVar("T")


def fail(message: str) -> NoReturn:
    err.print(f"[bold red]error:[/] {escape(message)}", highlight=False)
    raise typer.Exit(2)


def guarded(fn: Callable[[], T]) -> T:
    """Run a command body, turning the core's errors into a clean exit."""
    try:
        return fn()
    except DicehallError as e:
        fail(str(e))


def configure(game_id: str, seats: int | None, option: list[str] | None) -> Game:
    cls = game_class(game_id)
    options = parse_option_args(cls.id, cls.declared_options, option or [])
    return make_game(game_id, seats, options)


GameArg = Annotated[str, typer.Argument(help="Game id: tepiiku, toplshteyner, tao or kariki.")]
SeatsOpt = Annotated[int | None, typer.Option("--seats", "-n", help="Number of seats.")]
SeedOpt = Annotated[int | None, typer.Option("--seed", help="Seed for the dice and bots.")]
OptionOpt = Annotated[
    list[str] | None,
    typer.Option("--option", "-o", help="A table option, NAME=VALUE; repeat for more."),
]
