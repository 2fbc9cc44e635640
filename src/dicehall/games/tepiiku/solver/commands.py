"""Tepiiku's `GameSolver`: `dicehall solve tepiiku` and `dicehall exploitability tepiiku`.

`dicehall solve tepiiku` solves every cap's tables (`stored.CAPS`; minutes in
all, with a progress bar) into the table cache, or with `--out FOLDER` into
that folder under the names the package ships them by. The round after the
thumbs is solved exactly, so `--iterations N` sets only the regret-matching
iterations of the thumbs (`solve.THUMBS_ITERATIONS` by default) and
`--target` is not used.

Exploitability is in coins a round, at each cap (`details`), and the figure
returned is the largest over the caps. What is exact here is the thumbs (T5):
the NashConv of the bot's thumbs, everyone playing the solved round after them
(the sum over the three seats of what a best-responding seat gains). For the
solver the most a tied seat gains by rerolling otherwise in a T6 tie is added;
every other decision after the thumbs is solved exactly and gains nothing.
For the heuristic and random bots the figure measures their thumbs only: their
own Fish and reroll choices are not measured (that needs a best response over
the whole round against them, which no module computes).
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from rich.console import Console

from dicehall.cluster import Runner
from dicehall.core import Game, OptionError
from dicehall.core.errors import DicehallError
from dicehall.games.tepiiku.solver import solve as solving
from dicehall.games.tepiiku.solver import stored
from dicehall.strategy.progress import bar
from dicehall.strategy.solver import SolveReport

UNIT = "coins a round"
NOTE = (
    "NashConv of the bot's thumbs (T5), every seat playing the solved round after them, "
    "in coins a round at each cap; for the solver plus the most a tied seat gains in a T6 "
    "tie. The heuristic's and random's own choices after the thumbs are not measured."
)


def figure(tables: stored.Tables, bot: str) -> float:
    """The exploitability of a bot at one cap (see the module's docstring)."""
    if bot == "solver":
        return tables.thumbs_nash_conv + tables.tie_epsilon
    if bot == "heuristic":
        return tables.heuristic_nash_conv
    return tables.random_nash_conv


class TepiikuSolver:
    unit = UNIT
    note = NOTE

    def __init__(self, game: Game) -> None:
        self.game = game
        self.details: list[dict[str, Any]] = []

    def solve(
        self,
        iterations: int | None,
        target: float | None,
        out: Path | None,
        console: Console | None,
        curve: bool = False,
        runner: Runner | None = None,
    ) -> SolveReport:
        """`target`, `curve` and `runner` are not used: see the module's docstring."""
        if out is None and stored.cache_file(stored.CAPS[0]) is None:
            raise DicehallError(
                "the table cache is off (DICEHALL_CACHE=off): give --out FOLDER to keep the tables"
            )
        its = iterations or solving.THUMBS_ITERATIONS
        seconds, worst, saved = 0.0, 0.0, None
        self.details = []
        for cap in stored.CAPS:
            with bar(solving.tables_steps(cap), f"Tepiiku, cap {cap} coins", console) as b:
                start = time.perf_counter()
                tables = solving.solve_tables(cap, b.advance, its)
                seconds += time.perf_counter() - start
            path = None if out is None else out / stored.shipped_file(cap).name
            saved = stored.save(tables, path)
            if saved is None:
                raise DicehallError(f"could not write the tables of cap {cap}")
            worst = max(worst, figure(tables, "solver"))
            self.details.append(self._row(tables, "solver"))
        folder = None if saved is None else saved.parent
        return SolveReport(its, worst, UNIT, seconds, [(its, worst)], folder)

    def _row(self, tables: stored.Tables, bot: str) -> dict[str, Any]:
        row: dict[str, Any] = {"cap": tables.cap, "exploitability": figure(tables, bot)}
        if bot == "solver":
            row["thumbs_nash_conv"] = tables.thumbs_nash_conv
            row["tie_gain"] = tables.tie_epsilon
        return row

    def exploitability(
        self, bot: str, console: Console | None, runner: Runner | None = None
    ) -> float:
        factories = self.game.bots()
        if bot not in factories:
            raise OptionError(
                f"unknown bot {bot!r} for tepiiku; its bots are: {', '.join(factories)}"
            )
        self.details = []
        worst = 0.0
        with bar(len(stored.CAPS), f"reading {bot}'s figures at every cap", console) as b:
            for cap in stored.CAPS:
                try:
                    tables = stored.tables(cap)
                except stored.NotSolved as e:
                    raise DicehallError(str(e)) from None
                self.details.append(self._row(tables, bot))
                worst = max(worst, figure(tables, bot))
                b.advance()
        return worst
