"""The REST API: games, creating and joining tables, rooms, status codes, rematch, odds."""

from __future__ import annotations

import random
from pathlib import Path

from fastapi.testclient import TestClient

from dicehall.games import game_ids
from tests.server.helpers import Conn, create, drive, running, sqlite_url
from tests.server.scenarios import odd_ids_are_not_found


def test_games_lists_everything_a_lobby_needs(tmp_path: Path) -> None:
    with running(tmp_path / "db.sqlite") as client:
        (duel,) = client.get("/api/games").json()
    assert duel["id"] == "duel" and duel["name"] == "Secret Duel"
    assert (duel["min_seats"], duel["max_seats"], duel["default_seats"]) == (2, 3, 2)
    assert duel["options"][0]["name"] == "rounds" and duel["options"][0]["default"] == 2
    assert duel["bots"] == ["random"] and "C3" in duel["rules"]


def test_the_registry_is_the_default_catalog(tmp_path: Path) -> None:
    with running(tmp_path / "db.sqlite", games=None) as client:
        listed = [g["id"] for g in client.get("/api/games").json()]
    assert listed == game_ids()


def test_create_seats_the_host_and_publishes_only_the_commitment(tmp_path: Path) -> None:
    with running(tmp_path / "db.sqlite") as client:
        table = create(client, "duel", seats=3, bots={0: "random"}, names=["", "Host"])
        assert table["seat"] == 1  # the first seat without a bot
        assert len(table["token"]) >= 32 and len(table["commitment"]) == 64
        info = client.get(f"/api/tables/{table['table_id']}").json()
        assert info["status"] == "waiting" and info["free_seats"] == [2]
        assert [s["name"] for s in info["seats"]] == ["random bot 1", "Host", "Player 3"]
        assert info["seats"][0]["bot"] == "random" and info["seats"][1]["human"]
        assert "seed" not in info and "result" not in info
        assert info["view"]["seat"] is None
        assert client.get(f"/api/rooms/{table['room']}").json()["table_id"] == table["table_id"]
        listed = client.get("/api/tables").json()
        assert [(t["table_id"], t["seats_taken"]) for t in listed] == [(table["table_id"], 2)]


def test_bad_requests_get_the_cores_message(tmp_path: Path) -> None:
    with running(tmp_path / "db.sqlite") as client:

        def post(body: dict[str, object]) -> tuple[int, str]:
            r = client.post("/api/tables", json=body)
            return r.status_code, str(r.json()["detail"])

        assert post({"game": "chess"}) == (400, "unknown game 'chess'; the games are: duel")
        code, message = post({"game": "duel", "seats": 9})
        assert code == 400 and "2 to 3 seats" in message
        code, message = post({"game": "duel", "options": {"rounds": 99}})
        assert code == 400 and "option 'rounds'" in message
        code, message = post({"game": "duel", "options": {"speed": 1}})
        assert code == 400 and "unknown option 'speed'" in message
        code, message = post({"game": "duel", "bots": {"1": "deep-blue"}})
        assert code == 400 and "unknown bot 'deep-blue'" in message
        code, message = post({"game": "duel", "bots": {"5": "random"}})
        assert code == 400 and "no seat 5" in message
        code, message = post({"game": "duel", "bots": {"0": "random", "1": "random"}})
        assert code == 400 and "every seat has a bot" in message
        assert client.post("/api/tables", json={"seats": 2}).status_code == 422
        assert client.post("/api/tables", json={"game": "duel", "seats": "x"}).status_code == 422
        r = client.post("/api/tables", json={"game": "duel", "turn_seconds": -1})
        assert r.status_code == 422 and "turn_seconds" in r.text
        r = client.post("/api/tables", json={"game": "duel", "turn_seconds": 5})
        assert r.status_code == 400
        assert r.json()["detail"].startswith("turn_seconds must be at least 10 seconds")
        private = {"game": "duel", "listed": False, "turn_seconds": 10}
        made = client.post("/api/tables", json=private).json()
        assert client.get(f"/api/tables/{made['table_id']}").json()["turn_seconds"] == 10
        assert client.post("/api/tables", content=b"{not json").status_code == 422
        assert client.get("/api/tables").json() == []


