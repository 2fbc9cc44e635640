"""`dicehall sim`: bots play many games; wins, steps and the flow of money."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table as RichTable

from dicehall.cli.common import (
    GameArg,
    GamesOpt,
    JsonOpt,
    OptionOpt,
    SeatsOpt,
    SeedOpt,
    app,
    bot_names,
    configure,
    err,
    fail,
    guarded,
    out,
)


@app.command(rich_help_panel="Study")
def sim(
    game: GameArg,
    games: GamesOpt = 100,
    seats: SeatsOpt = None,
    bots: Annotated[
        str, typer.Option(help="Bots by seat, comma-separated, repeated to fill the seats.")
    ] = "random",
    seed: SeedOpt = None,
    option: OptionOpt = None,
    as_json: JsonOpt = False,
    save_transcripts: Annotated[
        Path | None, typer.Option(help="Save every game's transcript in this folder.")
    ] = None,
    batch: Annotated[
        bool,
        typer.Option(
            "--batch",
            help="Play all games at once with NumPy (random and heuristic bots, every game): "
            "many times faster for large runs.",
        ),
    ] = False,
) -> None:
    """Bots play many games; prints wins per seat, mean steps and the flow of money."""
    from dicehall.core.sim import simulate

    g = guarded(lambda: configure(game, seats, option))
    names = bot_names(g, bots)
    if batch:
        if save_transcripts is not None:
            fail("--batch saves no transcripts")
        from dicehall import batch as batch_sim

        stats = guarded(lambda: batch_sim.simulate(g, games, seed, names))
        if as_json:
            print(json.dumps(stats.to_json()))
            return
    elif as_json:
        stats = guarded(lambda: simulate(g, names, games, seed, save_transcripts))
        print(json.dumps(stats.to_json()))
        return
    else:
        from rich.progress import Progress

        with Progress(console=err, transient=True) as progress:
            task = progress.add_task(f"{g.id}", total=games)
            stats = guarded(
                lambda: simulate(
                    g, names, games, seed, save_transcripts, lambda i: progress.advance(task)
                )
            )
    table = RichTable(title=f"{g.name}: {games} games, {g.seats} seats")
    for col in ("seat", "bot", "wins", "win rate", f"net {stats.unit}", "mean net"):
        table.add_column(col, justify="right")
    for s in range(g.seats):
        table.add_row(
            str(s),
            stats.bots[s],
            f"{stats.wins[s]:g}",
            f"{stats.win_rate(s):.1%}",
            f"{stats.net[s]:+d}",
            f"{stats.net[s] / stats.games:+.3f}",
        )
    out.print(table)
    out.print(f"mean steps per game: {stats.mean_steps:.1f}")
