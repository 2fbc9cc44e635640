"""The ratings the lobby shows beside the names at its open tables.

Each sitter's shown rating in the table's game is the one on the players' pages
(profiles.py: OpenSkill's ordinal on a 1500-centred scale, `dicehall.ratings.shown`); a
guest, a deleted account and anyone not yet rated in that game show none. The lobby is
polled by every open page, so the ratings are not looked up per table or per request:
`SitterRatings` keeps them in memory and reads every sitter it has not seen, or all of
them once the cache is `max_age` seconds old, in one query in the database's thread; a
stored result empties the cache for its game (results.py's `on_recorded`).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from sqlalchemy import and_, or_, select

from dicehall.ratings import shown
from dicehall.server.ops.workers import Busy
from dicehall.server.people.accounts import BOT, GUEST, accounts, name_key
from dicehall.server.people.results import ACCOUNT, BOT_NAME, Rated, rated_as, ratings
from dicehall.server.tables.store import Store

if TYPE_CHECKING:
    from dicehall.server.tables.live import LiveTable

log = logging.getLogger("dicehall.server")

MAX_AGE_SECONDS = 10.0
"""Ratings change only when a rated game ends here (which empties the cache) or on
another process of the site; this bounds how stale the latter can be."""

Key = tuple[Rated, str]  # (who, game)


class SitterRatings:
    def __init__(self, store: Store, max_age: float = MAX_AGE_SECONDS) -> None:
        self.store = store
        self.max_age = max_age
        self.shown: dict[Key, float | None] = {}
        self.read_at = 0.0
        self.lock = asyncio.Lock()

    def rating(self, who: Rated | None, game: str) -> float | None:
        """The shown rating, from the cache only (call `refresh` first)."""
        return None if who is None else self.shown.get((who, game))

    def seat_ratings(self, players: Sequence[dict[str, Any]], game: str) -> list[float | None]:
        """Each seat's shown rating in `game`, by who it is rated as (results.py's
        `rated_as`, one pass for the table), from the cache only."""
        return [self.rating(who, game) for who in rated_as(players)]

    def forget(self, game: str) -> None:
        """A result in `game` was stored: its ratings are read again."""
        self.shown = {k: v for k, v in self.shown.items() if k[1] != game}

    async def refresh_tables(self, tables: Iterable[LiveTable]) -> None:
        """`refresh` for everyone sitting at these tables."""
        await self.refresh(
            (who, t.record.game)
            for t in tables
            for who in rated_as(t.record.players)
            if who is not None
        )

    async def refresh(self, wanted: Iterable[Key]) -> None:
        """Make sure every wanted rating is in the cache and not older than `max_age`; a
        database that cannot answer now leaves the lobby without the new ones."""
        async with self.lock:
            keys = set(wanted)
            if time.monotonic() - self.read_at > self.max_age:
                self.shown = {}
            missing = keys - self.shown.keys()
            if not missing:
                return
            if not self.shown:
                self.read_at = time.monotonic()
            try:
                found = await self.store.run(read_ratings, self.store, missing)
            except Busy as e:
                log.warning("the lobby's ratings could not be read: %s", e)
                return
            self.shown.update(dict.fromkeys(missing))
            self.shown.update(found)


def read_ratings(store: Store, keys: set[Key]) -> dict[Key, float]:
    """The shown ratings of these sitters, in one query (the database's thread)."""
    ids = {who[1] for who, _ in keys if who[0] == ACCOUNT}
    bots = {name_key(who[1]) for who, _ in keys if who[0] != ACCOUNT}
    games = {game for _, game in keys}
    query = (
        select(ratings.c.account_id, ratings.c.game, ratings.c.mu, ratings.c.sigma, accounts.c.name)
        .join(accounts, accounts.c.id == ratings.c.account_id)
        .where(ratings.c.game.in_(games))
        .where(accounts.c.deleted.is_(None))
        .where(accounts.c.kind != GUEST)
        .where(
            or_(
                ratings.c.account_id.in_(ids),
                and_(accounts.c.kind == BOT, accounts.c.name_key.in_(bots)),
            )
        )
    )
    with store.engine.connect() as db:
        rows = db.execute(query).all()
    out: dict[Key, float] = {}
    for r in rows:
        for who in ((ACCOUNT, r.account_id), (BOT_NAME, r.name)):
            if (who, r.game) in keys:
                out[(who, r.game)] = shown(r.mu, r.sigma)
    return out
