"""Toplshteyner: make your point before a seven; the last player with lives wins the pot.

The registry's Toplshteyner is the rules of `rules.py` with everything else
on top: the bots, the learners' encoding, the terminal's rendering and the
actions' words, the odds, and the exact solver (`solver/`): the `solver`
bots and the solver's advice. The rules never import them. `solver` plays
for the win (the game's object, P10) and `solver_money` for money. The
heuristic stays listed first, the default at tables: it makes the solver's
choice in most decisions (where not, it gives away 0.3-1.7 points of the
roller's chance to win, at most 0.2 points of a seat's wins a game;
`benchmarks/toplshteyner_decisions.py`), so 20,000-game duels prove the
solver stronger at six seats only (docs/researchers/toplshteyner.md).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from dicehall.core import Action, View
from dicehall.core.bots import BotFactory
from dicehall.core.encoding import Encoding
from dicehall.core.odds import OddsTable
from dicehall.games.toplshteyner.rules import Toplshteyner as ToplshteynerRules

if TYPE_CHECKING:
    from dicehall.core.guide import Guide
    from dicehall.strategy.solver import GameSolver


class Toplshteyner(ToplshteynerRules):
    def make_encoding(self) -> Encoding:
        from dicehall.games.toplshteyner.encoding import encoding

        return encoding(self)

    def bots(self) -> Mapping[str, BotFactory]:
        from dicehall.core.bots import RandomBot
        from dicehall.games.toplshteyner.bots import HeuristicBot
        from dicehall.games.toplshteyner.solver.bot import MoneySolverBot, SolverBot

        return {
            "heuristic": HeuristicBot,
            "solver": SolverBot,
            "solver_money": MoneySolverBot,
            "random": RandomBot,
        }

    def solver(self) -> GameSolver:
        from dicehall.games.toplshteyner.solver.commands import ToplshteynerSolver

        return ToplshteynerSolver(self)

    def bot_warning(self, name: str) -> str | None:
        if name not in ("solver", "solver_money"):
            return None
        from dicehall.games.toplshteyner.solver.policy import solver
        from dicehall.games.toplshteyner.solver.solve import exact_players

        objective = "win" if name == "solver" else "money"
        options = self.options
        notes = []
        engine = solver(objective, bool(options["for_fun"]), bool(options["sixes_end_turn"]),
                        self.seats)  # fmt: skip
        if not engine.ready():
            notes.append(
                f"Toplshteyner's {name} has no tables for {self.seats} seats with these options "
                f"yet: it plays as the heuristic (`dicehall solve toplshteyner -n {self.seats}` "
                "with these options solves them, minutes)"
            )
        if self.seats > exact_players(objective):
            notes.append(
                f"its tables hold at most {exact_players(objective)} players in: with more in, "
                f"{name} plays as the heuristic"
            )
        return "; ".join(notes) or None

    def render(self, view: View, names: Sequence[str]) -> Any:
        from dicehall.games.toplshteyner.render import render_view

        return render_view(view, names)

    def action_label(self, action: Action) -> str:
        kind = action.get("type")
        if kind == "elect":
            return f"elect seat {action.get('seat')} to lose a life"
        if kind == "buy":
            return "buy a fourth life for one stake"
        if kind == "decline":
            return "keep three lives"
        return super().action_label(action)

    @classmethod
    def odds(cls, query: Mapping[str, str]) -> list[OddsTable]:
        from dicehall.games.toplshteyner.solver.odds import odds_tables

        return odds_tables(query)

    def advice(self, view: View, legal: Sequence[Action]) -> OddsTable | None:
        from dicehall.games.toplshteyner.solver.advice import decision_advice

        return decision_advice(self, view, legal)

    @classmethod
    def guide(cls) -> Guide:
        from dicehall.games.toplshteyner.guide import GUIDE

        return GUIDE


GAME = Toplshteyner

__all__ = ["GAME", "Toplshteyner", "ToplshteynerRules"]
