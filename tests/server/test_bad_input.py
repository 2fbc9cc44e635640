"""Malformed and hostile input over the WebSocket: a clear error, nothing stored,
and the connection and the table stay usable."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from tests.server.helpers import create, receive, running


def two_humans(client: TestClient) -> tuple[dict[str, Any], dict[str, Any]]:
    table = create(client, "duel")
    other = client.post(f"/api/tables/{table['table_id']}/join", json={"name": "Bo"}).json()
    return table, other


def error_after(ws: Any, payload: str | bytes) -> str:
    if isinstance(payload, bytes):
        ws.send_bytes(payload)
    else:
        ws.send_text(payload)
    m = receive(ws)
    while m["type"] == "table":  # who sits and is connected: public news, not an answer
        m = receive(ws)
    assert m["type"] == "error", m
    message: str = m["message"]
    return message


BAD = [
    ("{not json", "not JSON"),
    ("[1, 2]", 'a JSON object with a "type"'),
    ('{"kind": "ping"}', 'a JSON object with a "type"'),
    ('{"type": "dance"}', "unknown message type 'dance'"),
    ('{"type": "action"}', "an action is a JSON object"),
    ('{"type": "action", "action": "stay"}', "an action is a JSON object"),
    ('{"type": "action", "action": {"type": "stay"}}', "names the step it answers"),
    ('{"type": "action", "step": "0", "action": {"type": "stay"}}', "names the step"),
    ('{"type": "action", "step": true, "action": {"type": "stay"}}', "names the step"),
    ('{"type": "action", "step": STEP, "action": {"type": "raise"}}', "may not play raise"),
    ('{"type": "action", "step": 99, "action": {"type": "stay"}}', "has not happened yet"),
    ('{"type": "action", "action": {"type": "stay"}, "seat": 1}', "plays seat 0 only"),
    ("[" * 1000 + "]" * 1000, "nested too deeply"),
    ('{"type": "action", "step": STEP, "action": ' + "[" * 20 + "]" * 20 + "}", "too deeply"),
    ('{"type": "ping", "pad": "' + "x" * 9000 + '"}', "message too large"),
    (b'{"type": "ping"}', "send text frames"),
]


@pytest.mark.parametrize(("payload", "expected"), BAD, ids=[e for _, e in BAD])
def test_bad_messages_get_an_error_and_change_nothing(
    tmp_path: Path, payload: str | bytes, expected: str
) -> None:
    with running(tmp_path / "db.sqlite") as client:
        table, _ = two_humans(client)
        tid = table["table_id"]
        with client.websocket_connect(f"/ws/tables/{tid}?token={table['token']}") as ws:
            welcome = receive(ws)
            assert receive(ws)["type"] == "table"
            if isinstance(payload, str):  # a move that answers the position just welcomed
                payload = payload.replace("STEP", str(welcome["step"]))
            assert expected in error_after(ws, payload)
            ws.send_json({"type": "ping"})
            assert receive(ws) == {"type": "pong"}
            assert client.get(f"/api/tables/{tid}").json()["step"] == welcome["step"]
            ws.send_json({"type": "action", "step": welcome["step"], "action": {"type": "stay"}})
            update = receive(ws)
            assert update["type"] == "update" and update["view"]["my_choice"] == "stay"
            assert update["step"] == welcome["step"] + 1


def test_spectators_and_other_seats_cannot_act(tmp_path: Path) -> None:
    with running(tmp_path / "db.sqlite") as client:
        table, other = two_humans(client)
        url = f"/ws/tables/{table['table_id']}"
        with client.websocket_connect(url) as watcher:
            assert receive(watcher)["seat"] is None
            message = error_after(watcher, '{"type": "action", "action": {"type": "stay"}}')
            assert "spectators cannot act" in message
            with client.websocket_connect(f"{url}?token={other['token']}") as bo:
                welcome = receive(bo)
                assert welcome["seat"] == 1
                step = welcome["step"]
                bo.send_json({"type": "action", "step": step, "action": {"type": "stay"}})
                while (m := receive(bo))["type"] != "update":
                    pass
                assert "not seat 1's turn" in error_after(
                    bo, f'{{"type": "action", "step": {step + 1}, "action": {{"type": "fold"}}}}'
                )
        assert client.get(f"/api/tables/{table['table_id']}").json()["step"] == m["step"]


def test_a_flood_is_rate_limited_and_the_connection_recovers(tmp_path: Path) -> None:
    with running(tmp_path / "db.sqlite", rate=20.0, burst=5) as client:
        table, _ = two_humans(client)
        with client.websocket_connect(
            f"/ws/tables/{table['table_id']}?token={table['token']}"
        ) as ws:
            receive(ws)
            receive(ws)
            for _ in range(30):
                ws.send_json({"type": "ping"})
            replies = [receive(ws)]
            while replies[-1]["type"] != "error":
                replies.append(receive(ws))
            assert replies[:5] == [{"type": "pong"}] * 5 and len(replies) < 30
            assert "too many messages" in replies[-1]["message"]
            time.sleep(0.3)  # the bucket refills
            ws.send_json({"type": "advice"})
            while (m := receive(ws))["type"] != "advice":
                assert m["type"] in ("pong", "error")  # late answers to the flood
            assert m == {"type": "advice", "table": None}


def test_bad_tokens_and_unknown_tables_are_refused(tmp_path: Path) -> None:
    with running(tmp_path / "db.sqlite") as client:
        table, _ = two_humans(client)
        with client.websocket_connect(f"/ws/tables/{table['table_id']}?token=forged") as ws:
            assert "holds no seat" in receive(ws)["message"]
            with pytest.raises(WebSocketDisconnect) as closed:
                receive(ws)
            assert closed.value.code == 4403
        with client.websocket_connect("/ws/tables/nope") as ws:
            assert receive(ws) == {"type": "error", "message": "no table 'nope'"}
            with pytest.raises(WebSocketDisconnect) as closed:
                receive(ws)
            assert closed.value.code == 4404
