"""The first-game guides' route: a game's guide as the learner sees it, frame by frame.

The frames are the core's (`dicehall.core.guide`), the same `dicehall play --guide`
prints. They depend on nothing but the code, so each game's is made once, in a thread
off the event loop, and kept.
"""

from __future__ import annotations

import asyncio
from functools import cache
from typing import Any

from fastapi import APIRouter, HTTPException

from dicehall.core.errors import DicehallError
from dicehall.core.guide import guide_json, load_guide
from dicehall.server.http.answers import errors


@cache
def _guide(game_id: str) -> dict[str, Any]:
    game, guide = load_guide(game_id)
    return guide_json(game, guide)


def guides_router(game_ids: list[str]) -> APIRouter:
    """GET /api/guides/{game} (docs/players/first-game.md)."""
    router = APIRouter(prefix="/api")

    @router.get("/guides/{game_id}", responses=errors(404))
    async def guide(game_id: str) -> dict[str, Any]:
        """A game's first-game guide: the table (seats, names, options), the intro, and
        the frames: each the learner's view, the events since the last frame, a line of
        explanation citing its rule, and what the learner presses next."""
        if game_id not in game_ids:
            raise HTTPException(404, f"no game {game_id!r}; the games are {', '.join(game_ids)}")
        try:
            return await asyncio.to_thread(_guide, game_id)
        except DicehallError as e:
            raise HTTPException(404, str(e)) from None

    return router
