"""Tepiiku in the terminal: one row per seat with its coins, thumbs, role, runes and score."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.console import Group
from rich.table import Table
from rich.text import Text

from dicehall.core.game import View

RUNE_LOOK: dict[str, tuple[str, str]] = {
    "ingot": ("▬", "bold yellow"),
    "gem": ("◆", "bold magenta"),
    "fire": ("▲", "bold red"),
    "water": ("≈", "bold blue"),
    "skull": ("☠", "bold white on grey23"),
    "person": ("☺", "bold green"),
}
"""A glyph and a colour per rune."""

ROLE_LOOK = {"fish": ("Fish", "cyan"), "middle": ("middle", "dim"), "hook": ("Hook", "bold yellow")}


def rune_text(face: str) -> Text:
    glyph, style = RUNE_LOOK.get(face, ("?", ""))
    return Text(f"{glyph} {face}", style=style)


def hand_text(dice: Sequence[str] | None, thrown_hidden: bool) -> Text:
    if dice is None:
        return Text("? ? ?" if thrown_hidden else "", style="dim")
    return Text("  ").join(rune_text(face) for face in dice)


def thumbs_text(thumbs: bool | None, committed: bool) -> Text:
    if thumbs is True:
        return Text("👍 up", style="green")
    if thumbs is False:
        return Text("👎 down", style="red")
    return Text("committed" if committed else "", style="dim")


def render_view(view: View, names: Sequence[str]) -> Any:
    roles = view.get("roles") or {}
    role_of = {seat: role for role, seat in roles.items()}
    actors = set(view.get("actors", []))
    title = f"Tepiiku · round {view['round']} · {view['phase']}"
    if view.get("pot"):
        title += f" · pot {view['pot']}"
    table = Table(title=title, title_justify="left")
    for column in ("seat", "coins", "thumbs", "role", "runes", "score"):
        table.add_column(column, justify="right" if column in ("coins", "score") else "left")
    for seat, name in enumerate(names):
        label = Text(name, style="bold" if seat == view.get("seat") else "")
        if seat in actors:
            label.append(" ◀", style="bold cyan")
        role_name, role_style = ROLE_LOOK.get(role_of.get(seat, ""), ("", ""))
        if view.get("forced") == seat:
            role_name, role_style = f"{role_name} · must reroll".strip(" ·"), "bold red"
        score = view["scores"][seat]
        table.add_row(
            label,
            str(view["coins"][seat]),
            thumbs_text(view["thumbs"][seat], view["committed"][seat]),
            Text(role_name, style=role_style),
            hand_text(view["dice"][seat], not view["revealed"]),
            "" if score is None else str(score),
        )
    lines: list[Any] = [table]
    last = view.get("last")
    if last is not None:
        lines.append(Text(describe_last(last, names), style="italic"))
    if view.get("over"):
        result = view["result"]
        winners = " and ".join(names[s] for s in result["winners"])
        lines.append(Text(f"Game over: {winners} win{'s' if len(result['winners']) == 1 else ''}"))
    return Group(*lines)


def describe_last(last: dict[str, Any], names: Sequence[str]) -> str:
    who = names[last["seat"]]
    kind = last["kind"]
    if kind == "pay":
        return f"{who} paid {last['amount']} to {names[last['hook']]}."
    words = {
        "bust": "busted",
        "still": "improved but is still the Fish",
        "tie": "tied",
        "beat": "beat the middle",
        "settled": "rerolled",
    }[kind]
    return f"{who} {words}: {last['before']} → {last['after']}."
