"""Bots from outside: tokens from `dicehall bot-token`, seats kept for bots, the per-decision
limit, and examples/bot_client.py playing a whole game against a live server."""

from __future__ import annotations

import json
import random
import threading
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine
from typer.testing import CliRunner

from dicehall.cli import app as cli
from dicehall.server.ops.settings import ServerConfig
from dicehall.server.tables.outside_bots import BotTokens
from tests.server.helpers import Conn, create, drive, example, running


def issue(db: Path, name: str) -> str:
    result = CliRunner().invoke(cli, ["bot-token", name, "--db", f"sqlite:///{db}"])
    assert result.exit_code == 0, result.output
    return result.output.strip()


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def test_bot_tokens_from_the_command(tmp_path: Path) -> None:
    """A token names its bot; a new one for the same name replaces it; a bad name is refused."""
    db = tmp_path / "db.sqlite"
    first = issue(db, "randy")
    second = issue(db, "randy")
    engine = create_engine(f"sqlite:///{db}")
    try:
        tokens = BotTokens(engine)
        assert tokens.name_of(second) == "randy"
        assert tokens.name_of(first) is None
        assert tokens.name_of("made-up") is None
    finally:
        engine.dispose()
    bad = CliRunner().invoke(cli, ["bot-token", "<script>", "--db", f"sqlite:///{db}"])
    assert bad.exit_code == 2 and "a bot's name is" in bad.output


def test_a_kept_seat_waits_for_a_bot(tmp_path: Path) -> None:
    """No person may take a seat kept for a bot; a bot sits only with a good token; the game
    starts once it sits, with the bot's name at its seat."""
    db = tmp_path / "db.sqlite"
    token = issue(db, "randy")
    with running(db) as client:
        table = create(client, "duel", bots={1: "outside"})
        tid = table["table_id"]
        assert table["seat"] == 0
        seats = client.get(f"/api/tables/{tid}").json()["seats"]
        assert [s["outside_bot"] for s in seats] == [False, True]
        assert 1 not in client.get(f"/api/tables/{tid}").json()["free_seats"]
        assert client.post(f"/api/tables/{tid}/join", json={}).status_code == 409
        sit = "/api/bots/sit"
        assert client.post(sit).status_code == 401
        assert client.post(sit, headers=bearer("nope")).status_code == 401
        assert client.post(sit, headers={"Authorization": token}).status_code == 401
        other = client.post(sit, json={"game": "kariki"}, headers=bearer(token))
        assert other.status_code == 404 and "no table is waiting" in other.json()["detail"]
        seated = client.post(sit, json={"game": "duel", "seats": 2}, headers=bearer(token))
        assert seated.status_code == 200, seated.text
        assert seated.json()["seat"] == 1 and seated.json()["name"] == "randy"
        summary = client.get(f"/api/tables/{tid}").json()
        assert summary["status"] == "playing"
        assert summary["seats"][1]["name"] == "randy"
        assert client.post(sit, headers=bearer(token)).status_code == 404


def test_a_bot_past_its_limit_gets_the_timeout_step(tmp_path: Path) -> None:
    """A bot that never answers: each of its turns ends in the table's timeout step once its
    per-decision limit is up, and the game goes on to the end; its rematch seat is a bot's."""
    db = tmp_path / "db.sqlite"
    token = issue(db, "sleepy")
    config = ServerConfig(compute_in_processes=False, outside_bot_ms=20)
    with running(db, config=config) as client:
        table = create(client, "duel", bots={1: "outside"}, options={"rounds": 2})
        tid = table["table_id"]
        seated = client.post("/api/bots/sit", headers=bearer(token))
        with client.websocket_connect(f"/ws/tables/{tid}?token={table['token']}") as ws:
            drive([Conn(ws, 0)], random.Random(3))
        steps = client.get(f"/api/tables/{tid}/transcript").json()["steps"]
        # the rematch keeps the bot's seat, and its limit, for the same bot
        again = client.post(f"/api/tables/{tid}/rematch", headers={"X-Seat-Token": table["token"]})
        mine = client.post(
            f"/api/tables/{tid}/rematch", headers={"X-Seat-Token": seated.json()["token"]}
        )
        assert mine.json()["table_id"] == again.json()["table_id"] and mine.json()["seat"] == 1
        rematch = client.app.state.hall.get(mine.json()["table_id"])  # type: ignore[attr-defined]
        assert rematch.turn_limit(1) == 0.02 and rematch.status == "playing"
    bot_steps = [s for s in steps if s.get("seat") == 1]
    assert bot_steps and all(s.get("timeout") is True for s in bot_steps)


def test_the_example_bot_plays_a_full_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """examples/bot_client.py against `dicehall serve` on 127.0.0.1: it sits at the Kariki
    table that keeps a seat for a bot and plays it to the end, every decision its own (the
    limit is generous here so that a loaded machine cannot turn a move into a timeout)."""
    from tests.browser.conftest import free_port, start_server, stop_server

    db = tmp_path / "db.sqlite"
    token = issue(db, "randy")
    monkeypatch.setenv("DICEHALL_OUTSIDE_BOT_MS", "20000")
    port = free_port()
    server = f"http://127.0.0.1:{port}"
    client = example("bot_client")
    process = start_server(port, db)
    host: threading.Thread | None = None
    try:
        body = {"game": "kariki", "seats": 3, "bots": {"1": "outside", "2": "heuristic"}}
        request = urllib.request.Request(
            f"{server}/api/tables",
            json.dumps({**body, "bot_delay_ms": 0}).encode(),
            {"Content-Type": "application/json"},
        )
        with urllib.request.urlopen(request, timeout=10) as answer:
            table = json.load(answer)
        tid = table["table_id"]
        results: list[Any] = []
        host = threading.Thread(
            target=lambda: results.append(client.play(server, tid, table["token"])), daemon=True
        )
        host.start()
        seat = client.sit(server, token, "kariki")
        assert seat is not None and seat["table_id"] == tid and seat["seat"] == 1
        result = client.play(server, tid, seat["token"])
        host.join(30)
        assert results == [result]
        with urllib.request.urlopen(f"{server}/api/tables/{tid}/transcript", timeout=10) as a:
            transcript = json.load(a)
        with urllib.request.urlopen(f"{server}/api/tables/{tid}", timeout=10) as a:
            summary = json.load(a)
    finally:
        stop_server(process)
        if host is not None:
            host.join(10)
    assert summary["status"] == "over" and summary["seats"][1]["name"] == "randy"
    assert transcript["result"] == result
    mine = [s for s in transcript["steps"] if s.get("seat") == 1]
    assert mine and all("action" in s for s in mine)
