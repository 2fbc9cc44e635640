"""A server stopped mid-game loses nothing: a new app on the same database
rebuilds every unfinished table from its steps and play goes on."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import pytest

from dicehall.core.game import Game
from tests.server.helpers import (
    CASES,
    create,
    receive,
    running,
    sqlite_url,
)
from tests.server.scenarios import restart_mid_game_then_finish


@pytest.mark.parametrize(("gid", "games"), CASES, ids=[c[0] for c in CASES])
def test_restart_mid_game_then_finish(
    tmp_path: Path, gid: str, games: Mapping[str, type[Game]] | None
) -> None:
    restart_mid_game_then_finish(sqlite_url(tmp_path), gid, games)


def test_a_waiting_table_survives_a_restart_and_starts_on_the_last_join(tmp_path: Path) -> None:
    db = tmp_path / "db.sqlite"
    with running(db) as client:
        table = create(client, "duel", bots={2: "random"}, seats=3)
    with running(db) as client:
        tid = table["table_id"]
        assert client.get(f"/api/tables/{tid}").json()["status"] == "waiting"
        joined = client.post(f"/api/rooms/{table['room']}/join", json={"name": "Late"})
        assert joined.json()["seat"] == 1
        assert client.get(f"/api/tables/{tid}").json()["status"] == "playing"
        with client.websocket_connect(f"/ws/tables/{tid}?token={table['token']}") as ws:
            assert receive(ws)["seat"] == 0


def test_a_table_whose_game_is_gone_does_not_stop_the_others(tmp_path: Path) -> None:
    db = tmp_path / "db.sqlite"
    with running(db) as client:
        kept = create(client, "duel", bots={1: "random"})
    from dicehall.server.tables.store import Store, TableRecord

    store = Store(f"sqlite:///{db}")
    record = store.get(kept["table_id"])
    assert record is not None
    store.insert(TableRecord(**{**record.row(), "id": "gone", "room": "GONE22", "game": "chess"}))
    store.close()
    with running(db) as client:
        listed = [t["table_id"] for t in client.get("/api/tables").json()]
        gone = client.get("/api/tables/gone")
    assert listed == [kept["table_id"]]
    assert gone.status_code == 404 and "unknown game 'chess'" in gone.json()["detail"]
