"""Player accounts over HTTP: registration, login, logout, wrong passwords, the login
limit, the session cookie's flags, a guest claiming its games, account deletion, and
the WebSocket by session. On SQLite, and on PostgreSQL when its URL is given."""

from __future__ import annotations

import logging
import random
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from typing import Any

import pytest
from fastapi.testclient import TestClient

from dicehall.server.ops.limits import Limits
from tests.server.databases import CHEAP, db_url
from tests.server.helpers import Conn, create, drive, receive, running
from tests.server.rated import game_of, named

pytestmark = pytest.mark.usefixtures("window_start")

__all__ = ["db_url"]  # the fixture

PASSWORD = "correct horse battery"


@contextmanager
def server(url: str, **kw: Any) -> Iterator[TestClient]:
    kw.setdefault("config", CHEAP)
    with running(url, **kw) as client:
        yield client


def register(client: TestClient, name: str, password: str = PASSWORD) -> dict[str, Any]:
    answer = client.post("/api/account/register", json={"name": name, "password": password})
    assert answer.status_code == 200, answer.text
    data: dict[str, Any] = answer.json()
    return data


def me(client: TestClient) -> dict[str, Any] | None:
    account: dict[str, Any] | None = client.get("/api/account").json()["account"]
    return account


def play_out(client: TestClient, table: dict[str, Any], seed: int = 1) -> None:
    url = f"/ws/tables/{table['table_id']}?token={table['token']}"
    with client.websocket_connect(url) as ws:
        drive([Conn(ws, table["seat"])], random.Random(seed))


def test_registering_logs_in_with_an_httponly_samesite_cookie(db_url: str) -> None:
    with server(db_url) as client:
        answer = client.post("/api/account/register", json={"name": "Ann", "password": PASSWORD})
        cookie = answer.headers["set-cookie"]
        assert answer.status_code == 200
        assert answer.json()["account"]["name"] == "Ann"
        assert answer.json()["account"]["kind"] == "human"
        flags = [f.strip().lower() for f in cookie.split(";")]
        assert flags[0].startswith("dicehall_session=")
        assert "httponly" in flags and "samesite=lax" in flags and "path=/" in flags
        assert "secure" not in flags  # plain HTTP: a Secure cookie would never come back
        assert me(client) == answer.json()["account"]
        assert PASSWORD not in answer.text
        client.base_url = client.base_url.copy_with(scheme="https")
        client.cookies.clear()
        login = client.post("/api/account/login", json={"name": "ann", "password": PASSWORD})
        assert login.status_code == 200
        assert "secure" in [f.strip().lower() for f in login.headers["set-cookie"].split(";")]


def test_login_logout_and_a_wrong_password(db_url: str) -> None:
    with server(db_url) as client:
        account = register(client, "Bob")["account"]
        assert client.post("/api/account/logout").json() == {"account": None}
        assert me(client) is None
        wrong = client.post("/api/account/login", json={"name": "Bob", "password": "x" * 12})
        nobody = client.post("/api/account/login", json={"name": "Nobody", "password": PASSWORD})
        assert wrong.status_code == nobody.status_code == 401
        assert wrong.json() == nobody.json() == {"detail": "wrong name or password"}
        assert me(client) is None
        right = client.post("/api/account/login", json={"name": "BOB", "password": PASSWORD})
        assert right.status_code == 200 and right.json()["account"] == account
        assert me(client) == account
        # a session ended by logging out does not come back with its old cookie
        old = client.cookies.get("dicehall_session")
        client.post("/api/account/logout")
        client.cookies.set("dicehall_session", old or "")
        assert me(client) is None


