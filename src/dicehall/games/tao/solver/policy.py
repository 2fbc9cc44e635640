"""The stored two-seat strategy's chances at a seat's view: the antes and every betting decision.

The solver bot and the solver's advice both read the strategy here. This module
brings NumPy and the round model with it, so the bot imports it only at its
first two-seat decision.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from dicehall.core import Action, View
from dicehall.games.tao.solver.model import Decision, Dice, Positions, locate, slot_of
from dicehall.games.tao.solver.stored import Strategy


@cache
def positions() -> Positions:
    return Positions(Dice())


def ante_chances(strategy: Strategy, view: View, legal: Sequence[Action]) -> list[float] | None:
    """The solved antes (D2): O picks its colour, X picks knowing O's."""
    if len(view["players"]) != 2:
        return None
    pos = positions()
    o = view["opener"]
    me = view["seat"]
    pot = view["pot"]
    players = view["players"]
    pre = pos.pre_index.get(
        (players[o]["black"] + pot["black"], players[o]["white"] + pot["white"])
    )
    if pre is None:
        return None
    row = strategy.ante_o[pre] if me == o else strategy.ante_x[pre, int(pot["white"])]
    chances = [float(row[int(a["white"])]) if int(a["white"]) < 2 else 0.0 for a in legal]
    total = sum(chances)
    return [c / total for c in chances] if total > 0 else None


def betting_chances(strategy: Strategy, where: Decision, legal: Sequence[Action]) -> list[float]:
    """The stored chances of the legal actions at a decision (8-bit, renormalised)."""
    if where.stage == 1:
        raw = strategy.stage1[where.node, :, where.position, where.hand]
    else:
        raw = strategy.stage2[where.node, :, where.position, where.end, where.pair, where.hand]
    chances = [float(raw[slot_of(a)]) for a in legal]
    total = sum(chances)
    return [c / total for c in chances] if total > 0 else [1 / len(legal)] * len(legal)


def model_chances(strategy: Strategy, view: View, legal: Sequence[Action]) -> list[float] | None:
    """The strategy's chances of the legal actions, or None where the model does not hold."""
    if view["phase"] == "ante":
        return ante_chances(strategy, view, legal)
    where = locate(view, positions()) if view["phase"] == "bet" else None
    return None if where is None else betting_chances(strategy, where, legal)
