"""The services of the site tests: one PostgreSQL and one Redis for the whole run."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.server.cluster.site import postgres_service, redis_service


@pytest.fixture(scope="session")
def pg_site_url() -> Iterator[str]:
    with postgres_service() as url:
        if url is None:
            pytest.skip("no PostgreSQL: install Debian's postgresql (.ci/run does)")
        yield url


@pytest.fixture(scope="session")
def redis_url() -> Iterator[str]:
    with redis_service() as url:
        if url is None:
            pytest.skip("no Redis: install Debian's redis-server (.ci/run does)")
        yield url
