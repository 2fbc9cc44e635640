"""Game review and practice over HTTP: a seat's review is the engine's review of the steps
the replay would read for it, another seat's never-shown dice change nothing in it (C6),
every refusal names what was wrong, and a practice set is the engine's for its seed."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from dicehall.core.shown import shown_throws, stand_ins
from dicehall.core.transcript import make_transcript
from dicehall.games import make_game
from dicehall.server.ops.limits import Limits
from dicehall.server.tables.live import LiveTable
from dicehall.strategy.practice import draw, report
from dicehall.strategy.review import review
from tests.server.helpers import create, running
from tests.server.test_replay import finished_table


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    with running(tmp_path_factory.mktemp("review") / "db.sqlite", None) as client:
        yield client


@pytest.fixture(scope="module")
def sealed(server: TestClient) -> dict[str, Any]:
    """A finished sealed Kariki table: seat 0 played at random, the others bots."""
    return finished_table(server, "kariki", "sealed")


def live(client: TestClient, tid: str) -> LiveTable:
    table: LiveTable = client.app.state.hall.get(tid)  # type: ignore[attr-defined]
    return table


def review_of(client: TestClient, tid: str, seat: int | None, token: str | None = None) -> Any:
    params = {} if seat is None else {"seat": seat}
    headers = {} if token is None else {"X-Seat-Token": token}
    answer = client.get(f"/api/tables/{tid}/review", params=params, headers=headers)
    assert answer.status_code == 200, answer.text
    return answer.json()


def engine(data: dict[str, Any], seat: int) -> Any:
    return json.loads(json.dumps(review(data, seat).to_json()))


def test_a_seats_review_is_the_engines_of_the_steps_its_replay_reads(
    server: TestClient, sealed: dict[str, Any]
) -> None:
    """With its token, seat 0's review is the engine's of the real steps (`dicehall review
    --json` of the player's own file); any other seat's, or seat 0's without the token, is
    the engine's of the public transcript, stand-ins and all, and says so."""
    tid = sealed["table_id"]
    table = live(server, tid)
    real = make_transcript(table.game, list(table.steps), table.names, table.state)
    mine = review_of(server, tid, 0, sealed["token"])
    assert mine == engine(real, 0) and mine["stand_ins"] is False
    assert review_of(server, tid, None, sealed["token"]) == mine  # the token's seat
    public = server.get(f"/api/tables/{tid}/transcript").json()
    for seat in range(table.game.seats):
        answer = review_of(server, tid, seat)
        assert answer == engine(public, seat)
        assert answer["stand_ins"] is any(s.get("sealed") for s in public["steps"])
    assert mine["decisions"] and {d["label"] for d in mine["decisions"]} <= {
        "best", "good", "inaccuracy", "mistake", "blunder", "not rated"
    }  # fmt: skip


def test_at_a_seed_table_every_seats_review_is_of_the_real_steps(server: TestClient) -> None:
    table = finished_table(server, "toplshteyner", "seed")
    tid = table["table_id"]
    transcript = server.get(f"/api/tables/{tid}/transcript").json()
    for seat in range(transcript["seats"]):
        assert review_of(server, tid, seat) == engine(transcript, seat)


def test_C6_another_seats_never_shown_dice_change_nothing_in_a_review(
    server: TestClient, sealed: dict[str, Any]
) -> None:
    """Every throw seat 0 never saw replaced by another that looks the same to everyone, in
    the table's own steps: seat 0's review (with its token: the real steps) is the same."""
    tid = sealed["table_id"]
    table = live(server, tid)
    compute = server.app.state.compute  # type: ignore[attr-defined]
    real = list(table.steps)
    first = review_of(server, tid, 0, sealed["token"])
    hidden = set(shown_throws(table.game, real).sealed(0))
    changed = stand_ins(table.game, real, hidden)
    assert hidden and changed != [dict(s) for s in real], "no hidden throw to change"
    try:
        table.steps[:] = changed
        compute.studies.clear()
        again = review_of(server, tid, 0, sealed["token"])
    finally:
        table.steps[:] = real
        compute.studies.clear()
    assert again | {"stand_ins": False} == first


def test_every_refusal_names_what_was_wrong(server: TestClient, sealed: dict[str, Any]) -> None:
    tid = sealed["table_id"]

    def refused(path: str, status: int, words: str, **kw: Any) -> None:
        answer = server.get(path, **kw)
        assert answer.status_code == status, answer.text
        assert words in json.dumps(answer.json()["detail"])

    refused("/api/tables/nosuchtable/review?seat=0", 404, "no table 'nosuchtable'")
    waiting = create(server, "kariki", seats=2)
    refused(f"/api/tables/{waiting['table_id']}/review?seat=0", 409, "not over")
    refused(f"/api/tables/{tid}/review?seat=9", 400, "there is no seat 9; seats are 0 to 3")
    refused(f"/api/tables/{tid}/review?seat=-1", 400, "there is no seat -1")
    refused(f"/api/tables/{tid}/review?seat=one", 422, "seat")
    refused(f"/api/tables/{tid}/review", 422, "give ?seat=N, or a seat's X-Seat-Token")
    other = {"X-Seat-Token": waiting["token"]}  # a seat, but at another table
    refused(f"/api/tables/{tid}/review?seat=0", 403, "holds no seat at this table", headers=other)
    refused("/api/practice/chess", 404, "unknown game 'chess'")
    refused("/api/practice/kariki?seats=11", 400, "kariki is played by 2 to 10 seats; got 11")
    refused("/api/practice/tao?seats=3", 422, "drawn at 2 seats at most: at 3 seats")
    refused("/api/practice/kariki?count=11", 422, "count")
    refused("/api/practice/kariki?count=0", 422, "count")
    refused("/api/practice/kariki?seed=-1", 422, "seed")


def test_a_practice_set_is_the_engines_for_its_seed(server: TestClient) -> None:
    first = server.get("/api/practice/toplshteyner?seats=2&count=3&seed=4")
    assert first.status_code == 200, first.text
    again = server.get("/api/practice/toplshteyner?seats=2&count=3&seed=4").json()
    game = make_game("toplshteyner", 2)
    expected = json.loads(json.dumps(report(game, draw(game, 3, 4), 4, answers=True)))
    assert first.json() == again == expected
    assert len(expected["puzzles"]) == 3 and expected["thresholds"]["win"][0] == 0.001
    for puzzle in expected["puzzles"]:
        assert puzzle["best"] and all(c["value"] is not None for c in puzzle["choices"])
    other = server.get("/api/practice/toplshteyner?seats=2&count=3&seed=5").json()
    assert other["seed"] == 5 and other["puzzles"] != expected["puzzles"]
    tao = server.get("/api/practice/tao?count=1").json()  # the cap is Tao's default here
    assert tao["seats"] == 2


@pytest.mark.usefixtures("window_start")
def test_reviews_and_practice_share_a_per_address_budget(tmp_path: Path) -> None:
    limits = Limits.generous()
    tight = Limits(**{**limits.__dict__, "reviews_per_minute": 1.0, "reviews_burst": 2})
    with running(tmp_path / "db.sqlite", None, limits=tight) as client:
        for _ in range(2):
            assert client.get("/api/practice/kariki?seats=2&count=1").status_code == 200
        answer = client.get("/api/practice/kariki?seats=2&count=1")
        assert answer.status_code == 429 and "reviews and practice" in answer.json()["detail"]
        assert int(answer.headers["Retry-After"]) > 0


def test_a_dropped_files_review_is_the_engines_of_the_file(
    server: TestClient, sealed: dict[str, Any]
) -> None:
    """POST /api/review reviews what the file holds: a sealed table's public transcript
    reviews as GET .../review does without a token; bad files name what was wrong."""
    tid = sealed["table_id"]
    public = server.get(f"/api/tables/{tid}/transcript").json()
    for seat in (0, 1):
        answer = server.post("/api/review", json={"transcript": public, "seat": seat})
        assert answer.status_code == 200, answer.text
        assert answer.json() == engine(public, seat) == review_of(server, tid, seat)
    unfinished = {**public, "steps": public["steps"][:3]}
    del unfinished["result"]

    def posted(data: Any, seat: Any) -> tuple[int, str]:
        answer = server.post("/api/review", json={"transcript": data, "seat": seat})
        return answer.status_code, json.dumps(answer.json()["detail"])

    assert posted(unfinished, 0)[0] == 409
    assert posted(public, 4) == (400, json.dumps("there is no seat 4; seats are 0 to 3"))
    code, text = posted({**public, "steps": [{"seat": 1, "action": {"type": "fly"}}]}, 0)
    assert code == 400 and "step 0" in text
    assert posted(public, None)[0] == 422
