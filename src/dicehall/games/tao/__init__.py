"""Tao Dice (rulings D1-D12): bet stones on hidden 2d6 and a public d12; white stones buy rerolls.

The registry's Tao Dice is the rules of `rules.py` with everything the rules
do not need wired on top: the bots (`bots.py`, and the `solver` bot), the
encoding for learners (`encoding.py`), the terminal rendering and action
labels, the odds and advice (`odds.py`, and the solver's), and the strategy
engine's `dicehall solve tao` and `dicehall exploitability tao` (two seats,
docs/researchers/tao.md; `solver/`). The rules themselves never import any of them,
and these are imported only when asked for, so a command starts without them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from dicehall.core import Action, View
from dicehall.core.bots import BotFactory
from dicehall.core.odds import OddsTable
from dicehall.games.tao.rules import TaoDice as TaoRules

if TYPE_CHECKING:
    from dicehall.core.encoding import Encoding
    from dicehall.core.guide import Guide
    from dicehall.strategy.solver import GameSolver

SOLVER_FIRST = frozenset(range(2, 7))
"""Seat counts where the solver bot is measured stronger than the heuristic.

See docs/researchers/tao.md.
"""


class TaoDice(TaoRules):
    def make_encoding(self) -> Encoding:
        from dicehall.games.tao.encoding import encoding

        return encoding(self)

    def bots(self) -> Mapping[str, BotFactory]:
        from dicehall.core.bots import RandomBot
        from dicehall.games.tao.bots import HeuristicBot
        from dicehall.games.tao.solver.bot import SolverBot

        if self.small_dice():  # research variant: only the random bot plays such dice
            return {"random": RandomBot, "heuristic": HeuristicBot, "solver": SolverBot}
        others: dict[str, BotFactory] = {"heuristic": HeuristicBot, "random": RandomBot}
        # at three seats or more the solver plays the bet reader, measured the strongest
        # there though not an equilibrium (its warning says so); at two, only with its strategy
        if self.seats in SOLVER_FIRST and (self.seats > 2 or self.bot_warning("solver") is None):
            return {"solver": SolverBot, **others}
        return {**others, "solver": SolverBot}

    def bot_warning(self, name: str) -> str | None:
        if name != "solver":
            return None
        if int(self.options["tiebreaks"]) >= 0 and not self.small_dice():
            return (
                "Tao Dice's solver plays the strategy solved with unbounded tie-breaks (D9), "
                f"not an equilibrium of tiebreaks={self.options['tiebreaks']}"
            )
        if self.seats > 2:
            return (
                f"Tao Dice's solver has no equilibrium at {self.seats} seats: it plays the bet "
                "reader (Bayes over the bets, the two-seat strategy's lesson on white stones), "
                "not a solved strategy (docs/researchers/tao.md)"
            )
        from dicehall.games.tao.solver.stored import found_path

        if found_path() is None:
            return (
                "Tao Dice's two-seat strategy is missing (it ships in the package: is the "
                "install damaged?): the solver bot plays as the heuristic; `dicehall solve tao` "
                "solves it again (tens of minutes)"
            )
        return None

    def render(self, view: View, names: Sequence[str]) -> Any:
        from dicehall.games.tao.render import render

        return render(view, names)

    def action_label(self, action: Action) -> str:
        kind = action.get("type")
        if kind in ("ante", "raise", "call"):
            white = action.get("white", 0)
            if not white:
                return f"{kind}, no white"
            reroll = "" if kind == "ante" else ": reroll"
            return f"{kind}, {white} white{reroll}"
        return str(kind)

    def advice(self, view: View, legal: Sequence[Action]) -> OddsTable | None:
        """The solver's chances where it has a strategy, else the showdown odds' advice;
        none with the research variants' small dice, which the odds do not reckon with."""
        from dicehall.games.tao.solver.advice import advice

        if self.small_dice():
            return None
        return advice(self, view, legal)

    @classmethod
    def odds(cls, query: Mapping[str, str]) -> list[OddsTable]:
        """The showdown odds, and (with no query) how the solver bets its first round."""
        from dicehall.games.tao.odds import odds_tables
        from dicehall.games.tao.solver.odds import opening_table

        tables = odds_tables(query)
        return tables if query else [*tables, opening_table()]

    def solver(self) -> GameSolver:
        from dicehall.games.tao.solver.commands import TaoSolver

        return TaoSolver(self)

    @classmethod
    def guide(cls) -> Guide:
        from dicehall.games.tao.guide import GUIDE

        return GUIDE


GAME = TaoDice

__all__ = ["GAME", "TaoDice", "TaoRules"]
