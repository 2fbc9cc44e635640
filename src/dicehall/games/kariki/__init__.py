"""Kariki (rulings K1-K10): two dice under a mug, claims, pulls and dingle berries.

The registry's Kariki is the rules of `rules.py` with what the rest of this
package adds on top: the hand-written bots (`bots.py`) and the `solver` bot
(the strongest, so listed first), the encoding for learners, the terminal
rendering, the exact odds and the solver's advice, and `dicehall solve` /
`exploitability`. The rules themselves import none of them, so each is
imported here, inside the method that needs it: a command pays only for what
it uses.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from dicehall.core import View
from dicehall.core.bots import BotFactory
from dicehall.core.encoding import Encoding
from dicehall.core.game import no_odds_parameters
from dicehall.core.odds import OddsTable
from dicehall.games.kariki.rules import Kariki as KarikiRules

if TYPE_CHECKING:
    from dicehall.core.guide import Guide
    from dicehall.strategy.solver import GameSolver


class Kariki(KarikiRules):
    def make_encoding(self) -> Encoding:
        from dicehall.games.kariki.encoding import encoding

        return encoding(self)

    def bots(self) -> Mapping[str, BotFactory]:
        from dicehall.core.bots import RandomBot
        from dicehall.games.kariki.bots import HeuristicBot
        from dicehall.games.kariki.solver.bot import SolverBot
        from dicehall.games.kariki.solver.table_bot import TableBot
        from dicehall.games.kariki.solver.table_stored import scored_applies

        # The strongest first: the solver, which plays the table bot's scored policies with
        # four seats in or fewer; for options they are not solved for, the table bot at
        # three and four seats, whose exact best response gains far less there, and at
        # five or more the table bot last, as it loses duels to the heuristic there
        # (docs/researchers/kariki.md).
        if self.seats in (3, 4) and not scored_applies(self):
            return {
                "table": TableBot,
                "solver": SolverBot,
                "heuristic": HeuristicBot,
                "random": RandomBot,
            }
        if self.seats <= 4:
            return {
                "solver": SolverBot,
                "table": TableBot,
                "heuristic": HeuristicBot,
                "random": RandomBot,
            }
        return {
            "solver": SolverBot,
            "heuristic": HeuristicBot,
            "table": TableBot,
            "random": RandomBot,
        }

    def bot_warning(self, name: str) -> str | None:
        if name != "solver":
            return None
        from dicehall.games.kariki.solver.stored import solved_options, stored_path
        from dicehall.games.kariki.solver.table_stored import scored_applies

        notes = []
        options = solved_options(self)
        if stored_path(options) is None:
            notes.append(
                "Kariki's solver has no strategy for these options yet ("
                + ", ".join(f"{k}={v}" for k, v in options.items())
                + "): it solves one at its first decision (minutes; `dicehall solve kariki` "
                "with these options does it ahead)"
            )
        if self.seats > 2 and not scored_applies(self):
            notes.append(
                f"no equilibrium is known at {self.seats} seats and the table policies per "
                "score are solved for the default options only: with these, the solver bot "
                "claims as the two-seat strategy does and answers as the heuristic does; the "
                "table bot is stronger at three and four seats (docs/researchers/kariki.md)"
            )
        return "; ".join(notes) or None

    def render(self, view: View, names: Sequence[str]) -> Any:
        from dicehall.games.kariki.render import render_view

        return render_view(view, names)

    def action_label(self, action: Mapping[str, Any]) -> str:
        from dicehall.games.kariki.render import action_label

        return action_label(action)

    def advice(self, view: View, legal: Sequence[Mapping[str, Any]]) -> OddsTable | None:
        """The solver's advice; the truthful model's (`odds.advice`) while these options
        have no solved strategy."""
        from dicehall.games.kariki.solver.advice import advice

        return advice(self, view, legal)

    def solver(self) -> GameSolver:
        from dicehall.games.kariki.solver.commands import KarikiSolver

        return KarikiSolver(self)

    @classmethod
    def odds(cls, query: Mapping[str, str]) -> list[OddsTable]:
        """The ranks' chances, and the solver's claims on a fresh roll with their truth."""
        from dicehall.games.kariki.odds import odds_tables
        from dicehall.games.kariki.solver.odds import posterior_table

        no_odds_parameters(cls.id, query)
        ranks = odds_tables()[0]
        return [ranks, posterior_table(cls())]

    @classmethod
    def guide(cls) -> Guide:
        from dicehall.games.kariki.guide import GUIDE

        return GUIDE


GAME = Kariki

__all__ = ["GAME", "Kariki", "KarikiRules"]
