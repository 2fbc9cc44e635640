"""Tao Dice's `GameSolver`: `dicehall solve tao` and `dicehall exploitability tao`.

Two seats only. `--iterations N` runs four sweeps of CFR+ over every betting
round (10, 20, ... up to N iterations each, 80 by default, the values
recomputed exactly after each), fewer if the values move by less than 1e-6;
`--target EPS` solves with the default N and doubles it until the
exploitability is below EPS (at most twice more: each solve takes tens of
minutes). Exploitability is in the chance of winning a single match for
length=single and of winning the game for length=token.
"""

from __future__ import annotations

import os
from pathlib import Path

from rich.console import Console

from dicehall.cluster import Runner
from dicehall.core import Game, OptionError
from dicehall.games.tao.solver import stored as strategies
from dicehall.games.tao.solver.solve import Exploitability, Model, Policy, exploitability, solve
from dicehall.strategy.progress import bar
from dicehall.strategy.solver import SolveReport

MEASURED_LENGTHS = ("single", "token")
RESEARCH = ("tiebreaks", "hidden_faces", "shown_faces", "black_stones", "white_stones")
"""Research variants the solver's model does not cover (docs/researchers/environments.md)."""


def game_default(name: str) -> object:
    from dicehall.games.tao.rules import TaoDice

    return next(o.default for o in TaoDice.declared_options if o.name == name)


class TaoSolver:
    unit = "win probability"

    def __init__(self, game: Game) -> None:
        if game.seats != 2:
            raise OptionError(
                f"Tao Dice is solved for two seats (its equilibrium); got --seats {game.seats}"
            )
        varied = [f"{k}={game.options[k]}" for k in RESEARCH if game.options[k] != game_default(k)]
        if varied:
            raise OptionError(
                "Tao Dice is solved with the real dice and stones and unbounded tie-breaks (D9); "
                "got the "
                f"research variant {', '.join(varied)}: OpenSpiel's solvers walk it "
                "(docs/researchers/tao.md)"
            )
        if game.options["length"] not in MEASURED_LENGTHS:
            raise OptionError(
                "Tao Dice's exploitability is measured for length=single and length=token; "
                f"got length={game.options['length']}"
            )
        self.game = game
        self._model: Model | None = None

    @property
    def model(self) -> Model:
        if self._model is None:
            self._model = Model()
        return self._model

    def _figure(self, e: Exploitability) -> float:
        return e.match if self.game.options["length"] == "single" else e.token

    def _measure(self, policy: Policy, console: Console | None) -> Exploitability:
        n = len(self.model)
        with bar(2 * n * 4, "exact best responses", console) as progress:
            return exploitability(self.model, policy, lambda done, total: progress.advance(16))

    def solve(
        self,
        iterations: int | None,
        target: float | None,
        out: Path | None,
        console: Console | None,
        curve: bool = False,
        runner: Runner | None = None,
    ) -> SolveReport:
        """`runner` (`--ray`) is not used: the sweeps run here, in batches of positions
        shared out among as many processes as the machine has cores."""
        path = out or strategies.path()
        n = len(self.model)
        its = iterations or strategies.ITERATIONS
        history: list[tuple[int, float]] = []
        seconds = 0.0
        for _ in range(3):
            sweeps = n * strategies.SWEEPS  # the bar moves a chunk of positions at a time
            with bar(sweeps, f"CFR+ sweeps up to {its} iterations", console) as b:
                solved = solve(
                    self.model, iterations=its, per_sweep=strategies.PER_SWEEP,
                    max_sweeps=strategies.SWEEPS,
                    tick=lambda what, done, total: b.advance(16) if what else None,
                    workers=os.cpu_count() or 1,
                )  # fmt: skip
            seconds += solved.seconds
            meta = {"iterations": solved.iterations, "sweeps": solved.sweeps,
                    "change": solved.change, "seconds": solved.seconds}  # fmt: skip
            stored = strategies.save_solved(solved, path, meta)
            eps = self._figure(self._measure(stored.policy, console))
            history.append((solved.iterations, eps))
            if target is None or eps <= target:
                break
            its *= 2
        return SolveReport(solved.iterations, eps, self.unit, seconds, history, path)

    def exploitability(
        self, bot: str, console: Console | None, runner: Runner | None = None
    ) -> float:
        factories = self.game.bots()
        if bot not in factories:
            raise OptionError(f"unknown bot {bot!r} for tao; its bots are: {', '.join(factories)}")
        if bot == "solver":
            found = strategies.stored()
            if found is None:
                raise OptionError("no solved Tao Dice strategy yet: run `dicehall solve tao`")
            policy = found.policy
        else:
            from dicehall.games.tao.solver.bot_policies import bot_policy

            if console is not None:
                console.print(f"asking {bot} at every information state ...")
            policy = bot_policy(self.model, bot, self.game)
        return self._figure(self._measure(policy, console))
