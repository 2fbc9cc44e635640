"""The heuristic Tao Dice bot: bets by its exact chance at the showdown.

From its own view it knows its 2d6, the d12s thrown and who is still in;
`odds.position` turns that into its showdown equity, opponents' hidden dice
enumerated exactly. It raises when its equity clearly beats an equal share,
calls when the pot pays for the risk, and pays with a white stone exactly
when rerolling the stage's dice would raise its equity (keeping the other
white stones for later). Antes are paid in black: a white ante buys nothing.
Its odds are of the real dice, so it refuses the research variants that
shrink them (`hidden_faces`, `shown_faces`).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from functools import wraps
from typing import Any, TypeVar, cast

from dicehall.core import Action, Game, OptionError, View
from dicehall.games.tao.odds import Position, equity, position

RAISE_MARGIN = 1.3
"""Raise when equity exceeds this many times an equal share of the pot."""


def refuse_small_dice(game: Game, bot: str) -> None:
    """Raise OptionError if `game` shrinks the dice: the bots' odds are of 2d6 and a d12."""
    small = getattr(game, "small_dice", lambda: "")()
    if small:
        raise OptionError(
            f"Tao Dice's {bot} bot reckons with two d6 and a d12, so it does not play the "
            f"research variant {small}; the random bot does"
        )


class HeuristicBot:
    def __init__(self, game: Game, seat: int, rng: random.Random) -> None:
        refuse_small_dice(game, "heuristic")
        self.seat = seat
        self.rng = rng

    def choose(self, view: View, legal: Sequence[Action]) -> Action:
        if len(legal) == 1 or legal[0]["type"] == "ante":
            return legal[0]  # the fewest white stones
        me = view["players"][self.seat]
        cost = min(view["m"], me["black"] + me["white"])
        pot = view["pot"]["black"] + view["pot"]["white"]
        return equity_choice(position(view), view["stage"], legal, pot, cost)


def equity_choice(
    where: Position, stage: int, legal: Sequence[Action], pot: int, cost: int
) -> Action:
    """The heuristic's bet from its showdown position, the pot and what a bid costs it.

    Pure, so that a bot reading the bets can ask what an equity bettor would
    have done with each hand (`solver/reading.py`).
    """
    keep, reroll = equities(where.two_d6, where.d12, where.opponents, stage)
    return bet_by_equity(keep, reroll, len(where.opponents), legal, pot, cost)


def bet_by_equity(
    keep: float, reroll: float, opponents: int, legal: Sequence[Action], pot: int, cost: int
) -> Action:
    """`equity_choice` from the two equities (keeping the dice, rerolling the stage's dice)."""
    wants_reroll = reroll > keep
    best = max(keep, reroll) if any(a.get("white", 0) > 0 for a in legal) else keep
    if legal[0]["type"] == "pass":
        if best * (opponents + 1) > RAISE_MARGIN:
            return pay_with(legal, "raise", wants_reroll)
        return legal[0]
    if cost == 0 or best * (pot + cost) >= cost:
        return pay_with(legal, "call", wants_reroll)
    return legal[-1]  # fold


F = TypeVar("F", bound=Callable[..., Any])


def number_cache(limit: int) -> Callable[[F], F]:
    """Memoise a function of plain numbers (and tuples of them) in one dict, emptied when full.

    Not `functools.lru_cache`: it keeps every key in a node the garbage
    collector follows, and tens of thousands of them make a full collection,
    which falls inside some bot's decision, take tens of milliseconds. The
    collector soon stops following tuples of numbers.
    """

    def wrap(function: F) -> F:
        table: dict[tuple[Any, ...], Any] = {}

        @wraps(function)
        def cached(*args: Any) -> Any:
            found = table.get(args, table)
            if found is table:
                if len(table) >= limit:
                    table.clear()
                found = table[args] = function(*args)
            return found

        return cast(F, cached)

    return wrap


@number_cache(1 << 16)
def equities(
    two_d6: int | None, d12: int | None, others: tuple[int | None, ...], stage: int
) -> tuple[float, float]:
    """The showdown equity of keeping the dice, and of rerolling the stage's dice.

    Keyed by plain numbers (`number_cache`), not by the `Position`.
    """
    where = Position(two_d6, d12, others)
    opponents = where.opponent_totals()
    reroll = where.reroll_two_d6() if stage == 1 else where.reroll_d12()
    return equity(where.keep(), opponents), equity(reroll, opponents)


def pay_with(legal: Sequence[Action], kind: str, reroll: bool) -> Action:
    """The `kind` action with one white stone if rerolling, else the fewest white."""
    choices = [a for a in legal if a["type"] == kind]
    if reroll:
        for action in choices:
            if action["white"] == 1:
                return action
    return choices[0]
