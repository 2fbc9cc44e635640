"""`dicehall replay` and `dicehall verify`: transcripts re-applied exactly."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.text import Text

from dicehall.cli.common import app, fail, guarded, out


def seat_names(names: object, seats: int) -> list[str]:
    """The transcript's names, one string per seat (printed as text, never as markup)."""
    if names is None:
        return [f"Seat {s}" for s in range(seats)]
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
            out.print(Text(f"  · {event.text}"), highlight=False)
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
) -> None:
    """Check a finished table's dice: every public throw, and with --openings your own."""
    from dicehall.server.commands import verify as verify_transcript

    mine = None if openings is None else str(openings)
    report = guarded(lambda: verify_transcript(str(file), mine))
    print(json.dumps(report, indent=1))
    if not report.get("ok"):
        raise typer.Exit(1)
