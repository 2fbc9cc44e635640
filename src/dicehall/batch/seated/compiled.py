"""The seated batches' compiled loops: the throws and random seats played game by game.

A seated batch plays its own seats pass by pass (`Seated.advance`), one
decision in every game waiting for one: a few dozen NumPy calls a pass,
however few games it moves, and a vector step takes many passes when the
other seats decide several times between two of the learner's decisions, or
the dice throw many times between two decisions (Toplshteyner). When no
seat of the batch's own plays the heuristic, a game's `<game>_kernel.py`
plays each game on instead, seat by seat in a loop that Numba compiles (the
`rl` extra brings it), until an outside seat is to decide, the game is over,
or its decisions reach their limit: the same rules, steps and view as the
handlers, on the batch's own arrays in place. The loop also takes the
outside seats' choices (`Seated.act`), so one call a step plays a choice and
everything after it; in self-play (every seat outside) it plays the choices
and the throws.

A random seat's choice depends on nothing the others chose since, so the
loops draw each as the handlers do: the index of a uniform choice among the
legal actions, in the same order. They draw from the batch's own generator
(Numba's calls advance it in place, and take a third of the time its legacy
`np.random` takes): a seeded batch plays the same games every time, but not
the games of the passes, whose draws
`tests/rl/test_vector_replay.py` follows (with the loops off).
`tests/rl/test_vector_stats.py` checks each loop's episodes against the
single environment's and, in self-play, against the passes'.

Numba compiles a loop the first time a process needs it, and keeps it in
its cache (`__pycache__` beside the module, or `NUMBA_CACHE_DIR`).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from importlib.util import find_spec
from typing import Any, NamedTuple, TypeVar, cast

import numpy as np

from dicehall.batch.base import Bools, Ints

Loop = Callable[[Any, Ints, Ints | None], None]
"""`advance(batch, g, given)` of a game's kernel module: games `g` played on, each first with
its outside seat's choice (`given`, the index among the legal actions) if given."""
Fields = TypeVar("Fields", bound=NamedTuple)


def loop(batch: Any, game: str) -> Loop | None:
    """The compiled loop of `game` for this batch (`<game>_kernel.advance`), or None: a
    heuristic seat, no such loop, or no Numba."""
    name = f"dicehall.batch.seated.{game}_kernel"
    if not plays(batch) or find_spec("numba") is None or find_spec(name) is None:
        return None
    return cast(Loop, importlib.import_module(name).advance)


def plays(batch: Any) -> bool:
    """Whether the compiled loops play this batch: none of its seats plays the heuristic
    (whose choices only the passes make)."""
    return not batch.heuristic.any()


def arguments(
    batch: Any, g: Ints, given: Ints | None, fields: type[Fields]
) -> tuple[Ints, Ints, Bools, int, np.random.Generator, Fields]:
    """What a loop takes first: the games, the outside seats' choices in them (-1: none),
    which seats are outside, the limit on decisions (-1: none), the batch's generator
    (Numba draws from it in place), and the batch's arrays named by `fields` (a
    NamedTuple)."""
    return (
        g,
        np.full(g.size, -1) if given is None else given,
        batch.outside,
        -1 if batch.max_decisions is None else int(batch.max_decisions),
        batch.rng,
        fields(*(getattr(batch, name) for name in fields._fields)),
    )
