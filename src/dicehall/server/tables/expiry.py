"""Stale tables leave: a table still waiting for players after a set time is closed.

Without this, tables nobody joins stay open for ever, and enough of them (the cap on
waiting tables is global) would lock every new client out of the server. With expiry
the cap and the per-address limits can only fill the server for a while. Finished
tables leave the lobby's list as they end (hall.py), and abandoned games are finished by
the bots (presence.py), so the lobby shows only tables people can join or watch.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from dicehall.server.tables.hall import Hall
    from dicehall.server.tables.live import LiveTable

log = logging.getLogger("dicehall.server")

SWEEP_SECONDS = 60.0
"""How often the server looks for stale tables."""


def stale(tables: Iterable[LiveTable], now: float, waiting_seconds: float) -> list[LiveTable]:
    """The tables still waiting for players `waiting_seconds` after they were made."""
    return [t for t in tables if t.status == "waiting" and now - t.record.created > waiting_seconds]


def expiry_text(waiting_seconds: float) -> str:
    minutes = waiting_seconds / 60
    return f"nobody took the free seats within {minutes:g} minutes: the table is closed"


async def sweep_forever(hall: Hall, every: float = SWEEP_SECONDS) -> None:
    """Close stale tables now and then, for as long as the server runs."""
    while True:
        await asyncio.sleep(every)
        try:
            closed = hall.expire(time.time())
        except Exception:
            log.exception("closing stale tables failed; trying again later")
            continue
        if closed:
            log.info("closed %d tables nobody joined", len(closed))
