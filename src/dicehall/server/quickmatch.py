"""Quick match: a seat at the next listed table of a game and seat count, or a new one.

`POST /api/quickmatch` takes the longest-waiting listed table of that game and
number of seats with a seat free for a person, whatever its options, and
seats the caller there; when none fits it opens one of every seat a person's
(the game's default options, a listed table's turn timer), which the next
quick matches fill. The lobby's list of open tables says who is at each
table, with their ratings, and how long since its last move (`lobby_facts`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Annotated, Any

from fastapi import APIRouter, HTTPException, Request, Response
from pydantic import BaseModel, Field

from dicehall.core.errors import DicehallError
from dicehall.server.limits import Limits, PerAddress
from dicehall.server.results import Rated, rated_as
from dicehall.server.settings import TableSettings

if TYPE_CHECKING:
    from dicehall.server.account_api import Accounts
    from dicehall.server.hall import Hall
    from dicehall.server.live import LiveTable


class QuickMatch(BaseModel):
    game: str = Field(description="game id, as listed by GET /api/games")
    seats: int | None = Field(None, description="number of seats; the game's default if absent")
    name: Annotated[str, Field(max_length=40)] = ""
    entropy: str | None = Field(
        None, max_length=64, description="your commitment to your entropy for the dice (hex)"
    )


def fits(table: LiveTable, game: str, seats: int) -> bool:
    """A listed table of that game and size, waiting, with a seat free for a person."""
    return (
        table.settings.listed
        and table.status == "waiting"
        and table.record.game == game
        and table.record.seats == seats
        and bool(table.free_seats())
    )


def fitting(hall: Hall, game: str, seats: int) -> list[LiveTable]:
    """The tables a quick match may join, the longest-waiting first."""
    found = [t for t in hall.live.values() if fits(t, game, seats)]
    return sorted(found, key=lambda t: t.record.created)


def lobby_facts(
    table: LiveTable, now: float, rating: Callable[[Rated | None, str], float | None] | None = None
) -> dict[str, Any]:
    """Who sits at a listed table (public facts), each with their shown rating in its game
    (`rating`: lobby_ratings.py; None without one), and how long since its last move."""
    who = rated_as(table.record.players)
    game = table.record.game
    return {
        "players": [
            {
                "name": p["name"],
                "bot": p["bot"],
                "outside_bot": bool(p.get("outside")),
                "taken": p["bot"] is not None or p["token_hash"] is not None,
                "connected": p["bot"] is not None or table.connected(s),
                "rating": None if rating is None else rating(who[s], game),
            }
            for s, p in enumerate(table.record.players)
        ],
        "idle_seconds": round(max(0.0, now - table.moved_at), 1),
    }


def quickmatch_router(
    hall: Hall, limits: Limits, grace_seconds: float, accounts: Accounts | None = None
) -> APIRouter:
    """`accounts`: who takes the seat (account_api.py), as for any join."""
    from dicehall.server.api import client_address, errors, seat_grant  # api needs the hall
    from dicehall.server.hall import Conflict

    router = APIRouter(prefix="/api")
    asks = PerAddress(limits.joins_per_minute, limits.joins_burst, "joins")
    opens = PerAddress(limits.tables_per_minute, limits.tables_burst, "new tables")

    @router.post("/quickmatch", responses=errors(400, 429, 503))
    async def quickmatch(body: QuickMatch, request: Request, response: Response) -> dict[str, Any]:
        """A seat at the longest-waiting listed table of this game and seat count with a
        seat free for a person, or at a new such table when none fits (`opened`)."""
        address = client_address(request)
        asks.check(address)
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
        opens.check(address)
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
            )
        except DicehallError as e:
            raise HTTPException(400, str(e)) from None
        grant = seat_grant(table, seat, token)
        return {**grant, "commitment": table.record.commitment, "opened": True}

    return router
