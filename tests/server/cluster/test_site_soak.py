"""The longer variant (`make soak`): a table of every game in play on one process,
which is killed with SIGKILL; the other two share its tables, every client
reconnects, every game ends, and every transcript verifies with each seat's
messages checked against its view."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator

import pytest

from tests.server.cluster.site import NetConn, Server, closed, site
from tests.server.cluster.test_site import GAMES, check_finished, open_table, play_some
from tests.server.helpers import drive

pytestmark = pytest.mark.slow


@pytest.fixture
def servers(
    pg_site_url: str, redis_url: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[list[Server]]:
    with site(pg_site_url, redis_url, 3, tmp_path_factory.mktemp("soak")) as started:
        yield started


def test_every_table_of_a_killed_process_is_taken_over(
    servers: list[Server], pg_site_url: str
) -> None:
    first, rest = servers[0], servers[1:]
    rng = random.Random(2020)
    tables: list[tuple[str, list[NetConn]]] = []
    try:
        for game, seats, options in GAMES:
            table, conns = open_table(servers, game, seats, options)
            for conn in conns:
                if conn.server is first:
                    conn.reconnect(rest[0])
            tables.append((table["table_id"], conns))
        ended = {tid for tid, conns in tables if play_some(conns, rng, 3)}
        first.kill()
        began = time.monotonic()
        for table_id, conns in tables:
            if table_id in ended:
                continue
            for i, conn in enumerate(conns):
                assert closed(conn, 30) == 1012
                conn.reconnect(rest[i % 2])
            drive(conns, rng)
            for conn in conns:
                conn.ws.send_json({"type": "ping"})
                conn.read_until("pong")
        print(f"every table finished {time.monotonic() - began:.1f} s after the kill")
    finally:
        for _, conns in tables:
            for conn in conns:
                conn.close()
    for table_id, conns in tables:
        check_finished(pg_site_url, rest[0], table_id, conns)
