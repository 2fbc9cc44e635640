"""`dicehall solve`, `exploitability` and `duel`: strategies and how strong they are."""

from __future__ import annotations

import json
from typing import Annotated

import typer
from rich.table import Table as RichTable

from dicehall.cli.common import (
    GameArg,
    OptionOpt,
    SeatsOpt,
    SeedOpt,
    app,
    configure,
    err,
    fail,
    guarded,
    out,
)
from dicehall.strategy.duel import duel as run_duel
from dicehall.strategy.progress import bar

JsonOpt = Annotated[bool, typer.Option("--json", help="Print one JSON object.")]


@app.command(rich_help_panel="Study")
def duel(
    game: GameArg,
    bots: Annotated[str, typer.Option(help="Two or more bots, comma-separated (A,B).")],
    games: Annotated[int, typer.Option("--games", "-g", min=1, help="How many games.")] = 1000,
    seats: SeatsOpt = None,
    seed: SeedOpt = None,
    option: OptionOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """A tournament rotating seats and the first roller: win rates with 95% intervals."""
    g = guarded(lambda: configure(game, seats, option))
    names = [b.strip() for b in bots.split(",") if b.strip()]
    if len(set(names)) < 2:
        fail(f"--bots needs at least two different bots; got {bots!r}")
    console = None if as_json else err
    with bar(games, f"{g.id} duel", console) as progress:
        result = guarded(lambda: run_duel(g, names, games, seed, lambda i: progress.advance()))
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
