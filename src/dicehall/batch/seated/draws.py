"""The compiled loops' draws (Numba): a seat's uniform choice, or the caller's once; a
roll-off's round.

Imported by the loops alone (`compiled`): importing it imports Numba.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from dicehall.batch.base import Bools, Ints


@njit(cache=True, inline="always")
def choose(rng: np.random.Generator, chosen: Ints, count: int) -> int:
    """The index of a uniform choice among `count` legal actions, or the outside seat's
    choice `chosen[0]` if one is waiting (then taken: -1)."""
    index: int = chosen[0]
    if index < 0:
        return int(rng.random() * count)
    chosen[0] = -1
    return index


@njit(cache=True, inline="always")
def roll_off(rng: np.random.Generator, contenders: Bools, faces: Ints) -> tuple[int, int]:
    """C5, one round: a die for each of a game's `contenders`, who become those tied for
    highest. The winner (-1 while tied) and the dice thrown. `faces` is room for them."""
    thrown = 0
    for s in range(contenders.size):
        faces[s] = 0
        if contenders[s]:
            thrown += 1
            faces[s] = 1 + int(rng.random() * 6)
    best = faces.max()
    tied, first = 0, -1
    for s in range(contenders.size):
        contenders[s] = faces[s] == best
        if contenders[s]:
            tied += 1
            first = s if first < 0 else first
    return (first if tied == 1 else -1), thrown
