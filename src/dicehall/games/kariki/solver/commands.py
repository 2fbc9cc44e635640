"""Kariki's `GameSolver`: `dicehall solve kariki` and `dicehall exploitability kariki`.

`solve` is for two seats only: the equilibrium is of the two-seat game.
`exploitability` at three seats and more is one seat's exact best response
against the bot at every other seat (`best_response.py`), per seat position
(`table_response`). `--iterations N`
runs N CFR+ iterations in every subgame; `--target EPS` solves every
subgame to a fraction of EPS and then measures the whole game's
exploitability, tightening the subgames until it is below EPS.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from rich.console import Console

from dicehall.cluster import Local, Runner
from dicehall.core import Game, OptionError
from dicehall.core.bots import BotFactory
from dicehall.games.kariki.solver.model import RoundModel
from dicehall.games.kariki.solver.solve import (
    Policies,
    Solved,
    backward_of,
    bot_policies,
    exploitability,
    solve,
    subgame_count,
)
from dicehall.games.kariki.solver.stored import (
    Strategy,
    cache_dir,
    file_name,
    solved_options,
    to_file,
)
from dicehall.strategy.progress import bar
from dicehall.strategy.solver import SolveReport
from dicehall.strategy.strategy_file import StrategyFile, save

if TYPE_CHECKING:
    from dicehall.games.kariki.solver.best_response import TableResponse

UNIT = "win probability"
CURVE_START = 25


class KarikiSolver:
    unit = UNIT

    def __init__(self, game: Game) -> None:
        self.game = game
        self.runner: Runner = Local()

    def _two_seats(self) -> None:
        if self.game.seats != 2:
            raise OptionError(
                f"Kariki is solved for two seats (its equilibrium); got --seats {self.game.seats}"
            )

    def table_response(self, bot: str, console: Console | None) -> TableResponse:
        """At three seats or more: the best responder's chance of winning against `bot`
        at every other seat, per seat position (exact; minutes at four seats)."""
        from dicehall.games.kariki.solver.best_response import TableModel, table_best_response

        factory = self._factory(bot)
        model = TableModel(self.game)
        total = sum(1 for _ in model.trees) * len(model.scores.levels())
        with bar(total, f"best response to {self.game.seats - 1} x {bot}", console) as progress:
            result, _ = table_best_response(
                model, bot, factory, tick=lambda done: progress.advance(1)
            )
        return result

    def _factory(self, bot: str) -> BotFactory:
        factories = self.game.bots()
        if bot not in factories:
            raise OptionError(
                f"unknown bot {bot!r} for kariki; its bots are: {', '.join(factories)}"
            )
        return factories[bot]

    @property
    def model(self) -> RoundModel:
        return backward_of(self.game).model

    def _solve(
        self, iterations: int | None, target: float | None, console: Console | None
    ) -> Solved:
        subgames = subgame_count() * len(self.model.scores.levels())
        what = f"CFR+ {iterations} iterations" if iterations else f"CFR+ to {target:.1e}"
        with bar(subgames, what, console) as progress:
            return solve(
                self.model,
                iterations=iterations,
                target=target,
                tick=lambda key, its, eps: progress.advance(1, eps),
                runner=self.runner,
            )

    def _measure(self, policies: Policies, console: Console | None) -> float:
        with bar(2, "exact best responses", console) as progress:
            result = exploitability(
                self.model, policies, None, lambda seat: progress.advance(), self.runner
            )
        return result.exploitability

    def solve(
        self,
        iterations: int | None,
        target: float | None,
        out: Path | None,
        console: Console | None,
        curve: bool = False,
        runner: Runner | None = None,
    ) -> SolveReport:
        self._two_seats()
        self.runner = runner or Local()
        history: list[tuple[int, float]] = []
        if curve:
            top = iterations or 400
            n = CURVE_START
            while n < top:
                solved = self._solve(n, None, console)
                history.append((n, self._measure(self._stored(solved), console)))
                n *= 2
        seconds = 0.0
        if iterations is not None:
            solved = self._solve(iterations, None, console)
            seconds = solved.seconds
            eps = self._measure(self._stored(solved), console)
        else:
            assert target is not None
            per_subgame = target / 4
            for _ in range(4):
                solved = self._solve(None, per_subgame, console)
                seconds += solved.seconds
                eps = self._measure(self._stored(solved), console)
                if eps <= target:
                    break
                per_subgame /= 4
        most = max(solved.iterations.values())
        history.append((most, eps))
        # Without --out the strategy goes to the cache, where the bot and the advice find it.
        path = out or cache_dir() / file_name(solved_options(self.game))
        save(path, self._file(solved, eps))
        return SolveReport(most, eps, UNIT, seconds, sorted(history), path)

    def _file(self, solved: Solved, eps: float) -> StrategyFile:
        meta = {
            "iterations": max(solved.iterations.values()),
            "exploitability": eps,
            "unit": UNIT,
            "seconds": solved.seconds,
        }
        return to_file(self.model, solved, meta)

    def _stored(self, solved: Solved) -> Policies:
        """The policies as a strategy file holds them (16-bit chances): what the bot plays."""
        return Strategy.of_file(self._file(solved, float("nan"))).policies

    def exploitability(
        self, bot: str, console: Console | None, runner: Runner | None = None
    ) -> float:
        if self.game.seats > 2:
            return self.table_response(bot, console).gain
        self.runner = runner or Local()
        factory = self._factory(bot)
        with bar(len(self.model.trees), f"asking {bot} at every score", console) as progress:
            policies = bot_policies(self.model, factory, lambda _: progress.advance(), self.runner)
        with bar(2, "exact best responses", console) as progress:
            result = exploitability(
                self.model, policies, factory, lambda seat: progress.advance(), self.runner
            )
        return result.exploitability
