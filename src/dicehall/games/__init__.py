"""The registry of games, by id. Interfaces find games here and nowhere else."""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Mapping

from dicehall.core.errors import UnknownGameError
from dicehall.core.game import Game

_MODULES = {
    "tepiiku": "dicehall.games.tepiiku",
    "toplshteyner": "dicehall.games.toplshteyner",
    "tao": "dicehall.games.tao",
    "kariki": "dicehall.games.kariki",
}


def game_ids() -> list[str]:
    """Ids of the games that are installed, in a stable order."""
    return [gid for gid in _MODULES if _installed(gid)]


def _installed(gid: str) -> bool:
    spec = importlib.util.find_spec(_MODULES[gid])
    return spec is not None and spec.origin is not None  # a package with its __init__.py


def game_class(gid: object) -> type[Game]:
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
