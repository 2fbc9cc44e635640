"""The REST endpoints under /api. FastAPI's OpenAPI page (/docs) documents them in full.

Bad game, option, seat or bot values answer 400 with the core's message;
a body of the wrong shape 422; an unknown table or room 404; a full table,
a game not over yet 409; a token that holds no seat 403; a client over its
limits (ops/limits.py) 429; a database that refuses a write (locked, disk full)
or odds that take long to work out 503 with Retry-After. Every one of these is
declared in the OpenAPI document, which a schemathesis run checks.
"""

from __future__ import annotations

import asyncio
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Header, HTTPException, Query, Request, Response
from pydantic import BaseModel, Field

from dicehall.core.errors import DicehallError
from dicehall.server.http.account_api import Accounts
from dicehall.server.http.answers import client_address, errors, seat_grant
from dicehall.server.ops.compute import Compute
from dicehall.server.ops.limits import Limiter, Limits
from dicehall.server.ops.settings import DEFAULT_GRACE_SECONDS
from dicehall.server.people.lobby_ratings import SitterRatings
from dicehall.server.tables.fairness import verify_transcript
from dicehall.server.tables.hall import Conflict, Forbidden, Hall, NotFound
from dicehall.server.tables.house_rules import TableSettings
from dicehall.server.tables.live import OVER, LiveTable

Name = Annotated[str, Field(max_length=40)]

Entropy = Annotated[
    str | None,
    Field(
        None,
        max_length=64,
        description="your commitment to your entropy for the dice (sealed tables): 64 hex digits",
    ),
]


class CreateTable(BaseModel):
    game: str = Field(description="game id, as listed by GET /api/games")
    seats: int | None = Field(None, description="number of seats; the game's default if absent")
    options: dict[str, bool | int | str] = Field(default_factory=dict)
    bots: dict[int, str] = Field(default_factory=dict, description="seat -> bot name")
    names: list[Name] | None = Field(None, description="names by seat; bots get their own")
    turn_seconds: float | None = Field(
        None,
        gt=0,
        le=3600,
        description="turn timer, at least 10 s; a listed table gets 60 s if none is given",
    )
    bot_delay_ms: int = Field(600, ge=0, le=10_000, description="pause before a bot moves")
    fairness: Literal["sealed", "seed"] = Field(
        "sealed", description="sealed: hidden dice stay secret; seed: revealed after the game"
    )
    entropy: Entropy = None
    listed: bool = Field(True, description="shown in the lobby; false: only by room code")
    grace_seconds: float | None = Field(
        None,
        gt=0,
        le=3600,
        description="how long a gone seat waits for its bot; the server's grace_seconds"
        f" setting ({DEFAULT_GRACE_SECONDS:g} s unless set) if absent",
    )
    time_bank_seconds: float | None = Field(
        None, ge=0, le=3600, description="extra time per player; half a turn if not given"
    )
    when_empty: Literal["finish", "close"] = Field(
        "finish", description="when every person has left: the bots finish, or the table closes"
    )
    spectator_chat: bool = Field(True, description="spectators may write in the table's chat")
    rated: bool = Field(False, description="the result moves the players' ratings; else casual")

    def settings(self, grace_seconds: float) -> TableSettings:
        """The table's house rules; `grace_seconds` is the server's, for a body without one."""
        return TableSettings(
            listed=self.listed,
            grace_seconds=self.grace_seconds if self.grace_seconds is not None else grace_seconds,
            time_bank_seconds=self.time_bank_seconds,
            when_empty=self.when_empty,
            spectator_chat=self.spectator_chat,
            rated=self.rated,
        )


class Join(BaseModel):
    name: Name = ""
    seat: int | None = None
    entropy: Entropy = None


class Rematch(BaseModel):
    entropy: Entropy = None


class Openings(BaseModel):
    openings: list[dict[str, Any]] = Field(
        default_factory=list, max_length=100_000, description="the openings your page received"
    )


