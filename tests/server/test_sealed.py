"""Sealed tables through the server: the seats' entropy, openings by audience, a seat
that withholds its value, bad entropy input, the seed mode kept as an option, and an
old database gaining the fairness column."""

from __future__ import annotations

import contextlib
import random
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from dicehall.core.commitments import chain_commit, chain_value
from dicehall.core.shown import shown_throws
from dicehall.server.tables import live
from dicehall.server.tables.catalog import Catalog
from dicehall.server.tables.store import Store
from tests.server.databases import as_before_migrations
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

X0, X1 = b"\x11" * 32, b"\x22" * 32


def play_kariki(client: Any, reveal: bool = True) -> tuple[str, list[Conn]]:
    """Kariki: two humans who commit to their entropy (one at create, one at join), two
    bots, a watcher; the humans send their values as a page does, unless not `reveal`."""
    table = create(
        client,
        "kariki",
        seats=4,
        bots={2: "heuristic", 3: "heuristic"},
        entropy=chain_commit(X0).hex(),
    )
    tid = table["table_id"]
    joined = client.post(
        f"/api/tables/{tid}/join", json={"name": "Bo", "entropy": chain_commit(X1).hex()}
    ).json()
    with (
        contextlib.ExitStack() as opened,  # sockets close even when a check fails
        client.websocket_connect(f"/ws/tables/{tid}") as watcher,
    ):
        conns = [Conn(watcher, None)]
        for seat, token, x in ((0, table["token"], X0), (1, joined["token"], X1)):
            ws = opened.enter_context(client.websocket_connect(f"/ws/tables/{tid}?token={token}"))
            conns.append(Conn(ws, seat, x if reveal else None))
        drive(conns, random.Random(3))
        settle(client, tid, conns)
    return tid, conns


def test_the_seats_entropy_goes_into_the_dice_and_every_seat_proves_its_own(
    tmp_path: Path,
) -> None:
    with running(tmp_path / "db.sqlite", None) as client:
        tid, conns = play_kariki(client)
        transcript = client.get(f"/api/tables/{tid}/transcript").json()
        report = client.get(f"/api/tables/{tid}/verify").json()
        secret = secrets_of(client, tid)
        mine = [
            client.post(f"/api/tables/{tid}/verify", json={"openings": openings_of(c)}).json()
            for c in conns[1:]
        ]
    assert report["ok"] and report["fairness"] == "sealed", report
    assert report["entropy_from"] == [0, 1, 2, 3] and report["withheld"] == []
    assert report["sealed_throws"] > 0 and report["public_throws"] == len(transcript["openings"])
    game = Catalog(None).make("kariki", 4, transcript["options"])
    shown = shown_throws(game, secret.steps)
    for seat, own in enumerate(mine):
        hidden = [k for k, to in enumerate(shown.shown) if seat in to and None not in to]
        assert own["ok"] and own["your_throws"] == len(hidden), (seat, own)
        n = own["your_throws"]
        yours = "so is your own hidden throw" if n == 1 else f"so are your own {n} hidden"
        assert not n or yours in own["words"]
    rounds = [s["entropy"] for s in secret.steps if "entropy" in s]
    assert rounds[0]["values"][:2] == [chain_value(X0, 0).hex(), chain_value(X1, 0).hex()]
    assert secret.steps.index({"entropy": rounds[0]}) < next(
        i for i, s in enumerate(secret.steps) if "chance" in s
    )
    check_messages(conns, transcript, game, secret)


def test_a_seat_that_withholds_its_value_is_thrown_for_without_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(live, "REVEAL_SECONDS", 0.3)
    with running(tmp_path / "db.sqlite", None) as client:
        tid, _ = play_kariki(client, reveal=False)
        report = client.get(f"/api/tables/{tid}/verify").json()
    assert report["ok"], report
    assert report["withheld"] == [0, 1] and report["entropy_from"] == [2, 3]
    assert "promised numbers but never revealed them" in report["explained"]["promised"]


