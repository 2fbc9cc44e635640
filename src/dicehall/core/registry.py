"""The registry of games, by id: each game is a module named by a string, loaded on first use.

The core must not import the games (they import the core), yet a transcript
names its game by id and has to be replayed from that id alone. So the
registry holds module *names*, as Gymnasium's registry holds entry points:
`make_game("kariki")` imports `dicehall.games.kariki` the first time it is
asked for and reads its `GAME`. Interfaces use it through `dicehall.games`,
which re-exports these functions; a game installed from elsewhere joins with
`register`.
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Mapping

from dicehall.core.errors import UnknownGameError
from dicehall.core.game import Game

_MODULES: dict[str, str] = {
    "tepiiku": "dicehall.games.tepiiku",
    "toplshteyner": "dicehall.games.toplshteyner",
    "tao": "dicehall.games.tao",
    "kariki": "dicehall.games.kariki",
}


def register(gid: str, module: str) -> None:
    """Offer the game whose module (exporting `GAME`, a `Game` subclass) has this name."""
    _MODULES[gid] = module


def game_ids() -> list[str]:
    """Ids of the games that are installed, in a stable order."""
    return [gid for gid in _MODULES if _installed(gid)]


def _installed(gid: str) -> bool:
    try:
        spec = importlib.util.find_spec(_MODULES[gid])
    except ModuleNotFoundError:  # its parent package is missing
        return False
    return spec is not None and spec.origin is not None  # a package with its __init__.py


def game_class(gid: object) -> type[Game]:
    """The registered `Game` subclass for an id; an unknown id raises naming the known ones."""
    if not isinstance(gid, str) or gid not in _MODULES or not _installed(gid):
        raise UnknownGameError(f"unknown game {gid!r}; the games are: {', '.join(game_ids())}")
    module = importlib.import_module(_MODULES[gid])
    cls: type[Game] = module.GAME
    return cls


def make_game(
    gid: object, seats: int | None = None, options: Mapping[str, object] | None = None
) -> Game:
    """A configured game; bad ids, seat counts and options raise with a clear message."""
    return game_class(gid)(seats, options)
