"""Exact odds of the Tao Dice showdown (D8): 2d6 + d12 against other players.

Every distribution is kept as whole-number counts of equally likely
outcomes, so one routine serves both the exact fractions `dicehall odds`
prints and the fast floats the bot needs thousands of times a game.
A player's total is known as far as their dice are: both 2d6 and d12,
only one of them, or neither; opponents' 2d6 are always unknown.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import Any

from dicehall.core.errors import OptionError
from dicehall.core.odds import OddsTable

MAX_TOTAL = 24  # 6 + 6 + 12


@dataclass(frozen=True)
class Totals:
    """A distribution of totals as counts: `ways[t]` of `size` outcomes give total t."""

    ways: tuple[int, ...]
    size: int
    below: tuple[int, ...]  # below[t]: outcomes with a total under t
    upto: tuple[int, ...]  # upto[t]: outcomes with a total of t or less
    support: tuple[tuple[int, int], ...]  # (total, ways) with ways > 0

    @classmethod
    def of(cls, ways: Sequence[int]) -> Totals:
        padded = [*ways, *[0] * (MAX_TOTAL + 2 - len(ways))]
        below, upto, running = [], [], 0
        for count in padded:
            below.append(running)
            running += count
            upto.append(running)
        support = tuple((t, w) for t, w in enumerate(padded) if w)
        return cls(tuple(padded), running, tuple(below), tuple(upto), support)


TWO_D6_WAYS = tuple(
    sum(1 for a in range(1, 7) for b in range(1, 7) if a + b == t) for t in range(13)
)


@cache
def totals(two_d6: int | None, d12: int | None) -> Totals:
    """Totals of a player whose 2d6 sum and d12 are known (a number) or not (None)."""
    two = [0] * 13
    if two_d6 is None:
        two = list(TWO_D6_WAYS)
    else:
        two[two_d6] = 1
    twelve = range(1, 13) if d12 is None else (d12,)
    ways = [0] * (MAX_TOTAL + 1)
    for s, count in enumerate(two):
        for d in twelve:
            ways[s + d] += count
    return Totals.of(ways)


def chances(own: Totals, opponents: Sequence[Totals]) -> tuple[int, int, int]:
    """(win, tie, size): outcomes where `own` is highest alone, tied for highest, of all."""
    win = tie = 0
    for t, count in own.support:
        below = upto = count
        for other in opponents:
            below *= other.below[t]
            upto *= other.upto[t]
        win += below
        tie += upto - below
    size = own.size
    for other in opponents:
        size *= other.size
    return win, tie, size


def equity(own: Totals, opponents: Sequence[Totals]) -> float:
    """The share of the pot expected: a tie counts half (a tie-break is a fresh contest)."""
    win, tie, size = chances(own, opponents)
    return (win + tie / 2) / size


@dataclass(frozen=True)
class Position:
    """What one seat knows of the showdown: its own dice, the others' d12s."""

    two_d6: int | None  # the sum of one's own 2d6, None if not thrown
    d12: int | None  # one's own d12, None if not thrown
    opponents: tuple[int | None, ...]  # each other player in: their d12, or None

    def keep(self) -> Totals:
        return totals(self.two_d6, self.d12)

    def reroll_two_d6(self) -> Totals:
        return totals(None, self.d12)

    def reroll_d12(self) -> Totals:
        return totals(self.two_d6, None)

    def opponent_totals(self) -> list[Totals]:
        return [totals(None, d) for d in self.opponents]


def position(view: Mapping[str, Any]) -> Position:
    """The showdown as the view's seat knows it (the view holds only what it may see).

    An opponent who put a white stone into the stage-two betting will throw the
    d12 again (D5), so their d12 on the table is not yet their final one.
    """
    seat = view["seat"]
    players = view["players"]
    me = players[seat]
    dice = me["dice"]
    stage_two = view["stage"] == 2
    others = tuple(
        None if stage_two and p["must_reroll"] else p["d12"]
        for p in players
        if p["status"] == "in" and p["seat"] != seat
    )
    return Position(None if dice is None else dice[0] + dice[1], me["d12"], others)


