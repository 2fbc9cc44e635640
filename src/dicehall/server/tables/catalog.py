"""The games a server offers: the registry's, or a given set (tests inject a toy game)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from dicehall import games
from dicehall.core.errors import UnknownGameError
from dicehall.core.game import Game
from dicehall.core.options import options_json


class Catalog:
    def __init__(self, classes: Mapping[str, type[Game]] | None = None) -> None:
        self._classes = dict(classes) if classes is not None else None

    def ids(self) -> list[str]:
        return list(self._classes) if self._classes is not None else games.game_ids()

    def game_class(self, gid: object) -> type[Game]:
        if self._classes is None:
            return games.game_class(gid)
        if not isinstance(gid, str) or gid not in self._classes:
            raise UnknownGameError(f"unknown game {gid!r}; the games are: {', '.join(self.ids())}")
        return self._classes[gid]

    def make(
        self, gid: object, seats: object = None, options: Mapping[str, object] | None = None
    ) -> Game:
        """A configured game (the transcript module's GameMaker); bad input raises DicehallError."""
        return self.game_class(gid)(seats, options)  # type: ignore[arg-type]

    def describe(self, gid: str) -> dict[str, Any]:
        """One entry of GET /api/games."""
        cls = self.game_class(gid)
        return {
            "id": cls.id,
            "name": cls.name,
            "summary": cls.summary,
            "min_seats": cls.min_seats,
            "max_seats": cls.max_seats,
            "default_seats": cls.default_seats,
            "options": options_json(cls.declared_options),
            "bots": list(cls().bots()),
            "bot_warnings": {
                name: note for name in cls().bots() if (note := cls().bot_warning(name))
            },
            "rules": cls.rules,
        }
