"""`dicehall replay` and `dicehall verify`: transcripts re-applied exactly."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from dicehall.cli.common import app, guarded, out
from dicehall.core.transcript import check_schema, load
from dicehall.core.transcript import replay as replay_transcript


@app.command(rich_help_panel="Study")
def replay(
    file: Annotated[Path, typer.Argument(help="A transcript (JSON).")],
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the final spectator view and result.")
    ] = False,
) -> None:
    """Re-apply a transcript exactly; prints the events and the final result."""
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
    names = data.get("names") or [f"Seat {s}" for s in range(state.game.seats)]
    for event in state.log or []:
        if event.visible_to(None):
            out.print(f"  · {event.text}", highlight=False)
    if state.is_over():
        result = state.result()
        out.print(f"[bold green]Winner: {', '.join(str(names[w]) for w in result.winners)}[/]")
        for s, n in enumerate(result.net):
            out.print(f"  {names[s]}: {n:+d} {result.unit}")
    else:
        out.print(f"[yellow]The game is not over: {len(data['steps'])} steps replayed.[/]")


@app.command(rich_help_panel="Host")
def verify(
    file: Annotated[Path, typer.Argument(help="A finished table's transcript.")],
    openings: Annotated[
        Path | None,
        typer.Option(help="Your openings file from the page: proves your own hidden throws."),
    ] = None,
) -> None:
    """Check a finished table's dice: every public throw, and with --openings your own."""
    from dicehall.server.commands import verify as verify_transcript

    mine = None if openings is None else str(openings)
    report = guarded(lambda: verify_transcript(str(file), mine))
    print(json.dumps(report, indent=1))
    if not report.get("ok"):
        raise typer.Exit(1)
