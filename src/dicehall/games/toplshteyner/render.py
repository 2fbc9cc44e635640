"""Toplshteyner in the terminal: lives as hearts, the pot, the point, this turn's throws."""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Group
from rich.table import Table
from rich.text import Text

from dicehall.core import View
from dicehall.games.toplshteyner.rules import DOUBLE_NAMES, MAX_LIVES, TURN_END_WORDS


def hearts(lives: int) -> Text:
    return Text("♥" * lives, style="bold red") + Text("♡" * (MAX_LIVES - lives), style="dim")


def throw_words(die_a: int, die_b: int) -> str:
    if die_a == die_b:
        return f"{die_a}-{die_b} {DOUBLE_NAMES[die_a]}"
    return f"{die_a}-{die_b} ({die_a + die_b})"


def render_view(view: View, names: Sequence[str]) -> Group:
    seats = Table(show_header=True, header_style="bold", box=None, padding=(0, 2))
    for column in ("", "player", "lives", "paid in", "taken out", "bought"):
        seats.add_column(column)
    for s, lives in enumerate(view["lives"]):
        marker = "🎲" if s == view["roller"] else ("★" if s == view["winner"] else "")
        name = names[s] + (" (you)" if s == view["seat"] else "")
        seats.add_row(
            marker,
            Text(name, style="dim" if lives == 0 else ""),
            hearts(lives) if lives else Text("out", style="dim"),
            str(view["paid"][s]),
            str(view["reclaimed"][s]),
            str(view["bought"][s]),
        )
    lines: list[Text | Table] = [seats]
    stake = view["stake"]
    lines.append(Text(f"Pot: {view['pot']} stake(s) = {view['pot'] * stake}", style="bold"))
    last = view["last_turn"]
    if last is not None and last["end"] in TURN_END_WORDS:
        lines.append(Text(f"Last turn: {names[last['seat']]} {TURN_END_WORDS[last['end']]}."))
    if view["rolloff"] is not None:
        rolloff = view["rolloff"]
        thrown = ", ".join(
            f"{names[s]} {f}" for s, f in zip(rolloff["contenders"], rolloff["faces"], strict=False)
        )
        lines.append(Text(f"Roll-off for the first throw: {thrown or 'no throws yet'}"))
    elif view["over"]:
        lines.append(Text(f"{names[view['winner']]} wins the pot!", style="bold green"))
    else:
        point = view["point"]
        seen = [
            name
            for flag, name in (("snake_eyes", "1-1"), ("threes", "3-3"), ("high_fives", "5-5"))
            if view[flag]
        ]
        lines.append(
            Text(
                f"{names[view['roller']]} throws. Point: {point if point else 'none'}"
                + (f"   doubles this turn: {', '.join(seen)}" if seen else "")
            )
        )
        if view["throws"]:
            lines.append(Text("This turn: " + ", ".join(throw_words(*t) for t in view["throws"])))
        if view["phase"] == "elect":
            lines.append(
                Text("High Fives! The roller elects a player to lose a life.", style="yellow")
            )
        elif view["phase"] == "buy":
            lines.append(Text(f"Trick Sixes! Buy a fourth life for {stake}?", style="yellow"))
    return Group(*lines)
