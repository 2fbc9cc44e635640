"""POST /api/quickmatch: a seat at the longest-waiting listed table that fits, or a new one.

Which tables fit, and the lobby's facts about them, are tables/quickmatch.py's; this is
the route, which seats the caller as any join does (its account, its limits).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

from fastapi import APIRouter, HTTPException, Request, Response
from pydantic import BaseModel, Field

from dicehall.core.errors import DicehallError
from dicehall.server.http.answers import client_address, errors, seat_grant
from dicehall.server.ops.limits import Limiter, Limits
from dicehall.server.tables.hall import Conflict, Hall
from dicehall.server.tables.house_rules import TableSettings
from dicehall.server.tables.quickmatch import fitting

if TYPE_CHECKING:
    from dicehall.server.http.account_api import Accounts


class QuickMatch(BaseModel):
    game: str = Field(description="game id, as listed by GET /api/games")
    seats: int | None = Field(None, description="number of seats; the game's default if absent")
    name: Annotated[str, Field(max_length=40)] = ""
    entropy: str | None = Field(
        None, max_length=64, description="your commitment to your entropy for the dice (hex)"
    )


def quickmatch_router(
    hall: Hall,
    limits: Limits,
    grace_seconds: float,
    accounts: Accounts | None = None,
    limiter: Limiter | None = None,
) -> APIRouter:
    """`accounts`: who takes the seat (account_api.py), as for any join."""
    router = APIRouter(prefix="/api")
    limiter = limiter or Limiter()
    asks = limiter.budget(limits.joins_per_minute, limits.joins_burst, "joins")
    opens = limiter.budget(limits.tables_per_minute, limits.tables_burst, "new tables")

    @router.post("/quickmatch", responses=errors(400, 429, 503))
    async def quickmatch(body: QuickMatch, request: Request, response: Response) -> dict[str, Any]:
        """A seat at the longest-waiting listed table of this game and seat count with a
        seat free for a person, or at a new such table when none fits (`opened`)."""
        address = client_address(request)
        await asks.check(address)
        account, name = ("", body.name)
        if accounts is not None:
            account, name = await accounts.seat(request, response, body.name)
        try:
            seats = hall.catalog.make(body.game, body.seats, {}).seats
        except DicehallError as e:
            raise HTTPException(400, str(e)) from None
        for table in fitting(hall, body.game, seats):
            try:
                seat, token = await hall.join(table, name, None, body.entropy, account or None)
            except Conflict:  # taken meanwhile: the next one
                continue
            except DicehallError as e:
                raise HTTPException(400, str(e)) from None
            return {**seat_grant(table, seat, token), "opened": False}
        await opens.check(address)
        try:
            table, seat, token = await hall.create(
                body.game,
                seats,
                {},
                {},
                [name],
                None,
                600,
                TableSettings(listed=True, grace_seconds=grace_seconds),
                entropy=body.entropy,
                account=account or None,
                address=address,
            )
        except DicehallError as e:
            raise HTTPException(400, str(e)) from None
        grant = seat_grant(table, seat, token)
        return {**grant, "commitment": table.record.commitment, "opened": True}

    return router
