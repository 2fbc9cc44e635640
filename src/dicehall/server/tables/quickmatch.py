"""Quick match: a seat at the next listed table of a game and seat count, or a new one.

`POST /api/quickmatch` (http/quickmatch.py) takes the longest-waiting listed
table of that game and number of seats with a seat free for a person, whatever
its options, and seats the caller there; when none fits it opens one of every
seat a person's (the game's default options, a listed table's turn timer),
which the next quick matches fill. The lobby's list of open tables says who is at each
table, with their ratings, and how long since its last move (`lobby_facts`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from dicehall.server.tables.hall import Hall
    from dicehall.server.tables.live import LiveTable


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


SeatRatings = Callable[[Sequence[dict[str, Any]], str], list[float | None]]
"""The shown rating of each seat of a table's players in its game, None for a seat
without one (people/lobby_ratings.py's `SitterRatings.seat_ratings`)."""


def lobby_facts(table: LiveTable, now: float, ratings: SeatRatings | None = None) -> dict[str, Any]:
    """Who sits at a listed table (public facts), each with their shown rating in its game
    (`ratings`: people/lobby_ratings.py; None without one), and how long since its last move."""
    shown = None if ratings is None else ratings(table.record.players, table.record.game)
    return {
        "players": [
            {
                "name": p["name"],
                "bot": p["bot"],
                "outside_bot": bool(p.get("outside")),
                "taken": p["bot"] is not None or p["token_hash"] is not None,
                "connected": p["bot"] is not None or table.connected(s),
                "rating": None if shown is None else shown[s],
            }
            for s, p in enumerate(table.record.players)
        ],
        "idle_seconds": round(max(0.0, now - table.moved_at), 1),
    }
