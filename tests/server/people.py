"""People at a table for the presence and chat tests: two players, their connections."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from tests.server.helpers import Conn, create, receive, running

SECRET_KEYS = {"view", "legal", "events", "dice", "token", "token_hash", "seed", "hand"}


def two_players(client: TestClient, **body: Any) -> tuple[str, dict[int, str]]:
    """A Secret Duel of two people (nine rounds): the table id and each seat's token."""
    body.setdefault("options", {"rounds": 9})
    table = create(client, "duel", **body)
    tid = table["table_id"]
    joined = client.post(f"/api/tables/{tid}/join", json={"name": "Bob"}).json()
    return tid, {0: table["token"], 1: joined["token"]}


@contextlib.contextmanager
def server(tmp_path: Path) -> Iterator[tuple[TestClient, contextlib.ExitStack]]:
    """A server, and a stack that closes every connection before the server stops."""
    with running(tmp_path / "db.sqlite") as client, contextlib.ExitStack() as stack:
        yield client, stack


def connect(
    sockets: contextlib.ExitStack, client: TestClient, tid: str, token: str | None, seat: int | None
) -> Conn:
    query = f"?token={token}" if token else ""
    conn = Conn(sockets.enter_context(client.websocket_connect(f"/ws/tables/{tid}{query}")), seat)
    conn.read_until("welcome")
    return conn


def error_of(conn: Conn) -> str:
    """The next error this connection gets (other messages on the way are kept)."""
    while True:
        m = receive(conn.ws)
        if m["type"] == "error":
            return str(m["message"])
        conn.messages.append(m)
