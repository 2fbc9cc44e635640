"""What every command shares: the Typer app, the consoles, clean failure and option parsing.

Every command reaches the games through the registry and the core API only,
and turns bad input into one clear line on stderr and exit status 2.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Annotated, Any, NoReturn, TypeVar

import typer
from rich.console import Console
from rich.markup import escape
from typer.core import TyperCommand

from dicehall import __version__
from dicehall.core import DicehallError, Game, make_bots
from dicehall.core.options import parse_option_args
from dicehall.games import game_class, make_game

if TYPE_CHECKING:
    from dicehall.cluster import Runner

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
GamesOpt = Annotated[int, typer.Option("--games", "-g", min=1, help="How many games.")]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON.")]


def bot_names(game: Game, text: str) -> list[str]:
    """The bots of a comma-separated --bots; an unknown name fails here, before any game,
    and a bot that would not play at its strength is named (`warn_bots`)."""
    names = [b.strip() for b in text.split(",") if b.strip()]
    guarded(lambda: make_bots(game, names, random.Random(0)))
    warn_bots(game, names)
    return names


def warn_bots(game: Game, names: list[str]) -> None:
    """Say on stderr which of these bots cannot play at their measured strength here (a
    solver with no strategy for this seat count or these options): never silently."""
    for name in dict.fromkeys(names):
        note = game.bot_warning(name)
        if note:
            err.print(f"[bold yellow]warning:[/] {escape(name)}: {escape(note)}", highlight=False)


RayOpt = Annotated[
    str | None,
    typer.Option(
        "--ray",
        metavar="[ADDRESS]",
        help="Run on a Ray cluster at ADDRESS (host:6379, ray://host:10001, auto); alone, "
        "on one started here for the command. Same results as without; needs dicehall[cluster].",
        show_default=False,
    ),
]


class RayCommand(TyperCommand):
    """A command whose `--ray` may come without its address: `--ray` alone means LOCAL.

    Typer options always take their value, so a bare `--ray` (last, or followed by
    another option) is rewritten to `--ray=local` before parsing.
    """

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        from dicehall.cluster import LOCAL

        fixed = list(args)
        for i, arg in enumerate(fixed):
            if arg == "--":
                break
            if arg == "--ray" and (i + 1 == len(fixed) or fixed[i + 1].startswith("-")):
                fixed[i] = f"--ray={LOCAL}"
        return super().parse_args(ctx, fixed)


@contextmanager
def cluster(address: str | None) -> Iterator[Runner]:
    """The runner `--ray` asks for; no Ray, or no cluster there, is one clean error line."""
    from dicehall.cluster import ClusterError, runner

    try:
        with runner(address) as run:
            yield run
    except ClusterError as e:
        fail(str(e))
