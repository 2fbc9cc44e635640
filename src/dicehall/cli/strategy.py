"""`dicehall solve`, `exploitability` and `duel`: strategies and how strong they are."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.table import Table as RichTable

from dicehall.cli.common import (
    GameArg,
    GamesOpt,
    JsonOpt,
    OptionOpt,
    RayCommand,
    RayOpt,
    SeatsOpt,
    SeedOpt,
    app,
    bot_names,
    cluster,
    configure,
    err,
    fail,
    guarded,
    out,
)
from dicehall.core import Game
from dicehall.games import game_class

if TYPE_CHECKING:
    from dicehall.strategy.solver import GameSolver


@app.command(rich_help_panel="Study", cls=RayCommand)
def duel(
    game: GameArg,
    bots: Annotated[str, typer.Option(help="Two or more bots, comma-separated (A,B).")],
    games: GamesOpt = 1000,
    seats: SeatsOpt = None,
    seed: SeedOpt = None,
    option: OptionOpt = None,
    as_json: JsonOpt = False,
    ray: RayOpt = None,
) -> None:
    """A tournament rotating seats and the first roller: win rates with 95% intervals."""
    from dicehall.strategy.duel import duel as run_duel
    from dicehall.strategy.progress import bar

    g = guarded(lambda: configure(game, seats, option))
    names = bot_names(g, bots)
    if len(set(names)) < 2:
        fail(f"--bots needs at least two different bots; got {bots!r}")
    console = None if as_json else err
    with cluster(ray) as run, bar(games, f"{g.id} duel", console) as progress:
        result = guarded(lambda: run_duel(g, names, games, seed, lambda i: progress.advance(), run))
    if as_json:
        print(json.dumps(result.to_json()))
        return
    table = RichTable(
        title=f"{g.name}: {games} games, {g.seats} seats, fair share {1 / g.seats:.1%}"
    )
    for col in ("bot", "win rate", "95% interval", f"net {result.unit} per game"):
        table.add_column(col, justify="right")
    for name, score in result.scores.items():
        low, high = score.ci95
        table.add_row(name, f"{score.win_rate:.2%}", f"{low:.2%} - {high:.2%}",
                      f"{score.net_per_game:+.3f}")  # fmt: skip
    out.print(table)
    out.print("Win rates are per seat the bot holds; seats rotate every game.")


def solver_of(game: Game) -> GameSolver:
    solver = game.solver()
    if solver is None:
        fail(f"{game.id} has no solver yet")
    return solver


def solver_game(game: str, seats: int | None, option: list[str] | None) -> Game:
    """The game at `seats`, by default the fewest it seats (two, or Tepiiku's three):
    equilibria are of two seats where a game has more."""
    return configure(game, seats if seats is not None else game_class(game).min_seats, option)


@app.command(rich_help_panel="Study", cls=RayCommand)
def solve(
    game: GameArg,
    seats: SeatsOpt = None,
    option: OptionOpt = None,
    iterations: Annotated[
        int | None, typer.Option(min=1, help="CFR+ iterations (per subgame where decomposed).")
    ] = None,
    target: Annotated[
        float | None, typer.Option(min=0.0, help="Solve until the exploitability is below this.")
    ] = None,
    out_file: Annotated[
        Path | None,
        typer.Option("--out", help="Where to write the strategy (default: the cache)."),
    ] = None,
    plot_file: Annotated[
        Path | None, typer.Option("--plot", help="Write exploitability against iterations (PNG).")
    ] = None,
    as_json: JsonOpt = False,
    ray: RayOpt = None,
) -> None:
    """Solve a game's equilibrium strategy with CFR+ and measure its exact exploitability."""
    if iterations is not None and target is not None:
        fail("give --iterations or --target, not both")
    if iterations is None and target is None:
        target = 0.001
    g = guarded(lambda: solver_game(game, seats, option))
    solver = guarded(lambda: solver_of(g))
    console = None if as_json else err
    with cluster(ray) as run:
        report = guarded(
            lambda: solver.solve(
                iterations, target, out_file, console, plot_file is not None, runner=run
            )
        )
    if plot_file is not None:
        from dicehall.strategy.solver import plot

        guarded(lambda: plot(report.history, report.unit, plot_file, f"{g.name}, {g.seats} seats"))
    data = {
        "game": g.id,
        "seats": g.seats,
        "options": dict(g.options),
        "iterations": report.iterations,
        "exploitability": report.exploitability,
        "unit": report.unit,
        "seconds": report.seconds,
        "out": None if report.saved is None else str(report.saved),
    }
    if as_json:
        print(json.dumps(data))
        return
    out.print(
        f"{g.name}, {g.seats} seats: {report.iterations} CFR+ iterations "
        f"in {report.seconds:.1f} s, exploitability {report.exploitability:.3e} ({report.unit})"
    )
    if report.saved is not None:
        out.print(f"strategy written to {report.saved}")


@app.command(rich_help_panel="Study", cls=RayCommand)
def exploitability(
    game: GameArg,
    bot: Annotated[str, typer.Option(help="The bot whose policy is measured.")],
    seats: SeatsOpt = None,
    option: OptionOpt = None,
    as_json: JsonOpt = False,
    ray: RayOpt = None,
) -> None:
    """The exact exploitability of a bot's policy: what a best response wins from it.

    At three seats or more (Kariki): one seat's best response against the bot
    at every other seat, its chance of winning and gain over the fair share
    per seat position."""
    g = guarded(lambda: solver_game(game, seats, option))
    solver = guarded(lambda: solver_of(g))
    table = getattr(solver, "table_response", None)
    if g.seats > 2 and table is not None:
        respond = table  # narrowed, for the lambda
        result = guarded(lambda: respond(bot, None if as_json else err))
        if as_json:
            print(json.dumps({"game": g.id, "options": dict(g.options), **result.to_json()}))
            return
        grid = RichTable(title=f"{g.name}, {g.seats} seats: a best response against {bot}")
        for column in ("seat after the first roller", "win", "gain over 1 in " + str(g.seats)):
            grid.add_column(column, justify="right")
        for k, win in enumerate(result.by_offset):
            grid.add_row(str(k), f"{win:.4f}", f"{win - result.fair:+.4f}")
        grid.add_row("roll-off", f"{result.value:.4f}", f"{result.gain:+.4f}")
        out.print(grid)
        return
    with cluster(ray) as run:
        eps = guarded(lambda: solver.exploitability(bot, None if as_json else err, runner=run))
    data: dict[str, Any] = {"game": g.id, "seats": g.seats, "options": dict(g.options),
                            "bot": bot, "exploitability": eps, "unit": solver.unit}  # fmt: skip
    # A game whose figure is a summary says what it is (`note`) and gives its parts (`details`).
    note: str | None = getattr(solver, "note", None)
    details: list[dict[str, Any]] | None = getattr(solver, "details", None)
    if note is not None:
        data["note"] = note
    if details:
        data["details"] = details
    if as_json:
        print(json.dumps(data))
        return
    out.print(f"{g.name}, {g.seats} seats: {bot} is exploitable by {eps:.3e} ({solver.unit})")
    if details:
        table = RichTable()
        for col in details[0]:
            table.add_column(col, justify="right")
        for row in details:
            table.add_row(*(f"{v:.3e}" if isinstance(v, float) else str(v) for v in row.values()))
        out.print(table)
    if note is not None:
        out.print(f"[dim]{note}[/]")
