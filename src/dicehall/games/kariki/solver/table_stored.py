"""The table strategy (`table_solve.py`) on disk: shipped for the default options (the bot
solves others on demand, `table_bot.table_for`).

The file is a strategy file (`strategy/strategy_file.py`: JSON header, options,
SHA-256 checksum over the arrays) holding, per seat count k = 3..10, the
decision keys (k, p, kind, claim, passes, rank) as a (M, 6) int8 array, where
each decision's chances start in a flat array, and the chances as 16-bit
fractions; and per number of seats in k in `SCORED_SEATS`, the policy per
score (`table_scored.py`): its decision keys (p, kind, claim, passes, rank)
as "scored{k}_keys", their starts as "scored{k}_starts" and a (5**k, actions)
array of 16-bit chances, "scored{k}_chances", one row per score. The shipped
file's own SHA-256 is recorded here too (`SHIPPED_SHA256`) and checked before
it is read: the figures measured in docs/researchers/kariki.md are for exactly
those bytes.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
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
"""CFR+ iterations per subgame and score of the scored policies (shipped only)."""
SHIPPED_OPTIONS = {"pull": "exact", "after_kariki": "roller"}
SHIPPED_NAME = "kariki-table-exact-roller.npz"
SHIPPED_SHA256 = "4f99a6b19835a66a578ac60fd590f6710268a137eb5a6a9d1b2359696c98232e"
"""The shipped file's SHA-256 (`strategy_file.file_sha256`), set when it is written."""

SCORED_SEATS = (3, 4)
"""The numbers of seats in that a scored policy (`table_scored.py`) covers, each solved
with the one below it (or the two-seat strategy) valuing a seat's going out."""
BERRIES = 5
"""Berries that put a seat out (K7): a seat in holds 0-4."""


def n_scores(seats_in: int) -> int:
    """The scores of `seats_in` seats in: 0-4 berries each."""
    return int(BERRIES**seats_in)


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


def shipped_tables() -> dict[int, Table]:
    """The shipped round policies by seats in, for `SHIPPED_OPTIONS` (none if not shipped)."""
    if not (SHIPPED / SHIPPED_NAME).exists():
        return {}
    with _lock:
        return _shipped()


@cache
def _shipped_file() -> StrategyFile:
    """The shipped file, its bytes checked once (3 MB: the round and scored policies are
    all read from this one copy)."""
    path = SHIPPED / SHIPPED_NAME
    check_shipped(path, SHIPPED_SHA256)
    return _load(path)


def _load(path: Path) -> StrategyFile:
    return load(path, "kariki", max(SEAT_COUNTS), SHIPPED_OPTIONS)


@cache
def _shipped() -> dict[int, Table]:
    return _tables(_shipped_file())


@dataclass(frozen=True)
class ScoredTable:
    """The policy per score of one number of seats in: a decision's chances at a score's row."""

    index: dict[TableKey, int]
    starts: np.ndarray
    chances: np.ndarray
    """(5**seats in, actions) 16-bit fractions, a row per score (`score_index`)."""

    def policy(self, row: int, key: TableKey) -> list[float]:
        i = self.index[key]
        values = [float(c) for c in self.chances[row, self.starts[i] : self.starts[i + 1]]]
        total = sum(values)
        return [v / total for v in values] if total > 0 else [1.0 / len(values)] * len(values)


def scored_for(game: Game, seats_in: int) -> ScoredTable | None:
    """The policy per score with `seats_in` seats in, shipped for the default options only
    (it takes minutes to solve); None for other options or other numbers of seats in, where
    the round policy plays."""
    if seats_in not in SCORED_SEATS or not scored_applies(game):
        return None
    with _lock:
        return _shipped_scored(seats_in)


def scored_applies(game: Game) -> bool:
    """Whether the shipped scored policies are for this game's options (without reading
    them): its values are solved for the defaults (five berries, crowns, slashes, the buy-in)."""
    defaults = all(game.options[o.name] == o.default for o in game.declared_options)
    return defaults and (SHIPPED / SHIPPED_NAME).exists()


@cache
def _shipped_scored(seats_in: int) -> ScoredTable | None:
    return _scored(_shipped_file(), seats_in)


def read_scored(path: Path, seats_in: int) -> ScoredTable | None:
    """A table file's policy per score with `seats_in` seats in, if it holds one."""
    return _scored(_load(path), seats_in)


def _scored(stored: StrategyFile, seats_in: int) -> ScoredTable | None:
    name = f"scored{seats_in}"
    if f"{name}_keys" not in stored.arrays:
        return None
    keys = stored.arrays[f"{name}_keys"].tolist()
    return ScoredTable(
        {tuple(k): i for i, k in enumerate(keys)},
        stored.arrays[f"{name}_starts"].astype("int64"),
        stored.arrays[f"{name}_chances"],
    )


def read(path: Path) -> dict[int, Table]:
    """A table file's policies by seat count, verified against its checksum and options."""
    return _tables(_load(path))


def _tables(stored: StrategyFile) -> dict[int, Table]:
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
    scored: Sequence[ScoredSolution] = (),
) -> None:
    """Write the policies of several seat counts (and the scored ones) as one strategy file."""
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
    for by_score in scored:
        name = f"scored{by_score.seats}"
        arrays[f"{name}_keys"] = np.array(by_score.keys, dtype=np.int8)
        arrays[f"{name}_starts"] = np.array(by_score.starts, dtype=np.int32)
        arrays[f"{name}_chances"] = np.round(by_score.chances * 65535).astype(np.uint16)
    stored = StrategyFile(
        game="kariki",
        seats=max(SEAT_COUNTS),
        options=dict(options),
        arrays=arrays,
        meta={
            "what": "round-game self-play policy per seats in (table_solve.py)",
            "seat_counts": [s.seats for s in solutions],
            "iterations": ITERATIONS,
            "scored_seats": [s.seats for s in scored],
            "scored_iterations": SCORED_ITERATIONS if scored else 0,
            "keys": "seats in, claim to beat, kind, claim, passes, rank",
        },
    )
    save(path, stored)