def test_join_rooms_and_their_status_codes(tmp_path: Path) -> None:
    with running(tmp_path / "db.sqlite") as client:
        table = create(client, "duel", seats=3)
        tid, room = table["table_id"], table["room"]
        assert client.post("/api/tables/nope/join", json={"name": "A"}).status_code == 404
        assert client.post("/api/rooms/ZZZZZZ/join", json={"name": "A"}).status_code == 404
        assert client.get("/api/rooms/ZZZZZZ").status_code == 404
        assert client.get("/api/tables/nope").status_code == 404
        taken = client.post(f"/api/tables/{tid}/join", json={"name": "A", "seat": 0})
        assert taken.status_code == 409
        assert client.post(f"/api/tables/{tid}/join", json={"seat": 7}).status_code == 400
        ann = client.post(f"/api/tables/{tid}/join", json={"name": "Ann", "seat": 2}).json()
        assert ann["seat"] == 2 and ann["token"] != table["token"]
        bo = client.post(f"/api/rooms/{room.lower()}/join", json={"name": "Bo"}).json()
        assert bo["seat"] == 1 and bo["table_id"] == tid
        full = client.post(f"/api/rooms/{room}/join", json={"name": "Cy"})
        assert full.status_code == 409
        info = client.get(f"/api/tables/{tid}").json()
        assert info["status"] == "playing"
        assert [s["name"] for s in info["seats"]] == ["Player 1", "Bo", "Ann"]
        assert client.post(f"/api/tables/{tid}/join", json={"name": "x" * 41}).status_code == 422


def test_odd_ids_are_not_found(tmp_path: Path) -> None:
    odd_ids_are_not_found(sqlite_url(tmp_path))


def test_transcript_and_seed_stay_secret_until_the_end(tmp_path: Path) -> None:
    with running(tmp_path / "db.sqlite") as client:
        table = create(client, "duel", bots={1: "random"})
        tid = table["table_id"]
        assert client.get(f"/api/tables/{tid}/transcript").status_code == 409
        assert client.get(f"/api/tables/{tid}/verify").status_code == 409
        assert "seed" not in client.get(f"/api/tables/{tid}").json()
        assert client.get("/api/tables/nope/transcript").status_code == 404


def test_tokens_are_stored_only_as_hashes(tmp_path: Path) -> None:
    db = tmp_path / "db.sqlite"
    with running(db) as client:
        table = create(client, "duel")
        joined = client.post(f"/api/tables/{table['table_id']}/join", json={}).json()
    stored = b"".join(p.read_bytes() for p in tmp_path.iterdir())
    assert table["token"].encode() not in stored and joined["token"].encode() not in stored


def finish_duel(client: TestClient) -> tuple[dict[str, object], dict[str, object]]:
    table = create(client, "duel")
    other = client.post(f"/api/tables/{table['table_id']}/join", json={"name": "Bo"}).json()
    url = f"/ws/tables/{table['table_id']}"
    with (
        client.websocket_connect(f"{url}?token={table['token']}") as a,
        client.websocket_connect(f"{url}?token={other['token']}") as b,
    ):
        drive([Conn(a, 0), Conn(b, 1)], random.Random(3))
    return table, other


