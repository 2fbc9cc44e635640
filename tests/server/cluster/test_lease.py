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


async def _ladder_turns(url: str) -> None:
    from dicehall.server.cluster.node import Node

    a, b = (Node(url, None, "test-ladder:") for _ in range(2))  # type: ignore[arg-type]
    try:
        await a.redis.delete("test-ladder:ladder")
        assert await a.ladder_turn(0.3)
        assert not await b.ladder_turn(0.3)  # one node of the site opens each ladder table
        assert not await a.ladder_turn(0.3)
        await asyncio.sleep(0.5)
        assert await b.ladder_turn(0.3)  # the next interval: whoever asks first
    finally:
        await a.redis.delete("test-ladder:ladder")
        for node in (a, b):
            await node.redis.aclose()


def test_one_node_of_a_site_takes_each_turn_of_the_ladder(redis_url: str) -> None:
    run(_ladder_turns(redis_url))
