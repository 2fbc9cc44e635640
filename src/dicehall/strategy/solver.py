"""What a game offers `dicehall solve` and `dicehall exploitability`: its `Game.solver()`.

A game that can be solved returns a `GameSolver` from `Game.solver()`; the
commands know nothing else about it. Kariki's is in
`dicehall.games.kariki.solver.commands`; it decomposes the game exactly into
subgames the engine solves (docs/researchers/index.md).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from rich.console import Console

from dicehall.cluster import Runner


@dataclass
class SolveReport:
    """What `dicehall solve` reports: how far it went, how exploitable the result is, and
    where it was saved."""

    iterations: int
    """CFR+ iterations (per subgame, for a decomposed game: the most any took)."""
    exploitability: float
    """NashConv / 2 of the strategy found, exactly, from the game's start."""
    unit: str
    seconds: float
    history: list[tuple[int, float]] = field(default_factory=list)
    """(iterations, exploitability) measured along the way, for the plot."""
    saved: Path | None = None
    """Where the strategy was written."""


class GameSolver(Protocol):
    """What a game offers `dicehall solve` and `dicehall exploitability` (from
    `Game.solver()`), so that the commands need know no game."""

    unit: str
    """What exploitability is measured in ("win probability", "chips")."""

    def solve(
        self,
        iterations: int | None,
        target: float | None,
        out: Path | None,
        console: Console | None,
        curve: bool = False,
        runner: Runner | None = None,
    ) -> SolveReport:
        """Solve to a number of iterations or a target exploitability; save to `out`
        (None: where the game's bots look for it).

        With `curve`, also measure exploitability at a doubling series of
        iterations (for `--plot`). `runner` runs the work's chunks (`--ray`:
        `dicehall.cluster`); the result is the same whichever runs them.
        """
        ...

    def exploitability(
        self, bot: str, console: Console | None, runner: Runner | None = None
    ) -> float:
        """The exact exploitability of a bot's policy (the bot's name among `Game.bots()`)."""
        ...


def plot(history: list[tuple[int, float]], unit: str, path: Path, title: str) -> None:
    """Exploitability against iterations, log-log, as a PNG (needs matplotlib)."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        from dicehall.core import DicehallError

        raise DicehallError(
            "--plot needs matplotlib: pip install 'dicehall[plot]' (or matplotlib)"
        ) from None
    xs, ys = zip(*history, strict=True)
    fig, ax = plt.subplots(figsize=(6, 4))
    ax.loglog(xs, ys, marker="o")
    ax.set_xlabel("CFR+ iterations")
    ax.set_ylabel(f"exploitability ({unit})")
    ax.set_title(title)
    ax.grid(True, which="both", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
