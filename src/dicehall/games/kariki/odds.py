"""Exact Kariki odds: rank chances, beating a claim, and how far to trust one.

The truthful model. A *truthful player* who sees their throw under the mug
claims its rank when that is a legal claim (strictly above the claim it
follows, K4), and otherwise the lowest legal rank. A throw of Kariki is shown,
never claimed, so the claimant's throw is one of the 34 other throws, equally
likely. The chance that a claim c is true, given only that a truthful player
made it after claim p, is then

    P(rank = c) / (P(rank = c) + P(rank <= p) if c is the lowest legal rank p+1, else 0)

that is 1 for every claim on a fresh roll and for every claim above the
lowest legal one; it is below 1 only for the lowest legal claim after a roll
higher, which a forced liar would make too. Under the "at-least" pull rule
the truthful model gives the same numbers: a truthful player's claim is at
least its dice exactly when it is the truth.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from dicehall.core.odds import Cell, OddsTable
from dicehall.games.kariki.rules import (
    DOUBLE_SIXES,
    KARIKI,
    RANK,
    RANK_IDS,
    RANK_NAMES,
    RANK_OF_ID,
)

THROWS = [(a, b) for a in range(1, 7) for b in range(1, 7)]
THROWS_OF_RANK: tuple[int, ...] = tuple(
    sum(1 for a, b in THROWS if RANK[a][b] == rank) for rank in range(KARIKI + 1)
)


def rank_chance(rank: int) -> Fraction:
    """The chance that a throw of two dice has this rank."""
    return Fraction(THROWS_OF_RANK[rank], 36)


def beat_chance(claim: int) -> Fraction:
    """The chance that a throw ranks strictly above the claim (Kariki beats everything)."""
    return Fraction(sum(THROWS_OF_RANK[claim + 1 :]), 36)


def truthful_claim_chance(claim: int, previous: int = -1) -> Fraction:
    """The chance a claim is true, made by a truthful player after `previous` (-1: fresh roll)."""
    if claim <= previous or claim >= KARIKI:
        raise ValueError(f"{RANK_IDS[claim]} is not a legal claim after {previous}")
    truth = THROWS_OF_RANK[claim]
    forced = sum(THROWS_OF_RANK[: previous + 1]) if claim == previous + 1 else 0
    return Fraction(truth, truth + forced)


def odds_tables() -> list[OddsTable]:
    ranks = OddsTable(
        "Kariki ranks, best first (K2)",
        ["rank", "name", "throws", "chance", "a fresh throw beats it"],
        [
            [RANK_IDS[r], RANK_NAMES[r], THROWS_OF_RANK[r], rank_chance(r), beat_chance(r)]
            for r in range(KARIKI, -1, -1)
        ],
        note="Out of 36 equally likely throws of two dice. Over Double Sixes only a Kariki wins.",
    )
    fresh: list[Cell] = ["nothing (a fresh roll)", "any", truthful_claim_chance(DOUBLE_SIXES)]
    trust = OddsTable(
        "Chance a claim is true, if a truthful player made it",
        ["claim it followed", "lowest legal claim", "chance that claim is true"],
        [fresh]
        + [
            [RANK_IDS[p], RANK_IDS[p + 1], truthful_claim_chance(p + 1, p)]
            for p in range(DOUBLE_SIXES - 1, -1, -1)
        ],
        note=(
            "A truthful player claims the truth when it is legal, else the lowest legal rank. "
            "Any claim on a fresh roll, and any claim above the lowest legal one, is then true."
        ),
    )
    return [ranks, trust]


def advice(
    view: Mapping[str, Any], legal: Sequence[Mapping[str, Any]], at_least: bool = False
) -> OddsTable | None:
    """The chances behind the responder's choice or the roller's claims, from the view alone.

    `at_least` is the table's pull rule (K5 option): the thrower's own claim below its dice
    then holds.
    """
    claim_id = view.get("claim")
    claim = -1 if claim_id is None else RANK_OF_ID[claim_id]
    if view.get("phase") == "respond" and claim >= 0:
        dice = view.get("your_dice")
        if dice is not None:  # the thrower knows
            rank = RANK[dice[0]][dice[1]]
            true = Fraction(int(rank >= claim if at_least else rank == claim))
        else:
            previous_id = view.get("previous_claim")
            previous = -1 if previous_id is None else RANK_OF_ID[previous_id]
            true = truthful_claim_chance(claim, previous)
        meaning = {
            "roll": ("a throw beats the claim", beat_chance(claim)),
            "pull": ("the claim is a lie", 1 - true),
            "pass": ("the claim is true", true),
        }
        rows: list[list[Any]] = [
            [action["type"], meaning[action["type"]][0], meaning[action["type"]][1]]
            for action in legal
        ]
        return OddsTable(
            f"Odds on {RANK_NAMES[claim]}",
            ["action", "chance that", "chance"],
            rows,
            note="A claim's truth is per the truthful model (see dicehall odds kariki).",
        )
    if view.get("phase") == "claim" and legal:
        dice = view.get("your_dice")
        truth = -1 if dice is None else RANK[dice[0]][dice[1]]
        rows = [
            [RANK_IDS[r], RANK_NAMES[r], beat_chance(r), "yes" if r == truth else "no"]
            for r in (RANK_OF_ID[action["rank"]] for action in legal)
        ]
        return OddsTable(
            "Your claim: the chance a roll higher beats it",
            ["rank", "name", "a throw beats it", "the truth"],
            rows,
        )
    return None
