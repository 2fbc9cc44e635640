"""Ratings on the server: a rated table's result moves every seat's rating exactly as
OpenSkill (through dicehall.ratings) computes it, a casual table's moves none, and
replaying the stored results gives the stored ratings. On SQLite, and on PostgreSQL
when its URL is given."""

from __future__ import annotations

from typing import Any

from sqlalchemy import create_engine, delete

from dicehall.core.game import Result
from dicehall.ratings import RatingBook
from dicehall.server.results import ResultStore, game_results, ratings, result_seats
from tests.server.databases import db_url
from tests.server.helpers import create
from tests.server.test_accounts import play_out, register, server

__all__ = ["db_url"]  # the fixture


def record_of(client: Any, table_id: str) -> dict[str, Any]:
    answer = client.get(f"/api/tables/{table_id}/record")
    assert answer.status_code == 200, answer.text
    data: dict[str, Any] = answer.json()
    return data


def rating(book: RatingBook, name: str) -> tuple[float, float]:
    standing = book.standing(name)
    return standing.rating.mu, standing.rating.sigma


def test_a_rated_table_moves_every_seat_exactly_as_openskill(db_url: str) -> None:
    """A person and two copies of one bot ("random", "random 2"), three games running."""
    book = RatingBook()
    players = ["Lou", "random", "random 2"]
    with server(db_url) as client:
        register(client, "Lou")
        for game in range(3):
            table = create(client, "duel", seats=3, bots={1: "random", 2: "random"}, rated=True)
            play_out(client, table, seed=game)
            record = record_of(client, table["table_id"])
            assert record["rated"] is True
            assert [s["account"]["name"] for s in record["seats"]] == players
            assert [s["account"]["kind"] for s in record["seats"]] == ["human", "bot", "bot"]
            before = {p: rating(book, p) for p in players}
            result = record["result"]
            book.record(players, Result(tuple(result["winners"]), tuple(result["net"]), ""))
            for seat, name in enumerate(players):
                s = record["seats"][seat]
                assert (s["before"]["mu"], s["before"]["sigma"]) == before[name]
                assert (s["after"]["mu"], s["after"]["sigma"]) == rating(book, name)
                assert s["change"] == s["after"]["ordinal"] - s["before"]["ordinal"]
        board = client.get("/api/leaderboard/duel").json()["ratings"]
        page = client.get("/api/players/Lou").json()
    expected = book.table()
    assert [r["name"] for r in board] == [s.name for s in expected]
    for row, standing in zip(board, expected, strict=True):
        assert (row["mu"], row["sigma"]) == (standing.rating.mu, standing.rating.sigma)
        assert row["ordinal"] == standing.ordinal and row["games"] == 3
        assert row["wins"] == standing.wins
    (mine,) = page["ratings"]
    assert (mine["game"], mine["mu"], mine["sigma"]) == ("duel", *rating(book, "Lou"))
    chart = page["rating_history"]["duel"]
    assert len(chart) == 3 and chart[-1]["ordinal"] == book.standing("Lou").ordinal
    assert [g["rated"] for g in page["games"]] == [True, True, True]


def test_a_casual_table_moves_no_rating(db_url: str) -> None:
    with server(db_url) as client:
        register(client, "Max")
        table = create(client, "duel", bots={1: "random"})  # casual unless asked
        assert client.get(f"/api/tables/{table['table_id']}").json()["settings"]["rated"] is False
        play_out(client, table)
        record = record_of(client, table["table_id"])
        page = client.get("/api/players/Max").json()
        board = client.get("/api/leaderboard/duel").json()["ratings"]
    assert record["rated"] is False
    assert all(s["before"] is None and s["after"] is None for s in record["seats"])
    assert record["seats"][0]["account"]["name"] == "Max"
    assert page["ratings"] == [] and page["rating_history"] == {}
    assert [g["table_id"] for g in page["games"]] == [table["table_id"]]
    assert board == []


def test_replaying_the_stored_results_gives_the_same_ratings(db_url: str) -> None:
    with server(db_url) as client:
        register(client, "Ned")
        for game in range(4):
            table = create(client, "duel", bots={1: "random"}, rated=game != 2)
            play_out(client, table, seed=10 + game)
    engine = create_engine(db_url)
    try:
        store = ResultStore(engine)
        stored = store.stored_ratings()
        assert {games for _, _, games, _ in stored.values()} == {3}
        assert store.replayed_ratings() == stored
    finally:
        engine.dispose()


def test_a_result_a_stop_left_unrecorded_is_recorded_on_the_next_start(db_url: str) -> None:
    with server(db_url) as client:
        register(client, "Oz")
        table = create(client, "duel", bots={1: "random"}, rated=True)
        play_out(client, table)
        first = record_of(client, table["table_id"])
    engine = create_engine(db_url)
    try:
        with engine.begin() as db:  # as if the server had stopped before recording it
            db.execute(delete(ratings))
            db.execute(delete(result_seats))
            db.execute(delete(game_results))
    finally:
        engine.dispose()
    with server(db_url) as client:
        again = record_of(client, table["table_id"])
    assert {k: v for k, v in again.items() if k != "finished"} == {
        k: v for k, v in first.items() if k != "finished"
    }


def test_one_account_holds_one_seat_of_a_rated_table(db_url: str) -> None:
    with server(db_url) as client:
        register(client, "Pia")
        table = create(client, "duel", rated=True)
        twice = client.post(f"/api/tables/{table['table_id']}/join", json={})
        assert twice.status_code == 409 and "you hold seat 0" in twice.json()["detail"]
        client.cookies.clear()  # someone else: a guest
        other = client.post(f"/api/tables/{table['table_id']}/join", json={"name": "Quin"})
        assert other.status_code == 200 and other.json()["seat"] == 1
