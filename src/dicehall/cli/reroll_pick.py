"""Choosing dice to reroll at the terminal by their numbers (Tepiiku's rerolls).

A menu of every set of dice lists each rune set once but still asks a person to find
theirs among seven lines; typing the dice ("13": dice 1 and 3) is what a player at
a real table does: point at them. Any non-empty set is a legal reroll (T6, T7).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from dicehall.core import Action


def dice_choice(legal: Sequence[Action]) -> bool:
    """The choice is a set of dice to reroll (every legal action but a pay is a reroll)."""
    rerolls = [a for a in legal if a.get("type") == "reroll"]
    return len(rerolls) > 1 and all(a.get("type") in ("reroll", "pay") for a in legal)


def pick_dice(
    hand: Sequence[Any],
    legal: Sequence[Action],
    ask: Callable[[str], str],
    warn: Callable[[str], None],
) -> Action:
    """Ask for the dice to reroll (digits 1-3; "p" to pay, where paying is legal)."""
    by_dice: Mapping[tuple[int, ...], Action] = {
        tuple(a["dice"]): a for a in legal if a.get("type") == "reroll"
    }
    pay = next((a for a in legal if a.get("type") == "pay"), None)
    numbered = "  ".join(f"{i}:{face}" for i, face in enumerate(hand, 1))
    hint = f"dice to reroll ({numbered}), e.g. 13" + (", or p to pay the pot" if pay else "")
    while True:
        answer = ask(hint).strip().lower().replace(" ", "").replace(",", "")
        if pay is not None and answer in ("p", "pay"):
            return pay
        picked = tuple(sorted({int(c) - 1 for c in answer if c.isdigit()}))
        if answer.isdigit() and picked in by_dice:
            return by_dice[picked]
        warn(
            f"Type the numbers of the dice to reroll, from 1 to {len(hand)}"
            + (", or p to pay." if pay else ".")
        )
