"""`dicehall odds`: exact odds, as percentages (with the fractions where short or asked for)."""

from __future__ import annotations

import json
from typing import Annotated

import typer
from rich.table import Table as RichTable

from dicehall.cli.common import GameArg, JsonOpt, OptionOpt, app, fail, guarded, out
from dicehall.core.odds import OddsTable, show
from dicehall.games import game_class


@app.command(rich_help_panel="Study")
def odds(
    game: GameArg,
    dice: Annotated[str | None, typer.Option(help="Your dice, comma-separated.")] = None,
    beat: Annotated[str | None, typer.Option(help="Tepiiku: the score to beat.")] = None,
    d12: Annotated[str | None, typer.Option(help="Tao: your twelve-sided die.")] = None,
    opponents: Annotated[
        str | None, typer.Option(help="Tao: the opponents' twelve-sided dice, comma-separated.")
    ] = None,
    seats: Annotated[str | None, typer.Option(help="Toplshteyner: players in the game.")] = None,
    lives: Annotated[
        str | None, typer.Option(help="Toplshteyner: lives per player, e.g. 3,2,1.")
    ] = None,
    option: OptionOpt = None,
    exact: Annotated[
        bool, typer.Option("--exact", help="Show every chance's exact fraction too.")
    ] = False,
    as_json: JsonOpt = False,
) -> None:
    """Exact odds: distributions, the chances of a claim, the best reroll.

    Chances print as percentages, with the exact fraction where it is short
    (or always, with --exact). A table option the odds depend on is given as
    --option NAME=VALUE (Toplshteyner: for_fun, sixes_end_turn)."""
    cls = guarded(lambda: game_class(game))
    given = {
        "dice": dice,
        "beat": beat,
        "d12": d12,
        "opponents": opponents,
        "seats": seats,
        "lives": lives,
    }
    query = {k: v for k, v in given.items() if v is not None}
    for text in option or []:
        name, sep, value = text.partition("=")
        if not sep or not name.strip():
            fail(f"--option takes NAME=VALUE; got {text!r}")
        if name.strip() in query:
            fail(f"{name.strip()} given twice")
        query[name.strip()] = value.strip()
    tables = guarded(lambda: cls.odds(query))
    if as_json:
        print(json.dumps([t.to_json() for t in tables], indent=1))
        return
    for t in tables:
        print_odds(t, exact)
        out.print()


def print_odds(t: OddsTable, exact: bool = False) -> None:
    """One table as `dicehall odds` and `dicehall play`'s `o` show it: within the terminal's
    width (80 columns or more) where it can be, by leaving out the short fractions."""
    if len(t.rows) > LONG:
        out.print(plain_table(t, exact), highlight=False, markup=False, soft_wrap=True)
    else:
        full = width(t, True)
        fits = exact or full <= max(out.width, 80) or full == width(t, False)
        out.print(odds_table(t, exact, fractions=fits))
        if not fits:
            out.print("[dim]Chances in percent; --exact adds their fractions.[/]")
    if t.note:
        out.print(f"[dim]{t.note}[/]")


LONG = 100
"""Tables with more rows than this print as aligned plain text (`plain_table`): Rich
takes a second or more to lay out the 560 rows of Tepiiku's Fish policy."""


def cells(t: OddsTable, exact: bool, fractions: bool = True) -> list[list[str]]:
    return [
        [show(c, exact, fractions) if not isinstance(c, (str, int)) else str(c) for c in row]
        for row in t.rows
    ]


def width(t: OddsTable, fractions: bool) -> int:
    """The columns a table takes unwrapped: its widest cells, Rich's padding and rules."""
    rows = [list(t.columns), *cells(t, False, fractions)]
    return sum(max(len(row[i]) for row in rows) + 3 for i in range(len(t.columns))) + 1


def plain_table(t: OddsTable, exact: bool = False) -> str:
    """A long table as text: its title, then columns padded to their widest cell."""
    rows = [list(t.columns), *cells(t, exact)]
    widths = [max(len(row[i]) for row in rows) for i in range(len(t.columns))]
    lines = ["  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)) for row in rows]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join([t.title, *(line.rstrip() for line in lines)])


def odds_table(t: OddsTable, exact: bool = False, fractions: bool = True) -> RichTable:
    table = RichTable(title=t.title, title_justify="left")
    for c in t.columns:
        table.add_column(c)
    for row in cells(t, exact, fractions):
        table.add_row(*row)
    return table
