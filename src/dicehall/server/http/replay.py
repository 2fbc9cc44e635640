"""Board replay's routes: a finished table's replay by its id, and a dropped transcript's.

The frames are tables/replay.py's, worked out in a thread off the event loop.
"""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from fastapi import APIRouter, Header, HTTPException
from pydantic import BaseModel, Field

from dicehall.core.errors import DicehallError
from dicehall.server.http.answers import errors
from dicehall.server.tables.hall import Hall, NotFound
from dicehall.server.tables.replay import NotOver, file_replay, table_replay


class FileReplay(BaseModel):
    transcript: dict[str, Any] = Field(description="a transcript, as GET .../transcript gives")
    seat: int | None = Field(None, description="whose view: a seat, or none for a spectator's")


def replay_router(hall: Hall) -> APIRouter:
    """GET /api/tables/{id}/replay and POST /api/replay.

    See docs/reference/tables.md, "Board replay".
    """
    router = APIRouter(prefix="/api")

    @router.get("/tables/{table_id}/replay", responses=errors(400, 403, 404, 409))
    async def replay_table(
        table_id: str,
        seat: int | None = None,
        x_seat_token: Annotated[str | None, Header()] = None,
    ) -> dict[str, Any]:
        """A finished game as `seat` saw it (none: a spectator), frame by frame: each frame
        is what that seat's connection was sent at that step. At a sealed table a seat's own
        hidden throws are real only with its token (X-Seat-Token); otherwise stand-ins."""
        try:
            table = hall.get(table_id)
        except NotFound as e:
            raise HTTPException(404, str(e)) from None
        if x_seat_token and table.seat_of(x_seat_token) is None:
            raise HTTPException(403, "this token holds no seat at this table")
        try:
            return await asyncio.to_thread(table_replay, table, seat, x_seat_token)
        except NotOver as e:
            raise HTTPException(409, str(e)) from None
        except DicehallError as e:
            raise HTTPException(400, str(e)) from None

    @router.post("/replay", responses=errors(400, 409))
    async def replay_file(body: FileReplay) -> dict[str, Any]:
        """A transcript file's replay, frame by frame, from a seat (once over) or a spectator."""
        try:
            return await asyncio.to_thread(
                file_replay, body.transcript, body.seat, hall.catalog.make
            )
        except NotOver as e:
            raise HTTPException(409, str(e)) from None
        except DicehallError as e:
            raise HTTPException(400, str(e)) from None

    return router
