"""Where the Tepiiku solver's tables of a cap are kept: the caps and the cache file, without NumPy.

Kept apart from `strategy.py` (which solves, reads and writes the arrays) so
that `dicehall odds tepiiku` can check its query, find whether a cap is solved
and key its cached rows by the tables' file without importing NumPy and the
solver.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from dicehall.core import diskcache

CAPS = (1, 2, 4, 8, 20)
"""The caps solved: a seat's coins are modelled as the largest of these it holds."""
MAX_CAP = CAPS[-1]
SOURCES = ("strategy.py", "solver.py", "equilibria.py", "hands.py", "rules.py")
"""The modules the tables come from (in this package): a change to any of them solves again."""


@cache
def source_key() -> str:
    here = Path(__file__).parent
    return diskcache.source_key(*(here / source for source in SOURCES))[:12]


def cache_file(cap: int) -> Path | None:
    folder = diskcache.cache_dir()
    if folder is None:
        return None
    return folder / "tepiiku" / f"cap{cap}-{source_key()}.npz"
