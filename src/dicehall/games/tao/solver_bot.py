"""The `solver` bot: the solved two-seat Tao Dice strategy, played from a seat's view alone.

At two seats it plays the solved strategy (`strategies.py`): the antes as
solved, and at every betting decision the chances of the node it is at,
found from its view (`rounds.locate`: the position the betting round
started from, the bets so far, its own 2d6 and the d12s). It draws its
action with its own random source, so a seed makes its play reproducible.

At three to six seats no equilibrium is known, and the two-seat strategy
does not carry over even to a match's last two players: they hold the
stones of the whole table (18 to 36), more than any two-seat position (12),
and with four or more seats the bid unit grows (D11). There it plays
`reading.BetReader`: the showdown equity against each opponent's hidden
dice as the round's bets say (Bayes' rule over an equity bettor), and the
two-seat solution's plainest lesson (raise with a white stone to buy a
reroll of weak dice).
`Game.bots()` lists it first only where duels measured it stronger.

The strategy takes tens of minutes to solve and is not shipped: until
`dicehall solve tao` has stored it, the bot plays at two seats as the
heuristic bot. It never solves during a move.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import cache

import numpy as np

from dicehall.core import Action, Game, View
from dicehall.games.tao.bots import HeuristicBot
from dicehall.games.tao.reading import BetReader
from dicehall.games.tao.rounds import Decision, Dice, Positions, locate, slot_of
from dicehall.games.tao.strategies import Strategy, stored


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


class SolverBot:
    def __init__(self, game: Game, seat: int, rng: random.Random) -> None:
        self.seat = seat
        self.rng = rng
        self.strategy: Strategy | None = stored()
        # Beyond the model: at larger tables the bet reader, at two seats with nothing solved
        # yet the heuristic.
        self.heuristic = (BetReader if game.seats > 2 else HeuristicBot)(game, seat, rng)

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
        where = locate(view, positions()) if view["phase"] == "bet" else None
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
