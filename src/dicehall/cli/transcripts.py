"""`dicehall replay` and `dicehall verify`: transcripts re-applied exactly."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.text import Text

from dicehall.cli.common import app, fail, guarded, out
from dicehall.core.words import default_names, name_seats


def seat_names(names: object, seats: int) -> list[str]:
    """The transcript's names, one string per seat (printed as text, never as markup)."""
    if names is None:
        return default_names(seats)
    if not isinstance(names, list) or len(names) != seats:
        fail(f"names must be a list of {seats} strings, one per seat; got {names!r:.80}")
    if not all(isinstance(n, str) for n in names):
        fail(f"names must be strings; got {names!r:.80}")
    return names


@app.command(rich_help_panel="Study")
def replay(
    file: Annotated[Path, typer.Argument(help="A transcript (JSON).")],
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the final spectator view and result.")
    ] = False,
) -> None:
    """Re-apply a transcript exactly; prints the events and the final result."""
    from dicehall.core.transcript import check_schema, load
    from dicehall.core.transcript import replay as replay_transcript

    data = guarded(lambda: load(file))
    guarded(lambda: check_schema(data))
    state = guarded(lambda: replay_transcript(data))
    if as_json:
        final = {
            "view": state.view(None),
            "result": state.result().to_json() if state.is_over() else None,
        }
        print(json.dumps(final, indent=1))
        return
    names = seat_names(data.get("names"), state.game.seats)
    for event in state.log or []:
        if event.visible_to(None):
            out.print(Text(f"  · {name_seats(event.text, names)}"), highlight=False)
    if state.is_over():
        result = state.result()
        winners = ", ".join(names[w] for w in result.winners)
        out.print(Text(f"Winner: {winners}", style="bold green"), highlight=False)
        for s, n in enumerate(result.net):
            out.print(Text(f"  {names[s]}: {n:+d} {result.unit}"), highlight=False)
    else:
        out.print(f"[yellow]The game is not over: {len(data['steps'])} steps replayed.[/]")


@app.command(rich_help_panel="Host")
def verify(
    file: Annotated[Path, typer.Argument(help="A finished table's transcript.")],
    openings: Annotated[
        Path | None,
        typer.Option(help="Your openings file from the page: proves your own hidden throws."),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the report as JSON.")] = False,
) -> None:
    """Check a finished table's dice: every public throw, and with --openings your own.

    Prints what the page's fair-dice panel says: the verdict, then how it works (what was
    promised before the game, what was checked now, what stays secret and why)."""
    from dicehall.server.http.commands import verify as verify_transcript

    mine = None if openings is None else str(openings)
    report = guarded(lambda: verify_transcript(str(file), mine))
    if as_json:
        print(json.dumps(report, indent=1))
    elif report.get("ok"):
        words = report["words"]
        out.print(Text(words[0].upper() + words[1:] + ".", style="bold green"))
        for heading, key in VERIFY_PARTS:
            out.print(Text(f"\n{heading}", style="bold"))
            out.print(Text(report["explained"][key]))
    else:
        at = "" if report.get("step") is None else f" (step {report['step']})"
        out.print(Text(f"Not verified{at}: {report.get('error')}", style="bold red"))
    if not report.get("ok"):
        raise typer.Exit(1)


VERIFY_PARTS = (
    ("Promised before the game", "promised"),
    ("Checked now", "checked"),
    ("Still secret, and why", "secret"),
)
"""The parts of "how it works", in the order the page shows them (server/web/fair.js)."""
