"""Showdown equity for many seats at once, in whole numbers of outcomes.

`odds.equity` answers for one seat; the bet reader (`reading.py`) and the batch
simulator (`dicehall.batch.tao`) ask it for whole arrays of seats, and both need each
value equal to the engine's to the last bit, so it is one NumPy function here, kept
apart from the solver's model so that neither has to import the other.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from dicehall.games.tao.odds import totals

Ints = NDArray[np.int64]
Bools = NDArray[np.bool_]


def _ways(two_d6: int, d12: int) -> list[int]:
    """The outcomes of each total for a player whose 2d6 sum and d12 are known (0: not)."""
    return list(totals(two_d6 or None, d12 or None).ways)


WAYS = np.array([[_ways(two, d12) for d12 in range(13)] for two in range(13)], dtype=np.int64)
"""WAYS[two_d6, d12, t]: outcomes giving total t (0: that part not known), as in odds.py."""
BELOW = np.cumsum(WAYS, axis=2) - WAYS
"""BELOW[two_d6, d12, t]: outcomes with a total under t."""
UPTO = np.cumsum(WAYS, axis=2)
"""UPTO[two_d6, d12, t]: outcomes with a total of t or less."""
SIZE = WAYS.sum(axis=2)


def equity(two_d6: Ints, d12: Ints, opponents: Bools, their_d12: Ints) -> NDArray[np.float64]:
    """`odds.equity` for many seats at once: the share of the pot expected by a seat whose
    2d6 sum and d12 are `two_d6`, `d12` (0: not known), against the `opponents` (a mask
    over the seats) whose d12 are `their_d12` (0: not known). Whole numbers of outcomes,
    then the engine's float arithmetic, so each value equals the bot's to the last bit."""
    known = np.where(opponents, their_d12, 0)
    below = np.where(opponents[..., None], BELOW[0, known], 1).prod(axis=-2)
    upto = np.where(opponents[..., None], UPTO[0, known], 1).prod(axis=-2)
    own = WAYS[two_d6, d12]
    win = (own * below).sum(axis=-1)
    tie = (own * upto).sum(axis=-1) - win
    size = SIZE[two_d6, d12] * np.where(opponents, SIZE[0, known], 1).prod(axis=-1)
    share: NDArray[np.float64] = (win + tie / 2) / size
    return share
