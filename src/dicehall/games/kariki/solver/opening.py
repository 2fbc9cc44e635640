"""The solver bot's decisions on a match's first roll, kept on disk.

A solver bot's first claim comes before anyone else has a say (in `dicehall
play` it is often made before the first prompt), and the strategy behind it
takes NumPy and a fifth of a CPU second to load. So the chances of the
decisions of a fresh roll at the opening score (no berries, no crowns, no
emergency berry used) are kept in the table cache, a few hundred numbers,
under a key from the strategy file and the modules they come from. Reading
them back needs neither NumPy nor the solver: the strategy is loaded only on a
miss, and for every later decision.

The numbers are the strategy's own (`Strategy.chances`, as floats), so a bot
plays exactly the same from the table as from the file.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from dicehall.core import Game, diskcache
from dicehall.games.kariki.solver.model import ZERO
from dicehall.games.kariki.solver.stored import solved_options, stored_path, strategy_for

if TYPE_CHECKING:
    from dicehall.games.kariki.solver.model import InfosetKey
    from dicehall.games.kariki.solver.solve import Subgame

    Opening = Mapping[tuple[Subgame, InfosetKey], list[float]]

FRESH_ROLLS: tuple[tuple[int, int], ...] = ((0, -1), (1, -1))
"""The subgames of a fresh roll, thrown by two-seat seat 0 or 1 (claims to beat: none)."""
SOURCES = ("opening.py", "model.py", "stored.py")
"""The modules the chances come from (in this folder; `stored.py` reads the strategy): a
change to any of them recomputes."""


def opening_chances(game: Game) -> Opening:
    """The chance of each legal action at every decision of a fresh roll at the opening
    score, by (subgame, infoset key); empty while the strategy is not stored yet."""
    return _opening(tuple(sorted(solved_options(game).items())))


@cache
def _opening(options: tuple[tuple[str, object], ...]) -> Opening:
    path = stored_path(dict(options))
    if path is None:
        return {}
    here = Path(__file__).parent
    key = diskcache.source_key(path, *(here / source for source in SOURCES))
    name = "kariki-opening-" + diskcache.source_key_of(repr(options))
    rows = diskcache.load(name, key)
    if rows is None:
        rows = _rows(options)
        diskcache.save(name, key, rows)
    return {((t, p), (k, c, n, r)): chances for t, p, k, c, n, r, chances in rows}


def _rows(options: tuple[tuple[str, object], ...]) -> list[list[Any]]:
    """[thrower, claim to beat, *infoset key, chances] for each decision of a fresh roll."""
    from dicehall.games import make_game

    strategy = strategy_for(make_game("kariki", 2, dict(options)))
    zero = strategy.scores.index[ZERO]
    return [
        [*subgame, *key, [float(c) for c in strategy.chances(zero, subgame, key)]]
        for subgame in FRESH_ROLLS
        for key in strategy.infosets[subgame]
    ]
