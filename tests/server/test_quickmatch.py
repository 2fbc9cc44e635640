"""Quick match: join the next listed table of a game and seat count that has a seat for a
person, or open one; the lobby's list says who sits where and how long since the last move."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from dicehall.server.people import lobby_ratings
from tests.server.helpers import create, receive, running
from tests.server.rated import as_, game_of, named
from tests.server.test_accounts import server


def test_quickmatch_opens_then_fills_a_table(tmp_path: Path) -> None:
    with running(tmp_path / "db.sqlite") as client:

        def quick(**body: object) -> dict[str, object]:
            answer = client.post("/api/quickmatch", json={"game": "duel", **body})
            assert answer.status_code == 200, answer.text
            data: dict[str, object] = answer.json()
            return data

        ann = quick(name="Ann")
        assert ann["opened"] is True and ann["seat"] == 0 and ann["token"]
        three = quick(name="Cy", seats=3)  # another seat count: a table of its own
        assert three["opened"] is True and three["table_id"] != ann["table_id"]
        bob = quick(name="Bob")
        assert bob == {**bob, "opened": False, "table_id": ann["table_id"], "seat": 1}
        table = client.get(f"/api/tables/{ann['table_id']}").json()
        assert table["status"] == "playing"
        assert [s["name"] for s in table["seats"]] == ["Ann", "Bob"]
        assert table["settings"]["listed"] is True and table["turn_seconds"] == 60
        # the full table is not joined again: the next one opens a new table
        assert quick(name="Dee")["opened"] is True


def test_quickmatch_skips_tables_that_do_not_fit(tmp_path: Path) -> None:
    """Private tables, tables whose free seats are kept for bots, and other games or seat
    counts are never joined; bad input is refused and opens nothing."""
    with running(tmp_path / "db.sqlite") as client:
        private = create(client, "duel", listed=False)
        kept = create(client, "duel", bots={1: "outside"})
        bigger = create(client, "duel", seats=3)
        answer = client.post("/api/quickmatch", json={"game": "duel"}).json()
        assert answer["opened"] is True
        assert answer["table_id"] not in {t["table_id"] for t in (private, kept, bigger)}
        listed = len(client.get("/api/tables").json())
        for bad in (
            {"game": "chess"},
            {"game": "duel", "seats": 9},
            {"game": "duel", "name": "x" * 41},
        ):
            assert client.post("/api/quickmatch", json=bad).status_code in (400, 422), bad
        assert len(client.get("/api/tables").json()) == listed


def test_the_lobby_says_who_sits_and_how_long_since_the_last_move(tmp_path: Path) -> None:
    with running(tmp_path / "db.sqlite") as client:
        table = create(client, "duel", bots={1: "random"}, names=["Ann"], bot_delay_ms=5000)
        tid = table["table_id"]
        hall = client.app.state.hall  # type: ignore[attr-defined]
        hall.live[tid].moved_at -= 600  # as if the last move were ten minutes ago

        def entry() -> dict[str, object]:
            return next(t for t in client.get("/api/tables").json() if t["table_id"] == tid)

        seen = entry()
        assert seen["idle_seconds"] >= 600  # type: ignore[operator]
        players = seen["players"]
        assert players == [
            {"name": "Ann", "bot": None, "outside_bot": False, "taken": True, "connected": False,
             "rating": None},
            {"name": "random bot 2", "bot": "random", "outside_bot": False, "taken": True,
             "connected": True, "rating": None},
        ]  # fmt: skip
        with client.websocket_connect(f"/ws/tables/{tid}?token={table['token']}") as ws:
            m = receive(ws)
            while not m.get("legal"):
                m = receive(ws)
            assert entry()["players"][0]["connected"] is True  # type: ignore[index]
            ws.send_json({"type": "action", "step": m["step"], "action": m["legal"][0]["action"]})
            while receive(ws)["type"] != "update":
                pass
            assert entry()["idle_seconds"] < 600  # type: ignore[operator]


def test_the_lobby_shows_each_sitters_rating_from_one_cached_query(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A rated player's shown rating (mu - 3 sigma, as on their pages) beside their name;
    none for a guest or a free seat; polls are answered from the
    cache, and a stored result is read again at the next poll."""
    reads: list[int] = []
    read = lobby_ratings.read_ratings

    def counted(store: Any, keys: Any) -> Any:
        reads.append(len(keys))
        return read(store, keys)

    monkeypatch.setattr(lobby_ratings, "read_ratings", counted)
    with server(f"sqlite:///{tmp_path / 'db.sqlite'}") as client:

        def shown(table_id: str) -> list[Any]:
            entry = next(t for t in client.get("/api/tables").json() if t["table_id"] == tid)
            return [p["rating"] for p in entry["players"]]

        def ordinal(name: str) -> float:
            page = client.get(f"/api/players/{name}").json()
            (rating,) = page["ratings"]
            value: float = rating["shown"]  # as on the players' pages: 1500-centred
            return value

        lou, mia = named(client, "Lou"), named(client, "Mia")
        game_of(client, [lou, mia], seed=1)
        as_(client, lou)
        table = create(client, "duel", seats=3, rated=True)
        tid = table["table_id"]
        as_(client, mia)
        assert client.post(f"/api/tables/{tid}/join", json={}).status_code == 200
        assert shown(tid) == [ordinal("Lou"), ordinal("Mia"), None]  # a free seat: none
        assert shown(tid) == shown(tid) and len(reads) == 1  # polls use the cache
        before = ordinal("Lou")
        game_of(client, [lou, mia], seed=2)
        as_(client, None)  # a guest's table, as the first seat, and Lou joins it
        guest = create(client, "duel", seats=3)
        tid = guest["table_id"]
        as_(client, lou)
        assert client.post(f"/api/tables/{tid}/join", json={}).status_code == 200
        assert shown(tid) == [None, ordinal("Lou"), None] and ordinal("Lou") != before
        assert len(reads) == 2  # the new result emptied the cache: read once more


def test_a_table_that_has_ended_is_off_the_lobby_before_it_leaves_memory(tmp_path: Path) -> None:
    """The status says over at once; the table leaves the live ones when its end is handled.
    The lobby lists waiting tables and tables in play only, in between too."""
    with running(tmp_path / "db.sqlite") as client:
        table = create(client, "duel", bots={1: "random"}, names=["Ann"], bot_delay_ms=5000)
        tid = table["table_id"]
        hall = client.app.state.hall  # type: ignore[attr-defined]
        assert [t["table_id"] for t in client.get("/api/tables").json()] == [tid]
        hall.live[tid].record.status = "over"  # ended, its end not handled yet
        response = client.get("/api/tables")
        assert response.json() == [] and response.headers["X-Total-Count"] == "0"
