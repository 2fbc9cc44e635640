"""Test helpers: a server on a temporary database, WebSocket reads with a timeout,
and a driver that plays a table's human seats with random legal actions."""

from __future__ import annotations

import contextlib
import json
import random
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import anyio
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from dicehall.core.game import Game
from dicehall.games import game_ids
from dicehall.server import create_app
from tests.server.toy_game import GAMES as TOY

# (game id, games the server offers: None for the registry)
CASES: list[tuple[str, Mapping[str, type[Game]] | None]] = [("duel", TOY)] + [
    (gid, None) for gid in game_ids()
]


@contextlib.contextmanager
def running(
    db: Path, games: Mapping[str, type[Game]] | None = TOY, **kw: Any
) -> Iterator[TestClient]:
    kw.setdefault("rate", 1000.0)
    kw.setdefault("burst", 1000)
    app = create_app(f"sqlite:///{db}", games=games, **kw)
    with TestClient(app) as client:
        yield client


def receive(ws: WebSocketTestSession, timeout: float = 10.0) -> dict[str, Any]:
    """The next message, or fail after `timeout` seconds instead of hanging."""

    async def get() -> Any:
        with anyio.fail_after(timeout):
            return await ws._send_rx.receive()

    message = ws.portal.call(get)
    ws._raise_on_close(message)
    data: dict[str, Any] = json.loads(message["text"])
    return data


def create(client: TestClient, game: str, **body: Any) -> dict[str, Any]:
    body.setdefault("bot_delay_ms", 0)
    response = client.post("/api/tables", json={"game": game, **body})
    assert response.status_code == 200, response.text
    data: dict[str, Any] = response.json()
    return data


class Conn:
    """One connection and every message it received, raw."""

    def __init__(self, ws: WebSocketTestSession, seat: int | None) -> None:
        self.ws = ws
        self.seat = seat
        self.messages: list[dict[str, Any]] = []
        self.pos: dict[str, Any] = {}
        self.over: dict[str, Any] | None = None

    def read(self) -> dict[str, Any]:
        m = receive(self.ws)
        self.messages.append(m)
        if m["type"] in ("welcome", "update"):
            self.pos = m
        elif m["type"] == "over":
            self.over = m
        elif m["type"] == "error":
            raise AssertionError(f"seat {self.seat} got an error: {m['message']}")
        return m

    def read_until(self, kind: str) -> dict[str, Any]:
        while True:
            m = self.read()
            if m["type"] == kind:
                return m

    @property
    def step(self) -> int:
        return int(self.pos["step"])


def drive(conns: list[Conn], rng: random.Random, max_moves: int = 20_000) -> None:
    """Play the seated connections with random legal actions until "over" reaches all."""
    for c in conns:
        c.read_until("welcome")
    for _ in range(max_moves):
        latest = max(c.step for c in conns)
        for c in conns:
            while c.step < latest:
                c.read()
        if any(c.step != latest for c in conns):
            continue
        if conns[0].pos["status"] == "over":
            for c in conns:
                while c.over is None:
                    c.read()
            return
        actor = next((c for c in conns if c.seat is not None and c.pos["legal"]), None)
        if actor is None:  # a bot's turn
            while conns[0].step == latest:
                conns[0].read()
            continue
        choice = rng.choice(actor.pos["legal"])["action"]
        actor.ws.send_json({"type": "action", "action": choice})
        # the server answers a connection in order: once the pong is in, so is our update
        actor.ws.send_json({"type": "ping"})
        actor.read_until("pong")
    raise AssertionError("the game did not end")
