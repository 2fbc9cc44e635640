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
legal rank, so a claim far above what was needed after a roll higher, or an
unusual claim on a fresh roll, is trusted less than the pure model would.
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

HONEST_SHARE = 0.6
"""The weight of the truthful model against a claimant who claims at random."""

PULL_RATE = 0.5
"""How often a player facing a bluff is expected to pull it."""

THROWER_PULL_RATE = 0.8
"""How often the thrower, who knows the dice, pulls a passed lie when it comes back."""


def _trust_table() -> tuple[tuple[float, ...], ...]:
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
            honest_made = hidden[c] + forced
            true = hidden[c] * (HONEST_SHARE + (1 - HONEST_SHARE) / legal)
            made = HONEST_SHARE * honest_made + (1 - HONEST_SHARE) / legal
            row.append(true / made)
        table.append(tuple(row))
    return tuple(table)


TRUST = _trust_table()
FAIL_TO_BEAT = tuple(1.0 - float(beat_chance(c)) for c in range(KARIKI))


class HeuristicBot:
    def __init__(self, game: Game, seat: int, rng: random.Random) -> None:
        self.seat = seat
        self.rng = rng
        self.at_least = game.options["pull"] == "at-least"

    def choose(self, view: View, legal: Sequence[Mapping[str, Any]]) -> Mapping[str, Any]:
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
        true = TRUST[previous + 1][claim]
        costs: list[tuple[float, Mapping[str, Any]]] = [(true, PULL)]
        if ROLL in legal:
            fail = FAIL_TO_BEAT[claim] - 2 / 36  # a Kariki never costs the roller
            costs.append((fail if claim == DOUBLE_SIXES else fail * PULL_RATE, ROLL))
        if PASS in legal:
            nxt = self._next_in(view, self.seat)
            rate = THROWER_PULL_RATE if nxt == view["roller"] else PULL_RATE
            costs.append(((1.0 - true) * rate, PASS))
        return min(costs, key=lambda cost: cost[0])[1]

    def _worth_buying(self, view: View) -> bool:
        """Paying the pot doubles it: worth it only with an even chance of winning or better."""
        berries: list[int] = view["berries"]
        out: list[bool] = view["out"]
        others = sum(
            BERRIES_OUT - berries[s] for s in range(len(out)) if not out[s] and s != self.seat
        )
        return 1 / (1 + others) >= 0.5

    @staticmethod
    def _next_in(view: View, seat: int) -> int:
        step = 1 if view["direction"] == "left" else -1
        out = view["out"]
        n = len(out)
        seat = (seat + step) % n
        while out[seat]:
            seat = (seat + step) % n
        return seat
