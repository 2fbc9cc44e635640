"""Tao Dice in the terminal: one's tube, everyone's stones and d12, the pot, the token."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.console import Group
from rich.table import Table
from rich.text import Text

from dicehall.core import View

PHASE_WORDS = {
    "opener": "throwing for the first player",
    "ante": "antes",
    "throw": "throwing the two d6",
    "bet": "betting, stage {stage}",
    "reroll": "rerolls, stage {stage}",
    "d12": "throwing the d12s",
    "over": "game over",
}
STATUS_STYLE = {"in": "", "folded": "dim", "sitting out": "dim", "out": "dim strike"}


def stones(counts: Mapping[str, int]) -> Text:
    """Black stones as ●, white as ○."""
    text = Text("●" * counts["black"], style="bold")
    text.append("○" * counts["white"])
    return text if len(text) else Text("—", style="dim")


def render(view: View, names: Sequence[str]) -> Any:
    token = view["token"]
    title = f"Tao Dice · match {view['match']} · round {view['round']}"
    if view["tiebreak"]:
        title += f" · tie-break {view['tiebreak']}"
    title += " · " + PHASE_WORDS[view["phase"]].format(stage=view["stage"])
    title += f" · bid unit {view['m']}"
    table = Table(title=title, title_justify="left")
    for column in ("seat", "stones", "status", "d12", "bet", "paid", "tube", "matches"):
        table.add_column(column)
    actors = set(view["actors"])
    for p in view["players"]:
        seat = p["seat"]
        label = Text(names[seat], style="bold" if seat == view["seat"] else "")
        if seat == token["holder"]:
            label.append(f" [{token['side'] or 'token'}]", style="yellow")
        if seat in actors:
            label.append(" ◀", style="bold cyan")
        bet = p["bet"] or ""
        if p["must_reroll"]:
            bet += " · reroll"
        tube = "" if p["dice"] is None else f"{p['dice'][0]} {p['dice'][1]}"
        table.add_row(
            label,
            Text.assemble(str(p["black"] + p["white"]) + " ", stones(p)),
            Text(p["status"], style=STATUS_STYLE[p["status"]]),
            "" if p["d12"] is None else str(p["d12"]),
            bet,
            stones(p["paid"]) if p["bet"] in ("raise", "call") else "",
            tube,
            str(view["matches_won"][seat]),
        )
    lines: list[Any] = [table, Text.assemble("Pot: ", stones(view["pot"]))]
    showdown = view["showdown"]
    if showdown is not None:
        shown = ", ".join(
            f"{names[e['seat']]} {e['dice'][0]}+{e['dice'][1]}+{e['d12']}={e['total']}"
            for e in showdown["players"]
        )
        lines.append(Text(f"Last showdown: {shown}", style="italic"))
    if view["over"]:
        lines.append(Text(f"Game over: {names[view['winner']]} wins", style="bold"))
    return Group(*lines)
