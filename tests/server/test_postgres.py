"""The server on PostgreSQL: the restart and whole-game scenarios of the SQLite
suite, run against the database named by DICEHALL_TEST_PG_URL, e.g.

    DICEHALL_TEST_PG_URL=postgresql+psycopg://dicehall:dicehall@127.0.0.1/dicehall_test

Each test starts from empty tables: the database must be one you can wipe.
Skipped when the variable is not set; `.ci/run` starts a cluster and sets it.
"""

from __future__ import annotations

import os
import random
from collections.abc import Iterator, Mapping

import pytest
from sqlalchemy import create_engine, text

from dicehall.core.game import Game
from dicehall.server.tables.store import DatabaseInUse, Store
from tests.server.databases import wipe
from tests.server.helpers import CASES, Conn, create, drive, receive, running
from tests.server.scenarios import (
    full_game_leaks_nothing,
    odd_ids_are_not_found,
    restart_mid_game_then_finish,
)

PG_URL = os.environ.get("DICEHALL_TEST_PG_URL")

pytestmark = pytest.mark.skipif(
    not PG_URL, reason="set DICEHALL_TEST_PG_URL to a PostgreSQL URL to run these"
)

IDS = [c[0] for c in CASES]


@pytest.fixture
def pg_url() -> Iterator[str]:
    """The test database, emptied of the server's tables before each test."""
    assert PG_URL is not None
    wipe(PG_URL)
    yield PG_URL


@pytest.mark.parametrize(("gid", "games"), CASES, ids=IDS)
def test_restart_mid_game_then_finish(
    pg_url: str, gid: str, games: Mapping[str, type[Game]] | None
) -> None:
    restart_mid_game_then_finish(pg_url, gid, games)


@pytest.mark.parametrize(("gid", "games"), CASES, ids=IDS)
@pytest.mark.parametrize("humans", [1, 2])
def test_full_game_leaks_nothing(
    pg_url: str, gid: str, games: Mapping[str, type[Game]] | None, humans: int
) -> None:
    full_game_leaks_nothing(pg_url, gid, games, humans)


def test_odd_ids_are_not_found(pg_url: str) -> None:
    odd_ids_are_not_found(pg_url)


def test_play_goes_on_after_the_database_drops_its_connections(pg_url: str) -> None:
    """A PostgreSQL restart (or an idle-connection reaper) kills the server's pooled
    connections mid-game: the next step reconnects, and nothing stored is lost."""
    with running(pg_url) as client:
        table = create(client, "duel", bots={1: "random"})
        tid = table["table_id"]
        with client.websocket_connect(f"/ws/tables/{tid}?token={table['token']}") as ws:
            m = receive(ws)
            while not m.get("legal"):
                m = receive(ws)
            killer = create_engine(pg_url)
            with killer.connect() as db:
                killed = db.execute(
                    text(
                        "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
                        " WHERE datname = current_database() AND pid <> pg_backend_pid()"
                    )
                ).scalar()
            killer.dispose()
            assert killed
            ws.send_json({"type": "action", "step": m["step"], "action": m["legal"][0]["action"]})
            ws.send_json({"type": "ping"})  # answered once the move is stored and sent
            while m["type"] != "pong":
                m = receive(ws)
                assert m["type"] != "error", m
        with client.websocket_connect(f"/ws/tables/{tid}?token={table['token']}") as ws:
            drive([Conn(ws, 0)], random.Random(5))
        report = client.get(f"/api/tables/{tid}/verify").json()
    assert report["ok"], report


def test_a_second_server_on_the_same_database_refuses_to_start(pg_url: str) -> None:
    """Each server plays its unfinished tables from memory: two would play them twice."""
    first = Store(pg_url)
    try:
        with pytest.raises(DatabaseInUse, match="another dicehall server"):
            Store(pg_url)
    finally:
        first.close()
    Store(pg_url).close()  # free again once the first has closed
