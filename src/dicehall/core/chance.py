"""Dice, throws and the sources that decide them.

A chance step is one throw: the dice thrown together, in die order. Its
outcome is the tuple of faces. Every die is fair (C1), so the probability of
an outcome is 1 / (product of the die sizes); solvers enumerate outcomes with
`outcomes`, tables draw them from a `DiceSource`, and tests script them.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import itertools
import random
from collections.abc import Callable, Iterator, Sequence
from fractions import Fraction
from typing import Protocol

from dicehall.core.errors import ChanceError

Face = int | str
Die = tuple[Face, ...]
"""A die as its faces in order: numbers, or words for Tepiiku's runes (one type for every game)."""
Throw = tuple[Die, ...]
"""The dice thrown together in one chance step, in die order: a throw's faces follow this order."""
Faces = tuple[Face, ...]
"""What one throw showed, a face per die in die order: all a chance step records, so a
replay needs no random source."""

D6: Die = (1, 2, 3, 4, 5, 6)
"""The six-sided die, shared by the games that throw one."""
D12: Die = tuple(range(1, 13))
"""The twelve-sided die of Tao Dice."""


def throw_size(dice: Throw) -> int:
    """Number of equally likely outcomes of a throw."""
    n = 1
    for die in dice:
        n *= len(die)
    return n


def outcomes(dice: Throw) -> Iterator[tuple[Faces, Fraction]]:
    """Every outcome of a throw with its exact probability."""
    p = Fraction(1, throw_size(dice))
    for faces in itertools.product(*dice):
        yield faces, p


FACE_TABLE_LIMIT = 4096
"""Throws with at most this many outcomes are drawn with one random number (`random_faces`)."""


@functools.lru_cache(maxsize=256)
def face_table(dice: Throw) -> tuple[Faces, ...] | None:
    """Every outcome of a small throw, equally likely (C1); None for a large one."""
    return tuple(itertools.product(*dice)) if throw_size(dice) <= FACE_TABLE_LIMIT else None


_TABLES_BY_ID: dict[int, tuple[Throw, tuple[Faces, ...] | None]] = {}
"""`face_table` of the throws the games hand out, by the throw's identity: hashing a throw
(a tuple of tuples of faces) costs more than drawing from it. Each entry holds its
throw, so no other object can take its id while it is here."""
TABLES_BY_ID_LIMIT = 256


def random_faces(dice: Throw, rand: Callable[[], float]) -> Faces:
    """A fair outcome of a throw from `rand` (uniform on [0, 1)), valid by construction.

    The fast path's dice: a small throw costs one random number and one index
    into its cached outcomes, a large one a random number per die. Games hand
    out the same few throw objects (module constants), found here by identity.
    """
    entry = _TABLES_BY_ID.get(id(dice))
    if entry is None:
        entry = (dice, face_table(dice))
        if len(_TABLES_BY_ID) < TABLES_BY_ID_LIMIT:
            _TABLES_BY_ID[id(dice)] = entry
    table = entry[1]
    if table is not None:
        return table[int(rand() * len(table))]
    return tuple([die[int(rand() * len(die))] for die in dice])


def check_faces(dice: Throw, faces: object) -> Faces:
    """Validate faces (e.g. from a transcript) against the dice; return them as a tuple.

    Cheap for the usual case, a tuple of valid faces, since every chance step
    of every playout passes through here.
    """
    if type(faces) is not tuple:
        if isinstance(faces, (str, bytes)) or not isinstance(faces, Sequence):
            raise ChanceError(f"a throw's outcome is a list of faces, got {faces!r}")
        faces = tuple(faces)
    if len(faces) != len(dice):
        raise ChanceError(f"this throw has {len(dice)} dice, got {len(faces)} faces: {list(faces)}")
    for i, die in enumerate(dice):
        face = faces[i]
        # faces are ints or strings: a lookalike (True, 2.0) compares equal but is refused
        if (face.__class__ is not int and face.__class__ is not str) or face not in die:
            raise ChanceError(f"die {i} has faces {list(die)}, got {face!r}")
    return faces


class DiceSource(Protocol):
    """Where a table's throws come from: valid faces of the dice asked for, as a tuple."""

    def throw(self, dice: Throw) -> Faces: ...


class RandomDice:
    """Seeded pseudo-random dice: the same seed gives the same game."""

    __slots__ = ("_random",)

    def __init__(self, seed: int | float | str | bytes | None = None) -> None:
        self._random = random.Random(seed)

    def throw(self, dice: Throw) -> Faces:
        r = self._random.random
        return tuple([die[int(r() * len(die))] for die in dice])


class ScriptedDice:
    """Dice whose faces a test writes down in advance, throw by throw."""

    def __init__(self, throws: Sequence[Sequence[Face]]) -> None:
        self._throws = [tuple(t) for t in throws]
        self._next = 0

    def throw(self, dice: Throw) -> Faces:
        if self._next >= len(self._throws):
            raise ChanceError(f"the script has only {len(self._throws)} throws")
        faces = check_faces(dice, self._throws[self._next])
        self._next += 1
        return faces

    @property
    def remaining(self) -> int:
        return len(self._throws) - self._next


class CommittedDice:
    """Provably fair dice: throw k is derived from a secret seed by HMAC-SHA256.

    The table publishes `commitment` (SHA-256 of the seed) before the first
    throw and reveals the seed at the end; anyone can then recompute every
    throw with `CommittedDice(seed)` and compare (see `verify_throws`).
    Each die takes 8 bytes of the HMAC of "throw:die" and reduces them modulo
    its size; the bias of that reduction is below 2**-59.
    """

    def __init__(self, seed: bytes) -> None:
        self.seed = seed
        self.count = 0

    @property
    def commitment(self) -> str:
        return commitment_of(self.seed)

    def throw(self, dice: Throw) -> Faces:
        faces = derive_faces(self.seed, self.count, dice)
        self.count += 1
        return faces


def commitment_of(seed: bytes) -> str:
    return hashlib.sha256(seed).hexdigest()


def derive_faces(seed: bytes, index: int | str, dice: Throw) -> Faces:
    """The faces of throw number `index` of a table with this seed (or key and label)."""
    out = []
    for d, die in enumerate(dice):
        digest = hmac.new(seed, f"{index}:{d}".encode(), hashlib.sha256).digest()
        out.append(die[int.from_bytes(digest[:8], "big") % len(die)])
    return tuple(out)