# --- dicehall odds tao -----------------------------------------------------------


def odds_tables(query: Mapping[str, str]) -> list[OddsTable]:
    """No query: the distribution of 2d6 + d12. Else the showdown chances of a position."""
    unknown = set(query) - {"dice", "d12", "opponents"}
    if unknown:
        raise OptionError(
            f"unknown odds parameter(s) {', '.join(sorted(unknown))}; tao takes dice, d12, "
            "opponents"
        )
    if not query:
        return [distribution_table()]
    where = Position(
        parse_two_d6(query.get("dice", "")),
        parse_d12(query.get("d12", ""), "d12"),
        tuple(parse_d12(x, "opponents") for x in (query.get("opponents") or "?").split(",")),
    )
    return [showdown_table(where)]


def distribution_table() -> OddsTable:
    dist = totals(None, None)
    rows: list[list[Any]] = []
    for t, count in dist.support:
        rows.append(
            [t, count, Fraction(count, dist.size), Fraction(dist.size - dist.below[t], dist.size)]
        )
    return OddsTable(
        "Score of 2d6 + d12 (D8)",
        ["total", f"ways of {dist.size}", "chance", "this or more"],
        rows,
        note="Each total's exact chance; the most likely totals are 13 and 14.",
    )


def showdown_table(where: Position) -> OddsTable:
    opponents = where.opponent_totals()
    choices = [("keep the dice", where.keep())]
    if where.two_d6 is not None:
        choices.append(("reroll the two d6", where.reroll_two_d6()))
    if where.d12 is not None:
        choices.append(("reroll the d12", where.reroll_d12()))
    rows: list[list[Any]] = []
    for label, own in choices:
        win, tie, size = chances(own, opponents)
        rows.append(
            [label, Fraction(win, size), Fraction(tie, size), Fraction(size - win - tie, size)]
        )
    against = ", ".join("d12 ?" if d is None else f"d12 {d}" for d in where.opponents)
    return OddsTable(
        f"Showdown against {len(opponents)} player(s) ({against})",
        ["choice", "win", "tie for highest", "lose"],
        rows,
        note="Opponents' hidden 2d6 enumerated; a tie leads to a tie-break round (D9).",
    )


def parse_two_d6(text: str) -> int | None:
    text = text.strip()
    if text in ("", "?"):
        return None
    parts = text.split(",")
    try:
        faces = [int(p) for p in parts]
    except ValueError:
        faces = []
    if len(faces) != 2 or not all(1 <= f <= 6 for f in faces):
        raise OptionError(f"dice must be two faces 1-6 like 3,5; got {text!r}")
    return faces[0] + faces[1]


def parse_d12(text: str, name: str) -> int | None:
    text = text.strip()
    if text in ("", "?"):
        return None
    if not text.isdigit() or not 1 <= int(text) <= 12:
        raise OptionError(f"{name} must be d12 faces 1-12 (or ? if not thrown); got {text!r}")
    return int(text)


# --- the browser's odds panel ------------------------------------------------------


def advice_table(
    view: Mapping[str, Any], legal: Sequence[Mapping[str, Any]], label: Callable[[Any], str]
) -> OddsTable | None:
    """For each betting choice, the showdown chances it leads to (a white stone rerolls)."""
    if view.get("phase") != "bet" or view.get("seat") is None or not legal:
        return None
    where = position(view)
    opponents = where.opponent_totals()
    reroll = where.reroll_two_d6() if view["stage"] == 1 else where.reroll_d12()
    rows: list[list[Any]] = []
    for action in legal:
        if action["type"] == "fold":
            rows.append([label(action), Fraction(0), Fraction(0)])
            continue
        own = reroll if action.get("white", 0) > 0 else where.keep()
        win, tie, size = chances(own, opponents)
        rows.append([label(action), Fraction(win, size), Fraction(tie, size)])
    return OddsTable(
        "Your chances at the showdown",
        ["choice", "win", "tie for highest"],
        rows,
        note="Against the players still in, their hidden dice enumerated; "
        "a white stone means a reroll.",
    )
