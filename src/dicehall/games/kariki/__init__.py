"""Kariki (rulings K1-K10): two dice under a mug, claims, pulls and dingle berries.

The registry's Kariki is the rules of `rules.py` with what the strategy
engine adds on top: the `solver` bot (the strongest, so listed first) and the
solver's advice. The rules themselves never import either.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from dicehall.core import View
from dicehall.core.bots import BotFactory
from dicehall.core.odds import OddsTable
from dicehall.games.kariki.rules import Kariki as KarikiRules

if TYPE_CHECKING:
    from dicehall.strategy.solver import GameSolver


class Kariki(KarikiRules):
    def bots(self) -> Mapping[str, BotFactory]:
        from dicehall.games.kariki.solver_bot import SolverBot

        return {"solver": SolverBot, **super().bots()}

    def advice(self, view: View, legal: Sequence[Mapping[str, Any]]) -> OddsTable | None:
        from dicehall.games.kariki.solver_advice import advice

        return advice(self, view, legal)

    def solver(self) -> GameSolver:
        from dicehall.games.kariki.solving import KarikiSolver

        return KarikiSolver(self)

    @classmethod
    def odds(cls, query: Mapping[str, str]) -> list[OddsTable]:
        """The ranks' chances, and the solver's claims on a fresh roll with their truth."""
        from dicehall.games.kariki.posterior import posterior_table

        ranks = super().odds(query)[0]
        return [ranks, posterior_table(cls())]


GAME = Kariki

__all__ = ["GAME", "Kariki", "KarikiRules"]
