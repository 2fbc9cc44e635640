"""Whole games through the server on any database: the SQLite suite and the
PostgreSQL suite run these same scenarios, each with its own database URL."""

from __future__ import annotations

import contextlib
import json
import random
from collections.abc import Mapping

from dicehall.core.game import Game
from dicehall.core.transcript import replay
from dicehall.server.tables.catalog import Catalog
from tests.server.helpers import (
    Conn,
    check_messages,
    create,
    drive,
    openings_of,
    receive,
    running,
    secrets_of,
    settle,
)

SHORT = {"tao": {"length": "single"}}
"""Options that keep a whole game short where the default one is long (Tao's token game
runs many matches); the server's handling is the same at any length."""


def full_game_leaks_nothing(
    db: str, gid: str, games: Mapping[str, type[Game]] | None, humans: int
) -> None:
    """Bots in all but `humans` seats, random legal play in the rest, a spectator
    watching; every raw message is checked against what its seat may see."""
    catalog = Catalog(games)
    cls = catalog.game_class(gid)
    seats = max(cls.default_seats, humans)
    bot = next(iter(cls(seats).bots()))
    with running(db, games) as client:
        table = create(
            client,
            gid,
            seats=seats,
            bots={s: bot for s in range(humans, seats)},
            options=SHORT.get(gid, {}),
        )
        tid = table["table_id"]
        tokens = {table["seat"]: table["token"]}
        for _ in range(humans - 1):
            joined = client.post(f"/api/rooms/{table['room'].lower()}/join", json={"name": "Ann"})
            tokens[joined.json()["seat"]] = joined.json()["token"]
        assert sorted(tokens) == list(range(humans))
        with (
            contextlib.ExitStack() as opened,  # sockets close even when a check fails
            client.websocket_connect(f"/ws/tables/{tid}") as spectator,
        ):
            conns = [Conn(spectator, None)]
            for seat, token in tokens.items():
                ws = opened.enter_context(
                    client.websocket_connect(f"/ws/tables/{tid}?token={token}")
                )
                conns.append(Conn(ws, seat))
            drive(conns, random.Random(f"{gid}{humans}"))
            settle(client, tid, conns)
        summary = client.get(f"/api/tables/{tid}").json()
        assert summary["status"] == "over"
        transcript = client.get(f"/api/tables/{tid}/transcript").json()
        report = client.get(f"/api/tables/{tid}/verify").json()
        assert report["ok"], report
        secret = secrets_of(client, tid)
        for conn in conns[1:]:  # each seat proves its own hidden throws with what it got
            mine = client.post(f"/api/tables/{tid}/verify", json={"openings": openings_of(conn)})
            assert mine.json()["ok"], mine.json()
            assert (
                mine.json()["your_throws"] + mine.json()["sealed_throws"]
                == (report["sealed_throws"])
            )
        after = json.dumps([summary, report])
        assert secret.seed not in after
    assert len(transcript["steps"]) == summary["step"]
    final = replay(transcript, make=catalog.make)
    assert final.is_over()
    check_messages(conns, transcript, catalog.make(gid, seats, transcript["options"]), secret)


def restart_mid_game_then_finish(db: str, gid: str, games: Mapping[str, type[Game]] | None) -> None:
    """Stop the app after a few moves, start a new one on the same database,
    finish the game there: the transcript is whole, verifies, and leaked nothing."""
    catalog = Catalog(games)
    cls = catalog.game_class(gid)
    bot = next(iter(cls().bots()))
    rng = random.Random(gid)
    with running(db, games) as client:
        table = create(
            client,
            gid,
            bots={s: bot for s in range(1, cls.default_seats)},
            options=SHORT.get(gid, {}),
        )
        tid, token = table["table_id"], table["token"]
        url = f"/ws/tables/{tid}?token={token}"
        with client.websocket_connect(url) as ws:
            m = receive(ws)
            moves = 0
            while moves < 3 and m.get("status") != "over":
                if m["type"] in ("welcome", "update") and m["legal"]:
                    choice = rng.choice(m["legal"])["action"]
                    ws.send_json({"type": "action", "step": m["step"], "action": choice})
                    moves += 1
                elif m["type"] in ("welcome", "update") and m["throw_due"] == 0:
                    ws.send_json({"type": "throw", "step": m["step"]})  # the roller's own
                    moves += 1
                m = receive(ws)
        before = client.get(f"/api/tables/{tid}").json()
    with running(db, games) as client:
        after = client.get(f"/api/tables/{tid}").json()
        assert after["step"] >= before["step"] and after["commitment"] == before["commitment"]
        listed = [t["table_id"] for t in client.get("/api/tables").json()]
        if after["status"] == "over":
            assert listed == []
        else:  # the bots play on after the restart: the game may end between the two reads
            now = client.get(f"/api/tables/{tid}").json()["status"]
            assert listed == [tid] or (listed == [] and now == "over"), (listed, now)
        with client.websocket_connect(url) as ws:
            conn = Conn(ws, 0)
            drive([conn], rng)
        transcript = client.get(f"/api/tables/{tid}/transcript").json()
        report = client.get(f"/api/tables/{tid}/verify").json()
        secret = secrets_of(client, tid)
    assert report["ok"], report
    assert report["steps"] == len(transcript["steps"]) >= before["step"]
    check_messages(
        [conn], transcript, catalog.make(gid, transcript["seats"], transcript["options"]), secret
    )


def odd_ids_are_not_found(db: str) -> None:
    """Ids and room codes the server never makes, NUL included (PostgreSQL refuses
    it in a query), are simply not found, over REST and WebSocket."""
    with running(db) as client:
        for path in ("/api/tables/ab%00cd", "/api/tables/" + "x" * 100, "/api/rooms/AB%00CD"):
            assert client.get(path).status_code == 404, path
        assert client.post("/api/rooms/ab%00cd/join", json={}).status_code == 404
        with client.websocket_connect("/ws/tables/ab%00cd") as ws:
            assert receive(ws)["type"] == "error"
        table = create(client, "duel", names=["A\x00B"])
        assert client.get(f"/api/tables/{table['table_id']}").json()["seats"][0]["name"] == "A\x00B"
