"""Table leases on a real Redis (server/cluster/lease.py): one holder at a time, renewed
by it alone, lapsing on their own, released only by their holder."""

from __future__ import annotations

import asyncio

from redis.asyncio import Redis

from dicehall.server.cluster.lease import Leases
from tests.aio import run


async def _leases(url: str) -> None:
    redis = Redis.from_url(url)
    try:
        await redis.delete("test:lease:t1", "test:lease:t2")
        a = Leases(redis, "node-a", "test:", seconds=0.3)
        b = Leases(redis, "node-b", "test:", seconds=0.3)
        assert await a.acquire("t1")
        assert not await b.acquire("t1")  # held: nobody else takes it
        assert await b.owner("t1") == "node-a"
        assert await a.renew(["t1"]) == []
        assert await b.renew(["t1"]) == ["t1"]  # b learns it does not hold t1
        assert await b.owner("t1") == "node-a"  # ... and changed nothing
        assert await b.release(["t1"]) == 0
        await asyncio.sleep(0.5)  # a stops renewing: the lease lapses by itself
        assert await a.owners(["t1", "t2"]) == [None, None]
        assert await b.acquire("t1")
        assert await a.renew(["t1"]) == ["t1"]  # a stalled past its lease: lost
        assert await b.renew(["t2"]) == []  # a lease nobody held is taken by renewing
        assert await a.owner("t2") == "node-b"
        assert await b.release(["t1", "t2"]) == 2
        assert await a.owners(["t1", "t2"]) == [None, None]
    finally:
        await redis.delete("test:lease:t1", "test:lease:t2")
        await redis.aclose()


def test_a_lease_has_one_holder_and_lapses_without_it(redis_url: str) -> None:
    run(_leases(redis_url))
