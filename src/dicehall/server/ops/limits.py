"""How much one client may ask of the server.

Creating a table costs a database row, a room code and memory for as long
as it waits; a login or a registration costs an Argon2id hash; a socket costs
memory and a share of every broadcast. So each client address has a budget for
each kind of request, and a request over one answers 429 with a Retry-After
header and says which limit it met.

The budgets are the `limits` library's sliding-window counters, kept in this
process's memory, or in Redis when several processes serve one site
(`--redis`, server/cluster/), so that a client meets the same limit whichever
process answers it. A budget of `burst` at once and `per_minute` a minute is
the window "`burst` per `burst * 60 / per_minute` seconds": the same at once
and the same in the long run as the token bucket it replaced.

Only a WebSocket's per-connection message budget stays a token bucket in the
connection itself (`TokenBucket`): it is spent on every frame, is nobody else's
to share, and costs 0.3 µs where the library's counter costs 5 µs.

The address is the connection's peer: behind a reverse proxy, the client the
proxy names in X-Forwarded-For when the proxy's address is one of the setting
`trusted_proxies` (uvicorn's forwarded-allow-ips; docs/operators/proxy.md),
else the proxy's own, which every client behind it would share.

Login attempts have budgets of their own: per address, per name and address,
and per account name, so that many addresses cannot guess one password faster.
"""

from __future__ import annotations

import logging
import math
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from limits import RateLimitItem, RateLimitItemPerSecond
from limits.aio.storage import MemoryStorage, RedisStorage, Storage
from limits.aio.strategies import SlidingWindowCounterRateLimiter

log = logging.getLogger("dicehall.server")


class TooManyRequests(Exception):
    """A limit was met (429); retry_after is in whole seconds."""

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class LimitsUnavailable(Exception):
    """The shared store of the limits (Redis) did not answer: refused, not waved through."""


class TokenBucket:
    """`burst` requests at once, refilled at `rate` a second (one connection's own)."""

    def __init__(self, rate: float, burst: int) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = float(burst)
        self.last = time.monotonic()

    def _refill(self) -> None:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
        self.last = now

    def allow(self) -> bool:
        self._refill()
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False

    def wait(self) -> float:
        """Seconds until the next request would be allowed."""
        self._refill()
        missing = 1 - self.tokens
        if missing <= 0:
            return 0.0
        return missing / self.rate if self.rate > 0 else math.inf

    def full(self) -> bool:
        self._refill()
        return self.tokens >= self.burst


@dataclass(frozen=True)
class Limits:
    """The server's limits (`create_app(limits=...)`); the defaults suit people, not scripts."""

    tables_per_minute: float = 6.0  # new tables per client address, refilled steadily
    tables_burst: int = 10  # ... of which this many at once
    joins_per_minute: float = 30.0  # seat requests (by table or room) per client address
    joins_burst: int = 30
    max_waiting_tables: int = 1000  # tables waiting for players, over all clients
    waiting_per_address: int = 3  # tables waiting for players made from one address
    waiting_per_account: int = 2  # ... and by one account
    waiting_minutes: float = 10.0  # then a table still waiting is closed (tables/expiry.py)
    odds_per_minute: float = 30.0  # GET /api/odds per client address (answers are cached)
    odds_burst: int = 20
    reviews_per_minute: float = 30.0  # game reviews and practice sets per client address
    reviews_burst: int = 20
    logins_per_minute: float = 10.0  # password tries per client address
    logins_burst: int = 10
    name_tries_per_minute: float = 2.0  # wrong passwords per (account name, address)
    name_tries_burst: int = 5
    name_failures_per_hour: float = 30.0  # wrong passwords per account name, all addresses
    registrations_per_hour: float = 6.0  # new named accounts per client address
    registrations_burst: int = 3
    sockets_per_address: int = 32  # open WebSockets (players and spectators) per address
    sockets_per_account: int = 16  # ... per logged-in account
    lobby_page: int = 100  # tables in one page of GET /api/tables

    @classmethod
    def generous(cls, n: int = 1_000_000) -> Limits:
        """Limits no test or benchmark on one address will meet."""
        return cls(
            tables_per_minute=n,
            tables_burst=n,
            joins_per_minute=n,
            joins_burst=n,
            max_waiting_tables=n,
            waiting_per_address=n,
            waiting_per_account=n,
            odds_per_minute=n,
            odds_burst=n,
            reviews_per_minute=n,
            reviews_burst=n,
            logins_per_minute=n,
            logins_burst=n,
            name_tries_per_minute=n,
            name_tries_burst=n,
            name_failures_per_hour=n,
            registrations_per_hour=n,
            registrations_burst=n,
            sockets_per_address=n,
            sockets_per_account=n,
        )


