"""The compiled loops' draws (Numba): a seat's uniform choice, or the caller's once; a
roll-off's round.

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


@njit(cache=True, inline="always")
def roll_off(  # type: ignore[no-untyped-def]
    rng, i, faces, contenders, steps, roller, phase, counts, then, tie
):
    """C5, one round in game `i`: a die for each contender, who become those tied for
    highest, each die a step. A sole winner rolls first, in phase `then`; else the tie is
    counted (event column `tie`). `faces` is room for the dice."""
    for s in range(faces.size):
        faces[s] = 0
        if contenders[i, s]:
            steps[i] += 1
            faces[s] = 1 + int(rng.random() * 6)
    best = faces.max()
    tied, first = 0, -1
    for s in range(faces.size):
        contenders[i, s] = faces[s] == best
        if contenders[i, s]:
            tied += 1
            first = s if first < 0 else first
    if tied == 1:
        roller[i] = first
        phase[i] = then
    else:
        counts[i, tie] += 1
