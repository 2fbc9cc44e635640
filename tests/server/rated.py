"""Rated games between named people, for the rating tests: each person a session of their
own on one test client (its cookie swapped in), every seat played by its token."""

from __future__ import annotations

import random
from typing import Any

from fastapi.testclient import TestClient

from tests.server.helpers import Conn, create, drive

SESSION = "dicehall_session"
PASSWORD = "correct horse battery"


def named(client: TestClient, name: str) -> str:
    """A new named account; its session cookie."""
    client.cookies.clear()
    answer = client.post("/api/account/register", json={"name": name, "password": PASSWORD})
    assert answer.status_code == 200, answer.text
    return str(client.cookies[SESSION])


def as_(client: TestClient, cookie: str | None) -> None:
    """Requests from now on come from this session (None: nobody logged in)."""
    client.cookies.clear()
    if cookie is not None:
        client.cookies.set(SESSION, cookie)


def game_of(
    client: TestClient, sessions: list[str | None], seed: int, rated: bool = True, **body: Any
) -> dict[str, Any]:
    """A duel table of these people (None: a guest), seat by seat, played out."""
    as_(client, sessions[0])
    table = create(client, "duel", seats=len(sessions), rated=rated, **body)
    tokens = [table["token"]]
    for cookie in sessions[1:]:
        as_(client, cookie)
        joined = client.post(f"/api/tables/{table['table_id']}/join", json={"name": "guest"})
        assert joined.status_code == 200, joined.text
        tokens.append(joined.json()["token"])
    as_(client, sessions[0])
    with_sockets = [
        client.websocket_connect(f"/ws/tables/{table['table_id']}?token={t}") for t in tokens
    ]
    conns = [Conn(ws.__enter__(), seat) for seat, ws in enumerate(with_sockets)]
    try:
        drive(conns, random.Random(seed))
    finally:
        for ws in reversed(with_sockets):
            ws.__exit__(None, None, None)
    return table
