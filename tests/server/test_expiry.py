"""Stale tables and the default timer, on a fake clock: waiting tables expire and leave the
lobby, private tables are never listed, room lookups are limited like joins, and listed
tables get a turn timer with a time bank (Kariki: K8's slash when it all runs out)."""

from __future__ import annotations

import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from dicehall.games import game_ids
from dicehall.server.ops.limits import Limits
from dicehall.server.tables.hall import Hall
from dicehall.server.tables.house_rules import DEFAULT_TURN_SECONDS
from dicehall.server.tables.live import LiveTable
from dicehall.server.tables.timebank import TimeBanks
from tests.server.helpers import Conn, create, receive, running

MINUTE = 60.0


def hall_of(client: TestClient) -> Hall:
    hall: Hall = client.app.state.hall  # type: ignore[attr-defined]
    return hall


def in_loop(client: TestClient, fn: Any, *args: Any) -> Any:
    """Run fn on the server's event loop, where every table's work runs."""
    assert client.portal is not None
    return client.portal.call(fn, *args)


def test_a_waiting_table_expires_and_leaves_the_lobby(tmp_path: Path) -> None:
    db = tmp_path / "db.sqlite"
    with running(db) as client:
        waiting = create(client, "duel")  # two seats, one free: waiting
        playing = create(client, "duel", bots={1: "random"}, bot_delay_ms=10_000)
        listed = {t["table_id"] for t in client.get("/api/tables").json()}
        assert listed == {waiting["table_id"], playing["table_id"]}
        hall = hall_of(client)
        made = hall.live[waiting["table_id"]].record.created
        url = f"/ws/tables/{waiting['table_id']}?token={waiting['token']}"
        with client.websocket_connect(url) as ws:
            conn = Conn(ws, 0)
            conn.read_until("welcome")
            assert in_loop(client, hall.expire, made + 9 * MINUTE) == []  # not yet
            assert in_loop(client, hall.expire, made + 11 * MINUTE) == [waiting["table_id"]]
            told = conn.read_until("notice")
            assert told["kind"] == "closed" and "within 10 minutes" in told["text"]
        assert [t["table_id"] for t in client.get("/api/tables").json()] == [playing["table_id"]]
        assert client.get(f"/api/tables/{waiting['table_id']}").json()["status"] == "closed"
        joined = client.post(f"/api/tables/{waiting['table_id']}/join", json={})
        assert joined.status_code == 409
    with running(db) as client:  # a closed table is not resumed
        assert waiting["table_id"] not in hall_of(client).live
        assert client.get(f"/api/tables/{waiting['table_id']}").json()["status"] == "closed"


@pytest.mark.usefixtures("window_start")
def test_expiry_frees_the_cap_on_waiting_tables(tmp_path: Path) -> None:
    limits = replace(Limits.generous(), waiting_per_address=3)
    with running(tmp_path / "db.sqlite", limits=limits) as client:
        for _ in range(3):
            create(client, "duel")
        assert client.post("/api/tables", json={"game": "duel"}).status_code == 429
        in_loop(client, hall_of(client).expire, time.time() + 11 * MINUTE)
        assert client.post("/api/tables", json={"game": "duel"}).status_code == 200


def test_private_tables_are_not_listed_but_their_room_finds_them(tmp_path: Path) -> None:
    with running(tmp_path / "db.sqlite") as client:
        public = create(client, "duel")
        private = create(client, "duel", listed=False)
        listed = client.get("/api/tables").json()
        assert [t["table_id"] for t in listed] == [public["table_id"]]
        assert private["room"] not in str(listed)
        found = client.get(f"/api/rooms/{private['room']}").json()
        assert found["table_id"] == private["table_id"] and not found["settings"]["listed"]


@pytest.mark.usefixtures("window_start")
def test_room_lookups_are_limited_like_joins(tmp_path: Path) -> None:
    limits = Limits(1000, 1000, joins_per_minute=6, joins_burst=2)
    with running(tmp_path / "db.sqlite", limits=limits) as client:
        room = create(client, "duel")["room"]
        assert client.get(f"/api/rooms/{room}").status_code == 200
        assert client.get("/api/rooms/ZZZZZZ").status_code == 404
        refused = client.get(f"/api/rooms/{room}")
        assert refused.status_code == 429 and "too many joins" in refused.json()["detail"]


def test_listed_tables_get_a_turn_timer_by_default(tmp_path: Path) -> None:
    with running(tmp_path / "db.sqlite") as client:

        def timer(**body: Any) -> tuple[float | None, float]:
            info = client.get(f"/api/tables/{create(client, 'duel', **body)['table_id']}").json()
            return info["turn_seconds"], info["time_bank"]["seconds"]

        assert timer() == (DEFAULT_TURN_SECONDS, DEFAULT_TURN_SECONDS / 2)
        assert timer(turn_seconds=20) == (20, 10)
        assert timer(listed=False) == (None, 0)  # a private table keeps the host's choice
        assert timer(listed=False, turn_seconds=30, time_bank_seconds=5) == (30, 5)


def test_the_time_bank_is_spent_only_past_the_turns_time() -> None:
    banks = TimeBanks(30)
    assert banks.draw(0, now=100.0) == 30  # the turn's time ran out at 100
    banks.stop(0, now=112.5)  # moved 12.5 s into the bank
    assert banks.remaining(0) == 17.5 and banks.remaining(1) == 30
    banks.stop(0, now=200.0)  # a move within the turn's own time costs nothing
    assert banks.remaining(0) == 17.5
    assert banks.draw(0, now=300.0) == 17.5
    banks.stop(0, now=400.0)  # all of it, and more: the timeout follows
    assert banks.remaining(0) == 0 and banks.draw(0, now=500.0) == 0
    assert banks.to_json() == {"0": 0.0}


@pytest.mark.skipif("kariki" not in game_ids(), reason="Kariki is not installed")
def test_kariki_default_timer_spends_the_bank_then_slashes(tmp_path: Path) -> None:
    """On a fake clock: a listed Kariki table's seat that does not move gets its time bank,
    then the timeout, which is a slash (K8)."""
    now = [1_000_000.0]
    with running(tmp_path / "db.sqlite", games=None) as client:
        table = create(client, "kariki", seats=3, bots={1: "heuristic", 2: "heuristic"})
        live: LiveTable = hall_of(client).live[table["table_id"]]
        url = f"/ws/tables/{table['table_id']}?token={table['token']}"
        with client.websocket_connect(url) as ws:
            m = receive(ws)
            while not (m["type"] in ("welcome", "update") and m["legal"]):
                m = receive(ws)
            in_loop(client, setattr, live, "clock", lambda: now[0])
            now[0] += DEFAULT_TURN_SECONDS
            in_loop(client, live._expire, 0)  # the turn's 60 s are up
            m = receive(ws)
            while m["type"] != "clock":
                m = receive(ws)
            assert m["deadlines"] == {"0": now[0] + DEFAULT_TURN_SECONDS / 2}
            now[0] += DEFAULT_TURN_SECONDS / 2
            in_loop(client, live._expire, 0)  # and the bank's 30 s
            while not (m["type"] == "update" and m["events"]):
                m = receive(ws)
            assert m["events"][0]["type"] == "slash" and m["events"][0]["seat"] == 0
            assert live.steps[m["from_step"]] == {"seat": 0, "timeout": True}
            assert live.banks.remaining(0) == 0