def test_bad_names_and_passwords_are_refused_and_nothing_is_made(db_url: str) -> None:
    with server(db_url) as client:
        register(client, "Cleo")
        client.post("/api/account/logout")
        cases = [
            ({"name": "a", "password": PASSWORD}, 400, "a name is 2 to 24 characters"),
            ({"name": "two words", "password": PASSWORD}, 400, "a name is 2 to 24"),
            ({"name": "Dee", "password": "short"}, 400, "a password is 8 to 256 characters"),
            ({"name": "random", "password": PASSWORD}, 400, "the name 'random' is reserved"),
            ({"name": "CLEO", "password": PASSWORD}, 409, "the name 'CLEO' is taken"),
        ]
        for body, status, words in cases:
            answer = client.post("/api/account/register", json=body)
            assert answer.status_code == status, (body, answer.text)
            assert words in answer.json()["detail"]
        assert me(client) is None
        assert client.get("/api/players/Dee").status_code == 404
        assert client.post("/api/account/register", json={"name": "Dee"}).status_code == 422


def test_password_tries_are_limited_per_address(db_url: str) -> None:
    limits = replace(Limits.generous(), logins_burst=3, logins_per_minute=1)
    with server(db_url, limits=limits) as client:
        register(client, "Eve")
        client.post("/api/account/logout")
        for _ in range(3):
            bad = client.post("/api/account/login", json={"name": "Eve", "password": "x" * 9})
            assert bad.status_code == 401
        refused = client.post("/api/account/login", json={"name": "Eve", "password": PASSWORD})
        assert refused.status_code == 429
        assert int(refused.headers["Retry-After"]) >= 1
        assert "too many password tries from your address" in refused.json()["detail"]
        assert me(client) is None


def test_the_owner_logs_in_while_an_attackers_tries_are_refused(db_url: str) -> None:
    """Many wrong passwords for a name, from one address and from many: the attackers are
    refused, and the owner's correct password from an address of their own still works."""
    limits = replace(
        Limits.generous(), name_tries_burst=3, name_tries_per_minute=1, name_failures_per_hour=6
    )
    with server(db_url, limits=limits) as client:
        register(client, "Fay")
        client.post("/api/account/logout")
        wrong = {"name": "fay", "password": "x" * 9}
        attacker = TestClient(client.app, client=("198.51.100.1", 1000))
        codes = [attacker.post("/api/account/login", json=wrong).status_code for _ in range(5)]
        assert codes == [401, 401, 401, 429, 429]
        refused = attacker.post("/api/account/login", json={"name": "Fay", "password": PASSWORD})
        assert refused.status_code == 429  # this address guessed wrong: it waits, right or not
        assert "too many wrong passwords for the name 'Fay'" in refused.json()["detail"]
        # 20 more addresses: past the name's budget, each is refused after its first guess
        swarm = [TestClient(client.app, client=(f"198.51.100.{i}", 1000)) for i in range(2, 22)]
        tries = [
            [c.post("/api/account/login", json=wrong).status_code for _ in range(4)] for c in swarm
        ]
        guesses = sum(code == 401 for t in tries for code in t)
        assert guesses <= 6 + len(swarm)  # the name's budget, then one guess per address
        assert all(t[-1] == 429 for t in tries)
        owner = TestClient(client.app, client=("203.0.113.50", 2000))
        ok = owner.post("/api/account/login", json={"name": "Fay", "password": PASSWORD})
        assert ok.status_code == 200, ok.text
        assert me(owner) is not None and me(owner)["name"] == "Fay"  # type: ignore[index]


def test_a_flood_of_guesses_cannot_fill_the_owners_queue(db_url: str) -> None:
    with server(db_url) as client:
        register(client, "Ola")
        accounts = client.app.state.accounts  # type: ignore[attr-defined]
        wrong = {"name": "Ola", "password": "x" * 9}
        attacker = TestClient(client.app, client=("198.51.100.1", 1000))
        assert attacker.post("/api/account/login", json=wrong).status_code == 401
        accounts.suspect_passwords.pending = accounts.suspect_passwords.limit  # all busy
        again = attacker.post("/api/account/login", json=wrong)
        assert again.status_code == 503  # the guesser waits behind its own kind
        owner = TestClient(client.app, client=("203.0.113.50", 2000))
        ok = owner.post("/api/account/login", json={"name": "Ola", "password": PASSWORD})
        assert ok.status_code == 200  # a first try from a fresh address: the other queue
        accounts.suspect_passwords.pending = 0


