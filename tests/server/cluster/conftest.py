"""The services of the site tests: one PostgreSQL and one Redis for the whole run."""

from __future__ import annotations

import os
import re
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
    """A Redis database of this test worker's own (pytest-xdist), since the site tests
    empty theirs: database 1 + the worker's number on the one Redis."""
    with redis_service() as url:
        if url is None:
            pytest.skip("no Redis: install Debian's redis-server (.ci/run does)")
        worker = re.fullmatch(r"gw(\d+)", os.environ.get("PYTEST_XDIST_WORKER", ""))
        if worker is not None:
            url = re.sub(r"(/\d*)?$", f"/{1 + int(worker[1])}", url, count=1)
        yield url
