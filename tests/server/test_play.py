"""Whole games through the server, for every installed game and the toy game:
bots in all but one or two seats, random legal play in the rest, and every raw
message checked against what its seat may see."""

from __future__ import annotations

import random
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from dicehall.core.game import Game
from dicehall.server.tables import house_rules
from dicehall.server.tables.catalog import Catalog
from dicehall.server.tables.live import LiveTable
from tests.server.helpers import (
    CASES,
    Conn,
    check_messages,
    create,
    drive,
    receive,
    running,
    secrets_of,
    sqlite_url,
)
from tests.server.scenarios import full_game_leaks_nothing
from tests.toy_game import GAMES as TOY


@pytest.mark.parametrize(("gid", "games"), CASES, ids=[c[0] for c in CASES])
@pytest.mark.parametrize("humans", [1, 2])
def test_full_game_leaks_nothing(
    tmp_path: Path, gid: str, games: Mapping[str, type[Game]] | None, humans: int
) -> None:
    full_game_leaks_nothing(sqlite_url(tmp_path), gid, games, humans)


def test_simultaneous_choice_asks_every_bot(tmp_path: Path) -> None:
    """Duel's choice is simultaneous (C3): both bots commit while the human has not."""
    with running(tmp_path / "db.sqlite") as client:
        table = create(client, "duel", seats=3, bots={1: "random", 2: "random"})
        url = f"/ws/tables/{table['table_id']}?token={table['token']}"
        with client.websocket_connect(url) as ws:
            m = receive(ws)
            while m.get("actors") != [0]:
                m = receive(ws)
            assert m["view"]["chosen"] == [False, True, True]
            assert [e["action"]["type"] for e in m["legal"]] == ["fold", "stay"]


def test_turn_timer_acts_for_a_silent_seat(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A seat that never acts is timed out (the game's safe default: fold) and the game ends."""
    monkeypatch.setattr(house_rules, "MIN_TURN_SECONDS", 0.05)
    with running(tmp_path / "db.sqlite") as client:
        table = create(client, "duel", bots={1: "random"}, turn_seconds=0.1)
        tid = table["table_id"]
        with client.websocket_connect(f"/ws/tables/{tid}?token={table['token']}") as ws:
            m = receive(ws)
            while m["type"] != "over":
                if m["type"] in ("welcome", "update") and 0 in m["actors"]:
                    assert m["deadline"] is not None and m["deadlines"]["0"] == m["deadline"]
                m = receive(ws)
        steps = client.get(f"/api/tables/{tid}/transcript").json()["steps"]
    assert steps.count({"seat": 0, "timeout": True}) == 2  # one per round


def test_reconnect_resumes_the_seat_from_another_browser(tmp_path: Path) -> None:
    with running(tmp_path / "db.sqlite") as client:
        table = create(client, "duel", seats=2)
        other = client.post(f"/api/tables/{table['table_id']}/join", json={"name": "Bo"}).json()
        url = f"/ws/tables/{table['table_id']}?token={table['token']}"
        with client.websocket_connect(url) as first:
            welcome = receive(first)
            assert welcome["type"] == "welcome"
            first.send_json({"type": "action", "step": welcome["step"], "action": {"type": "stay"}})
            while receive(first)["type"] != "update":
                pass
        with client.websocket_connect(url) as second:
            welcome = receive(second)
            assert welcome["seat"] == 0 and welcome["view"]["my_choice"] == "stay"
            assert welcome["legal"] == []
            assert client.get(f"/api/tables/{table['table_id']}").json()["seats"][0]["connected"]
            url_b = f"/ws/tables/{table['table_id']}?token={other['token']}"
            with client.websocket_connect(url_b) as bo:
                welcome_b = receive(bo)
                assert welcome_b["seat"] == 1
                step = welcome_b["step"]
                bo.send_json({"type": "action", "step": step, "action": {"type": "fold"}})
                m = receive(second)
                while m["type"] != "update":
                    m = receive(second)
                assert m["view"]["last_round"]["choices"] == ["stay", "fold"]


def test_advice_answers_for_every_game(tmp_path: Path) -> None:
    for gid, games in CASES:
        with running(tmp_path / f"{gid}.sqlite", games) as client:
            cls = Catalog(games).game_class(gid)
            bot = next(iter(cls().bots()))
            table = create(client, gid, bots={s: bot for s in range(1, cls.default_seats)})
            url = f"/ws/tables/{table['table_id']}?token={table['token']}"
            with client.websocket_connect(url) as ws:
                m = receive(ws)
                while not m.get("legal") and m.get("status") != "over":
                    if m.get("throw_due") == 0 and m["type"] in ("welcome", "update"):
                        ws.send_json({"type": "throw", "step": m["step"]})  # seat 0's own throw
                    m = receive(ws)
                ws.send_json({"type": "advice"})
                m = receive(ws)
                while m["type"] != "advice":
                    m = receive(ws)
                assert m["table"] is None or {"title", "columns", "rows"} <= set(m["table"])


def test_the_leak_check_catches_a_leak(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A server that slipped seat 0's die to spectators must fail the message check."""
    honest = LiveTable._position

    def leaky(
        self: LiveTable, seat: int | None, turn: dict[str, Any] | None = None
    ) -> dict[str, Any]:
        position = honest(self, seat, turn)
        if seat is None:
            position["view"] = {**position["view"], "my_die": self.state.view(0)["my_die"]}
        return position

    monkeypatch.setattr(LiveTable, "_position", leaky)
    with running(tmp_path / "db.sqlite") as client:
        table = create(client, "duel", bots={1: "random"})
        tid = table["table_id"]
        with (
            client.websocket_connect(f"/ws/tables/{tid}") as watcher,
            client.websocket_connect(f"/ws/tables/{tid}?token={table['token']}") as ws,
        ):
            conns = [Conn(watcher, None), Conn(ws, 0)]
            drive(conns, random.Random(1))
        transcript = client.get(f"/api/tables/{tid}/transcript").json()
        secret = secrets_of(client, tid)
    with pytest.raises(AssertionError, match="seat None"):
        check_messages(conns, transcript, Catalog(TOY).make("duel", 2, {}), secret)