def test_a_correct_password_spends_nothing_of_the_names_budget(db_url: str) -> None:
    limits = replace(Limits.generous(), name_tries_burst=2, name_failures_per_hour=2)
    with server(db_url, limits=limits) as client:
        register(client, "Gil")
        for _ in range(6):
            client.post("/api/account/logout")
            ok = client.post("/api/account/login", json={"name": "Gil", "password": PASSWORD})
            assert ok.status_code == 200


def test_deleting_an_account_has_the_same_limit_on_password_tries(db_url: str) -> None:
    limits = replace(Limits.generous(), name_tries_burst=2, name_tries_per_minute=1)
    with server(db_url, limits=limits) as client:
        register(client, "Hob")
        codes = [
            client.post("/api/account/delete", json={"password": "x" * 9}).status_code
            for _ in range(3)
        ]
        assert codes == [401, 401, 429]
        assert me(client) is not None  # the stolen session is no password oracle


def test_registrations_are_limited_per_address(db_url: str) -> None:
    limits = replace(Limits.generous(), registrations_burst=2, registrations_per_hour=1)
    with server(db_url, limits=limits) as client:
        for name in ("Ida", "Jo"):
            fresh = TestClient(client.app)
            register(fresh, name)
        refused = TestClient(client.app).post(
            "/api/account/register", json={"name": "Kit", "password": PASSWORD}
        )
        assert refused.status_code == 429 and "too many new accounts" in refused.json()["detail"]
        elsewhere = TestClient(client.app, client=("203.0.113.9", 4000))
        register(elsewhere, "Kit")


def test_new_accounts_hash_in_slots_of_their_own(db_url: str) -> None:
    with server(db_url) as client:
        accounts = client.app.state.accounts  # type: ignore[attr-defined]
        assert accounts.new_passwords is not accounts.passwords
        accounts.new_passwords.pending = accounts.new_passwords.limit  # registrations all busy
        busy = client.post("/api/account/register", json={"name": "Lou", "password": PASSWORD})
        assert busy.status_code == 503
        accounts.new_passwords.pending = 0
        register(client, "Lou")
        client.post("/api/account/logout")
        accounts.new_passwords.pending = accounts.new_passwords.limit
        ok = client.post("/api/account/login", json={"name": "Lou", "password": PASSWORD})
        assert ok.status_code == 200  # a login never waits behind them
        accounts.new_passwords.pending = 0


def test_a_guest_claims_its_games_by_registering(db_url: str) -> None:
    with server(db_url) as client:
        table = create(client, "duel", bots={1: "random"}, names=["Hal"])
        guest = me(client)
        assert guest is not None and guest["kind"] == "guest" and guest["name"] == "guest"
        play_out(client, table)
        record = client.get(f"/api/tables/{table['table_id']}/record").json()
        assert record["seats"][0]["account"] == {"name": "guest", "kind": "guest"}
        claimed = register(client, "Hal")
        assert claimed["claimed"] is True and claimed["account"]["id"] == guest["id"]
        page = client.get("/api/players/Hal").json()
        assert [g["table_id"] for g in page["games"]] == [table["table_id"]]
        record = client.get(f"/api/tables/{table['table_id']}/record").json()
        assert record["seats"][0]["account"] == {"name": "Hal", "kind": "human"}
        # logged in, a player sits under the account's name, whatever name is sent
        joined = create(client, "duel", bots={1: "random"}, names=["Someone"])
        seats = client.get(f"/api/tables/{joined['table_id']}").json()["seats"]
        assert seats[0]["name"] == "Hal"
        assert register_fails_when_logged_in(client)


def register_fails_when_logged_in(client: TestClient) -> bool:
    again = client.post("/api/account/register", json={"name": "Other", "password": PASSWORD})
    return again.status_code == 409 and "log out first" in again.json()["detail"]


