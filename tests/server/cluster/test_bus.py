"""The bus between a site's processes, on a real Redis."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from redis.asyncio import Redis

from dicehall.server.cluster.bus import Bus, listener_for


def test_an_idle_bus_keeps_listening_past_the_clients_read_timeout(redis_url: str) -> None:
    """A site is idle most of the time: a subscription quiet for longer than the
    publishing client's read timeout still hears the next message, with no error and
    no reconnect (redis-py 5.2 ended such a `listen()` with a timeout)."""

    async def run() -> tuple[list[dict[str, Any]], int]:
        heard: list[dict[str, Any]] = []
        errors = 0

        def on_error() -> None:
            nonlocal errors
            errors += 1

        publisher = Redis.from_url(redis_url, socket_timeout=0.3)
        bus = Bus(
            publisher, listener_for(redis_url), "a", "bus-test:", heard.append,
            lambda conn, text: None, on_error,
        )  # fmt: skip
        await bus.start()
        try:
            await asyncio.sleep(1.2)  # four read timeouts of the publishing client
            await bus.send_now("a", {"kind": "hello"})
            for _ in range(100):
                if heard:
                    break
                await asyncio.sleep(0.02)
        finally:
            await bus.stop()
            await publisher.aclose()
        return heard, errors

    # a thread of its own: a browser test in this worker may hold a running loop here
    with ThreadPoolExecutor(1) as thread:
        heard, errors = thread.submit(asyncio.run, run()).result()
    assert heard == [{"kind": "hello"}]
    assert errors == 0
