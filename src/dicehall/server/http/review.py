"""Game review and practice over HTTP: a finished table's review from a seat, and seeded
practice sets, each worked out in a compute worker (ops/compute.py), never on the loop.

Who may review which seat follows the board replay (http/replay.py): anyone may
review any seat of a finished table, as anyone may replay it from any seat;
what that review reads is the replay's rule (tables/review.py): the seat's own
hidden throws are real only with its token (X-Seat-Token) at a sealed table,
and stand-ins otherwise. Another seat's never-shown dice are never read.

See docs/reference/rest-api.md, "Review and practice".
"""

from __future__ import annotations

import asyncio
import hashlib
import json
from typing import Annotated, Any

from fastapi import APIRouter, Header, HTTPException, Query, Request, Response
from pydantic import BaseModel, Field

from dicehall.core.errors import DicehallError
from dicehall.server.http.answers import client_address, errors
from dicehall.server.ops.compute import Compute
from dicehall.server.ops.limits import Limiter, Limits
from dicehall.server.tables.hall import Hall, NotFound
from dicehall.server.tables.replay import MAX_STEPS, NotOver
from dicehall.server.tables.review import review_key, review_transcript
from dicehall.strategy.practice import practice_json
from dicehall.strategy.review import NotOver as GameNotOver
from dicehall.strategy.review import review_json

MAX_PUZZLES = 10
"""Puzzles in one practice request."""
MAX_SEED = 2**31 - 1
PRACTICE_SEATS = {"tao": 2}
"""The most seats a practice set is drawn at, by game. Ten puzzles take 3.5 s at most in
every game at every seat count but Tao Dice past two seats, whose bots' games (the bet
reader's) give no values to score against: the 200 games played to learn that took 50 s
at three seats (benchmarks/results/review.md). A game not listed has no cap here."""


class FileReview(BaseModel):
    transcript: dict[str, Any] = Field(description="a transcript, as GET .../transcript gives")
    seat: int = Field(description="whose decisions: a seat number")


def digest(data: dict[str, Any]) -> str:
    """A transcript's fingerprint, the cache's key for its review (off the event loop)."""
    return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()


def review_router(hall: Hall, limits: Limits, compute: Compute, limiter: Limiter) -> APIRouter:
    """GET /api/tables/{id}/review, POST /api/review (a file) and GET /api/practice/{game}."""
    router = APIRouter(prefix="/api")
    asked = limiter.budget(limits.reviews_per_minute, limits.reviews_burst, "reviews and practice")
    make = hall.catalog.make

    @router.get("/tables/{table_id}/review", responses=errors(400, 403, 404, 409, 422, 429, 503))
    async def review_table(
        table_id: str,
        request: Request,
        seat: Annotated[
            int | None, Query(description="whose decisions; default: the token's")
        ] = None,
        x_seat_token: Annotated[str | None, Header()] = None,
    ) -> Response:
        """A finished game's review from `seat` (default: the seat of the X-Seat-Token),
        as `dicehall review --json` gives it: each decision of the seat with a real choice,
        every legal action's value from that seat's view, the chosen one's loss and label,
        and a summary. At a sealed table the seat's own hidden throws are real only with
        its token; otherwise stand-ins (`"stand_ins": true`)."""
        try:
            table = hall.get(table_id)
        except NotFound as e:
            raise HTTPException(404, str(e)) from None
        held = table.seat_of(x_seat_token) if x_seat_token else None
        if x_seat_token and held is None:
            raise HTTPException(403, "this token holds no seat at this table")
        if seat is None:
            if held is None:
                raise HTTPException(422, "whose review: give ?seat=N, or a seat's X-Seat-Token")
            seat = held
        if not 0 <= seat < table.game.seats:
            raise HTTPException(
                400, f"there is no seat {seat}; seats are 0 to {table.game.seats - 1}"
            )
        await asked.check(client_address(request))
        try:
            key = review_key(table, seat, x_seat_token)
            data: dict[str, Any] = {}  # a cached review needs no transcript worked out
            if key not in compute.studies:
                data = await asyncio.to_thread(review_transcript, table, seat, x_seat_token)
            answer = await compute.study(key, review_json, data, seat, make)
        except (NotOver, GameNotOver) as e:
            raise HTTPException(409, str(e)) from None
        except DicehallError as e:
            raise HTTPException(400, str(e)) from None
        return Response(answer, media_type="application/json")  # encoded in the worker

    @router.post("/review", responses=errors(400, 409, 422, 429, 503))
    async def review_file(body: FileReview, request: Request) -> Response:
        """A transcript file's review from `seat`, as `dicehall review FILE --seat N --json`
        gives it: what the file holds is what is reviewed (a player's own file has their
        real dice, a sealed table's public one stand-ins, and the answer says so)."""
        steps = body.transcript.get("steps")
        if isinstance(steps, list) and len(steps) > MAX_STEPS:
            raise HTTPException(400, f"{len(steps)} steps: a review reads at most {MAX_STEPS}")
        await asked.check(client_address(request))
        key = ("file", await asyncio.to_thread(digest, body.transcript), body.seat)
        try:
            answer = await compute.study(key, review_json, body.transcript, body.seat, make)
        except GameNotOver as e:
            raise HTTPException(409, str(e)) from None
        except DicehallError as e:
            raise HTTPException(400, str(e)) from None
        return Response(answer, media_type="application/json")

    @router.get("/practice/{game_id}", responses=errors(400, 404, 422, 429, 503))
    async def practice(
        game_id: str,
        request: Request,
        seats: Annotated[
            int | None, Query(ge=1, description="the game's default if absent")
        ] = None,
        count: Annotated[int, Query(ge=1, le=MAX_PUZZLES, description="how many puzzles")] = 5,
        seed: Annotated[int, Query(ge=0, le=MAX_SEED, description="which positions")] = 0,
    ) -> Response:
        """A seeded practice set, as `dicehall practice --json --answers` gives it but without
        the scores: the decisions with most at stake from the game's strongest bots' games,
        each with the seat's view, its legal actions, their values and the best, and the
        thresholds that label an answer's loss. The page hides the values until answered
        and scores the answer itself; the same seed draws the same set."""
        try:
            cls = hall.catalog.game_class(game_id)
        except DicehallError as e:
            raise HTTPException(404, str(e)) from None
        most = PRACTICE_SEATS.get(game_id)
        n = seats if seats is not None else min(cls.default_seats, most or cls.default_seats)
        if not cls.min_seats <= n <= cls.max_seats:
            raise HTTPException(
                400, f"{game_id} is played by {cls.min_seats} to {cls.max_seats} seats; got {n}"
            )
        if most is not None and n > most:
            raise HTTPException(
                422,
                f"practice in {game_id} is drawn at {most} seats at most: at {n} seats its bots'"
                " games give no values to score against, and finding that out takes about a"
                " minute, too long for a request",
            )
        await asked.check(client_address(request))
        key = ("practice", game_id, n, count, seed)
        try:
            answer = await compute.study(key, practice_json, make, game_id, n, count, seed)
        except DicehallError as e:
            raise HTTPException(400, str(e)) from None
        return Response(answer, media_type="application/json")

    return router
