"""The `solver` bot: the solved two-seat Tao Dice strategy, played from a seat's view alone.

At two seats it plays the solved strategy (`strategies.py`): the antes as
solved, and at every betting decision the chances of the node it is at,
found from its view (`rounds.locate`: the position the betting round
started from, the bets so far, its own 2d6 and the d12s). It draws its
action with its own random source, so a seed makes its play reproducible.

At three to six seats no equilibrium is known. Where a betting round is a
duel the model holds (two players in it, one stone a bid, the stones and
pot those of a two-seat match) it plays the two-seat strategy; everywhere
else it plays as the heuristic bot. docs/strategy.md has what that is worth.

The strategy takes tens of minutes to solve and is not shipped: until
`dicehall solve tao` has stored it, the bot plays as the heuristic bot
everywhere. It never solves during a move.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import cache

import numpy as np

from dicehall.core import Action, Game, View
from dicehall.games.tao.bots import HeuristicBot
from dicehall.games.tao.rounds import Decision, Dice, Positions, locate, slot_of
from dicehall.games.tao.strategies import Strategy, stored


@cache
def positions() -> Positions:
    return Positions(Dice())


def two_seat_view(view: View) -> View | None:
    """A view of a duel the two-seat model holds, as a two-seat view; None if it is not one."""
    players = view["players"]
    if len(players) == 2:
        return view
    seats = [p["seat"] for p in players if p["status"] == "in"]
    if len(seats) != 2 or view.get("m") != 1 or view["seat"] not in seats:
        return None
    if any(b["seat"] not in seats for b in view["bets"]):
        return None
    stones = sum(players[s]["black"] + players[s]["white"] for s in seats)
    pot = view["pot"]["black"] + view["pot"]["white"]
    pos = positions()
    if stones + pot != pos.black + pos.white:
        return None
    if sum(players[s]["black"] for s in seats) + view["pot"]["black"] != pos.black:
        return None
    index = {s: i for i, s in enumerate(seats)}
    opener = view["opener"]
    if opener not in index:
        return None
    return {
        **view,
        "seat": index[view["seat"]],
        "opener": index[opener],
        "players": [{**players[s], "seat": index[s]} for s in seats],
        "bets": [{**b, "seat": index[b["seat"]]} for b in view["bets"]],
    }


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


class SolverBot:
    def __init__(self, game: Game, seat: int, rng: random.Random) -> None:
        self.seat = seat
        self.rng = rng
        self.strategy: Strategy | None = stored()
        self.heuristic = HeuristicBot(game, seat, rng)

    def policy(self, view: View, legal: Sequence[Action]) -> list[float]:
        """The chance of each legal action."""
        chances = self._model_chances(view, legal)
        if chances is not None:
            return chances
        chosen = self.heuristic.choose(view, legal)
        return [1.0 if action == chosen else 0.0 for action in legal]

    def _model_chances(self, view: View, legal: Sequence[Action]) -> list[float] | None:
        if self.strategy is None:
            return None
        if view["phase"] == "ante":
            return ante_chances(self.strategy, view, legal)
        duel = two_seat_view(view) if view["phase"] == "bet" else None
        where = None if duel is None else locate(duel, positions())
        return None if where is None else betting_chances(self.strategy, where, legal)

    def choose(self, view: View, legal: Sequence[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        chances = self.policy(view, legal)
        r = self.rng.random()
        for action, chance in zip(legal, chances, strict=True):
            r -= chance
            if r < 0:
                return action
        return legal[int(np.argmax(chances))]
