"""The standing bot ladder: the built-in bots play rated games against one another.

So that "solver ≈ 31" on a leaderboard is read on the same scale as the people
beside it, the server keeps its bots playing each other at a low pace
(`ServerConfig.ladder_games_per_minute`, 0 for none): every so often it opens a
table of one game, taking the games in turn, every seat a bot. The seats are
the game's bots, each once, in a random order (as many seats as the game has
bots, within its seat range; numbered copies fill the rest when it has fewer:
`dicehall.ratings.entrants`), and each seat is rated under the player name
`people/results.py` gives every bot seat ("heuristic", "heuristic 2" for a second copy).

A ladder table is an ordinary table of the hall, flagged `ladder` in its
settings: rated, unlisted, seed dice, no turn timer, its bots pausing
`ladder_bot_delay_ms` before each move. Its bots think in the server's bot
threads like any table's, its steps are stored and its result recorded and
rated as any rated table's, so it shows in the bots' histories and can be
watched and replayed by its id. It has no seat a person could take, and it is
never listed, so the lobby, quick match and bots from outside never see it. At
most `LADDER_TABLES` play at once, and none starts while the bot threads have
work queued for other tables: people's games go first. On a site of several
processes one ladder serves the site: the node that takes the turn (a Redis key,
`cluster/node.py`) opens the next table.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import secrets
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from dicehall.ratings import entrants
from dicehall.server.tables.house_rules import TableSettings

if TYPE_CHECKING:
    from dicehall.server.tables.hall import Hall
    from dicehall.server.tables.live import LiveTable

log = logging.getLogger("dicehall.server")

LADDER_TABLES = 2
"""Ladder tables in play at once on one process, at most."""


def lineup(bots: list[str], min_seats: int, max_seats: int, rng: random.Random) -> list[str]:
    """A ladder game's bots by seat: each bot once in a random order, as many seats as
    there are bots within the game's range (copies of the bots fill a larger minimum)."""
    seats = max(min_seats, min(max_seats, len(bots)))
    return [name.split(" ")[0] for name in rng.sample(entrants(bots, seats), seats)]


class Ladder:
    def __init__(self, hall: Hall, games_per_minute: float, bot_delay_ms: int) -> None:
        self.hall = hall
        self.games_per_minute = games_per_minute
        self.bot_delay_ms = bot_delay_ms
        self.rng = random.Random(secrets.randbits(64))  # lineups only, not the dice
        self.next_game = 0
        # a site of several processes: whether this node opens the next table (cluster/)
        self.take_turn: Callable[[float], Awaitable[bool]] | None = None
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        if self.games_per_minute > 0:
            self._task = asyncio.create_task(self._run())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    def playing(self) -> list[LiveTable]:
        return [t for t in self.hall.live.values() if t.settings.ladder]

    async def _run(self) -> None:
        interval = 60.0 / self.games_per_minute
        while True:
            await asyncio.sleep(interval)
            try:
                await self.play_one(interval)
            except Exception:  # a refused write, a busy site: the next turn tries again
                log.exception("the bot ladder could not open a table")

    async def play_one(self, interval: float) -> LiveTable | None:
        """Open the next ladder table, unless enough play already or the bots are busy."""
        pool = self.hall.bot_pool
        if len(self.playing()) >= LADDER_TABLES or pool.pending > 0:
            return None
        if self.take_turn is not None and not await self.take_turn(interval):
            return None
        ids = self.hall.catalog.ids()
        game_id = ids[self.next_game % len(ids)]
        self.next_game += 1
        game = self.hall.catalog.make(game_id, None, {})
        bots = lineup(list(game.bots()), game.min_seats, game.max_seats, self.rng)
        settings = TableSettings(listed=False, rated=True, ladder=True)
        return await self.hall.open_bot_table(game_id, bots, self.bot_delay_ms, settings)
