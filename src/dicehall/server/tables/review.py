"""A finished table's game review from one seat: which steps it is worked out from.

The review itself is the strategy engine's (`strategy.review`), a function of
what the reviewed seat saw and did. What the server decides is which steps
the seat's view is read from, and that is the board replay's rule
(`tables.replay.table_steps`), so that a review can show no more than the
replay of the same seat: at a sealed table the seat's own hidden throws are
real only for the holder of its token; anyone else reviewing that seat
reviews the public transcript, whose never-shown throws are stand-ins, and
the answer says so (`"stand_ins": true`). Another seat's never-shown dice
are never read: not even the holder of a seat's token learns them here.
"""

from __future__ import annotations

from typing import Any

from dicehall.core.transcript import make_transcript
from dicehall.server.tables.live import OVER, LiveTable
from dicehall.server.tables.replay import NotOver, sees_real, table_steps


def review_key(table: LiveTable, seat: int, token: str | None) -> tuple[str, str, int, bool]:
    """What a review's answer depends on: the table, the seat, and whether the real steps
    are read (a finished table's steps never change)."""
    return ("review", table.id, seat, sees_real(table, seat, token))


def review_transcript(table: LiveTable, seat: int, token: str | None) -> dict[str, Any]:
    """The transcript `seat`'s review is worked out from (the core format): the real steps
    or the public ones, as the replay reads them. Off the event loop: a sealed table's
    public steps take a while to work out for a long game."""
    if table.status != OVER:
        raise NotOver("the game is not over: its review comes when it ends")
    steps = table_steps(table, seat, token)
    return make_transcript(table.game, [dict(s) for s in steps], table.names, table.state)
