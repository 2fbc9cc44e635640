"""The heuristic Kariki bot: a careful bar player.

It claims the truth when it can and otherwise the lowest legal rank (the
least bluff that is legal). Facing a claim it weighs three risks, each in
expected dingle berries for itself:

- pull: the chance the claim is true;
- roll higher: the chance its own blind throw cannot beat the claim (then it
  must bluff one rank up and may be pulled); over Double Sixes anything but a
  Kariki is a certain berry;
- pass: the chance the claim is a lie times the chance the next player pulls
  (likelier when the next player is the thrower, who knows).

The chance a claim is true mixes the truthful model of `odds.py` (claims the
truth, or the lowest legal rank when forced) with a player who claims any
legal rank, weighted by how honest the thrower has shown itself. Only
*unforced* claims count as evidence: a claim on a fresh roll, or above the
lowest legal rank, that a pull showed to be a lie. A forced lie (the lowest
legal claim after a blind roll higher) is what an honest player makes too.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from dicehall.core import Game, View
from dicehall.games.kariki.odds import THROWS_OF_RANK, beat_chance
from dicehall.games.kariki.rules import (
    BERRIES_OUT,
    BUY,
    CLAIM_ACTIONS,
    DECLINE,
    DOUBLE_SIXES,
    KARIKI,
    LEFT,
    PASS,
    PULL,
    RANK,
    RANK_OF_ID,
    ROLL,
)

HONESTY_PRIOR = 0.8
"""How honest a thrower is taken to be before any of its claims are pulled."""

PRIOR_WEIGHT = 1.0
"""How many pulled claims the prior is worth."""

PULL_RATE = 0.5
"""How often a player facing a bluff is expected to pull it."""

THROWER_PULL_RATE = 0.8
"""How often the thrower, who knows the dice, pulls a passed lie when it comes back."""


def _trust_table(honesty: float) -> tuple[tuple[float, ...], ...]:
    """TRUST[p + 1][c]: the chance claim c, made after claim p, is true (the mixed model)."""
    hidden = [THROWS_OF_RANK[r] / 34 for r in range(KARIKI)]  # a Kariki is never under the mug
    table = []
    for p in range(-1, DOUBLE_SIXES):
        legal = DOUBLE_SIXES - p
        row = []
        for c in range(KARIKI):
            if c <= p:
                row.append(0.0)
                continue
            forced = sum(hidden[: p + 1]) if c == p + 1 else 0.0
            true = hidden[c] * (honesty + (1 - honesty) / legal)
            made = honesty * (hidden[c] + forced) + (1 - honesty) / legal
            row.append(true / made)
        table.append(tuple(row))
    return tuple(table)


TRUST_STEPS = 20
TRUST = tuple(_trust_table(step / TRUST_STEPS) for step in range(TRUST_STEPS + 1))
"""TRUST[round(honesty * TRUST_STEPS)]: the trust tables for honesty 0, 0.05, ..., 1."""
FAIL_TO_BEAT = tuple(1.0 - float(beat_chance(c)) for c in range(KARIKI))


def next_in(view: View, seat: int) -> int:
    """The next seat still in, in the direction of play (C2), as a seat's view shows it."""
    step = 1 if view["direction"] != "right" else -1
    out = view["out"]
    n = len(out)
    seat = (seat + step) % n
    while out[seat]:
        seat = (seat + step) % n
    return seat


class HeuristicBot:
    def __init__(self, game: Game, seat: int, rng: random.Random) -> None:
        self.seat = seat
        self.rng = rng
        self.at_least = game.options["pull"] == "at-least"
        self.unforced_claims = [0] * game.seats  # pulled unforced claims, by thrower
        self.unforced_lies = [0] * game.seats
        self.last_pull: tuple[Any, ...] | None = None

    def observe(self, view: View) -> None:
        """Learn from a pull the table has shown: was an unforced claim a lie?"""
        shown = view["last_shown"]
        if shown is None or shown["how"] != "pull":
            return
        key = tuple(shown.values())
        if key == self.last_pull:
            return
        self.last_pull = key
        claim = RANK_OF_ID[shown["claim"]]
        previous = shown["previous_claim"]
        if previous is not None and claim == RANK_OF_ID[previous] + 1:
            return  # maybe forced: no evidence either way
        thrower = shown["thrower"]
        self.unforced_claims[thrower] += 1
        self.unforced_lies[thrower] += RANK_OF_ID[shown["rank"]] != claim

    def honesty(self, seat: int) -> float:
        honest = self.unforced_claims[seat] - self.unforced_lies[seat]
        return (HONESTY_PRIOR * PRIOR_WEIGHT + honest) / (PRIOR_WEIGHT + self.unforced_claims[seat])

    def choose(self, view: View, legal: Sequence[Mapping[str, Any]]) -> Mapping[str, Any]:
        self.observe(view)
        phase = view["phase"]
        if phase == "claim":
            return self._claim(view)
        if phase == "respond":
            return self._respond(view, legal)
        if phase == "emergency":
            return BUY if self._worth_buying(view) else DECLINE
        return LEFT

    def _claim(self, view: View) -> Mapping[str, Any]:
        a, b = view["your_dice"]
        rank = RANK[a][b]
        to_beat = -1 if view["claim"] is None else RANK_OF_ID[view["claim"]]
        return CLAIM_ACTIONS[rank if rank > to_beat else to_beat + 1]

    def _respond(self, view: View, legal: Sequence[Mapping[str, Any]]) -> Mapping[str, Any]:
        claim = RANK_OF_ID[view["claim"]]
        dice = view["your_dice"]
        if dice is not None:  # my own throw came back to me: I know the truth
            rank = RANK[dice[0]][dice[1]]
            holds = rank >= claim if self.at_least else rank == claim
            return PASS if holds else PULL
        previous = -1 if view["previous_claim"] is None else RANK_OF_ID[view["previous_claim"]]
        trust = TRUST[round(self.honesty(view["roller"]) * TRUST_STEPS)]
        true = trust[previous + 1][claim]
        costs: list[tuple[float, Mapping[str, Any]]] = [(true, PULL)]
        if ROLL in legal:
            fail = FAIL_TO_BEAT[claim] - 2 / 36  # a Kariki never costs the roller
            costs.append((fail if claim == DOUBLE_SIXES else fail * PULL_RATE, ROLL))
        if PASS in legal:
            nxt = next_in(view, self.seat)
            rate = THROWER_PULL_RATE if nxt == view["roller"] else PULL_RATE
            costs.append(((1.0 - true) * rate, PASS))
        return min(costs, key=lambda cost: cost[0])[1]

    def _worth_buying(self, view: View) -> bool:
        """Paying the pot doubles it: worth it only with an even chance of winning or better."""
        berries: list[int] = view["berries"]
        out: list[bool] = view["out"]
        berries_out: int = view.get("berries_out", BERRIES_OUT)
        others = sum(
            berries_out - berries[s] for s in range(len(out)) if not out[s] and s != self.seat
        )
        return 1 / (1 + others) >= 0.5
