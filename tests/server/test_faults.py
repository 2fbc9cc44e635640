"""Storage faults leave nothing half-done: a database locked by another writer past
the busy timeout, and a full disk. Creating and joining answer 503 and take
nothing; a step the database refuses pauses the table and is retried; a bot
whose move could not be stored moves again once the database takes writes."""

from __future__ import annotations

import contextlib
import os
import random
import sqlite3
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import WebSocketTestSession

from dicehall.server.ops.settings import ServerConfig
from tests.server.helpers import Conn, create, drive, receive, running

# a short busy timeout and quick retries; a bot's move is given up on within a second
FAULTS = ServerConfig(
    compute_in_processes=False,
    busy_timeout_seconds=0.1,
    retry_first_seconds=0.05,
    retry_max_seconds=0.2,
    retry_give_up_seconds=0.6,
)


@contextlib.contextmanager
def write_lock(db: Path) -> Iterator[None]:
    """Another connection holds SQLite's write lock for as long as the block runs."""
    holder = sqlite3.connect(db, timeout=0, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    try:
        yield
    finally:
        holder.execute("ROLLBACK")
        holder.close()


def until(ws: WebSocketTestSession, kind: str) -> list[dict[str, Any]]:
    """The messages up to and with the next one of `kind`."""
    got = [receive(ws)]
    while got[-1]["type"] != kind:
        got.append(receive(ws))
    return got


def test_create_and_join_answer_503_and_a_refused_join_leaves_the_seat_free(
    tmp_path: Path,
) -> None:
    db = tmp_path / "db.sqlite"
    with running(db, config=FAULTS) as client:
        table = create(client, "duel")
        tid = table["table_id"]
        with write_lock(db):
            made = client.post("/api/tables", json={"game": "duel"})
            joined = client.post(f"/api/tables/{tid}/join", json={"name": "Bo"})
            by_room = client.post(f"/api/rooms/{table['room']}/join", json={"name": "Bo"})
        for answer in (made, joined, by_room):
            assert answer.status_code == 503, answer.text
            assert answer.headers["Retry-After"].isdigit()
            assert "the database is locked by another writer" in answer.json()["detail"]
        assert [t["table_id"] for t in client.get("/api/tables").json()] == [tid]
        summary = client.get(f"/api/tables/{tid}").json()
        assert summary["free_seats"] == [1] and summary["status"] == "waiting"
        assert not summary["seats"][1]["taken"]
        # the database takes writes again: the same seat is there to take
        again = client.post(f"/api/tables/{tid}/join", json={"name": "Bo"})
        assert again.status_code == 200 and again.json()["seat"] == 1
        assert client.get(f"/api/tables/{tid}").json()["status"] == "playing"


def test_a_locked_database_pauses_the_table_and_the_bot_moves_again(tmp_path: Path) -> None:
    db = tmp_path / "db.sqlite"
    with running(db, config=FAULTS) as client:
        # the bot's move is due 1.5 s after the table starts: time enough, on a loaded
        # machine, to connect and take the lock first
        table = create(client, "duel", bots={1: "random"}, bot_delay_ms=1500)
        tid = table["table_id"]
        with client.websocket_connect(f"/ws/tables/{tid}?token={table['token']}") as ws:
            welcome = until(ws, "welcome")[-1]
            assert welcome["legal"] and welcome["paused"] is None
            with write_lock(db):  # the bot's move comes due while the lock is held
                paused = until(ws, "paused")[-1]
                assert "the database is locked by another writer" in paused["message"]
                assert client.get(f"/api/tables/{tid}").json()["paused"]
                move = {"type": "action", "step": welcome["step"], "action": {"type": "stay"}}
                ws.send_json(move)
                refused = until(ws, "error")[-1]
                assert "the table is paused" in refused["message"]
                time.sleep(1.5)  # the bot's move is given up on, then tried again
                assert client.get(f"/api/tables/{tid}").json()["step"] == welcome["step"]
            # the bot moves once the database takes writes, and only once
            got = until(ws, "update")
            assert got[-1]["from_step"] == welcome["step"]
            assert got[-1]["step"] == welcome["step"] + 1
            assert not any(m["type"] == "error" for m in got)
        with client.websocket_connect(f"/ws/tables/{tid}?token={table['token']}") as ws:
            drive([Conn(ws, 0)], random.Random(3))
        transcript = client.get(f"/api/tables/{tid}/transcript").json()
        first_round = transcript["steps"][welcome["step"] : welcome["step"] + 2]
        assert sorted(s["seat"] for s in first_round if "seat" in s) == [0, 1]
        assert client.get(f"/api/tables/{tid}/verify").json()["ok"]


def can_mount_tmpfs(folder: Path) -> bool:
    if os.geteuid() != 0:
        return False
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(folder)],
        capture_output=True,
        check=False,
    )
    return done.returncode == 0


def fill(folder: Path) -> Path:
    """Fill a file system to the last byte."""
    filler = folder / "filler"
    with open(filler, "wb", buffering=0) as f:
        for size in (65536, 4096, 1):
            with contextlib.suppress(OSError):
                while True:
                    f.write(b"\0" * size)
    return filler


def test_a_full_disk_answers_503_and_the_table_resumes_when_there_is_room(
    tmp_path: Path,
) -> None:
    disk = tmp_path / "disk"
    disk.mkdir()
    if not can_mount_tmpfs(disk):
        pytest.skip("cannot mount a tmpfs here (needs root and mount rights)")
    config = ServerConfig(
        compute_in_processes=False, retry_first_seconds=0.05, retry_max_seconds=0.2
    )
    try:
        with running(disk / "db.sqlite", config=config) as client:
            table = create(client, "duel")
            tid = table["table_id"]
            other = client.post(f"/api/tables/{tid}/join", json={"name": "Bo"}).json()
            with client.websocket_connect(f"/ws/tables/{tid}?token={table['token']}") as ws:
                welcome = until(ws, "welcome")[-1]
                filler = fill(disk)
                made = client.post("/api/tables", json={"game": "duel", "names": ["x" * 40]})
                assert made.status_code == 503, made.text
                assert "disk is full" in made.json()["detail"]
                move = {"type": "action", "step": welcome["step"], "action": {"type": "stay"}}
                ws.send_json(move)
                assert "disk is full" in until(ws, "paused")[-1]["message"]
                filler.unlink()
                got = until(ws, "update")
                assert "resumed" in [m["type"] for m in got]
                assert got[-1]["from_step"] == welcome["step"]
            url = f"/ws/tables/{tid}?token="
            with (
                client.websocket_connect(url + table["token"]) as ann,
                client.websocket_connect(url + other["token"]) as bo,
            ):
                drive([Conn(ann, 0), Conn(bo, 1)], random.Random(4))
            assert client.get(f"/api/tables/{tid}/verify").json()["ok"]
    finally:
        subprocess.run(["umount", "-l", str(disk)], check=False)
