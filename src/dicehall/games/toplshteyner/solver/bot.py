"""The Toplshteyner solver bots: the exactly solved choices (`policy.py`).

`solver` maximises the seat's chance to win, the game's object ("to be the
last man standing"; P10: the last player with lives wins the pot), with every
seat doing the same; `solver_money` maximises its expected net money instead
(lives are stakes, P1), which on a paying table can decline a fourth life
that a player out for the win would take. Both read the roller's
decision off the solved tables in constant time. With more players in than
the tables hold (`solve.exact_players`: 6 for the win, 5 for money), or
tables not solved yet (they ship for the default options up to four seats;
`dicehall solve toplshteyner` solves the rest into the cache, which takes
minutes, too long for a move), they choose as the heuristic does, and
`Game.bot_warning` says so. The tables (and NumPy) load at the first
choice that needs them, not when the bot sits down: most turns ask for none.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from dicehall.core import Action, Game, View
from dicehall.games.toplshteyner.bots import HeuristicBot
from dicehall.games.toplshteyner.rules import BUY_LIFE, DECLINE_LIFE


class SolverBot:
    objective = "win"

    def __init__(self, game: Game, seat: int, rng: random.Random) -> None:
        self.seat = seat
        self.fallback = HeuristicBot(game, seat, rng)

    def choose(self, view: View, legal: Sequence[Action]) -> Action:
        if len(legal) == 1 or view["phase"] not in ("elect", "buy"):
            return legal[0]
        from dicehall.games.toplshteyner.solver.policy import NotSolved, decision, solved

        if not solved(view, self.objective):
            return self.fallback.choose(view, legal)
        try:
            choice = decision(view, self.objective).choice
        except NotSolved:
            return self.fallback.choose(view, legal)
        if view["phase"] == "buy":
            return BUY_LIFE if choice else DECLINE_LIFE
        return next(a for a in legal if a["seat"] == choice)


class MoneySolverBot(SolverBot):
    objective = "money"
