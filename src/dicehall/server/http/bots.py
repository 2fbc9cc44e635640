"""POST /api/bots/sit: a bot from outside takes a seat kept for it with its bot token.

The bots, their tokens and the seats kept for them are tables/outside_bots.py's; this is
the route a bot asks at, before it connects to the table's WebSocket like any player.
"""

from __future__ import annotations

import asyncio
import secrets
from typing import Annotated, Any

from fastapi import APIRouter, Header, HTTPException, Request
from pydantic import BaseModel, Field

from dicehall.server.http.answers import client_address, errors, seat_grant
from dicehall.server.ops.limits import Limiter, Limits
from dicehall.server.tables.hall import Hall
from dicehall.server.tables.outside_bots import KEPT, TAKING, BotTokens, waiting_seat


class Sit(BaseModel):
    game: str | None = Field(None, description="only a table of this game")
    seats: int | None = Field(None, description="only a table of this many seats")


def bots_router(
    hall: Hall, tokens: BotTokens, limits: Limits, limiter: Limiter | None = None
) -> APIRouter:
    """POST /api/bots/sit: a bot from outside takes a seat kept for it."""
    router = APIRouter(prefix="/api/bots")
    limiter = limiter or Limiter()
    asks = limiter.budget(limits.joins_per_minute, limits.joins_burst, "seat requests")

    @router.post("/sit", responses=errors(401, 404, 429, 503))
    async def sit(
        request: Request,
        body: Sit | None = None,
        authorization: Annotated[str | None, Header()] = None,
    ) -> dict[str, Any]:
        """Header `Authorization: Bearer BOT_TOKEN`. A seat kept for a bot at the longest
        waiting table (of `game`, `seats` if given): its seat token, for the WebSocket."""
        await asks.check(client_address(request))
        scheme, _, token = (authorization or "").partition(" ")
        name = None
        if scheme.lower() == "bearer" and token:
            name = await asyncio.to_thread(tokens.name_of, token.strip())
        if name is None:
            raise HTTPException(
                401,
                "a bot sits with Authorization: Bearer TOKEN, a token from dicehall bot-token",
                headers={"WWW-Authenticate": "Bearer"},
            )
        body = body or Sit(game=None, seats=None)
        found = waiting_seat(hall, body.game, body.seats)
        if found is None:
            raise HTTPException(404, "no table is waiting for a bot from outside; ask again later")
        table, seat = found
        player = table.record.players[seat]
        player["reserved"] = TAKING  # no other bot finds this seat while the claim is stored
        seat_token = secrets.token_urlsafe(24)
        try:
            await table.claim(seat, seat_token, name)
        except BaseException:
            player["reserved"] = KEPT
            raise
        return {**seat_grant(table, seat, seat_token), "game": table.record.game, "name": name}

    return router
