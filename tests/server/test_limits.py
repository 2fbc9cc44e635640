"""Limits on creating and joining tables: per client address, and on waiting tables overall."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from dicehall.server import create_app, limits
from dicehall.server.limits import Limits, PerAddress, TooManyRequests
from tests.server.helpers import create, running

TIGHT = Limits(tables_per_minute=6, tables_burst=3, joins_per_minute=6, joins_burst=2)


def test_one_address_may_create_only_its_burst_of_tables(tmp_path: Path) -> None:
    with running(tmp_path / "db.sqlite", limits=TIGHT) as client:
        for _ in range(3):
            create(client, "duel")
        refused = client.post("/api/tables", json={"game": "duel"})
        assert refused.status_code == 429
        assert "too many new tables from your address" in refused.json()["detail"]
        assert "6 a minute" in refused.json()["detail"]
        assert 1 <= int(refused.headers["Retry-After"]) <= 10
        assert len(client.get("/api/tables").json()) == 3
        other = TestClient(client.app, client=("203.0.113.9", 4000))
        assert other.post("/api/tables", json={"game": "duel"}).status_code == 200


def test_joins_are_limited_per_address_found_or_not(tmp_path: Path) -> None:
    with running(tmp_path / "db.sqlite", limits=TIGHT) as client:
        table = create(client, "duel", seats=3)
        assert client.post("/api/rooms/ZZZZZZ/join", json={}).status_code == 404
        assert client.post(f"/api/tables/{table['table_id']}/join", json={}).status_code == 200
        refused = client.post(f"/api/rooms/{table['room']}/join", json={})
        assert refused.status_code == 429 and "too many joins" in refused.json()["detail"]
        other = TestClient(client.app, client=("203.0.113.9", 4000))
        assert other.post(f"/api/rooms/{table['room']}/join", json={}).status_code == 200
        assert client.get(f"/api/tables/{table['table_id']}").json()["status"] == "playing"


def test_waiting_tables_are_capped_overall(tmp_path: Path) -> None:
    cap = replace(Limits.generous(), max_waiting_tables=2)
    with running(tmp_path / "db.sqlite", limits=cap) as client:
        first = create(client, "duel")
        create(client, "duel", bots={1: "random"})  # starts at once: not waiting
        create(client, "duel")
        refused = client.post("/api/tables", json={"game": "duel"})
        assert refused.status_code == 429
        assert "2 tables waiting for players" in refused.json()["detail"]
        client.post(f"/api/tables/{first['table_id']}/join", json={"name": "Bo"})
        create(client, "duel")  # the first table started: room for one more


def test_the_defaults_allow_a_person_and_stop_a_script(tmp_path: Path) -> None:
    app = create_app(f"sqlite:///{tmp_path / 'db.sqlite'}")
    with TestClient(app) as client:
        codes = [
            client.post("/api/tables", json={"game": "kariki", "bot_delay_ms": 0}).status_code
            for _ in range(20)
        ]
    assert codes[:10] == [200] * 10 and 429 in codes


def test_buckets_refill_and_idle_addresses_are_forgotten(monkeypatch: pytest.MonkeyPatch) -> None:
    clock = [1000.0]
    monkeypatch.setattr(limits.time, "monotonic", lambda: clock[0])
    monkeypatch.setattr(limits, "MAX_ADDRESSES", 3)
    per = PerAddress(per_minute=6, burst=1, what="new tables")
    per.check("a")
    with pytest.raises(TooManyRequests) as refused:
        per.check("a")
    assert refused.value.retry_after == 10
    clock[0] += 10
    per.check("a")  # one refilled
    per.check("b")
    per.check("c")
    clock[0] += 60  # a, b and c are idle again: the next address makes room
    per.check("d")
    assert list(per.buckets) == ["d"]
