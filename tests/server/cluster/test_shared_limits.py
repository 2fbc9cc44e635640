"""The processes of one site count a client's budgets in their Redis: one budget, not one
per process."""

from __future__ import annotations

import secrets

import pytest

from dicehall.server.ops.limits import Limiter, TooManyRequests
from tests.aio import run


def test_budgets_are_shared_by_the_processes_of_a_site(redis_url: str) -> None:
    """Two processes (two limiters on one Redis): a client meets one budget, not two."""
    prefix = f"test-{secrets.token_hex(4)}"
    one = Limiter(redis_url, prefix).budget(per_minute=6, burst=2, what="new tables")
    two = Limiter(redis_url, prefix).budget(per_minute=6, burst=2, what="new tables")

    async def go() -> None:
        await one.check("198.51.100.7")
        await two.check("198.51.100.7")
        with pytest.raises(TooManyRequests):
            await one.check("198.51.100.7")
        with pytest.raises(TooManyRequests):
            await two.check("198.51.100.7")

    run(go())
