"""The games, by id: one package per game, found through the registry.

Interfaces find games here and nowhere else: `make_game`, `game_class` and
`game_ids` are the registry's (`dicehall.core.registry`), which loads a game's
package by name the first time it is asked for.
"""

from __future__ import annotations

from dicehall.core.registry import game_class, game_ids, make_game, register

__all__ = ["game_class", "game_ids", "make_game", "register"]
