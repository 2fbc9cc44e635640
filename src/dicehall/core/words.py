"""Small pieces of English for event texts and labels, shared by every game.

Event texts name seats as "seat N" (from 0); every interface writes each "seat N" as that
seat's name, so a list of seats must be written out seat by seat, never as a raw list.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence


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