def test_rematch_is_one_new_table_for_every_player(tmp_path: Path) -> None:
    with running(tmp_path / "db.sqlite") as client:
        old, other = finish_duel(client)
        tid = old["table_id"]
        assert client.post(f"/api/tables/{tid}/rematch").status_code == 422
        bad = client.post(f"/api/tables/{tid}/rematch", headers={"X-Seat-Token": "forged"})
        assert bad.status_code == 403
        first = client.post(f"/api/tables/{tid}/rematch", headers={"X-Seat-Token": old["token"]})
        mine = first.json()
        assert mine["seat"] == 0 and mine["table_id"] != tid and mine["token"] != old["token"]
        new_id = mine["table_id"]
        assert client.get(f"/api/tables/{new_id}").json()["status"] == "waiting"
        assert client.post(f"/api/tables/{new_id}/join", json={}).status_code == 409  # reserved
        again = client.post(f"/api/tables/{tid}/rematch", headers={"X-Seat-Token": old["token"]})
        assert again.json() == mine  # idempotent
        theirs = client.post(
            f"/api/tables/{tid}/rematch", headers={"X-Seat-Token": str(other["token"])}
        ).json()
        assert theirs["table_id"] == new_id and theirs["seat"] == 1
        info = client.get(f"/api/tables/{new_id}").json()
        assert info["status"] == "playing" and [s["name"] for s in info["seats"]] == [
            "Player 1",
            "Bo",
        ]
        assert client.get(f"/api/tables/{tid}").json()["rematch_id"] == new_id
        early = client.post(
            f"/api/tables/{new_id}/rematch", headers={"X-Seat-Token": str(mine["token"])}
        )
        assert early.status_code == 409


def test_odds_endpoint(tmp_path: Path) -> None:
    with running(tmp_path / "db.sqlite") as client:
        assert client.get("/api/odds/duel").json() == []
        bad = client.get("/api/odds/duel?dice=3")
        assert bad.status_code == 400 and "takes no odds parameters" in bad.json()["detail"]
        assert client.get("/api/odds/chess").status_code == 404


def test_database_errors_never_quote_the_seed(tmp_path: Path) -> None:
    from sqlalchemy.exc import IntegrityError

    from dicehall.server.tables.store import Store

    store = Store(f"sqlite:///{tmp_path / 'db.sqlite'}")
    with running(tmp_path / "db.sqlite") as client:
        table = create(client, "duel", bots={1: "random"})
        record = client.app.state.hall.get(table["table_id"]).record  # type: ignore[attr-defined]
    try:
        store.insert(record)  # the same id again
    except IntegrityError as e:
        assert record.seed not in str(e)
    else:
        raise AssertionError("a second row with the same id was stored")
    finally:
        store.close()


def test_names_at_a_table_are_unique(tmp_path: Path) -> None:
    """A second "Ann" is seated as "Ann (2)": two players of one name cannot be told apart."""
    with running(tmp_path / "db.sqlite") as client:
        table = create(client, "duel", seats=3, names=["Ann"])
        tid = table["table_id"]
        for name in ("ann ", "Ann"):
            assert client.post(f"/api/tables/{tid}/join", json={"name": name}).status_code == 200
        names = [s["name"] for s in client.get(f"/api/tables/{tid}").json()["seats"]]
        assert names == ["Ann", "ann (2)", "Ann (3)"]
        made = create(client, "duel", seats=3, names=["Bo", "Bo", "Bo (2)"])
        names = [s["name"] for s in client.get(f"/api/tables/{made['table_id']}").json()["seats"]]
        assert names == ["Bo", "Bo (2)", "Bo (2) (2)"]


def test_a_seat_option_given_as_a_number_is_read_as_that_seat(tmp_path: Path) -> None:
    """Tao's opener and Kariki's first roller from a client's JSON: 0 is the first seat; a
    seat the table lacks is refused by a message that says what is allowed."""
    with running(tmp_path / "db.sqlite", games=None) as client:
        for game, option in (("tao", "opener"), ("kariki", "first_roller")):
            made = create(client, game, seats=3, options={option: 0}, listed=False)
            info = client.get(f"/api/tables/{made['table_id']}").json()
            assert info["options"][option] == "0"
            r = client.post("/api/tables", json={"game": game, "seats": 3, "options": {option: 3}})
            assert r.status_code == 400
            other = "random" if game == "tao" else "roll-off"
            expected = f"option {option!r} must be {other} or a seat from 0 to 2; got '3'"
            assert r.json()["detail"] == expected
            r = client.post("/api/tables", json={"game": game, "seats": 3, "options": {option: -1}})
            assert r.status_code == 400 and "a seat number from 0 (the first seat)" in r.text
