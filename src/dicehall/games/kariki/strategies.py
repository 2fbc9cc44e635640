"""Where Kariki's solved strategies live: shipped in the package, or solved once and cached.

The strategies for the default options and for `pull=at-least` ship with
dicehall (`strategies/` in this package). Another option set is solved the
first time a solver bot needs it (minutes), or by `dicehall solve kariki -o
...`, and kept under the user's data directory
(`$XDG_DATA_HOME/dicehall/strategies`, by default `~/.local/share/...`; the
environment variable `DICEHALL_STRATEGIES` overrides the folder). The advice
never solves: `stored_strategy` only looks.

Naming and finding a file costs nothing: NumPy and the solver are imported
only when a strategy is loaded or solved, so a command that never asks the
solver for a decision never pays for them.
"""

from __future__ import annotations

import threading
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from dicehall.core import Game
from dicehall.strategy.strategy_file import data_dir, load, save

if TYPE_CHECKING:
    from dicehall.games.kariki.rounds import RoundModel
    from dicehall.games.kariki.solver import Strategy

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
    from dicehall.games.kariki.rounds import RoundModel
    from dicehall.games.kariki.solver import Strategy, solve, to_file

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
    from dicehall.games.kariki.rounds import RoundModel

    return RoundModel(make_game("kariki", 2, dict(key)))