def test_bad_entropy_gets_an_error_and_changes_nothing(tmp_path: Path) -> None:
    with running(tmp_path / "db.sqlite", None) as client:
        bad = client.post("/api/tables", json={"game": "kariki", "entropy": "xyz"})
        assert bad.status_code == 400 and "64 hex digits" in bad.json()["detail"]
        table = create(client, "kariki", seats=3, bots={2: "heuristic"})
        tid = table["table_id"]
        with client.websocket_connect(f"/ws/tables/{tid}?token={table['token']}") as ws:
            receive(ws)
            ws.send_json({"type": "commit", "commit": chain_commit(X0).hex()})
            ws.send_json({"type": "commit", "commit": "nope"})
            assert "64 hex digits" in next_error(ws)
            ws.send_json({"type": "reveal", "batch": 0, "value": "00" * 32})
            assert "no entropy round" in next_error(ws)
        assert client.app.state.hall.get(tid).record.players[0]["entropy"] == (  # type: ignore[attr-defined]
            chain_commit(X0).hex()
        )
        joined = client.post(f"/api/tables/{tid}/join", json={"name": "Bo"}).json()
        with client.websocket_connect(f"/ws/tables/{tid}?token={joined['token']}") as ws:
            welcome = receive(ws)
            assert welcome["entropy"]["batch"] == 0 and welcome["entropy"]["waiting"] == [0]
            ws.send_json({"type": "commit", "commit": chain_commit(X1).hex()})
            assert "commitments close when the game starts" in next_error(ws)
            ws.send_json({"type": "reveal", "batch": 0, "value": chain_value(X1, 0).hex()})
            assert "made no entropy commitment" in next_error(ws)
        with client.websocket_connect(f"/ws/tables/{tid}?token={table['token']}") as ws:
            receive(ws)
            ws.send_json({"type": "reveal", "batch": 0, "value": chain_value(X1, 0).hex()})
            assert "does not match" in next_error(ws)
            ws.send_json({"type": "reveal", "batch": 0, "value": chain_value(X0, 0).hex()})
            m = receive(ws)
            while m["type"] != "update":
                m = receive(ws)
            assert m["status"] == "playing" and m["step"] > 1


def next_error(ws: Any) -> str:
    m = receive(ws)
    while m["type"] != "error":
        m = receive(ws)
    return str(m["message"])


def test_the_seed_mode_stays_a_table_option(tmp_path: Path) -> None:
    with running(tmp_path / "db.sqlite") as client:
        table = create(client, "duel", bots={1: "random"}, fairness="seed")
        tid = table["table_id"]
        with client.websocket_connect(f"/ws/tables/{tid}?token={table['token']}") as ws:
            conn = Conn(ws, 0)
            drive([conn], random.Random(2))
        summary = client.get(f"/api/tables/{tid}").json()
        transcript = client.get(f"/api/tables/{tid}/transcript").json()
        report = client.get(f"/api/tables/{tid}/verify").json()
        bad = client.post("/api/tables", json={"game": "duel", "fairness": "open"})
    assert summary["fairness"] == "seed" and summary["seed"] == transcript["seed"]
    assert conn.over is not None and conn.over["seed"] == transcript["seed"]
    assert report["ok"] and report["words"].endswith("the seed the server promised before the game")
    assert bad.status_code == 422


def test_a_database_from_before_the_choice_gains_the_column_with_seed_tables(
    tmp_path: Path,
) -> None:
    db = tmp_path / "old.sqlite"
    with running(db) as client:
        create(client, "duel", bots={1: "random"})
    as_before_migrations(f"sqlite:///{db}")
    con = sqlite3.connect(db)
    con.execute("ALTER TABLE tables DROP COLUMN fairness")
    con.commit()
    con.close()
    store = Store(f"sqlite:///{db}")
    try:
        (record,) = [r for r, _ in store.unfinished()]
        assert record.fairness == "seed"
    finally:
        store.close()