class Limiter:
    """Where the budgets are counted: this process, or a site's Redis (`redis_url`)."""

    def __init__(self, redis_url: str | None = None, prefix: str = "dicehall-limits") -> None:
        storage: Storage
        if redis_url is None:
            storage = MemoryStorage()
        else:
            uri = redis_url if redis_url.startswith("async+") else f"async+{redis_url}"
            storage = RedisStorage(uri, implementation="redispy", key_prefix=prefix)
        self.storage = storage
        self.strategy = SlidingWindowCounterRateLimiter(storage)
        self.shared = redis_url is not None

    def budget(self, per_minute: float, burst: int, what: str) -> Budget:
        return Budget(self, per_minute, burst, what)


def window(per_minute: float, burst: int) -> RateLimitItem:
    """`burst` at once and `per_minute` in the long run, as one sliding window."""
    seconds = max(1, round(burst * 60 / per_minute))
    return RateLimitItemPerSecond(burst, seconds)


class Budget:
    """One kind of request's budget, counted per key (an address, a name, an account)."""

    def __init__(self, limiter: Limiter, per_minute: float, burst: int, what: str) -> None:
        self.limiter = limiter
        self.item = window(per_minute, burst)
        self.what = what
        self.per_minute = per_minute
        self.burst = burst

    async def check(self, key: str, whose: str = "your address") -> None:
        """Spend one request of `key`, or raise TooManyRequests."""
        if not await self._call(self.limiter.strategy.hit, key):
            raise self.refusal(await self.retry_after(key), whose)

    async def allows(self, key: str) -> bool:
        """Whether `key` has a request left, spending none."""
        return await self._call(self.limiter.strategy.test, key)

    async def spend(self, key: str) -> None:
        """Spend one request of `key`, over budget or not (a failure counted after the fact)."""
        await self._call(self.limiter.strategy.hit, key)

    async def used(self, key: str) -> bool:
        """Whether `key` has spent anything in the window."""
        try:
            stats = await self.limiter.strategy.get_window_stats(self.item, self.what, key)
        except Exception:
            return True
        return stats.remaining < self.item.amount

    async def retry_after(self, key: str) -> int:
        try:
            stats = await self.limiter.strategy.get_window_stats(self.item, self.what, key)
        except Exception:
            return self.item.get_expiry()
        return max(1, math.ceil(stats.reset_time - time.time()))

    def refusal(self, retry: int, whose: str = "your address") -> TooManyRequests:
        return TooManyRequests(
            f"too many {self.what} from {whose}: at most {self.burst} at once and "
            f"{self.per_minute:g} a minute; try again in {retry} s",
            retry,
        )

    async def _call(self, how: Callable[..., Awaitable[bool]], key: str) -> bool:
        try:
            return bool(await how(self.item, self.what, key))
        except Exception as e:  # Redis unreachable: refuse rather than wave through
            log.warning("the limits' store did not answer: %s", type(e).__name__)
            raise LimitsUnavailable(
                "the server cannot check its limits right now; try again shortly"
            ) from e


class Caps:
    """How many of a thing each key holds at once (sockets per address, per account): a
    cap, not a rate. Counted in this process; a socket lives in the process it opened."""

    def __init__(self, cap: int, what: str) -> None:
        self.cap = cap
        self.what = what
        self.held: dict[str, int] = {}

    def take(self, key: str) -> bool:
        if self.held.get(key, 0) >= self.cap:
            return False
        self.held[key] = self.held.get(key, 0) + 1
        return True

    def give_back(self, key: str) -> None:
        left = self.held.get(key, 0) - 1
        if left > 0:
            self.held[key] = left
        else:
            self.held.pop(key, None)
