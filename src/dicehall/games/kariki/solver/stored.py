"""Where Kariki's solved strategies live: shipped in the package, or solved once and cached.

The strategies for the default options and for `pull=at-least` ship with
dicehall (`strategies/` beside this module). Another option set is solved the
first time a solver bot needs it (minutes), or by `dicehall solve kariki -o
...`, and kept under the user's data directory
(`$XDG_DATA_HOME/dicehall/strategies`, by default `~/.local/share/...`; the
environment variable `DICEHALL_STRATEGIES` overrides the folder). The advice
never solves: `stored_strategy` only looks.

A file holds, per subgame, its infoset keys, their policy indices and the
chances as 16-bit fractions, plus the value table: `to_file` writes one from a
solution, `Strategy` reads it back, so the format is said once, here.

Naming and finding a file costs nothing: NumPy and the solver are imported
only when a strategy is loaded or solved, so a command that never asks the
solver for a decision never pays for them.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache, cached_property
from pathlib import Path
from typing import TYPE_CHECKING

from dicehall.core import Game
from dicehall.games.kariki.solver.model import CLAIMS, InfosetKey, RoundModel, Scores
from dicehall.strategy.strategy_file import StrategyFile, data_dir, load, save

if TYPE_CHECKING:
    import numpy as np

    from dicehall.games.kariki.solver.solve import Policies, Solved, Subgame
    from dicehall.strategy.tree import FloatArray

SHIPPED = Path(__file__).parent / "strategies"
ON_DEMAND_ITERATIONS = 300
"""CFR+ iterations per subgame for a strategy solved on demand (as the shipped one)."""

SOLVED_OPTIONS = ("pull", "after_kariki", "high_rollers")
"""The options that change the game solved; buy_in and slashes change no decision."""

_lock = threading.Lock()


def solved_options(game: Game) -> dict[str, object]:
    return {name: game.options[name] for name in SOLVED_OPTIONS}


def file_name(options: dict[str, object]) -> str:
    hr = "high-rollers" if options["high_rollers"] else "no-high-rollers"
    return f"kariki-2-{options['pull']}-{options['after_kariki']}-{hr}.npz"


def cache_dir() -> Path:
    return data_dir()


def strategy_for(game: Game) -> Strategy:
    """The two-seat strategy for this game's options (its seat count does not matter).

    Solves it first (minutes) if neither the package nor the cache has it.
    """
    return _strategy(tuple(sorted(solved_options(game).items())))


def stored_strategy(game: Game) -> Strategy | None:
    """The strategy if the package or the cache has it already; never solves."""
    key = tuple(sorted(solved_options(game).items()))
    return _strategy(key) if stored_path(dict(key)) is not None else None


def stored_path(options: dict[str, object]) -> Path | None:
    for folder in (SHIPPED, cache_dir()):
        path = folder / file_name(options)
        if path.exists():
            return path
    return None


@cache
def _strategy(key: tuple[tuple[str, object], ...]) -> Strategy:
    from dicehall.games.kariki.solver.solve import solve

    options = dict(key)
    name = file_name(options)
    path = stored_path(options)
    if path is not None:
        return Strategy.of_file(load(path, "kariki", 2, options))
    with _lock:  # one solve at a time, even when several bots ask at once
        path = cache_dir() / name
        if not path.exists():
            from dicehall.games import make_game

            model = RoundModel(make_game("kariki", 2, options))
            solved = solve(model, iterations=ON_DEMAND_ITERATIONS)
            meta = {"iterations": ON_DEMAND_ITERATIONS, "seconds": solved.seconds}
            save(path, to_file(model, solved, meta))
        return Strategy.of_file(load(path, "kariki", 2, options))


@cache
def round_model(key: tuple[tuple[str, object], ...]) -> RoundModel:
    """The subgame trees of an option set (about a second to build), for the advice."""
    from dicehall.games import make_game

    return RoundModel(make_game("kariki", 2, dict(key)))


# --- the file's format: written by to_file, read by Strategy -----------------------

QUANTUM = 65535
"""Action chances are stored as 16-bit fractions of this, then renormalised on loading."""


def to_file(model: RoundModel, solved: Solved, meta: Mapping[str, object]) -> StrategyFile:
    """A strategy file of a solution: per subgame its infoset keys, their policy indices and
    the chances (16-bit), plus the value table."""
    import numpy as np

    arrays: dict[str, np.ndarray] = {"values": solved.values.astype(np.float32)}
    for (thrower, p), tree in model.trees.items():
        name = f"{thrower}_{p + 1}"
        arrays[f"keys_{name}"] = np.array(tree.infoset_keys, dtype=np.int8).reshape(-1, 4)
        arrays[f"sa_{name}"] = tree.infoset_sa.astype(np.int16)
        arrays[f"policy_{name}"] = np.rint(solved.policies[thrower, p] * QUANTUM).astype(np.uint16)
    return StrategyFile("kariki", 2, solved_options(model.game), arrays, dict(meta))


@dataclass
class Strategy:
    """A loaded two-seat strategy: chances by (subgame, infoset key) at every score.

    The 16-bit chances stay as stored until asked for: a decision normalises
    one infoset's few entries, and `policies` (for best responses and advice)
    converts the whole table once.
    """

    file: StrategyFile
    scores: Scores
    values: FloatArray
    infosets: dict[Subgame, dict[InfosetKey, int]]
    starts: dict[Subgame, np.ndarray]

    @classmethod
    def of_file(cls, file: StrategyFile) -> Strategy:
        import numpy as np

        scores = Scores(bool(file.options["high_rollers"]))
        infosets: dict[Subgame, dict[InfosetKey, int]] = {}
        starts: dict[Subgame, np.ndarray] = {}
        for thrower in (0, 1):
            for p in CLAIMS:
                name = f"{thrower}_{p + 1}"
                keys = file.arrays[f"keys_{name}"].tolist()
                infosets[thrower, p] = {tuple(k): i for i, k in enumerate(keys)}
                starts[thrower, p] = file.arrays[f"sa_{name}"].astype(np.int64)
        return cls(file, scores, file.arrays["values"].astype(np.float64), infosets, starts)

    def raw(self, subgame: Subgame) -> np.ndarray:
        return self.file.arrays[f"policy_{subgame[0]}_{subgame[1] + 1}"]

    @cached_property
    def policies(self) -> Policies:
        """Every subgame's chances as floats, each infoset summing to one."""
        import numpy as np

        out: Policies = {}
        for subgame, sa in self.starts.items():
            raw = self.raw(subgame).astype(np.float64)
            counts = np.diff(sa)
            if not len(counts):
                out[subgame] = raw
                continue
            owner = np.repeat(np.arange(len(counts)), counts)
            out[subgame] = raw / np.add.reduceat(raw, sa[:-1], axis=1)[:, owner]
        return out

    def chances(self, score: int, subgame: Subgame, key: InfosetKey) -> np.ndarray:
        """The chance of each legal action, in the order of `legal_actions`."""
        import numpy as np

        i = self.infosets[subgame][key]
        sa = self.starts[subgame]
        entries = self.raw(subgame)[score, sa[i] : sa[i + 1]].astype(np.float64)
        chances: np.ndarray = entries / entries.sum()
        return chances
