"""Where the Toplshteyner solver's layers are kept: the tables shipped in the package and the cache.

Solving a game's layers takes up to minutes (a 6-player layer about one), too
long for a move, so solved layers are written as compressed .npz files and read back:
the default options' layers up to four seats ship in the package (`tables/`),
and everything else is solved once into the user's table cache. Kept apart
from the solving (`solve.py`) so that the files' names, folders and format are
in one place, and importing this module imports no NumPy (the model's
arrays are imported where a layer is named, read or written).
"""

from __future__ import annotations

import os
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

import dicehall.games.toplshteyner.rules as rules
from dicehall.core import diskcache

if TYPE_CHECKING:
    from dicehall.games.toplshteyner.solver.model import Layer, Model, Sigma

SHIPPED = Path(__file__).parent / "tables"
"""Solved layers that ship in the package (default options, small seat counts)."""
SHIPPED_VERSION = 1
"""Bumped when the model changes; tests check the shipped tables against a fresh solve."""
SOURCES = ("model.py", "solve.py", "stored.py")
"""The solver's modules a cached layer comes from (with the rules): a change to any of
them solves again."""
TABLES = ("elect", "elect_ev", "buy", "buy_ev", "turn")


def cache_dir() -> Path | None:
    """Where solved layers are kept (the project's table cache; None when it is off)."""
    folder = diskcache.cache_dir()
    return None if folder is None else folder / "toplshteyner"


@cache
def source_key() -> str:
    """Tables are read only if they come from these modules and these rules."""
    here = Path(__file__).parent
    return diskcache.source_key(*(here / source for source in SOURCES), rules.__file__)[:12]


def layer_paths(model: Model, seats: int, players: int, k: int, folder: Path | None) -> list[Path]:
    """Where a layer may be: this game's name in the cache `folder` and in the package,
    then (win chances on a paying table, the same for every seat count) the cache's
    layers of other seat counts. Not the package's: they ship without the turn
    values that solving the layer above needs."""
    from dicehall.games.toplshteyner.solver.model import NO_POT

    name = model.name(seats)
    paths = [SHIPPED / f"{name}-v{SHIPPED_VERSION}-{players}-{k}.npz"]
    if folder is None:
        return paths
    paths.insert(0, folder / f"{name}-{source_key()}-{players}-{k}.npz")
    if k == NO_POT:
        for other_seats in range(players, rules.Toplshteyner.max_seats + 1):
            if other_seats != seats:
                other = model.name(other_seats)
                paths.append(folder / f"{other}-{source_key()}-{players}-{k}.npz")
    return paths


def save_layer(layer: Layer, path: Path) -> None:
    """Write a layer atomically (a compressed .npz); failures to write are ignored."""
    import numpy as np

    arrays: dict[str, Any] = {
        "values": layer.values,
        "meta": np.array([layer.residual, layer.epsilon]),
    }
    for kind in TABLES:
        for sigma, a in getattr(layer, kind).items():
            arrays[f"{kind}:{_sigma_name(sigma)}"] = a
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.stem}.{os.getpid()}.tmp.npz")
        np.savez_compressed(tmp, **arrays)
        os.replace(tmp, path)
    except OSError:
        return


def load_layer(path: Path, players: int, k: int) -> Layer | None:
    """The layer in `path`, or None if it cannot be read or is not of `players` players."""
    import numpy as np

    from dicehall.games.toplshteyner.solver.model import Layer

    try:
        with np.load(path) as data:
            meta = data["meta"]
            layer = Layer(players, k, data["values"], residual=meta[0], epsilon=meta[1])
            for name in data.files:
                kind, _, rest = name.partition(":")
                if kind in TABLES:
                    getattr(layer, kind)[_sigma_of(rest)] = data[name]
    except (OSError, ValueError, KeyError):
        return None  # a damaged cache file is solved again
    if layer.values.shape != (rules.MAX_LIVES**players, players):
        return None
    return layer


def _sigma_name(s: Sigma) -> str:
    return "-".join(str(int(x)) for x in s)


def _sigma_of(name: str) -> Sigma:
    p, a, b, c, lives = (int(x) for x in name.split("-"))
    return (p, bool(a), bool(b), bool(c), lives)
