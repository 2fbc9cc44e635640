"""`dicehall ladder`: the bots' standing ladder, rated by OpenSkill."""

from __future__ import annotations

import json
from typing import Annotated

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
    guarded,
    out,
    warn_bots,
)


@app.command(rich_help_panel="Study", cls=RayCommand)
def ladder(
    game: GameArg,
    games: GamesOpt = 1000,
    seats: SeatsOpt = None,
    bots: Annotated[
        str | None,
        typer.Option(help="The bots on the ladder, comma-separated (default: all of the game's)."),
    ] = None,
    seed: SeedOpt = None,
    option: OptionOpt = None,
    as_json: JsonOpt = False,
    ray: RayOpt = None,
) -> None:
    """The bots play random lineups against each other; prints their ratings."""
    from rich.progress import Progress

    from dicehall.ratings import ladder as run_ladder
    from dicehall.ratings import provisional, shown

    g = guarded(lambda: configure(game, seats, option))
    names = bot_names(g, bots) if bots else list(g.bots())
    with cluster(ray) as run, Progress(console=err, transient=True, disable=as_json) as progress:
        if not bots:  # after --ray is known to work: a command that cannot run warns of nothing
            warn_bots(g, names)
        task = progress.add_task(f"{g.id} ladder", total=games)
        book = run_ladder(g, names, games, seed, lambda i: progress.advance(task), run)
    standings = book.table()
    if as_json:
        print(
            json.dumps(
                {
                    "game": g.id,
                    "seats": g.seats,
                    "games": games,
                    "model": "openskill.PlackettLuce",
                    "ratings": [s.to_json() for s in standings],
                }
            )
        )
        return
    table = RichTable(title=f"{g.name}: {games} ladder games, {g.seats} seats (OpenSkill)")
    for col in ("rank", "bot", "rating", "mu", "sigma", "games", "win rate"):
        table.add_column(col, justify="right")
    for rank, s in enumerate(standings, 1):
        table.add_row(
            str(rank),
            s.name,
            f"{shown(s.rating.mu, s.rating.sigma)}{'?' if provisional(s.games) else ''}",
            f"{s.rating.mu:.2f}",
            f"{s.rating.sigma:.2f}",
            str(s.games),
            f"{s.wins / s.games:.1%}" if s.games else "-",
        )
    out.print(table)
    out.print(
        "[dim]rating = 1500 + 20 × (mu − 3·sigma), the figure a leaderboard sorts by, as the "
        "server shows it; ? marks a provisional one (fewer than 10 games)[/]"
    )
