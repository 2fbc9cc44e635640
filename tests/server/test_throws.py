"""A person's own throw (State.thrower: a Toplshteyner roller), in raw frames: the table
waits for their "throw", applies a throw sent twice once, throws for them when their time
is up, and bots throw at once as before."""

from __future__ import annotations

from pathlib import Path

import pytest
from starlette.testclient import WebSocketTestSession

from dicehall.games import game_ids
from dicehall.server.ops.settings import ServerConfig
from tests.server.helpers import create, receive, running
from tests.server.test_moves import answers, seated, until

pytestmark = pytest.mark.skipif(
    "toplshteyner" not in game_ids(), reason="Toplshteyner is not installed"
)


def close(socks: dict[int, WebSocketTestSession]) -> None:
    for sock in socks.values():
        sock.__exit__(None, None, None)


def test_a_throw_sent_twice_is_thrown_once(tmp_path: Path) -> None:
    with running(tmp_path / "db.sqlite", None) as client:
        tid, tokens = seated(client, "toplshteyner", None)
        url = f"/ws/tables/{tid}?token="
        socks = {s: client.websocket_connect(url + t).__enter__() for s, t in tokens.items()}
        try:
            welcomes = {s: until(ws, "welcome")[0] for s, ws in socks.items()}
            due = welcomes[0]["throw_due"]
            assert due is not None, "the roll-off is the table's; the roller's throw waits"
            step = welcomes[due]["step"]
            assert all(w["throw_due"] == due and w["step"] == step for w in welcomes.values())
            assert str(due) in welcomes[0]["deadlines"]  # the table throws when time is up
            assert client.get(f"/api/tables/{tid}").json()["step"] == step

            other = socks[next(s for s in socks if s != due)]
            other.send_json({"type": "throw", "step": step})
            (refused,) = answers(other)
            assert f"no throw of seat {next(s for s in socks if s != due)}" in refused["message"]
            socks[due].send_json({"type": "throw"})
            (refused,) = answers(socks[due])
            assert 'a throw names the step it answers: "step"' in refused["message"]

            frame = {"type": "throw", "step": step}
            socks[due].send_json(frame)
            socks[due].send_json(frame)  # a double press of Throw
            got = answers(socks[due])
            assert [m["type"] for m in got] == ["update", "error"], got
            thrown = got[0]
            assert thrown["from_step"] == step and thrown["step"] == step + 1
            assert any(e["type"] == "throw" for e in thrown["events"])
            # refused either way, whatever the throw did: stale, or (the turn passed) not due
            assert any(
                words in got[1]["message"] for words in ("stale throw: it answers step", "is due")
            ), got[1]
            assert client.get(f"/api/tables/{tid}").json()["step"] == step + 1
            steps = client.get(f"/api/tables/{tid}").json()["step"]
            assert steps == step + 1  # one throw, stored once
        finally:
            close(socks)
        with client.websocket_connect(f"/ws/tables/{tid}") as watcher:
            welcome = until(watcher, "welcome")[0]
            watcher.send_json({"type": "throw", "step": welcome["step"]})
            (refused,) = answers(watcher)
            assert "spectators cannot throw" in refused["message"]


def test_the_table_throws_for_a_person_whose_time_is_up(tmp_path: Path) -> None:
    config = ServerConfig(compute_in_processes=False, throw_wait_seconds=0.05)
    with running(tmp_path / "db.sqlite", None, config=config) as client:
        made = create(client, "toplshteyner", seats=2, listed=False, turn_seconds=None)
        tid = made["table_id"]
        with client.websocket_connect(f"/ws/tables/{tid}?token={made['token']}") as ws:
            assert until(ws, "welcome")[0]["status"] == "waiting"
            client.post(f"/api/tables/{tid}/join", json={}).raise_for_status()
            started = until(ws, "update")[0]  # the roll-off, thrown by the table (C5)
            due = started["throw_due"]
            assert due is not None and str(due) in started["deadlines"]
            update = until(ws, "update")[0]  # nobody threw: the table did, once time was up
            assert update["from_step"] == started["step"]
            assert any(e["type"] == "throw" and e["seat"] == due for e in update["events"])


def test_bots_throw_at_once_as_before(tmp_path: Path) -> None:
    """A bot roller's whole turn is thrown with the step before it: no throw is waited on."""
    with running(tmp_path / "db.sqlite", None) as client:
        table = create(client, "toplshteyner", seats=3, bots={1: "random", 2: "random"})
        url = f"/ws/tables/{table['table_id']}?token={table['token']}"
        with client.websocket_connect(url) as ws:
            m = receive(ws)
            for _ in range(200):
                if m["type"] == "over":
                    break
                if m["type"] in ("welcome", "update"):
                    assert m["throw_due"] in (None, 0), m["throw_due"]
                    if m["throw_due"] == 0:
                        ws.send_json({"type": "throw", "step": m["step"]})
                    elif m["legal"]:
                        ws.send_json(
                            {"type": "action", "step": m["step"], "action": m["legal"][0]["action"]}
                        )
                m = receive(ws)
            else:
                pytest.fail("the game did not end")
