"""Limits on creating and joining tables: per client address, on waiting tables per address,
per account and overall, and the lobby in pages."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from dicehall.server import create_app
from dicehall.server.ops.limits import Limiter, Limits, TooManyRequests
from tests.aio import run
from tests.server.helpers import create, running

pytestmark = pytest.mark.usefixtures("window_start")

TIGHT = replace(
    Limits.generous(), tables_per_minute=6, tables_burst=3, joins_per_minute=6, joins_burst=2
)


def test_one_address_may_create_only_its_burst_of_tables(tmp_path: Path) -> None:
    with running(tmp_path / "db.sqlite", limits=TIGHT) as client:
        for _ in range(3):
            create(client, "duel")
        refused = client.post("/api/tables", json={"game": "duel"})
        assert refused.status_code == 429
        assert "too many new tables from your address" in refused.json()["detail"]
        assert "6 a minute" in refused.json()["detail"]
        assert 1 <= int(refused.headers["Retry-After"]) <= 30  # the window: 3 per 30 s
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


def test_the_waiting_cap_makes_room_rather_than_lock_a_new_client_out(tmp_path: Path) -> None:
    cap = replace(Limits.generous(), max_waiting_tables=2)
    with running(tmp_path / "db.sqlite", limits=cap) as client:
        first = create(client, "duel")
        create(client, "duel", bots={1: "random"})  # starts at once: not waiting
        create(client, "duel")
        other = TestClient(client.app, client=("203.0.113.9", 4000))
        newcomer = other.post("/api/tables", json={"game": "duel"})
        assert newcomer.status_code == 200  # the full server still lets a new client in
        closed = client.get(f"/api/tables/{first['table_id']}").json()
        assert closed["status"] == "closed"  # the oldest table of the biggest holder made room
        waiting = [t for t in client.get("/api/tables").json() if t["status"] == "waiting"]
        assert len(waiting) == 2


def test_waiting_tables_are_capped_per_address_and_per_account(tmp_path: Path) -> None:
    cap = replace(Limits.generous(), waiting_per_address=2, waiting_per_account=1)
    with running(tmp_path / "db.sqlite", limits=cap) as client:
        create(client, "duel")  # the client is now a guest account with one waiting table
        refused = client.post("/api/tables", json={"game": "duel"})
        assert refused.status_code == 429
        assert "you have 1 tables waiting" in refused.json()["detail"]
        fresh = TestClient(client.app)  # the same address, no cookie: another guest
        create(fresh, "duel")
        third = TestClient(client.app).post("/api/tables", json={"game": "duel"})
        assert third.status_code == 429
        assert "made from your address" in third.json()["detail"]
        elsewhere = TestClient(client.app, client=("203.0.113.9", 4000))
        assert elsewhere.post("/api/tables", json={"game": "duel"}).status_code == 200
        create(client, "duel", bots={1: "random"})  # in play at once: never waiting


def test_the_lobby_list_comes_in_pages(tmp_path: Path) -> None:
    page = replace(Limits.generous(), lobby_page=2)
    with running(tmp_path / "db.sqlite", limits=page) as client:
        ids = [create(client, "duel")["table_id"] for _ in range(5)]
        first = client.get("/api/tables")
        assert [t["table_id"] for t in first.json()] == ids[:2]
        assert first.headers["X-Total-Count"] == "5"
        rest = client.get("/api/tables", params={"offset": 4}).json()
        assert [t["table_id"] for t in rest] == ids[4:]
        assert len(client.get("/api/tables", params={"limit": 3}).json()) == 2  # a page at most
        assert len(client.get("/api/tables", params={"limit": 1}).json()) == 1


def test_the_defaults_allow_a_person_and_stop_a_script(tmp_path: Path) -> None:
    app = create_app(f"sqlite:///{tmp_path / 'db.sqlite'}")
    body = {"game": "kariki", "seats": 2, "bot_delay_ms": 0, "bots": {"1": "random"}}
    with TestClient(app) as client:
        codes = [client.post("/api/tables", json=body).status_code for _ in range(20)]
        waiting = [client.post("/api/tables", json={"game": "kariki"}) for _ in range(4)]
    assert codes[:10] == [200] * 10 and 429 in codes
    assert [w.status_code for w in waiting][-1] == 429


def test_a_budget_refuses_past_its_burst_and_names_its_limit() -> None:
    budget = Limiter().budget(per_minute=6, burst=2, what="new tables")

    async def go() -> None:
        await budget.check("a")
        await budget.check("a")
        with pytest.raises(TooManyRequests) as refused:
            await budget.check("a")
        assert "at most 2 at once and 6 a minute" in str(refused.value)
        assert 1 <= refused.value.retry_after <= 20
        await budget.check("b")  # another address has its own

    run(go())
