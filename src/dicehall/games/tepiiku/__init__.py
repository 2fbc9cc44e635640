"""Tepiiku, the Daumakku triangle game: three players, rune dice, the Fish pays the Hook.

The registry's Tepiiku is the rules of `rules.py` with the solver on top
(`solver.py`, its tables in `strategy.py`): the `solver` bot and the solver's
advice. The rules never import them. The heuristic stays listed first, the
default at tables, until the solver beats it in a duel with its interval
clear of the fair share (docs/strategy.md, "Tepiiku").
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from dicehall.core import Action, View
from dicehall.core.bots import BotFactory
from dicehall.core.odds import OddsTable
from dicehall.games.tepiiku.rules import Tepiiku as TepiikuRules


class Tepiiku(TepiikuRules):
    def bots(self) -> Mapping[str, BotFactory]:
        from dicehall.games.tepiiku.solver_bot import SolverBot

        bots = dict(super().bots())
        heuristic = bots.pop("heuristic")
        return {"heuristic": heuristic, "solver": SolverBot, **bots}

    def advice(self, view: View, legal: Sequence[Action]) -> OddsTable | None:
        from dicehall.games.tepiiku.solver_advice import advice

        return advice(view, legal)


GAME = Tepiiku

__all__ = ["GAME", "Tepiiku", "TepiikuRules"]
