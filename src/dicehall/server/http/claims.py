"""Claiming a seat taken before accounts existed, by the seat's token.

Since guest accounts, every seat a person takes belongs to an account (a guest's
until it registers: people/accounts.py). A seat taken before then belongs to no one;
only its seat token, which the player's browser kept, proves whose it was.
`POST /api/tables/{id}/claim` with that token, from a logged-in browser, makes
the seat the account's: the game then shows in the account's history (a game
finished before results were kept gets its result recorded then, unrated), and
an unfinished one is recorded under the account when it ends. No rating moves
after the fact: a game rated without an account at every seat was recorded
casual (people/results.py), and stays so.

Refused, and nothing changes: without a session (401), with a token that holds
no seat at that table (403), for a seat another account holds or a bot's (409),
and at a rated table where the account holds another seat already (409: one
account, one seat of a rated table, as on joining).
"""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any

from fastapi import APIRouter, HTTPException, Request
from pydantic import BaseModel, Field

from dicehall.server.http.answers import errors
from dicehall.server.tables.hall import Hall, NotFound
from dicehall.server.tables.live import OVER

if TYPE_CHECKING:
    from dicehall.server.http.account_api import Accounts
    from dicehall.server.people.results import Results


class Claim(BaseModel):
    seat_token: str = Field(max_length=100, description="the token the seat was taken with")


def claim_router(hall: Hall, accounts: Accounts, results: Results) -> APIRouter:
    router = APIRouter(prefix="/api")

    @router.post("/tables/{table_id}/claim", responses=errors(401, 403, 404, 409, 503))
    async def claim(table_id: str, body: Claim, request: Request) -> dict[str, Any]:
        """Make a seat taken before accounts existed the logged-in account's, by the token
        it was taken with: its game joins the account's history (no rating moves)."""
        account = await accounts.viewer(request)
        if account is None:
            raise HTTPException(401, "log in first: a seat is claimed for the account you are in")
        try:
            table = hall.get(table_id)
        except NotFound as e:
            raise HTTPException(404, str(e)) from None
        seat = table.seat_of(body.seat_token)
        if seat is None:
            raise HTTPException(403, "this token holds no seat at that table")
        await results.settled(table.id)
        async with table.lock:
            players = table.record.players
            holder = players[seat].get("account")
            if holder == account.id:
                return {"table_id": table.id, "seat": seat, "claimed": False}
            if holder is not None:
                raise HTTPException(409, f"seat {seat} of this table is another account's")
            if players[seat].get("outside") or players[seat]["bot"] is not None:
                raise HTTPException(409, f"seat {seat} of this table is a bot's")
            held = [s for s, p in enumerate(players) if p.get("account") == account.id]
            if held and table.settings.rated:
                raise HTTPException(
                    409,
                    f"you hold seat {held[0]} of this rated table already: an account holds"
                    " one seat of a rated table",
                )
            changed = copy.deepcopy(players)
            changed[seat]["account"] = account.id
            result = table.state.result() if table.status == OVER else None
            await hall.store.write(
                results.results.claim, table.id, seat, account.id, changed, result
            )
            table.record.players = changed
        if result is None and table.status == OVER:  # it ended meanwhile: its record too
            await results.settled(table.id)
            await hall.store.write(
                results.results.claim, table.id, seat, account.id, changed, table.state.result()
            )
        return {"table_id": table.id, "seat": seat, "claimed": True}

    return router
