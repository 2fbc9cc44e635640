"""The compiled loops' choices (Numba): a seat's uniform choice, or the caller's once.

Imported by the loops alone (`compiled`): importing it imports Numba.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from dicehall.batch.base import Ints


@njit(cache=True, inline="always")
def choose(rng: np.random.Generator, chosen: Ints, count: int) -> int:
    """The index of a uniform choice among `count` legal actions, or the outside seat's
    choice `chosen[0]` if one is waiting (then taken: -1)."""
    index: int = chosen[0]
    if index < 0:
        return int(rng.random() * count)
    chosen[0] = -1
    return index
