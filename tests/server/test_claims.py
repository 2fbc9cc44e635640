"""Claiming seats taken before accounts existed, by their seat tokens: the old database's
seats (data/old_database.*, written by the server before accounts) become an account's,
finished games join its history unrated, and every refusal changes nothing."""

from __future__ import annotations

import random
from typing import Any

from fastapi.testclient import TestClient

from tests.server.databases import CHEAP, db_url
from tests.server.helpers import Conn, create, drive, running
from tests.server.test_accounts import register, server
from tests.server.test_migrations import SEATS, load_old_database

__all__ = ["db_url"]  # the fixture


def claim(client: TestClient, seat: dict[str, Any], token: str | None = None) -> Any:
    body = {"seat_token": token or seat["token"]}
    return client.post(f"/api/tables/{seat['table_id']}/claim", json=body)


def record(client: TestClient, table_id: str) -> dict[str, Any]:
    data: dict[str, Any] = client.get(f"/api/tables/{table_id}/record").json()
    return data


def test_seats_from_before_accounts_are_claimed_by_their_tokens(db_url: str) -> None:
    load_old_database(db_url)
    finished, kariki = SEATS["finished"], SEATS["kariki"]
    with running(db_url, None, config=CHEAP) as client:
        assert record(client, finished["table_id"])["seats"] == []  # no result was kept
        assert claim(client, finished).status_code == 401  # not logged in
        register(client, "Pat")
        wrong = claim(client, finished, "not-the-token")
        assert wrong.status_code == 403 and "holds no seat" in wrong.json()["detail"]
        assert claim(client, finished, kariki["token"]).status_code == 403  # another table's
        assert client.get("/api/players/Pat").json()["games"] == []
        done = claim(client, finished)
        assert done.status_code == 200, done.text
        assert done.json() == {"table_id": finished["table_id"], "seat": 0, "claimed": True}
        assert claim(client, finished).json()["claimed"] is False  # already the account's
        (game,) = client.get("/api/players/Pat").json()["games"]
        assert (game["table_id"], game["seat"], game["rated"]) == (finished["table_id"], 0, False)
        kept = record(client, finished["table_id"])
        assert kept["result"] is not None and kept["rated"] is False
        assert kept["seats"][0]["account"] == {"name": "Pat", "kind": "human"}
        assert all(s["before"] is None for s in kept["seats"])  # no rating after the fact

        # an unfinished game claimed now is recorded under the account when it ends
        assert claim(client, kariki).json()["claimed"] is True
        url = f"/ws/tables/{kariki['table_id']}?token={kariki['token']}"
        with client.websocket_connect(url) as ws:
            drive([Conn(ws, 0)], random.Random(5))
        assert record(client, kariki["table_id"])["seats"][0]["account"]["name"] == "Pat"

        # another account cannot take them over
        client.post("/api/account/logout")
        register(client, "Quin")
        taken = claim(client, finished)
        assert taken.status_code == 409 and "another account's" in taken.json()["detail"]
        assert record(client, finished["table_id"])["seats"][0]["account"]["name"] == "Pat"
        assert client.get("/api/players/Quin").json()["games"] == []


def test_one_account_claims_one_seat_of_a_rated_table(db_url: str) -> None:
    with server(db_url) as client:
        register(client, "Rae")
        mine = client.cookies.get("dicehall_session")
        table = create(client, "duel", rated=True)  # two seats for people: Rae holds seat 0
        tid = table["table_id"]
        client.cookies.clear()
        other = client.post(f"/api/tables/{tid}/join", json={"name": "Sol"}).json()
        hall: Any = client.app.state.hall  # type: ignore[attr-defined]
        hall.live[tid].record.players[1].pop("account")  # as if taken before accounts
        client.cookies.set("dicehall_session", mine or "")
        refused = claim(client, other)
        assert refused.status_code == 409
        assert "you hold seat 0 of this rated table" in refused.json()["detail"]
        assert "account" not in hall.live[tid].record.players[1]