def test_deleting_an_account_keeps_its_games_under_deleted_player(db_url: str) -> None:
    with server(db_url) as client:
        jan = named(client, "Jan")
        ivy = named(client, "Ivy")
        table = game_of(client, [ivy, jan], seed=3)
        tid = table["table_id"]
        with client.websocket_connect(f"/ws/tables/{tid}?token={table['token']}") as ws:
            receive(ws)
            ws.send_json({"type": "chat", "text": "good game"})
            while receive(ws)["type"] != "chat":
                pass
        assert client.get("/api/leaderboard/duel").json()["ratings"][0]["games"] == 1
        wrong = client.post("/api/account/delete", json={"password": "not it at all"})
        assert wrong.status_code == 401 and me(client) is not None
        gone = client.post("/api/account/delete", json={"password": PASSWORD})
        assert gone.status_code == 200
        assert "dicehall_session=" in gone.headers["set-cookie"]
        assert me(client) is None
        assert client.get("/api/players/Ivy").status_code == 404
        names = [r["name"] for r in client.get("/api/leaderboard/duel").json()["ratings"]]
        assert names == ["Jan"]
        record = client.get(f"/api/tables/{tid}/record").json()
        assert record["seats"][0]["name"] == "deleted player"
        assert record["seats"][0]["account"] == {"name": "deleted player", "kind": "human"}
        assert record["seats"][0]["after"] is not None  # the game and its rating change stay
        transcript = client.get(f"/api/tables/{tid}/transcript").text
        chat = client.get(f"/api/tables/{tid}/chat").json()["messages"]
        summary = client.get(f"/api/tables/{tid}").json()
        assert "Ivy" not in transcript and "Ivy" not in str(summary) and "Ivy" not in str(chat)
        assert chat[-1]["name"] == "deleted player"
        login = client.post("/api/account/login", json={"name": "Ivy", "password": PASSWORD})
        assert login.status_code == 401
        assert client.get("/api/players/Jan").json()["games"][0]["table_id"] == tid
        register(client, "Ivy")  # the name is free again: nothing of it was kept


def test_a_guest_deletes_its_account_without_a_password(db_url: str) -> None:
    with server(db_url) as client:
        create(client, "duel", bots={1: "random"})
        assert me(client) is not None
        assert client.post("/api/account/delete", json={}).status_code == 200
        assert me(client) is None
        assert client.post("/api/account/delete", json={}).status_code == 401


def test_the_websocket_plays_a_seat_by_session(db_url: str) -> None:
    with server(db_url) as client:
        register(client, "Jo")
        table = create(client, "duel", bots={1: "random"})
        tid = table["table_id"]
        with client.websocket_connect(f"/ws/tables/{tid}?seat=0") as ws:
            welcome = receive(ws)
            assert welcome["type"] == "welcome" and welcome["seat"] == 0
        with client.websocket_connect(f"/ws/tables/{tid}") as ws:  # no seat asked: watch
            assert receive(ws)["seat"] is None
        for asked in ("1", "x", "99"):
            with client.websocket_connect(f"/ws/tables/{tid}?seat={asked}") as ws:
                refused = receive(ws)
                assert refused["type"] == "error" and "not logged in as" in refused["message"]
        client.post("/api/account/logout")
        with client.websocket_connect(f"/ws/tables/{tid}?seat=0") as ws:
            assert receive(ws)["type"] == "error"


def test_no_password_or_token_reaches_the_log(
    db_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    with server(db_url) as client:
        register(client, "Kim")
        session = client.cookies.get("dicehall_session")
        client.post("/api/account/logout")
        client.post("/api/account/login", json={"name": "Kim", "password": "wrong password"})
        client.post("/api/account/login", json={"name": "Kim", "password": PASSWORD})
        table = create(client, "duel", bots={1: "random"})
        play_out(client, table)
        secrets = [PASSWORD, "wrong password", session, client.cookies.get("dicehall_session")]
        secrets.append(table["token"])
    logged = caplog.text + " ".join(str(r.args) for r in caplog.records)
    for secret in secrets:
        assert secret and secret not in logged
