"""A server stopped mid-game loses nothing: a new app on the same database
rebuilds every unfinished table from its steps and play goes on."""

from __future__ import annotations

import random
from collections.abc import Mapping
from pathlib import Path

import pytest

from dicehall.core.game import Game
from dicehall.server.catalog import Catalog
from tests.server.helpers import CASES, Conn, check_messages, create, drive, receive, running


@pytest.mark.parametrize(("gid", "games"), CASES, ids=[c[0] for c in CASES])
def test_restart_mid_game_then_finish(
    tmp_path: Path, gid: str, games: Mapping[str, type[Game]] | None
) -> None:
    db = tmp_path / "db.sqlite"
    catalog = Catalog(games)
    cls = catalog.game_class(gid)
    bot = next(iter(cls().bots()))
    rng = random.Random(gid)
    with running(db, games) as client:
        table = create(client, gid, bots={s: bot for s in range(1, cls.default_seats)})
        tid, token = table["table_id"], table["token"]
        url = f"/ws/tables/{tid}?token={token}"
        with client.websocket_connect(url) as ws:
            m = receive(ws)
            moves = 0
            while moves < 3 and m.get("status") != "over":
                if m["type"] in ("welcome", "update") and m["legal"]:
                    ws.send_json({"type": "action", "action": rng.choice(m["legal"])["action"]})
                    moves += 1
                m = receive(ws)
        before = client.get(f"/api/tables/{tid}").json()
    with running(db, games) as client:
        after = client.get(f"/api/tables/{tid}").json()
        assert after["step"] >= before["step"] and after["commitment"] == before["commitment"]
        assert [t["table_id"] for t in client.get("/api/tables").json()] == (
            [tid] if after["status"] != "over" else []
        )
        with client.websocket_connect(url) as ws:
            conn = Conn(ws, 0)
            drive([conn], rng)
        transcript = client.get(f"/api/tables/{tid}/transcript").json()
        report = client.get(f"/api/tables/{tid}/verify").json()
    assert report["ok"], report
    assert report["steps"] == len(transcript["steps"]) >= before["step"]
    check_messages(
        [conn], transcript, catalog.make(gid, transcript["seats"], transcript["options"])
    )


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
    from dicehall.server.store import Store, TableRecord

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
