"""How the solver bets a match's first round, as `dicehall odds tao` prints it, kept on disk.

The rows come from the solved strategy, whose file takes over a CPU second to
read, so they are kept in the table cache under a key from the strategy file
and the modules they come from. Reading them back needs neither NumPy nor the
solver: those are imported only to compute the rows on a miss.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from dicehall.core import diskcache
from dicehall.core.odds import OddsTable
from dicehall.games.tao.solver.stored import found_path

SOURCES = ("odds.py", "model.py", "policy.py", "stored.py")
"""The modules the rows come from (in this folder): a change to any of them recomputes."""


def opening_table() -> OddsTable:
    """How the solver bets stage one of a match's first round, by the sum of its 2d6."""
    where = found_path()
    if where is None:
        return OddsTable(
            "The solver's opening (not solved yet)",
            ["note"],
            [["`dicehall solve tao` solves the two-seat strategy (tens of minutes, once)"]],
            note="Until then only the showdown odds above are shown, which ignore the bets.",
            extra={"model": "none"},
        )
    here = Path(__file__).parent
    key = diskcache.source_key(where, *(here / source for source in SOURCES))
    rows = diskcache.load("tao-opening", key)
    if rows is None:
        rows = _opening_rows()
        diskcache.save("tao-opening", key, rows)
    return OddsTable(
        "The solver's stage one, first round of a match (two seats, both anted black)",
        [
            "2d6",
            "opener raises",
            "opener raises white",
            "other raises after a pass",
            "other folds to a raise",
        ],
        rows,
        note=(
            "From the solved two-seat strategy (docs/researchers/tao.md): how often it makes each "
            "bet with each sum. It raises some weak sums too, so a raise is not proof."
        ),
        extra={"model": "solver"},
    )


def _opening_rows() -> list[list[Any]]:
    from dicehall.games.tao.solver.policy import positions
    from dicehall.games.tao.solver.stored import stored

    strategy = stored()
    assert strategy is not None, "the strategy file exists"
    pos = positions()
    first = pos.index[(3, 2, 3, 2)]  # both anted a black stone
    s1 = strategy.chunk(first, first + 1)[0][:, :, 0]  # node x slot x hand
    rows: list[list[Any]] = []
    for hand in range(pos.dice.hands):
        opener, other = s1[0, :, hand], s1[1, :, hand]
        rows.append(
            [
                hand + 2,
                float(opener[1]),
                float(opener[2]),
                float(other[1] + other[2]),
                float(s1[2, 2, hand]),
            ]
        )
    return rows
