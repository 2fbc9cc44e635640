"""Tepiiku hands as the solver sees them: 56 multisets of runes and their rerolls.

A hand's order never matters for its score (T2) nor for what a reroll can give,
so the solver works with the 56 sorted hands. `TRANSITION[h, k, h2]` is the
chance that rerolling the dice `SUBSETS[k]` of the sorted hand `HANDS[h]`
gives the sorted hand `HANDS[h2]` (T1: every face equally likely).
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

from dicehall.games.tepiiku.rules import DICE, RUNE, SCORE, SUBSETS

Hand = tuple[str, ...]

HANDS: tuple[Hand, ...] = tuple(
    sorted({tuple(sorted(str(f) for f in faces)) for faces in itertools.product(RUNE, repeat=DICE)})
)
"""The 56 sorted hands."""
COUNT = len(HANDS)
INDEX: dict[Hand, int] = {h: i for i, h in enumerate(HANDS)}
SCORES: NDArray[np.int64] = np.array([SCORE[h] for h in HANDS], dtype=np.int64)
ACTIONS = len(SUBSETS)


def hand_index(faces: Sequence[object]) -> int:
    """The index of a hand given in any order."""
    return INDEX[tuple(sorted(str(f) for f in faces))]


def _fresh() -> NDArray[np.float64]:
    counts = Counter(hand_index(f) for f in itertools.product(RUNE, repeat=DICE))
    chances: NDArray[np.float64] = np.array([counts[i] for i in range(COUNT)]) / 6**DICE
    return chances


FRESH = _fresh()
"""The chance of each sorted hand on a fresh throw of three dice."""


def _transition() -> NDArray[np.float64]:
    table = np.zeros((COUNT, ACTIONS, COUNT))
    for h, hand in enumerate(HANDS):
        for k, dice in enumerate(SUBSETS):
            kept = [hand[i] for i in range(DICE) if i not in dice]
            for faces in itertools.product(RUNE, repeat=len(dice)):
                table[h, k, hand_index(kept + [str(f) for f in faces])] += 1
            table[h, k] /= 6 ** len(dice)
    return table


TRANSITION = _transition()


def dice_in_view(faces: Sequence[str], k: int) -> tuple[int, ...]:
    """The die indices of a hand in table order that reroll what `SUBSETS[k]` rerolls of
    its sorted hand (the same runes)."""
    order = sorted(range(DICE), key=lambda i: str(faces[i]))
    return tuple(sorted(order[i] for i in SUBSETS[k]))


def action_of(faces: Sequence[str], dice: Sequence[int]) -> int:
    """The sorted-hand action that rerolls the runes of `dice` of `faces`."""
    rolled = sorted(str(faces[i]) for i in dice)
    hand = HANDS[hand_index(faces)]
    for k, sub in enumerate(SUBSETS):
        if sorted(hand[i] for i in sub) == rolled:
            return k
    raise ValueError(f"no reroll of {list(faces)} takes dice {list(dice)}")
