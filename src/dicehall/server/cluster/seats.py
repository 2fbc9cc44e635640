"""Quick match and bots' seats over the whole site, not the one process reached.

`POST /api/quickmatch` and `POST /api/bots/sit` look for the longest-waiting
table that fits (tables/quickmatch.py, tables/outside_bots.py) among the tables a process
holds. On a site, the node a request reaches first asks every node over the bus
when its longest-waiting fitting table was made (`find-seat`), and hands the
request to the node whose table has waited longest, which answers it with its
own handler, as a request about one of its tables is forwarded (forward.py).
When no node has one, the node reached answers (a quick match opens a table
there; a bot hears that none waits). A table taken between the question and
the request is the owner's to settle: its handler takes the next one it holds,
or opens one, or says none waits.
"""

from __future__ import annotations

import asyncio
import json
from typing import TYPE_CHECKING, Any

from dicehall.core.errors import DicehallError
from dicehall.server.tables.outside_bots import waiting_seat
from dicehall.server.tables.quickmatch import fitting

if TYPE_CHECKING:
    from dicehall.server.cluster.node import Node
    from dicehall.server.tables.hall import Hall

QUICK, BOT = "quickmatch", "bot"
SEAT_PATHS = {"/api/quickmatch": QUICK, "/api/bots/sit": BOT}
ASK_SECONDS = 5.0  # a node that does not answer in this time is left out


def waited_since(hall: Hall, query: dict[str, Any]) -> float | None:
    """When this node's longest-waiting table for the query was made; None if it has none."""
    game, seats = query.get("game"), query.get("seats")
    if query.get("for") == QUICK:
        if not isinstance(game, str) or not isinstance(seats, int):
            return None
        tables = fitting(hall, game, seats)
        return tables[0].record.created if tables else None
    found = waiting_seat(
        hall, game if isinstance(game, str) else None, seats if isinstance(seats, int) else None
    )
    return None if found is None else found[0].record.created


def query_of(hall: Hall, path: str, body: bytes) -> dict[str, Any] | None:
    """What a seat request asks for; None for a body its own handler must refuse."""
    try:
        data = json.loads(body) if body.strip() else {}
    except ValueError:
        return None
    if not isinstance(data, dict):
        return None
    game, seats = data.get("game"), data.get("seats")
    if (game is not None and not isinstance(game, str)) or (
        seats is not None and (not isinstance(seats, int) or isinstance(seats, bool))
    ):
        return None
    what = SEAT_PATHS[path]
    if what == QUICK:
        if game is None:
            return None
        try:
            seats = hall.catalog.make(game, seats, {}).seats  # the game's default if none
        except DicehallError:
            return None
    return {"for": what, "game": game, "seats": seats}


async def best_node(node: Node, query: dict[str, Any]) -> str | None:
    """The node holding the site's longest-waiting table for the query, if any has one."""

    async def ask(other: str) -> float | None:
        if other == node.id:
            return waited_since(node.hall, query)
        answer = await node.bus.request(other, {"kind": "find-seat", **query}, ASK_SECONDS)
        since = answer.get("since")
        return since if isinstance(since, (int, float)) else None

    nodes = await node.nodes()
    answers = await asyncio.gather(*(ask(n) for n in nodes), return_exceptions=True)
    found = [
        (since, other)
        for other, since in zip(nodes, answers, strict=True)
        if isinstance(since, (int, float))
    ]
    return min(found)[1] if found else None


def answer_find(node: Node, message: dict[str, Any]) -> None:
    """Another node asks when this node's longest-waiting fitting table was made."""
    node.bus.reply(message, {"since": waited_since(node.hall, message)})
