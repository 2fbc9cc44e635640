"""The standing bot ladder on the server: the built-in bots play rated games against one
another at the configured pace, rated exactly as a RatingBook rates them, recorded in
their histories, and never offered to people."""

from __future__ import annotations

import random
import time
from typing import Any

from sqlalchemy import select

from dicehall.core.game import Result
from dicehall.games import game_ids, make_game
from dicehall.ratings import RatingBook
from dicehall.server.ops.settings import ServerConfig
from dicehall.server.people.results import game_results
from dicehall.server.tables.ladder import lineup
from tests.server.databases import CHEAP, db_url
from tests.server.helpers import running

__all__ = ["db_url"]  # the fixture

FAST = ServerConfig(
    **{**CHEAP.__dict__, "ladder_games_per_minute": 600.0, "ladder_bot_delay_ms": 0}
)


def test_a_ladder_game_seats_every_bot_of_the_game_once() -> None:
    rng = random.Random(1)
    for gid in game_ids():
        game = make_game(gid)
        bots = list(game.bots())
        seats = lineup(bots, game.min_seats, game.max_seats, rng)
        assert sorted(seats) == sorted(bots), gid
    assert sorted(lineup(["random"], 2, 3, rng)) == ["random", "random"]  # copies fill


def test_the_ladder_plays_rated_games_exactly_as_a_rating_book_rates_them(db_url: str) -> None:
    with running(db_url, config=FAST) as client:
        app: Any = client.app
        hall, ladder = app.state.hall, app.state.ladder
        deadline = time.monotonic() + 120
        ids: list[str] = []
        while len(ids) < 3:
            assert time.monotonic() < deadline, "no three ladder games finished"
            assert client.get("/api/tables").json() == []  # never listed, never joinable
            with hall.store.engine.connect() as db:
                ids = list(db.execute(select(game_results.c.table_id)).scalars())
            time.sleep(0.05)
        client.portal.call(ladder.stop)
        while ladder.playing():
            assert time.monotonic() < deadline, "the ladder's last games did not finish"
            time.sleep(0.05)
        # people never get a ladder seat: quick match opens a table of its own
        quick = client.post("/api/quickmatch", json={"game": "duel"}).json()
        assert quick["opened"] is True
        with hall.store.engine.connect() as db:
            ids = list(
                db.execute(
                    select(game_results.c.table_id).order_by(
                        game_results.c.finished, game_results.c.table_id
                    )
                ).scalars()
            )
        book = RatingBook()
        for tid in ids:
            table = client.get(f"/api/tables/{tid}").json()
            assert table["settings"]["ladder"] is True and table["settings"]["listed"] is False
            assert all(s["bot"] == "random" for s in table["seats"]) and not table["free_seats"]
            record = client.get(f"/api/tables/{tid}/record").json()
            assert record["rated"] is True
            players = [s["account"]["name"] for s in record["seats"]]
            assert sorted(players) == ["random", "random 2"]
            assert all(s["account"]["kind"] == "bot" for s in record["seats"])
            before = {p: book.standing(p).rating for p in players}
            result = record["result"]
            book.record(players, Result(tuple(result["winners"]), tuple(result["net"]), ""))
            for s, name in zip(record["seats"], players, strict=True):
                assert (s["before"]["mu"], s["before"]["sigma"]) == (
                    before[name].mu,
                    before[name].sigma,
                )
                after = book.standing(name).rating
                assert (s["after"]["mu"], s["after"]["sigma"]) == (after.mu, after.sigma)
        board = client.get("/api/leaderboard/duel").json()["ratings"]
        history = client.get("/api/players/random").json()["games"]
    assert [(r["name"], r["mu"], r["sigma"]) for r in board] == [
        (s.name, s.rating.mu, s.rating.sigma) for s in book.table()
    ]
    assert {g["table_id"] for g in history} == set(ids)
    assert all(g["rated"] for g in history)
