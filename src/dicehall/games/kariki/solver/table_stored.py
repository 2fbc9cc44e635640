"""The table strategy (`table_solve.py`) on disk: shipped for the default options, else
solved on demand (seconds per seat count) and kept in memory.

The file is a strategy file (`strategy/strategy_file.py`: JSON header, options,
SHA-256 checksum over the arrays) holding, per seat count k = 3..10, the
decision keys (k, p, kind, claim, passes, rank) as a (M, 6) int8 array, where
each decision's chances start in a flat array, and the chances as 16-bit
fractions; and the three-seats-in policy per score (`table_scored.py`): its
decision keys (p, kind, claim, passes, rank) as "scored_keys", their starts
as "scored_starts" and a (125, actions) array of 16-bit chances, one row per
score. The shipped file's own SHA-256 is recorded here too
(`SHIPPED_SHA256`) and checked before it is read: the figures measured in
docs/researchers/kariki.md are for exactly those bytes.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from dicehall.core import Game
from dicehall.strategy.strategy_file import StrategyFile, check_shipped, load, save

if TYPE_CHECKING:
    import numpy as np

    from dicehall.games.kariki.solver.table_scored import ScoredSolution
    from dicehall.games.kariki.solver.table_solve import RoundSolution, TableKey

SHIPPED = Path(__file__).parent / "strategies"
TABLE_OPTIONS = ("pull", "after_kariki")
"""The options that change the round game (emergency berries and stakes do not)."""
SEAT_COUNTS = range(3, 11)
ITERATIONS = 100
"""CFR+ iterations per subgame, shipped and on demand."""
SCORED_ITERATIONS = 1000
"""CFR+ iterations per subgame and score of the three-seats-in policy (shipped only)."""
SHIPPED_OPTIONS = {"pull": "exact", "after_kariki": "roller"}
SHIPPED_NAME = "kariki-table-exact-roller.npz"
SHIPPED_SHA256 = "dfee51565b1270729fa07a0bd8576f1a2b7e9e562c7b4d371991da9ad781e8df"
"""The shipped file's SHA-256 (`strategy_file.file_sha256`), set when it is written."""

SEATS_IN = 3
"""The number of seats in that the scored policy (`table_scored.py`) covers."""
BERRIES = 5
"""Berries that put a seat out (K7): a seat in holds 0-4."""
N_SCORES = BERRIES**SEATS_IN


def score_index(berries: tuple[int, ...]) -> int:
    """A score's row in the scored policy: the berries of the seats in, from the thrower in
    the direction of play, read as base-5 digits, the thrower's first."""
    index = 0
    for b in berries:
        index = index * BERRIES + b
    return index


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


@dataclass(frozen=True)
class ScoredTable:
    """The three-seats-in policy per score: a decision's chances at a score's row."""

    index: dict[TableKey, int]
    starts: np.ndarray
    chances: np.ndarray
    """(125, actions) 16-bit fractions, a row per score (`table_scored.score_index`)."""

    def policy(self, row: int, key: TableKey) -> list[float]:
        i = self.index[key]
        values = [float(c) for c in self.chances[row, self.starts[i] : self.starts[i + 1]]]
        total = sum(values)
        return [v / total for v in values] if total > 0 else [1.0 / len(values)] * len(values)


def scored_for(game: Game) -> ScoredTable | None:
    """The three-seats-in policy per score, shipped for the default options only (it takes
    minutes to solve); None for other options, where the round policy plays."""
    defaults = all(game.options[o.name] == o.default for o in game.declared_options)
    if not defaults or not (SHIPPED / SHIPPED_NAME).exists():
        return None  # its values are solved for five berries, crowns, slashes, the buy-in
    with _lock:
        return _shipped_scored()


@cache
def _shipped_scored() -> ScoredTable | None:
    path = SHIPPED / SHIPPED_NAME
    check_shipped(path, SHIPPED_SHA256)
    return read_scored(path)


def read_scored(path: Path) -> ScoredTable | None:
    """A table file's three-seats-in policy per score, if it holds one."""
    stored = load(path, "kariki", max(SEAT_COUNTS), SHIPPED_OPTIONS)
    if "scored_keys" not in stored.arrays:
        return None
    keys = stored.arrays["scored_keys"].tolist()
    return ScoredTable(
        {tuple(k): i for i, k in enumerate(keys)},
        stored.arrays["scored_starts"].astype("int64"),
        stored.arrays["scored_chances"],
    )


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


def write(
    path: Path,
    solutions: list[RoundSolution],
    options: dict[str, object],
    scored: ScoredSolution | None = None,
) -> None:
    """Write the policies of several seat counts (and the scored one) as one strategy file."""
    import numpy as np

    keys: list[tuple[int, ...]] = []
    starts = [0]
    chances: list[int] = []
    for solution in solutions:
        for key, policy in sorted(solution.policy.items()):
            keys.append((solution.seats, *key))
            chances += [round(c * 65535) for c in policy]
            starts.append(len(chances))
    arrays: dict[str, np.ndarray] = {
        "keys": np.array(keys, dtype=np.int8),
        "starts": np.array(starts, dtype=np.int32),
        "chances": np.array(chances, dtype=np.uint16),
    }
    if scored is not None:
        arrays["scored_keys"] = np.array(scored.keys, dtype=np.int8)
        arrays["scored_starts"] = np.array(scored.starts, dtype=np.int32)
        arrays["scored_chances"] = np.round(scored.chances * 65535).astype(np.uint16)
    stored = StrategyFile(
        game="kariki",
        seats=max(SEAT_COUNTS),
        options=dict(options),
        arrays=arrays,
        meta={
            "what": "round-game self-play policy per seats in (table_solve.py)",
            "seat_counts": [s.seats for s in solutions],
            "iterations": ITERATIONS,
            "scored_iterations": SCORED_ITERATIONS if scored is not None else 0,
            "keys": "seats in, claim to beat, kind, claim, passes, rank",
        },
    )
    save(path, stored)
