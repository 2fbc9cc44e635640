"""`dicehall play GAME --guide`: the first-game guide at the terminal.

The frames come from the core (`dicehall.core.guide`), the same the browser page
shows; this module only prints them and waits for the learner's key at each.
"""

from __future__ import annotations

from typing import Any

from dicehall.cli.common import guarded, out
from dicehall.core.guide import guide_json, load_guide


def run_guide(game_id: str) -> None:
    game, guide = guarded(lambda: load_guide(game_id))
    shown = guarded(lambda: guide_json(game, guide))
    names = shown["names"]
    out.print(f"[bold]{shown['title']}: your first game[/]")
    out.print(shown["intro"], highlight=False)
    try:
        for frame in shown["frames"]:
            show_frame(game, frame, names)
    except (EOFError, KeyboardInterrupt):
        out.print("\n[dim]Guide left.[/]")
        return


def named(text: str, names: list[str]) -> str:
    for s in reversed(range(len(names))):
        text = text.replace(f"Seat {s}", names[s]).replace(f"seat {s}", names[s])
    return text


def show_frame(game: Any, frame: dict[str, Any], names: list[str]) -> None:
    for event in frame["events"]:
        out.print(f"  [cyan]·[/] {named(event['text'], names)}", highlight=False)
    if frame.get("legal") or frame.get("end"):
        out.print(game.render(frame["view"], names))
    rule = f" [dim](rule {frame['rule']})[/]" if frame.get("rule") else ""
    out.print(f"[bold yellow]Guide:[/] {frame['note']}{rule}", highlight=False)
    if frame.get("end"):
        return
    if frame.get("throw"):
        input("Press Enter to throw. ")
        return
    legal = frame.get("legal")
    if not legal:
        input("Press Enter to go on. ")
        return
    for i, entry in enumerate(legal, 1):
        out.print(f"  [bold]{i:>2}[/] {named(entry['label'], names)}", highlight=False)
    want = frame["choice"] + 1
    while True:
        answer = input(f"Your choice [1-{len(legal)}]: ").strip()
        if answer == str(want):
            return
        label = named(legal[want - 1]["label"], names)
        out.print(f"[red]In this guide, choose {want}: {label}.[/]", highlight=False)
