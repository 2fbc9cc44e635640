"""What one client may hold and send over WebSockets: open sockets per address and per
account (spectators included), and a socket that keeps sending over its budget closed."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from starlette.websockets import WebSocketDisconnect

from dicehall.server.http.sockets import MAX_STRIKES, TOO_MANY_MESSAGES, TOO_MANY_SOCKETS
from dicehall.server.ops.limits import Limits
from tests.server.helpers import create, receive, running
from tests.server.rated import named


def test_a_socket_that_keeps_sending_over_budget_is_closed_with_a_reason(tmp_path: Path) -> None:
    with running(tmp_path / "db.sqlite", rate=5.0, burst=5) as client:
        table = create(client, "duel")
        url = f"/ws/tables/{table['table_id']}?token={table['token']}"
        with client.websocket_connect(url) as ws:
            assert receive(ws)["type"] == "welcome"
            for _ in range(5 + MAX_STRIKES + 20):
                ws.send_text("not even JSON")  # dropped unread once over budget
            kinds, closed = [], None
            with pytest.raises(WebSocketDisconnect) as gone:
                while True:
                    message = receive(ws)
                    kinds.append(message.get("message", message["type"]))
            closed = gone.value
        assert closed.code == TOO_MANY_MESSAGES and "too many messages" in closed.reason
        # only the budget was read: 5, plus one for each token the bucket refilled (at 5 a
        # second) while a slow machine was still sending; the rest was dropped unread
        read = sum(k.startswith("not JSON") for k in kinds)
        assert 5 <= read < 5 + 20
        # told once each time it went over budget: once, or again after a refilled frame
        assert 1 <= sum("too many messages" in k for k in kinds) <= 1 + (read - 5)
        with client.websocket_connect(url) as again:  # the table and the seat are fine
            assert receive(again)["type"] == "welcome"


def test_open_sockets_are_capped_per_address_spectators_included(tmp_path: Path) -> None:
    limits = replace(Limits.generous(), sockets_per_address=2)
    with running(tmp_path / "db.sqlite", limits=limits) as client:
        table = create(client, "duel")
        watch = f"/ws/tables/{table['table_id']}"
        with client.websocket_connect(watch) as one, client.websocket_connect(watch) as two:
            assert receive(one)["type"] == receive(two)["type"] == "welcome"
            with client.websocket_connect(watch) as three:
                refused = receive(three)
                assert refused["type"] == "error"
                assert "too many open connections from your address" in refused["message"]
                with pytest.raises(WebSocketDisconnect) as closed:
                    receive(three)
                assert closed.value.code == TOO_MANY_SOCKETS
        with client.websocket_connect(watch) as after:  # the others closed: room again
            assert receive(after)["type"] == "welcome"
        assert client.app.state.sockets.by_address.held == {}  # type: ignore[attr-defined]


def test_open_sockets_are_capped_per_account(tmp_path: Path) -> None:
    limits = replace(Limits.generous(), sockets_per_account=1)
    with running(tmp_path / "db.sqlite", limits=limits) as client:
        named(client, "Rex")
        table = create(client, "duel")
        watch = f"/ws/tables/{table['table_id']}"
        with client.websocket_connect(watch) as one:
            assert receive(one)["type"] == "welcome"
            with client.websocket_connect(watch) as two:
                refused = receive(two)
                assert "too many open connections for your account" in refused["message"]
            client.cookies.clear()  # the same address, nobody logged in: not this account's
            with client.websocket_connect(watch) as other:
                assert receive(other)["type"] == "welcome"
