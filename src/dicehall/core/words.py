"""Small pieces of English for event texts and labels, shared by every game.

Event texts name seats as "seat N" (from 0); every interface writes each "seat N" as that
seat's name, so a list of seats must be written out seat by seat, never as a raw list.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

SEAT = re.compile(r"\b[Ss]eat (\d+)\b")


def and_list(items: Sequence[str]) -> str:
    """ "a", "a and b", "a, b and c"."""
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} and {items[-1]}"


def seat_list(seats: Iterable[int]) -> str:
    """ "seat 0, seat 1 and seat 3": each seat in words an interface names."""
    return and_list([f"seat {s}" for s in seats])


def seat_name(seat: int, bot: str | None = None) -> str:
    """The name a seat gets when nobody gave one, the same in the terminal and the browser:
    "Player 1", "heuristic bot 2" (seats count from 1 for people)."""
    return f"{bot} bot {seat + 1}" if bot else f"Player {seat + 1}"


def name_seats(text: str, names: Sequence[str]) -> str:
    """`text` with each "seat N" (or "Seat N") written as that seat's name, the way every
    interface shows event texts, odds and reports to people; a number past the table's
    seats is left as it is."""
    return SEAT.sub(lambda m: names[n] if (n := int(m.group(1))) < len(names) else m[0], text)


def unique_name(name: str, others: Iterable[str]) -> str:
    """`name`, or "Ann (2)", "Ann (3)", ... where another seat at the table is called that
    already (letter case and spaces aside): two players of one name cannot be told apart in
    the log, the chat or the odds."""
    taken = {o.strip().casefold() for o in others}
    if name.strip().casefold() not in taken:
        return name
    n = 2
    while f"{name} ({n})".casefold() in taken:
        n += 1
    return f"{name} ({n})"


def default_names(seats: int) -> list[str]:
    """Names for a table nobody named: "Player 1", "Player 2", ... (never a 0-based number)."""
    return [seat_name(s) for s in range(seats)]
