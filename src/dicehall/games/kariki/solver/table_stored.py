"""The table strategy (`table_solve.py`) on disk: shipped for the default options, else
solved on demand (seconds per seat count) and kept in memory.

The file is a strategy file (`strategy/strategy_file.py`: JSON header, options,
SHA-256 checksum over the arrays) holding, per seat count k = 3..10, the
decision keys (k, p, kind, claim, passes, rank) as a (M, 6) int8 array, where
each decision's chances start in a flat array, and the chances as 16-bit
fractions. The shipped file's own SHA-256 is recorded here too
(`SHIPPED_SHA256`) and checked before it is read: the figures measured in
docs/researchers/kariki.md are for exactly those bytes.
"""

from __future__ import annotations

import threading
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from dicehall.core import Game
from dicehall.strategy.strategy_file import StrategyFile, check_shipped, load, save

if TYPE_CHECKING:
    from dicehall.games.kariki.solver.table_solve import RoundSolution, TableKey

SHIPPED = Path(__file__).parent / "strategies"
TABLE_OPTIONS = ("pull", "after_kariki")
"""The options that change the round game (emergency berries and stakes do not)."""
SEAT_COUNTS = range(3, 11)
ITERATIONS = 100
"""CFR+ iterations per subgame, shipped and on demand."""
SHIPPED_OPTIONS = {"pull": "exact", "after_kariki": "roller"}
SHIPPED_NAME = "kariki-table-exact-roller.npz"
SHIPPED_SHA256 = "4feccbe0291e6cf51842bc2eb54ddc55e79080e9b9864c62f3b381b641ec43c2"
"""The shipped file's SHA-256 (`strategy_file.file_sha256`), set when it is written."""

Table = dict["TableKey", tuple[float, ...]]
_lock = threading.Lock()


def table_options(game: Game) -> dict[str, object]:
    return {name: game.options[name] for name in TABLE_OPTIONS}


def table_for(game: Game, seats_in: int) -> Table:
    """The policy of the round game with `seats_in` seats in, for this game's options."""
    key = tuple(sorted(table_options(game).items()))
    with _lock:
        return _table(type(game), key, seats_in)


@cache
def _table(kind: type[Game], options: tuple[tuple[str, object], ...], seats_in: int) -> Table:
    if dict(options) == SHIPPED_OPTIONS and (SHIPPED / SHIPPED_NAME).exists():
        return _shipped()[seats_in]
    from dicehall.games.kariki.solver.table_solve import solve_round

    return solve_round(kind(seats_in, dict(options)), ITERATIONS).policy


@cache
def _shipped() -> dict[int, Table]:
    path = SHIPPED / SHIPPED_NAME
    check_shipped(path, SHIPPED_SHA256)
    return read(path)


def read(path: Path) -> dict[int, Table]:
    """A table file's policies by seat count, verified against its checksum and options."""
    stored = load(path, "kariki", max(SEAT_COUNTS), SHIPPED_OPTIONS)
    keys, starts, chances = (stored.arrays[n] for n in ("keys", "starts", "chances"))
    out: dict[int, Table] = {}
    for i, row in enumerate(keys.tolist()):
        lo, hi = int(starts[i]), int(starts[i + 1])
        values = [float(c) / 65535 for c in chances[lo:hi]]
        total = sum(values)
        out.setdefault(row[0], {})[tuple(row[1:])] = tuple(v / total for v in values)
    return out


def write(path: Path, solutions: list[RoundSolution], options: dict[str, object]) -> None:
    """Write the policies of several seat counts as one strategy file."""
    import numpy as np

    keys: list[tuple[int, ...]] = []
    starts = [0]
    chances: list[int] = []
    for solution in solutions:
        for key, policy in sorted(solution.policy.items()):
            keys.append((solution.seats, *key))
            chances += [round(c * 65535) for c in policy]
            starts.append(len(chances))
    stored = StrategyFile(
        game="kariki",
        seats=max(SEAT_COUNTS),
        options=dict(options),
        arrays={
            "keys": np.array(keys, dtype=np.int8),
            "starts": np.array(starts, dtype=np.int32),
            "chances": np.array(chances, dtype=np.uint16),
        },
        meta={
            "what": "round-game self-play policy per seats in (table_solve.py)",
            "seat_counts": [s.seats for s in solutions],
            "iterations": ITERATIONS,
            "keys": "seats in, claim to beat, kind, claim, passes, rank",
        },
    )
    save(path, stored)
