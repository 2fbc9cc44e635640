"""Odds, advice, reviews and practice sets, computed in worker processes, never on the loop.

Exact odds can take seconds (Toplshteyner with eight seats: tens of seconds),
so they run in a `Pool` of processes. Odds answers depend only on the game and
the query, so they are cached; identical requests in flight share one job. A
request whose answer is not ready within `odds_wait_seconds` is answered 503
with Retry-After while the job runs on and fills the cache for the retry.
Answers are made into JSON in the worker and kept that way, so a flood of
requests for cached odds costs the event loop no encoding at all.

A game review (`strategy.review`) and a practice set (`strategy.practice`) are
the same kind of work: one worker job each, answered as JSON text, kept in a
small cache of their own (a finished table's review from a seat, or a seeded
set, never changes), with identical requests in flight sharing one job. They
wait for their answer up to `STUDY_WAIT_SECONDS`: the HTTP routes refuse up
front what would take longer (http/review.py).
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Callable, Hashable, Mapping, Sequence
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from dicehall.core.game import Action, Game, View
from dicehall.server.ops.settings import ServerConfig
from dicehall.server.ops.wire import dumps
from dicehall.server.ops.workers import Busy, Pool

OddsKey = tuple[type[Game], tuple[tuple[str, str], ...]]

STUDY_WAIT_SECONDS = 60.0
"""How long a review or practice request waits for its worker job before 503 (the job runs
on and its answer is cached for the retry)."""
STUDY_CACHE_SIZE = 64
"""Reviews and practice sets kept: a long game's review is a few hundred kB of JSON."""


def odds_json(cls: type[Game], query: dict[str, str]) -> bytes:
    """In a worker: `Game.odds` as a JSON list, encoded (bad queries raise OptionError)."""
    return dumps([table.to_json() for table in cls.odds(query)]).encode()


def advice_json(game: Game, view: View, legal: list[Action]) -> dict[str, Any] | None:
    """In a worker: `Game.advice` as JSON, or None where the game offers none."""
    table = game.advice(view, legal)
    return None if table is None else table.to_json()


class Compute:
    def __init__(self, config: ServerConfig) -> None:
        self.config = config
        self.pool = Pool(
            "odds and advice",
            config.compute_workers,
            config.compute_queue,
            processes=config.compute_in_processes,
            retry_after=config.retry_after_seconds,
        )
        self.cache: OrderedDict[OddsKey, bytes] = OrderedDict()
        self.running: dict[OddsKey, asyncio.Future[bytes]] = {}
        self.studies: OrderedDict[Hashable, str] = OrderedDict()
        self.studying: dict[Hashable, asyncio.Future[str]] = {}

    async def odds(self, cls: type[Game], query: Mapping[str, str]) -> bytes:
        """The odds tables of a query as JSON, from the cache, or within the wait, or Busy."""
        key: OddsKey = (cls, tuple(sorted(query.items())))
        cached = self.cache.get(key)
        if cached is not None:
            self.cache.move_to_end(key)
            return cached
        future = self.running.get(key)
        if future is None:
            future = self.pool.submit(odds_json, cls, dict(query))
            self.running[key] = future
            future.add_done_callback(lambda f: self._finished(key, f))
        try:
            return await asyncio.wait_for(asyncio.shield(future), self.config.odds_wait_seconds)
        except TimeoutError:
            wait = self.config.retry_after_seconds
            raise Busy(
                f"these odds take a while to work out; they will be ready soon: "
                f"try again in {wait} s",
                wait,
            ) from None

    def _finished(self, key: OddsKey, future: asyncio.Future[bytes]) -> None:
        self.running.pop(key, None)
        if future.cancelled() or future.exception() is not None:
            return
        self.cache[key] = future.result()
        while len(self.cache) > self.config.odds_cache_size:
            self.cache.popitem(last=False)

    async def advice(
        self, game: Game, view: View, legal: Sequence[Action]
    ) -> dict[str, Any] | None:
        return await self.pool.run(advice_json, game, view, list(legal))

    async def study(
        self, key: Hashable, job: Callable[..., str], *args: Any, wait: float = STUDY_WAIT_SECONDS
    ) -> str:
        """A review's or practice set's JSON text: `job(*args)` in a worker, once per `key`
        (cached, and shared while in flight); Busy past `wait` seconds or a full queue. The
        job's own errors (a DicehallError naming what was wrong) are raised here."""
        cached = self.studies.get(key)
        if cached is not None:
            self.studies.move_to_end(key)
            return cached
        future = self.studying.get(key)
        if future is None:
            future = self.pool.submit(job, *args)
            self.studying[key] = future
            future.add_done_callback(lambda f: self._studied(key, f))
        try:
            return await asyncio.wait_for(asyncio.shield(future), wait)
        except BrokenProcessPool:  # the pool replaced itself (Pool._done): a retry will do
            raise self.pool.busy() from None
        except TimeoutError:
            retry = self.config.retry_after_seconds
            raise Busy(f"this takes a while to work out; try again in {retry} s", retry) from None

    def _studied(self, key: Hashable, future: asyncio.Future[str]) -> None:
        self.studying.pop(key, None)
        if future.cancelled() or future.exception() is not None:
            return
        self.studies[key] = future.result()
        while len(self.studies) > STUDY_CACHE_SIZE:
            self.studies.popitem(last=False)

    def warm(self) -> None:
        self.pool.warm()

    def close(self) -> None:
        self.pool.close()
