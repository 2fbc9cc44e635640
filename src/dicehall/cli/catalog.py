"""`dicehall games` and `dicehall rules`: what the hall offers."""

from __future__ import annotations

import json

from rich.panel import Panel
from rich.table import Table as RichTable

from dicehall.cli.common import GameArg, JsonOpt, app, guarded, out
from dicehall.core.options import options_json
from dicehall.games import game_class, game_ids


@app.command(rich_help_panel="Play")
def games(
    as_json: JsonOpt = False,
) -> None:
    """The games, their seat ranges and options."""
    classes = [game_class(g) for g in game_ids()]
    if as_json:
        data = [
            {
                "id": c.id,
                "name": c.name,
                "summary": c.summary,
                "min_seats": c.min_seats,
                "max_seats": c.max_seats,
                "default_seats": c.default_seats,
                "options": options_json(c.declared_options),
            }
            for c in classes
        ]
        print(json.dumps(data, indent=2))
        return
    for c in classes:
        seats = f"{c.min_seats}" if c.min_seats == c.max_seats else f"{c.min_seats}–{c.max_seats}"
        table = RichTable(title=f"[bold]{c.name}[/] ({c.id}) · {seats} seats", title_justify="left")
        table.add_column("option")
        table.add_column("default")
        table.add_column("allowed")
        table.add_column("meaning")
        for o in c.declared_options:
            table.add_row(o.name, json.dumps(o.default), o.allowed(), o.help)
        out.print(c.summary)
        out.print(table)
        out.print()


@app.command(rich_help_panel="Play")
def rules(game: GameArg) -> None:
    """The rules in brief, with the ruling ids."""
    cls = guarded(lambda: game_class(game))
    out.print(Panel(cls.rules.strip(), title=f"{cls.name} ({cls.id})", expand=False))
