"""The Tepiiku solver's tables of a cap: what they hold, the shipped files and the cache.

A cap's tables (`solve.Solution` plus the thumbs equilibrium: `solve.solve_tables`)
take minutes to solve and megabytes to hold. Those of every cap the bot uses
(`CAPS`) ship in the package (`tables/` beside this module, 9 MB), named by
`TABLES_VERSION` and checked against their SHA-256 (`SHIPPED_SHA256`) when
read, so the solver bot plays at strength from the install on. `dicehall
solve tepiiku` solves them again (with a progress bar) into the table cache
($DICEHALL_CACHE, see `dicehall.core.diskcache`), under a key of the solver's
and the rules' sources (`SOURCES`), so a changed rule never reads a stale
table; the package's files are read first. Either is a NumPy `.npz` (no
pickles) that names its cap and version, and a file of another cap or
version is refused.

Importing this module imports neither NumPy nor the solver (the functions that
read and write the arrays import NumPy), so that `dicehall odds tepiiku` can
check its query, find whether a cap is solved and key its cached rows by the
tables' file without them.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from dicehall.core import diskcache
from dicehall.core.errors import DicehallError
from dicehall.strategy.strategy_file import check_shipped

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

    Array = NDArray[np.float64]

CAPS = (1, 2, 4, 8, 20)
"""The caps solved: a seat's coins are modelled as the largest of these it holds."""
MAX_CAP = CAPS[-1]
SOURCES = (
    "solver/stored.py",
    "solver/policy.py",
    "solver/solve.py",
    "solver/ties.py",
    "solver/model.py",
    "rules.py",
)
"""The modules the tables come from (in this game's package): a change to any of them
solves again."""


TABLES_VERSION = 1
"""Bumped whenever the model or the solver changes what the tables mean; the shipped
files carry it in their names and their contents."""
SHIPPED = Path(__file__).parent / "tables"
SHIPPED_SHA256 = {
    1: "66f67f8fc59c0d641b814f0b44f6b76e46da5c9eff313f91d4862fee79fda3b7",
    2: "7d158ac812c84ec478e18e88bc66d4f1886192b428a73f8b11d9dbb030029093",
    4: "115bf9d171f66112f4b47bdd8907a599a1948ddf3690a6bda20d27645bafc40a",
    8: "086950355d3822875dcbab6571a7aafb4213aa59cc263c249a51aef244d03a40",
    20: "49530a6ec2d1a6b8ddb7f72c8b8bc6cd0064f8fe8ac1001f12a3633f4e082590",
}
"""Each shipped cap's file, as measured (docs/researchers/tepiiku.md)."""


def shipped_file(cap: int) -> Path:
    return SHIPPED / f"tepiiku-cap{cap}-v{TABLES_VERSION}.npz"


@cache
def source_key() -> str:
    here = Path(__file__).parents[1]
    return diskcache.source_key(*(here / source for source in SOURCES))[:12]


def cache_file(cap: int) -> Path | None:
    folder = diskcache.cache_dir()
    if folder is None:
        return None
    return folder / "tepiiku" / f"cap{cap}-{source_key()}.npz"


def found_file(cap: int) -> Path | None:
    """The file a cap's tables are read from: the package's, else the cache's."""
    for path in (shipped_file(cap), cache_file(cap)):
        if path is not None and path.exists():
            return path
    return None


class NotSolved(Exception):
    """The tables of a cap are not computed yet (that takes minutes, never a move)."""


class TablesError(DicehallError):
    """A tables file of another cap or version, or a damaged shipped one."""


@dataclass
class Tables:
    """What the bot and the advice read for one cap (`policy.py` reads it at a view)."""

    cap: int
    fish_policy: NDArray[np.int8]
    fish_value: NDArray[np.float32]
    forced_policy: NDArray[np.int8]
    forced_value: NDArray[np.float32]
    pair_strategy: NDArray[np.float32]
    triple_strategy: dict[int, NDArray[np.float32]]
    thumbs: Array  # (3, 56): chance of thumbs up
    thumbs_value: Array  # (3, 56, 2): each seat's round value of down and up
    thumbs_nash_conv: float
    """Coins a round: what best-responding seats gain at the thumbs (summed over the three),
    everyone playing these thumbs and the solved round after them."""
    heuristic_nash_conv: float
    """The same with the heuristic bot's thumbs (up above the median throw)."""
    tie_epsilon: float
    """The most a tied seat gains by rerolling otherwise in a T6 tie (every other choice
    after the thumbs is solved exactly)."""
    random_nash_conv: float = float("nan")
    """The thumbs' NashConv with the random bot's thumbs (up or down evenly)."""

    def level(self, pot: int) -> int:
        return min(int(pot), self.cap) - 1


# --- the cache ------------------------------------------------------------------------


SCALARS = ("thumbs_nash_conv", "heuristic_nash_conv", "random_nash_conv", "tie_epsilon")
ARRAYS = (
    "fish_policy",
    "fish_value",
    "forced_policy",
    "forced_value",
    "pair_strategy",
    "thumbs",
    "thumbs_value",
)


def save(tables: Tables, path: Path | None = None) -> Path | None:
    """Write a cap's tables to `path` (by default its file in the cache); where it went,
    or None when the cache is off or unwritable."""
    import numpy as np

    path = path or cache_file(tables.cap)
    if path is None:
        return None
    data: dict[str, Any] = {name: getattr(tables, name) for name in ARRAYS}
    data.update({name: np.array(getattr(tables, name)) for name in SCALARS})
    data.update({f"triple_{s}": v for s, v in tables.triple_strategy.items()})
    data.update(cap=np.array(tables.cap), version=np.array(TABLES_VERSION))
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_suffix(".partial.npz")
        np.savez_compressed(partial, **data)
        partial.replace(path)
    except OSError:
        return None
    return path


def read(path: Path, cap: int) -> Tables:
    """The tables in `path`, refused with a message naming what is wrong if they are not
    this cap's at this version."""
    import numpy as np

    try:
        with np.load(path, allow_pickle=False) as data:
            have = (int(data["cap"]), int(data["version"]))
            triples = {
                int(name.removeprefix("triple_")): data[name]
                for name in data.files
                if name.startswith("triple_")
            }
            fields: dict[str, Any] = {name: data[name] for name in ARRAYS}
            fields.update({name: float(data[name]) for name in SCALARS})
    except (OSError, ValueError, KeyError, EOFError) as e:
        raise TablesError(f"{path} is not a Tepiiku tables file: {e}") from None
    if have != (cap, TABLES_VERSION):
        raise TablesError(
            f"{path} holds the tables of a cap of {have[0]} coins at version {have[1]}, "
            f"not of {cap} coins at version {TABLES_VERSION}"
        )
    return Tables(cap=cap, triple_strategy=triples, **fields)


def load(cap: int) -> Tables | None:
    """A cap's tables, shipped (checked against their checksum) or cached; None if neither
    has them. A cache file that cannot be read is solved again; a shipped one is an error."""
    shipped = shipped_file(cap)
    if shipped.exists():
        check_shipped(shipped, SHIPPED_SHA256.get(cap, "not shipped"))
        return read(shipped, cap)
    path = cache_file(cap)
    if path is None or not path.exists():
        return None
    try:
        return read(path, cap)
    except TablesError:
        return None


@cache
def tables(cap: int) -> Tables:
    """The tables of a cap; NotSolved if neither the package nor the cache has them."""
    found = load(cap)
    if found is None:
        raise NotSolved(
            f"the Tepiiku solver's tables for a cap of {cap} coins are not computed yet: "
            "`dicehall solve tepiiku` solves them"
        )
    return found
