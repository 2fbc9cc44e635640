"""How much one client may ask of the server.

Creating a table costs a database row, a room code and memory for as long
as it waits; nothing else stops one client from opening thousands. So each
client address gets a token bucket for new tables, one for joins (joins
are also how room codes would be guessed) and one for odds requests (each
new query is seconds of a worker's time), and the number of tables waiting
for players is capped overall. A request over a limit answers 429 with a
Retry-After header and says which limit it met. The WebSocket's per-connection
message limit is the same bucket.

The address is the connection's peer: behind a reverse proxy every client
shares the proxy's address unless uvicorn is told to trust its forwarded
headers (`--proxy-headers`, `--forwarded-allow-ips`).

Login attempts have buckets of their own (account_api.py): per address, and
per account name, so that many addresses cannot guess one password faster.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

MAX_ADDRESSES = 10_000  # buckets remembered per limit; full (idle) ones are forgotten first


class TooManyRequests(Exception):
    """A limit was met (429); retry_after is in whole seconds."""

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class TokenBucket:
    """`burst` requests at once, refilled at `rate` a second."""

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
    waiting_minutes: float = 30.0  # then a table still waiting is closed (expiry.py)
    odds_per_minute: float = 30.0  # GET /api/odds per client address (answers are cached)
    odds_burst: int = 20
    logins_per_minute: float = 10.0  # login attempts per client address, and per account name
    logins_burst: int = 5

    @classmethod
    def generous(cls, n: int = 1_000_000) -> Limits:
        """Limits no test or benchmark on one address will meet."""
        return cls(
            tables_per_minute=n,
            tables_burst=n,
            joins_per_minute=n,
            joins_burst=n,
            max_waiting_tables=n,
            odds_per_minute=n,
            odds_burst=n,
            logins_per_minute=n,
            logins_burst=n,
        )


class PerAddress:
    """One token bucket per client address for one kind of request."""

    def __init__(self, per_minute: float, burst: int, what: str) -> None:
        self.rate = per_minute / 60
        self.burst = burst
        self.what = what
        self.per_minute = per_minute
        self.buckets: dict[str, TokenBucket] = {}

    def check(self, address: str) -> None:
        """Spend one request of `address`, or raise TooManyRequests."""
        bucket = self.buckets.get(address)
        if bucket is None:
            self._forget_idle()
            bucket = self.buckets[address] = TokenBucket(self.rate, self.burst)
        if bucket.allow():
            return
        wait = bucket.wait()
        retry = math.ceil(wait) if math.isfinite(wait) else 3600
        raise TooManyRequests(
            f"too many {self.what} from your address: at most {self.burst} at once and "
            f"{self.per_minute:g} a minute; try again in {retry} s",
            retry,
        )

    def _forget_idle(self) -> None:
        if len(self.buckets) < MAX_ADDRESSES:
            return
        for address in [a for a, b in self.buckets.items() if b.full()]:
            del self.buckets[address]
        while len(self.buckets) >= MAX_ADDRESSES:  # all busy: the oldest start afresh
            del self.buckets[next(iter(self.buckets))]
