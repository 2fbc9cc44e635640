"""Tepiiku, the Daumakku triangle game: three players, rune dice, the Fish pays the Hook.

The registry's Tepiiku is the rules of `rules.py` with what they do not know
wired on top: the encoding for learners, the terminal rendering, the bots
(`bots.py`, and the solver's: `solver/`, its tables in `solver/stored.py`),
the exact odds and the solver's advice. The rules never import them, and these
methods import them only when asked, so that a table sits down without NumPy.

The solver is listed first, the default at tables: in `dicehall duel tepiiku
--bots solver,heuristic,heuristic --games 20000 --seed 1` and both other orders
of that list it wins 39.4% of its seats (95% interval 38.8%-40.1%) against a
fair share of 33.3% (docs/researchers/tepiiku.md, "Tepiiku"). Its tables ship in the
package; should one be missing it plays as the heuristic there, is listed after it, and
`bot_warning` says so.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from dicehall.core import Action, View
from dicehall.core.bots import BotFactory
from dicehall.core.encoding import Encoding
from dicehall.core.odds import OddsTable
from dicehall.games.tepiiku.rules import Tepiiku as TepiikuRules

if TYPE_CHECKING:
    from dicehall.core.guide import Guide
    from dicehall.strategy.solver import GameSolver


class Tepiiku(TepiikuRules):
    def make_encoding(self) -> Encoding:
        from dicehall.games.tepiiku.encoding import encoding

        return encoding(self)

    def bots(self) -> Mapping[str, BotFactory]:
        from dicehall.core.bots import RandomBot
        from dicehall.games.tepiiku.bots import HeuristicBot
        from dicehall.games.tepiiku.solver.bot import SolverBot

        others: dict[str, BotFactory] = {"heuristic": HeuristicBot, "random": RandomBot}
        if self.bot_warning("solver") is None:
            return {"solver": SolverBot, **others}
        return {**others, "solver": SolverBot}

    def bot_warning(self, name: str) -> str | None:
        if name != "solver":
            return None
        from dicehall.games.tepiiku.solver.stored import CAPS, found_file

        missing = [cap for cap in CAPS if found_file(cap) is None]
        if not missing:
            return None
        return (
            f"the Tepiiku solver's tables for {', '.join(map(str, missing))} coins are missing "
            "(they ship in the package: is the install damaged?): at those coins the solver bot "
            "plays as the heuristic; `dicehall solve tepiiku` solves them again (minutes)"
        )

    def render(self, view: View, names: Sequence[str]) -> Any:
        from dicehall.games.tepiiku.render import render_view

        return render_view(view, names)

    @classmethod
    def odds(cls, query: Mapping[str, str]) -> list[OddsTable]:
        """The exact chances (`odds.py`), then the solver's Fish policy or choices
        (`solver/odds.py`)."""
        from dicehall.games.tepiiku.odds import odds_tables
        from dicehall.games.tepiiku.solver.odds import solver_tables

        return solver_tables(query, odds_tables)

    def advice(self, view: View, legal: Sequence[Action]) -> OddsTable | None:
        from dicehall.games.tepiiku.solver.advice import advice

        return advice(view, legal)

    def solver(self) -> GameSolver:
        from dicehall.games.tepiiku.solver.commands import TepiikuSolver

        return TepiikuSolver(self)

    @classmethod
    def guide(cls) -> Guide:
        from dicehall.games.tepiiku.guide import GUIDE

        return GUIDE


GAME = Tepiiku

__all__ = ["GAME", "Tepiiku", "TepiikuRules"]
