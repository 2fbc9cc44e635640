"""Ratings on the server: a rated table's result moves every seat's rating exactly as
OpenSkill (through dicehall.ratings) computes it, repeated games between the same people
less and less, a casual table's moves none, nor a table with a guest or a bot the host
chose, and replaying the stored results gives the stored ratings. On SQLite, and on PostgreSQL
when its URL is given."""

from __future__ import annotations

from typing import Any

from sqlalchemy import create_engine, delete

from dicehall.core.game import Result
from dicehall.ratings import RatingBook, repeat_weights, shown
from dicehall.server.people.results import ResultStore, game_results, ratings, result_seats
from tests.server.databases import db_url
from tests.server.helpers import create
from tests.server.rated import game_of, named
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
    """Three named people, three games running: the first moves each seat by OpenSkill's
    update, the n-th between the same people by 1/2^(n-1) of it (the repeat rule)."""
    book = RatingBook()
    players = ["Lou", "Mia", "Nat"]
    with server(db_url) as client:
        sessions: list[str | None] = [named(client, p) for p in players]
        for game in range(3):
            table = game_of(client, sessions, seed=game)
            record = record_of(client, table["table_id"])
            assert record["rated"] is True
            assert [s["account"]["name"] for s in record["seats"]] == players
            assert [s["account"]["kind"] for s in record["seats"]] == ["human"] * 3
            before = {p: rating(book, p) for p in players}
            result = record["result"]
            weights = [0.5**game] * 3
            book.record(
                players, Result(tuple(result["winners"]), tuple(result["net"]), ""), weights
            )
            for seat, name in enumerate(players):
                s = record["seats"][seat]
                assert (s["before"]["mu"], s["before"]["sigma"]) == before[name]
                assert (s["after"]["mu"], s["after"]["sigma"]) == rating(book, name)
                assert s["change"] == s["after"]["ordinal"] - s["before"]["ordinal"]
                assert s["shown_change"] == s["after"]["shown"] - s["before"]["shown"]
        board = client.get("/api/leaderboard/duel").json()["ratings"]
        page = client.get("/api/players/Lou").json()
    expected = book.table()
    assert [r["name"] for r in board] == [s.name for s in expected]
    for row, standing in zip(board, expected, strict=True):
        assert (row["mu"], row["sigma"]) == (standing.rating.mu, standing.rating.sigma)
        assert row["ordinal"] == standing.ordinal and row["games"] == 3
        assert row["shown"] == shown(*rating(book, row["name"])) and row["provisional"]
        assert row["wins"] == standing.wins
    (mine,) = page["ratings"]
    assert (mine["game"], mine["mu"], mine["sigma"]) == ("duel", *rating(book, "Lou"))
    chart = page["rating_history"]["duel"]
    assert len(chart) == 3 and chart[-1]["ordinal"] == book.standing("Lou").ordinal
    assert [g["rated"] for g in page["games"]] == [True, True, True]


def test_the_nth_game_between_the_same_two_weighs_half_the_one_before() -> None:
    day = 24 * 3600
    earlier = [(0.0, ["a", "b"]), (10.0, ["a", "b"]), (20.0, ["a", "c"])]
    assert repeat_weights(["a", "b"], earlier, 30.0) == [0.25, 0.25]
    assert repeat_weights(["a", "c"], earlier, 30.0) == [0.5, 0.5]
    assert repeat_weights(["b", "c"], earlier, 30.0) == [1.0, 1.0]
    assert repeat_weights(["a", "b"], earlier, 5.0 + day) == [0.5, 0.5]  # the first has aged out
    assert repeat_weights(["a", "b", "c"], earlier, 30.0) == [0.25, 0.25, 0.5]


def test_a_guest_at_a_rated_table_plays_unrated(db_url: str) -> None:
    """Guests cost nothing to make: four of them conceding cannot lift anyone's rating."""
    with server(db_url) as client:
        pia = named(client, "Pia")
        for game in range(2):
            table = game_of(client, [pia, None], seed=game)
            record = record_of(client, table["table_id"])
            assert record["rated"] is False
            assert record["seats"][1]["account"]["kind"] == "guest"
            assert all(s["after"] is None for s in record["seats"])
        assert client.get("/api/leaderboard/duel").json()["ratings"] == []


def test_a_table_with_a_bot_the_host_chose_gives_no_rating(db_url: str) -> None:
    """The host picks the opponent and beats it: no rating from such a table."""
    with server(db_url) as client:
        register(client, "Quin")
        for game in range(3):
            table = create(client, "duel", bots={1: "random"}, rated=True)
            assert client.get(f"/api/tables/{table['table_id']}").json()["settings"]["rated"]
            play_out(client, table, seed=game)
            assert record_of(client, table["table_id"])["rated"] is False
        assert client.get("/api/players/Quin").json()["ratings"] == []
        assert client.get("/api/leaderboard/duel").json()["ratings"] == []


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
        sessions: list[str | None] = [named(client, "Ned"), named(client, "Oli")]
        for game in range(4):
            game_of(client, sessions, seed=10 + game, rated=game != 2)
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
        table = game_of(client, [named(client, "Oz"), named(client, "Pam")], seed=1)
        first = record_of(client, table["table_id"])
        assert first["rated"] is True
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
