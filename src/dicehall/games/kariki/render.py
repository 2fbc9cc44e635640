"""Kariki in the terminal: the mug, the claim, and the score sheet (K10).

The score sheet gives each player the cross of five points where their
dingle berries hang (top, right, bottom, left, then the centre), their
crowns and slashes, and a stinker for a player in the poo.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from rich.console import Group
from rich.table import Table
from rich.text import Text

from dicehall.core import View
from dicehall.games.kariki.rules import RANK_NAMES, RANK_OF_ID

DIE_FACES = "⚀⚁⚂⚃⚄⚅"
BERRY = "●"
EMPTY_POINT = "·"


def rank_name(rank_id: str) -> str:
    return RANK_NAMES[RANK_OF_ID[rank_id]]


def action_label(action: Mapping[str, Any]) -> str:
    kind = action.get("type")
    if kind == "claim":
        return f"claim {rank_name(str(action.get('rank')))}"
    if kind == "direction":
        way = action.get("way")
        return "play left (seat numbers up)" if way == "left" else "play right (seat numbers down)"
    return {
        "roll": "roll higher",
        "pull": "pull",
        "pass": "pass",
        "emergency": "buy the emergency dingle berry",
        "go-out": "go out",
    }.get(str(kind), str(kind))


def cross(berries: int) -> str:
    """The cross of five points, berries filling top, right, bottom, left, centre."""
    points = [BERRY if i < berries else EMPTY_POINT for i in range(5)]
    top, right, bottom, left, centre = points
    return f" {top} \n{left}{centre}{right}\n {bottom} "


def dice_text(dice: Sequence[int]) -> str:
    return " ".join(f"{DIE_FACES[d - 1]} {d}" for d in dice)


def render_view(view: View, names: Sequence[str]) -> Any:
    def name(seat: int | None) -> str:
        return "-" if seat is None else names[seat] if seat < len(names) else f"Seat {seat}"

    lines: list[Text] = []
    direction = view["direction"] or "not chosen yet"
    lines.append(Text(f"Pot: {view['pot']} stakes    Direction: {direction}", style="bold"))
    if view["phase"] == "roll-off":
        throws = view["roll_off"]["throws"]
        done = ", ".join(f"{name(s)} {throws[s]}" for s in range(len(throws)) if throws[s])
        contenders = ", ".join(name(s) for s in view["roll_off"]["contenders"])
        lines.append(Text(f"Roll-off among {contenders}: {done or 'nobody has thrown'}"))
    roller = view["roller"]
    if view["your_dice"] is not None:
        lines.append(Text(f"Under the mug (yours): {dice_text(view['your_dice'])}", style="green"))
    elif view["phase"] in ("claim", "respond"):
        lines.append(Text(f"Under the mug: hidden, thrown by {name(roller)}"))
    elif view["phase"] == "throw":
        lines.append(Text(f"{name(roller)} throws"))
    if view["claim"] is not None:
        owner = name(view["claim_owner"])
        lines.append(Text(f"Claim: {rank_name(view['claim'])}, owned by {owner}", style="bold"))
    if view["pass_chain"]:
        lines.append(Text("Passed by: " + " → ".join(name(s) for s in view["pass_chain"])))
    if view["responder"] is not None:
        moves = ["pull"] + (["roll higher"] if view["may_roll"] else [])
        moves += ["pass"] if view["may_pass"] else []
        lines.append(Text(f"{name(view['responder'])} to choose: {', '.join(moves)}"))
    shown = view["last_shown"]
    if shown is not None:
        how = "KARIKI!" if shown["how"] == "kariki" else f"pulled by {name(shown['puller'])}"
        lines.append(
            Text(
                f"Last shown: {dice_text(shown['dice'])} ({rank_name(shown['rank'])}) "
                f"of {name(shown['thrower'])}, {how}; berry to {name(shown['berry_to'])}",
                style="dim",
            )
        )
    if view["phase"] == "emergency":
        lines.append(
            Text(
                f"{name(view['deciding'])} may buy an emergency berry for "
                f"{view['emergency_price']} stakes",
                style="yellow",
            )
        )
    if view["over"]:
        lines.append(Text(f"{name(view['winner'])} wins the pot!", style="bold magenta"))
    return Group(*lines, score_sheet(view, name))


def score_sheet(view: View, name: Callable[[int | None], str]) -> Table:
    sheet = Table(title="Score sheet", show_lines=True)
    for column in ("player", "berries", "crowns", "slashes", ""):
        sheet.add_column(column)
    for seat, berries in enumerate(view["berries"]):
        status = "out" if view["out"][seat] else "💩 in the poo" if view["in_the_poo"][seat] else ""
        if view["actors"] and seat in view["actors"]:
            status = (status + " ◀ to act").strip()
        sheet.add_row(
            name(seat),
            cross(berries),
            "♛" * view["crowns"][seat],
            "/" * view["slashes"][seat],
            status,
        )
    return sheet