def api_router(
    hall: Hall,
    limits: Limits,
    compute: Compute,
    grace_seconds: float = DEFAULT_GRACE_SECONDS,
    accounts: Accounts | None = None,
    sitters: SitterRatings | None = None,
    limiter: Limiter | None = None,
) -> APIRouter:
    """`sitters`: the ratings the lobby shows beside the names (none without); `limiter`
    where the budgets are counted (ops/limits.py)."""
    router = APIRouter(prefix="/api")
    limiter = limiter or Limiter()
    new_tables = limiter.budget(limits.tables_per_minute, limits.tables_burst, "new tables")
    joins = limiter.budget(limits.joins_per_minute, limits.joins_burst, "joins")
    odds_asked = limiter.budget(limits.odds_per_minute, limits.odds_burst, "odds requests")

    def table_of(table_id: str) -> LiveTable:
        try:
            return hall.get(table_id)
        except NotFound as e:
            raise HTTPException(404, str(e)) from None

    def finished(table_id: str) -> LiveTable:
        table = table_of(table_id)
        if table.status != OVER:
            raise HTTPException(409, "the game is not over: its seed and throws stay secret")
        return table

    async def seat_account(request: Request, response: Response, name: str) -> tuple[str, str]:
        """Who takes a seat (account_api.py) and the seat's name."""
        return ("", name) if accounts is None else await accounts.seat(request, response, name)

    async def join(
        table: LiveTable, body: Join, request: Request, response: Response
    ) -> dict[str, Any]:
        account, name = await seat_account(request, response, body.name)
        try:
            seat, token = await hall.join(table, name, body.seat, body.entropy, account or None)
        except Conflict as e:
            raise HTTPException(409, str(e)) from None
        except DicehallError as e:
            raise HTTPException(400, str(e)) from None
        return seat_grant(table, seat, token)

    @router.get("/games")
    async def list_games() -> list[dict[str, Any]]:
        """Every game: name, summary, seats, options, bots and rules."""
        return [hall.catalog.describe(gid) for gid in hall.catalog.ids()]

    @router.post("/tables", responses=errors(400, 429, 503))
    async def create_table(
        body: CreateTable, request: Request, response: Response
    ) -> dict[str, Any]:
        """A new table; the host takes the first seat without a bot."""
        address = client_address(request)
        await new_tables.check(address)
        account, host_name = await seat_account(request, response, "")
        try:
            table, seat, token = await hall.create(
                body.game,
                body.seats,
                body.options,
                body.bots,
                body.names,
                body.turn_seconds,
                body.bot_delay_ms,
                body.settings(grace_seconds),
                fairness=body.fairness,
                entropy=body.entropy,
                account=account or None,
                host_name=host_name or None,
                address=address,
            )
        except DicehallError as e:
            raise HTTPException(400, str(e)) from None
        return {**seat_grant(table, seat, token), "commitment": table.record.commitment}

    @router.get("/tables")
    async def open_tables(
        response: Response,
        offset: Annotated[int, Query(ge=0, description="tables to skip, oldest first")] = 0,
        limit: Annotated[
            int | None, Query(ge=1, description="tables in this page at most (the server's page)")
        ] = None,
    ) -> list[dict[str, Any]]:
        """Listed tables waiting for players or in play (private ones are not listed), oldest
        first, one page at a time (header X-Total-Count: how many in all), with each
        sitter's shown rating in the table's game (mu - 3 sigma; null if unrated)."""
        listed = hall.listed()
        response.headers["X-Total-Count"] = str(len(listed))
        size = limits.lobby_page if limit is None else min(limit, limits.lobby_page)
        page = listed[offset : offset + size]
        if sitters is None:
            return hall.open_tables(page)
        await sitters.refresh_tables(page)
        return hall.open_tables(page, sitters.seat_ratings)

    @router.get("/tables/{table_id}", responses=errors(404))
    async def get_table(table_id: str) -> dict[str, Any]:
        """Public state: spectator view, seats, status, commitment; seed and result once over."""
        table = table_of(table_id)
        return {**table.summary(), "view": table.public_view()}

    @router.post("/tables/{table_id}/join", responses=errors(400, 404, 409, 429, 503))
    async def join_table(
        table_id: str, body: Join, request: Request, response: Response
    ) -> dict[str, Any]:
        await joins.check(client_address(request))
        return await join(table_of(table_id), body, request, response)

    @router.get("/rooms/{room}", responses=errors(404, 429))
    async def get_room(room: str, request: Request) -> dict[str, Any]:
        """A room's table, counted as a join: room codes are not for guessing."""
        await joins.check(client_address(request))
        try:
            return hall.by_room(room).summary()
        except NotFound as e:
            raise HTTPException(404, str(e)) from None

    @router.post("/rooms/{room}/join", responses=errors(400, 404, 409, 429, 503))
    async def join_room(
        room: str, body: Join, request: Request, response: Response
    ) -> dict[str, Any]:
        await joins.check(client_address(request))
        try:
            table = hall.by_room(room)
        except NotFound as e:
            raise HTTPException(404, str(e)) from None
        return await join(table, body, request, response)

    @router.post("/tables/{table_id}/rematch", responses=errors(403, 404, 409, 429, 503))
    async def rematch(
        table_id: str, x_seat_token: Annotated[str, Header()], body: Rematch | None = None
    ) -> dict[str, Any]:
        """The same game, seats, options and bots again; every player gets the same new table."""
        entropy = None if body is None else body.entropy
        try:
            table, seat, token = await hall.rematch(table_of(table_id), x_seat_token, entropy)
        except Forbidden as e:
            raise HTTPException(403, str(e)) from None
        except Conflict as e:
            raise HTTPException(409, str(e)) from None
        except DicehallError as e:
            raise HTTPException(400, str(e)) from None
        return {**seat_grant(table, seat, token), "commitment": table.record.commitment}

    @router.get("/tables/{table_id}/chat", responses=errors(404))
    async def chat(table_id: str) -> dict[str, Any]:
        """The table's talk, oldest first: kept with the table, not in the transcript."""
        table = table_of(table_id)
        return {"messages": table.chat.messages() if table.chat is not None else []}

    @router.get("/tables/{table_id}/transcript", responses=errors(404, 409))
    async def transcript(table_id: str) -> dict[str, Any]:
        """A finished game's transcript: its seed (seed tables), or the openings of its
        public throws and stand-ins for the others (sealed tables)."""
        return await asyncio.to_thread(finished(table_id).transcript)

    @router.get("/tables/{table_id}/verify", responses=errors(404, 409))
    async def verify(table_id: str) -> dict[str, Any]:
        """The verify report: every public throw against its opening (or every throw
        against the seed), the entropy rounds, and the replay under the rules."""
        table = finished(table_id)
        return await asyncio.to_thread(
            lambda: verify_transcript(table.transcript(), hall.catalog.make)
        )

    @router.post("/tables/{table_id}/verify", responses=errors(400, 404, 409))
    async def verify_mine(table_id: str, body: Openings) -> dict[str, Any]:
        """The verify report with a player's own openings: proves their hidden throws too."""
        table = finished(table_id)
        return await asyncio.to_thread(
            lambda: verify_transcript(table.transcript(), hall.catalog.make, body.openings)
        )

    @router.get(
        "/odds/{game_id}",
        response_model=list[dict[str, Any]],
        responses=errors(400, 404, 429, 503),
    )
    async def odds(game_id: str, request: Request) -> Response:
        """Exact odds tables: the query parameters are those of `dicehall odds`.

        Worked out in a worker process and cached; a query that takes longer than a
        couple of seconds answers 503 with Retry-After, and its answer is ready then."""
        await odds_asked.check(client_address(request))
        try:
            cls = hall.catalog.game_class(game_id)
            answer = await compute.odds(cls, dict(request.query_params))
        except DicehallError as e:
            status = 404 if game_id not in hall.catalog.ids() else 400
            raise HTTPException(status, str(e)) from None
        return Response(answer, media_type="application/json")  # encoded in the worker

    return router
