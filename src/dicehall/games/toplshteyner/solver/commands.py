"""Toplshteyner's `GameSolver`: `dicehall solve toplshteyner` and `dicehall exploitability
toplshteyner`.

`dicehall solve toplshteyner -n N` solves the tables of both solver bots
(`solver`, for the win, and `solver_money`) for N seats and the table's
options into the table cache (`stored.py`), where the bots find them: the
default options' tables up to four seats ship in the package, the rest take
seconds to minutes each. It is value iteration to a fixed tolerance, so
`--iterations` and `--target` are not used; the figure it reports is the most
a roller gains by one different choice anywhere (`Layer.epsilon`).

`dicehall exploitability toplshteyner --bot B -n N` is exact for the win
objective: one seat best-responds (`best_response.py`) while every other seat
plays B (the heuristic, or the solver's own elections), and the figure is the
most that seat gains in chance to win over B's own chance in that seat, over
the seats in throwing order (`details`). Not measured: `random` (it declines
a fourth life at random, which the sweep, taking every seat to buy, does not
model) and `solver_money` (its objective is money, not the win).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rich.console import Console

from dicehall.cluster import Runner
from dicehall.core import Game, OptionError
from dicehall.core.errors import DicehallError
from dicehall.strategy.progress import bar
from dicehall.strategy.solver import SolveReport

UNIT = "win probability"
NOTE = (
    "The most one seat gains in chance to win by a best response (its elections and "
    "buys) while every other seat plays the bot, over the seats in throwing order; win "
    "objective (P10), the table's options."
)


class ToplshteynerSolver:
    unit = UNIT
    note = NOTE

    def __init__(self, game: Game) -> None:
        self.game = game
        self.details: list[dict[str, Any]] = []

    def _options(self) -> tuple[bool, bool]:
        return bool(self.game.options["for_fun"]), bool(self.game.options["sixes_end_turn"])

    def solve(
        self,
        iterations: int | None,
        target: float | None,
        out: Path | None,
        console: Console | None,
        curve: bool = False,
        runner: Runner | None = None,
    ) -> SolveReport:
        """`iterations`, `target`, `curve` and `runner` are not used (module docstring)."""
        import time

        from dicehall.games.toplshteyner.solver.model import Model
        from dicehall.games.toplshteyner.solver.solve import Solver
        from dicehall.games.toplshteyner.solver.stored import cache_dir

        folder = out or cache_dir()
        if folder is None:
            raise DicehallError(
                "the table cache is off (DICEHALL_CACHE=off): give --out FOLDER to keep the tables"
            )
        start = time.perf_counter()
        worst, sweeps = 0.0, 0
        self.details = []
        for objective in ("win", "money"):
            engine = Solver(Model(objective, *self._options()), self.game.seats, folder)
            keys = engine.layer_keys()
            with bar(len(keys), f"Toplshteyner {objective} tables", console) as b:
                engine.solve(lambda done, total: b.advance())
            layers = [engine.layer(p, k) for p, k in keys]
            eps = max(layer.epsilon for layer in layers)
            sweeps = max(sweeps, *(layer.sweeps for layer in layers))
            self.details.append({"objective": objective, "layers": len(keys), "epsilon": eps})
            worst = max(worst, eps)
        seconds = time.perf_counter() - start
        return SolveReport(sweeps, worst, UNIT, seconds, [(sweeps, worst)], folder)

    def exploitability(
        self, bot: str, console: Console | None, runner: Runner | None = None
    ) -> float:
        factories = self.game.bots()
        if bot not in factories:
            raise OptionError(
                f"unknown bot {bot!r} for toplshteyner; its bots are: {', '.join(factories)}"
            )
        if bot not in ("solver", "heuristic"):
            raise OptionError(
                f"the exploitability of {bot!r} is not measured for toplshteyner: the best "
                "response is exact against the heuristic and the solver only (random declines "
                "lives at random; solver_money plays for money, not the win)"
            )
        from dicehall.games.toplshteyner.solver import best_response

        for_fun, sixes = self._options()
        seats = self.game.seats
        with bar(2, f"best response against {bot}", console) as b:
            if bot == "solver":
                best = best_response.start_values(
                    seats, True, "solver", for_fun=for_fun, sixes_end_turn=sixes
                )
                b.advance()
                own = best_response.solver_start_values(
                    seats, for_fun=for_fun, sixes_end_turn=sixes
                )
            else:
                best = best_response.start_values(
                    seats, True, for_fun=for_fun, sixes_end_turn=sixes
                )
                b.advance()
                own = best_response.start_values(
                    seats, False, for_fun=for_fun, sixes_end_turn=sixes
                )
            b.advance()
        self.details = [
            {"seat": i + 1, "best_response": x, "bot": y, "gain": x - y}
            for i, (x, y) in enumerate(zip(best, own, strict=True))
        ]
        return max(0.0, *(x - y for x, y in zip(best, own, strict=True)))
