"""What every route of the server answers with: its documented errors, a seat's grant,
and the client's address that the per-address limits (ops/limits.py) count by.

Each error answer of every route is declared in the OpenAPI document (`errors`),
which a schemathesis run checks (tests/server/test_schema.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from fastapi import Request
from pydantic import BaseModel

if TYPE_CHECKING:
    from dicehall.server.tables.live import LiveTable


class Detail(BaseModel):
    """Every error answer: what was wrong, in words."""

    detail: str


class Refused(BaseModel):
    """A 422: FastAPI's list of what was wrong with the query, or the route's words."""

    detail: str | list[dict[str, Any]]


def errors(*codes: int) -> dict[int | str, dict[str, Any]]:
    """The error answers a route may give, for the OpenAPI document."""
    said = {
        400: "a bad game, seat count, option, bot or query, in the rules core's words",
        401: "not logged in, a wrong name or password, or a bot token this server did not issue",
        403: "the token holds no seat at this table",
        404: "no such table, room, game or player",
        409: "the table is full, the game not over yet, or the name taken",
        422: "a query FastAPI's validation refuses (a list of what was wrong), or a request"
        " the route refuses as asking too much of the server (a message)",
        429: "over a per-address limit; Retry-After says when to try again",
        503: "the database refused the write or the work would take long; see Retry-After",
    }
    return {
        code: {"model": Refused if code == 422 else Detail, "description": said[code]}
        for code in codes
    }


def seat_grant(table: LiveTable, seat: int, token: str) -> dict[str, Any]:
    """What a player gets on taking a seat: where it is, and the secret that holds it."""
    return {"table_id": table.id, "room": table.record.room, "seat": seat, "token": token}


def client_address(request: Request) -> str:
    return request.client.host if request.client is not None else "unknown"
