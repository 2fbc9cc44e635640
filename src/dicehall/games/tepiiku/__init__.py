"""Tepiiku, the Daumakku triangle game: three players, rune dice, the Fish pays the Hook.

The registry's Tepiiku is the rules of `rules.py` with the solver on top
(`solver.py`, its tables in `strategy.py`): the `solver` bot and the solver's
advice. The rules never import them. The solver is listed first, the
default at tables: in `dicehall duel tepiiku --bots solver,heuristic,heuristic
--games 20000 --seed 1` and both other orders of that list it wins 39.4% of
its seats (95% interval 38.8%-40.1%) against a fair share of 33.3%
(docs/strategy.md, "Tepiiku"). Where a cap's tables are not solved yet it
plays as the heuristic.
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
        return {"solver": SolverBot, "heuristic": heuristic, **bots}

    @classmethod
    def odds(cls, query: Mapping[str, str]) -> list[OddsTable]:
        """The exact chances, then the solver's Fish policy or choices (`solver_odds.py`)."""
        from dicehall.games.tepiiku.solver_odds import solver_tables

        return solver_tables(query, super().odds)

    def advice(self, view: View, legal: Sequence[Action]) -> OddsTable | None:
        from dicehall.games.tepiiku.solver_advice import advice

        return advice(view, legal)


GAME = Tepiiku

__all__ = ["GAME", "Tepiiku", "TepiikuRules"]
