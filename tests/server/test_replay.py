"""Board replay: a finished game's frames from each seat, checked with the same oracle as the
live messages (C6 holds in replays), at sealed and seed tables, and for dropped files."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from dicehall.games import game_ids
from dicehall.server.tables.catalog import Catalog
from dicehall.server.tables.replay import frames
from tests.server.helpers import (
    Conn,
    Frames,
    check_messages,
    create,
    drive,
    roundtrip,
    running,
    secrets_of,
)

# short games, so every game and both modes stay quick
SHORT = {"tepiiku": {"bankroll": 3}, "tao": {"length": "single"}, "duel": {"rounds": 2}}


def finished_table(client: TestClient, gid: str, fairness: str) -> dict[str, Any]:
    """Seat 0 played at random over the WebSocket, every other seat a bot, to the end."""
    cls = Catalog(None).game_class(gid) if gid != "duel" else None
    seats = cls.default_seats if cls is not None else 2
    bot = next(iter(cls(seats).bots())) if cls is not None else "random"
    table = create(
        client,
        gid,
        seats=seats,
        bots={s: bot for s in range(1, seats)},
        options=SHORT.get(gid, {}),
        fairness=fairness,
    )
    with client.websocket_connect(f"/ws/tables/{table['table_id']}?token={table['token']}") as ws:
        drive([Conn(ws, 0)], random.Random(gid + fairness))
    return table


def replay_of(client: TestClient, tid: str, seat: int | None, token: str | None = None) -> Any:
    params = {} if seat is None else {"seat": seat}
    headers = {} if token is None else {"X-Seat-Token": token}
    answer = client.get(f"/api/tables/{tid}/replay", params=params, headers=headers)
    assert answer.status_code == 200, answer.text
    return answer.json()


# every game sealed; one seed table shows its revealed seed changes nothing for a seat's view
CASES = [(gid, "sealed") for gid in game_ids()] + [(game_ids()[-1], "seed")]


@pytest.mark.parametrize(("gid", "fairness"), CASES)
def test_replay_frames_are_what_each_seat_saw(tmp_path: Path, gid: str, fairness: str) -> None:
    """Every frame of every seat's replay is exactly what the rules showed that seat at that
    step (the live leak checker's oracle, from the real steps), for every game and mode; at a
    sealed table a seat replayed without its token gets stand-ins and is told so."""
    with running(tmp_path / "db.sqlite", None) as client:
        table = finished_table(client, gid, fairness)
        tid = table["table_id"]
        transcript = client.get(f"/api/tables/{tid}/transcript").json()
        secret = secrets_of(client, tid)
        game = Catalog(None).make(gid, transcript["seats"], transcript["options"])
        real = [Frames(None, replay_of(client, tid, None)["frames"])]
        real.append(Frames(0, replay_of(client, tid, 0, table["token"])["frames"]))
        others = {s: replay_of(client, tid, s) for s in range(1, game.seats)}
        # a player's own file of the game, dropped on the page, replays the same way
        dropped = client.post("/api/replay", json={"transcript": transcript, "seat": 0}).json()
    sealed = any(step.get("sealed") for step in transcript["steps"])
    for seat, answer in others.items():
        assert answer["stand_ins"] is sealed
        if fairness == "seed":
            real.append(Frames(seat, answer["frames"]))
        else:  # nobody but the seat itself may see its hidden throws: stand-ins from the public
            public = roundtrip(frames(game, transcript["steps"], seat))
            assert answer["frames"][:-1] == public[:-1]
    check_messages(real, transcript, game, secret)
    assert len(real[0].messages) == len(transcript["steps"]) + 2  # the start, each step, over
    over = real[1].messages[-1]
    assert over["type"] == "over" and over["result"] == transcript["result"]
    assert dropped["stand_ins"] is sealed
    assert dropped["frames"][:-1] == roundtrip(frames(game, transcript["steps"], 0))[:-1]
    if fairness == "seed":  # the file holds the real throws
        assert dropped["frames"] == real[1].messages


def test_replay_refuses_what_it_may_not_show(tmp_path: Path) -> None:
    """Not over yet: 409 (a seat's view only after the game); a bad seat 400; a token of
    no seat 403; an unknown table 404; a dropped file that breaks the rules names its step."""
    with running(tmp_path / "db.sqlite") as client:
        waiting = create(client, "duel")
        tid = waiting["table_id"]
        assert client.get(f"/api/tables/{tid}/replay").status_code == 409
        assert client.get(f"/api/tables/{tid}/replay?seat=0").status_code == 409
        assert client.get("/api/tables/nosuchtable/replay").status_code == 404
        table = finished_table(client, "duel", "sealed")
        tid = table["table_id"]
        assert client.get(f"/api/tables/{tid}/replay?seat=5").status_code == 400
        bad = client.get(f"/api/tables/{tid}/replay?seat=0", headers={"X-Seat-Token": "nope"})
        assert bad.status_code == 403
        transcript = client.get(f"/api/tables/{tid}/transcript").json()

        def post(data: Any, seat: int | None = 0) -> tuple[int, str]:
            answer = client.post("/api/replay", json={"transcript": data, "seat": seat})
            return answer.status_code, answer.text

        unfinished = {**transcript, "steps": transcript["steps"][:3]}
        del unfinished["result"]
        assert post(unfinished)[0] == 409
        assert post(unfinished, None)[0] == 200  # a spectator may watch any part of a file
        broken = {**transcript, "steps": [{"seat": 1, "action": {"type": "nonsense"}}]}
        code, text = post(broken)
        assert code == 400 and "step 0" in text
        assert post({"format": "nonsense"})[0] == 400
