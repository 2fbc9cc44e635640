"""Toplshteyner: make your point before a seven; the last player with lives wins the pot.

The registry's Toplshteyner is the rules of `rules.py` with the exact solver
on top (`solver.py`): the `solver` bots and the solver's advice. The rules
never import them. `solver` plays for the win (the game's object, P10) and
`solver_money` for money. The heuristic stays listed first, the default at
tables: it makes the solver's choice in most decisions (where not, it gives
away 0.3-1.7 points of the roller's chance to win, at most 0.2 points of a
seat's wins a game; `benchmarks/toplshteyner_decisions.py`), so 20,000-game
duels prove the solver stronger at six seats only (docs/strategy.md).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from dicehall.core import Action, View
from dicehall.core.bots import BotFactory
from dicehall.core.odds import OddsTable
from dicehall.games.toplshteyner.rules import Toplshteyner as ToplshteynerRules


class Toplshteyner(ToplshteynerRules):
    def bots(self) -> Mapping[str, BotFactory]:
        from dicehall.games.toplshteyner.solver_bot import MoneySolverBot, SolverBot

        bots = dict(super().bots())
        heuristic = bots.pop("heuristic")
        return {"heuristic": heuristic, "solver": SolverBot, "solver_money": MoneySolverBot, **bots}

    def advice(self, view: View, legal: Sequence[Action]) -> OddsTable | None:
        from dicehall.games.toplshteyner.solver_advice import decision_advice

        return decision_advice(self, view, legal)


GAME = Toplshteyner

__all__ = ["GAME", "Toplshteyner", "ToplshteynerRules"]
