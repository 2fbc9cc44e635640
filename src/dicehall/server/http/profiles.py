"""The routes of players' pages, leaderboards and a finished game's record.

The queries are people/profiles.py's, run in the database's thread.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, HTTPException, Query

from dicehall.server.http.answers import errors
from dicehall.server.people.profiles import Profiles
from dicehall.server.people.results import Results


def profile_router(profiles: Profiles, results: Results, game_ids: list[str]) -> APIRouter:
    router = APIRouter(prefix="/api")
    store = results.store

    @router.get("/players/{name}", responses=errors(404))
    async def player(name: str) -> dict[str, Any]:
        """A player's page: rating per game, its history for the chart, and their games
        (newest first, the latest 200) with results and rating changes."""
        found = await store.run(profiles.player, name) if len(name) <= 40 else None
        if found is None:
            raise HTTPException(404, f"no player {name!r}")
        return found

    @router.get("/leaderboard/{game_id}", responses=errors(404))
    async def leaderboard(game_id: str, limit: int = Query(100, ge=1, le=1000)) -> dict[str, Any]:
        """The best ratings in one game, people and bots (guests are not listed)."""
        if game_id not in game_ids:
            raise HTTPException(404, f"no game {game_id!r}; the games are {', '.join(game_ids)}")
        return {"game": game_id, "ratings": await store.run(profiles.leaderboard, game_id, limit)}

    @router.get("/tables/{table_id}/record", responses=errors(404))
    async def record(table_id: str) -> dict[str, Any]:
        """A finished game's players, result and rating changes (its transcript and fair-dice
        report are the table's /transcript and /verify)."""
        await results.settled(table_id)
        found = await store.run(profiles.record, table_id) if len(table_id) <= 32 else None
        if found is None:
            raise HTTPException(404, f"table {table_id!r} has no recorded result")
        return found

    return router
