"""Tao Dice (rulings D1-D12): bet stones on hidden 2d6 and a public d12; white stones buy rerolls.

The registry's Tao Dice is the rules of `rules.py` with what the strategy
engine adds on top: the `solver` bot, `dicehall solve tao` and
`dicehall exploitability tao` (two seats, docs/strategy.md), and the
solver's advice. The rules themselves never import any of them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from dicehall.core import View
from dicehall.core.bots import BotFactory
from dicehall.core.odds import OddsTable
from dicehall.games.tao.rules import TaoDice as TaoRules

if TYPE_CHECKING:
    from dicehall.strategy.solver import GameSolver

SOLVER_FIRST = frozenset(range(2, 7))
"""Seat counts where the solver bot is measured stronger than the heuristic (docs/strategy.md)."""


class TaoDice(TaoRules):
    def bots(self) -> Mapping[str, BotFactory]:
        from dicehall.games.tao.solver_bot import SolverBot

        others = dict(super().bots())
        if self.seats in SOLVER_FIRST:
            return {"solver": SolverBot, **others}
        return {**others, "solver": SolverBot}

    def advice(self, view: View, legal: Sequence[Mapping[str, Any]]) -> OddsTable | None:
        from dicehall.games.tao.solver_advice import advice

        return advice(self, view, legal)

    @classmethod
    def odds(cls, query: Mapping[str, str]) -> list[OddsTable]:
        """The showdown odds, and (with no query) how the solver bets its first round."""
        from dicehall.games.tao.opening import opening_table

        tables = super().odds(query)
        return tables if query else [*tables, opening_table()]

    def solver(self) -> GameSolver:
        from dicehall.games.tao.solving import TaoSolver

        return TaoSolver(self)


GAME = TaoDice

__all__ = ["GAME", "TaoDice", "TaoRules"]
