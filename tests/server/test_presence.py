"""People coming and going: connection states, the bot standing in after the grace period,
taking the seat back, leave, concede, the host's replace, skip to the result, and what a
table with no person left does. Every connection-state frame is checked for leaks."""

from __future__ import annotations

import json
import random
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from dicehall.core.bots import RandomBot
from dicehall.core.transcript import replay
from dicehall.server.tables import presence
from dicehall.server.tables.catalog import Catalog
from tests.server.helpers import Conn, check_messages, create, drive, secrets_of
from tests.server.people import SECRET_KEYS, connect, error_of, server, two_players
from tests.toy_game import GAMES as TOY


def read_until(conn: Conn, test: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    while True:
        m = conn.read()
        if test(m):
            return m


def seat_state(seat: int, state: str, **more: Any) -> Callable[[dict[str, Any]], bool]:
    def test(m: dict[str, Any]) -> bool:
        if m["type"] != "table":
            return False
        facts = m["table"]["seats"][seat]
        return bool(facts["state"] == state and all(facts[k] == v for k, v in more.items()))

    return test


def notice(kind: str) -> Callable[[dict[str, Any]], bool]:
    return lambda m: m["type"] == "notice" and m["kind"] == kind


def assert_public(conns: list[Conn]) -> None:
    """Connection-state frames hold public facts only, the same for every connection."""
    for conn in conns:
        for m in conn.messages:
            if m["type"] == "notice":
                assert set(m) == {"type", "kind", "seat", "text"}
            if m["type"] == "table" and m["table"]["status"] != "over":
                text = json.dumps(m)
                assert not SECRET_KEYS & set(m["table"]), m
                for seat in m["table"]["seats"]:
                    assert set(seat) <= {
                        "seat", "name", "bot", "human", "taken", "connected",
                        "state", "stand_in", "quit", "outside_bot", "bot_warning",
                    }  # fmt: skip
                assert "token" not in text.replace("taken", "")
    kinds = [[m["kind"] for m in c.messages if m["type"] == "notice"] for c in conns]
    longest = max(kinds, key=len)
    assert all(k == longest[len(longest) - len(k) :] for k in kinds), "everyone is told the same"


def finish_and_check(client: TestClient, tid: str, conns: list[Conn]) -> dict[str, Any]:
    """Play the connected people to the end; the transcript replays, verifies and leaked
    nothing to any of them."""
    drive(conns, random.Random(tid))
    transcript: dict[str, Any] = client.get(f"/api/tables/{tid}/transcript").json()
    assert client.get(f"/api/tables/{tid}/verify").json()["ok"]
    assert replay(transcript, make=Catalog(TOY).make).is_over()
    game = Catalog(TOY).make("duel", transcript["seats"], transcript["options"])
    check_messages(conns, transcript, game, secrets_of(client, tid))
    assert_public(conns)
    return transcript


def test_a_closed_tab_is_gone_then_played_by_the_bot_and_taken_back(tmp_path: Path) -> None:
    with server(tmp_path) as (client, sockets):
        tid, tokens = two_players(client, grace_seconds=0.3)
        ann = connect(sockets, client, tid, tokens[0], 0)
        watcher = connect(sockets, client, tid, None, None)
        bob = connect(sockets, client, tid, tokens[1], 1)
        read_until(ann, seat_state(1, "connected"))
        bob.ws.close(1001)  # the tab closes: gone at once
        bob.ws.__exit__(None, None, None)
        read_until(ann, seat_state(1, "gone", stand_in=False))
        told = read_until(ann, notice("stand-in"))
        assert told["seat"] == 1 and "Bob is gone" in told["text"]
        read_until(ann, seat_state(1, "gone", stand_in=True))
        # the bot plays Bob's choices while Ann plays hers
        for _ in range(2):
            read_until(ann, lambda m: m["type"] == "update" and m["legal"] != [])
            ann.ws.send_json(
                {"type": "action", "step": ann.pos["step"], "action": ann.pos["legal"][0]["action"]}
            )
        bob = connect(sockets, client, tid, tokens[1], 1)
        assert read_until(ann, notice("back"))["text"] == "Bob is back and plays their seat again"
        read_until(ann, seat_state(1, "connected", stand_in=False))
        finish_and_check(client, tid, [ann, bob, watcher])


def test_a_stand_in_still_thinking_when_its_player_comes_back_does_not_move(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The seat is the player's again from the moment they are back: a move its stand-in
    worked out meanwhile is dropped, and the player's own move is not stale."""
    thinking, finish = threading.Event(), threading.Event()

    class SlowBot(RandomBot):
        def choose(self, view: Any, legal: Any) -> Any:
            thinking.set()
            finish.wait(10)
            return super().choose(view, legal)

    monkeypatch.setattr(TOY["duel"], "bots", lambda game: {"slow": SlowBot})
    with server(tmp_path) as (client, sockets):
        tid, tokens = two_players(client, grace_seconds=0.3)
        ann = connect(sockets, client, tid, tokens[0], 0)
        bob = connect(sockets, client, tid, tokens[1], 1)
        read_until(ann, seat_state(1, "connected"))
        bob.ws.close(1001)
        bob.ws.__exit__(None, None, None)
        read_until(ann, seat_state(1, "gone", stand_in=True))
        assert thinking.wait(10), "the stand-in never started on Bob's turn"
        bob = connect(sockets, client, tid, tokens[1], 1)
        read_until(ann, seat_state(1, "connected", stand_in=False))
        finish.set()  # the stand-in's answer comes after Bob is back
        time.sleep(0.3)
        assert bob.pos["legal"], "Bob's turn is his when he is back"
        step = bob.pos["step"]
        bob.ws.send_json({"type": "action", "step": step, "action": bob.pos["legal"][0]["action"]})
        bob.ws.send_json({"type": "ping"})
        bob.read_until("pong")  # a "stale move" error on the way fails here


def test_a_dropped_connection_is_reconnecting_before_it_is_gone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(presence, "RECONNECT_SECONDS", 0.2)
    with server(tmp_path) as (client, sockets):
        tid, tokens = two_players(client)
        ann = connect(sockets, client, tid, tokens[0], 0)
        bob = connect(sockets, client, tid, tokens[1], 1)
        # a slow machine may show seat 1 reconnecting, then gone, before bob's page is up:
        # read past that to bob connected, so what follows is about the drop alone
        read_until(ann, seat_state(1, "connected"))
        bob.ws.close(4000)  # a network failure, not the page closing itself
        bob.ws.__exit__(None, None, None)
        read_until(ann, seat_state(1, "reconnecting"))
        read_until(ann, seat_state(1, "gone", stand_in=False))
        summary = client.get(f"/api/tables/{tid}").json()
        assert (
            summary["seats"][1]["state"] == "gone" and summary["seats"][0]["state"] == "connected"
        )


def test_leave_hands_the_seat_to_the_bot_for_good(tmp_path: Path) -> None:
    with server(tmp_path) as (client, sockets):
        tid, tokens = two_players(client)
        ann = connect(sockets, client, tid, tokens[0], 0)
        bob = connect(sockets, client, tid, tokens[1], 1)
        bob.ws.send_json({"type": "leave"})
        assert "Bob leaves" in read_until(ann, notice("left"))["text"]
        bob.ws.send_json({"type": "concede"})
        assert "already left" in error_of(bob)
        bob.ws.__exit__(None, None, None)
        bob = connect(sockets, client, tid, tokens[1], 1)  # coming back does not take it back
        summary = client.get(f"/api/tables/{tid}").json()
        assert summary["seats"][1]["stand_in"] and summary["seats"][1]["quit"] == "left"
        bob.ws.__exit__(None, None, None)
        finish_and_check(client, tid, [ann])


def test_concede_makes_the_seats_safe_move_at_each_turn(tmp_path: Path) -> None:
    with server(tmp_path) as (client, sockets):
        tid, tokens = two_players(client)
        ann = connect(sockets, client, tid, tokens[0], 0)
        bob = connect(sockets, client, tid, tokens[1], 1)
        bob.ws.send_json({"type": "concede"})
        read_until(ann, notice("conceded"))
        bob.ws.__exit__(None, None, None)
        transcript = finish_and_check(client, tid, [ann])
    bobs = [s for s in transcript["steps"] if s.get("seat") == 1]
    assert bobs and all(s.get("timeout") for s in bobs)


def test_the_host_may_hand_a_gone_seat_to_the_bot_at_once(tmp_path: Path) -> None:
    with server(tmp_path) as (client, sockets):
        tid, tokens = two_players(client)
        ann = connect(sockets, client, tid, tokens[0], 0)
        bob = connect(sockets, client, tid, tokens[1], 1)
        bob.ws.send_json({"type": "replace", "seat": 0})
        assert "only the host" in error_of(bob)
        ann.ws.send_json({"type": "replace", "seat": 1})
        assert "still here" in error_of(ann)
        ann.ws.send_json({"type": "replace", "seat": "x"})
        assert "not a person's seat" in error_of(ann)
        bob.ws.__exit__(None, None, None)
        read_until(ann, seat_state(1, "gone"))
        ann.ws.send_json({"type": "replace", "seat": 1})
        assert "hands Bob's seat" in read_until(ann, notice("replaced"))["text"]
        read_until(ann, seat_state(1, "gone", stand_in=True))


def test_with_nobody_left_the_bots_finish_at_once(tmp_path: Path) -> None:
    with server(tmp_path) as (client, sockets):
        table = create(client, "duel", bots={1: "random"}, options={"rounds": 9}, bot_delay_ms=5000)
        tid = table["table_id"]
        ann = connect(sockets, client, tid, table["token"], 0)
        ann.ws.send_json({"type": "leave"})
        read_until(ann, lambda m: m["type"] == "over")  # without 5 s pauses: at once
        assert client.get(f"/api/tables/{tid}/verify").json()["ok"]


def test_the_host_may_choose_to_close_a_table_nobody_is_left_at(tmp_path: Path) -> None:
    with server(tmp_path) as (client, sockets):
        table = create(client, "duel", bots={1: "random"}, when_empty="close", bot_delay_ms=5000)
        tid = table["table_id"]
        ann = connect(sockets, client, tid, table["token"], 0)
        ann.ws.send_json({"type": "leave"})
        assert read_until(ann, notice("closed"))
        assert client.get(f"/api/tables/{tid}").json()["status"] == "closed"
        assert client.get("/api/tables").json() == []
        ann.ws.send_json({"type": "action", "step": 99, "action": {"type": "stay"}})
        assert "closed" in error_of(ann)


def test_skip_to_the_result_only_when_nobody_else_plays(tmp_path: Path) -> None:
    with server(tmp_path) as (client, sockets):
        tid, tokens = two_players(client, bot_delay_ms=5000)
        ann = connect(sockets, client, tid, tokens[0], 0)
        bob = connect(sockets, client, tid, tokens[1], 1)
        ann.ws.send_json({"type": "skip"})
        assert "Bob still play" in error_of(ann)
        bob.ws.send_json({"type": "leave"})
        read_until(ann, notice("left"))
        ann.ws.send_json({"type": "skip"})
        read_until(ann, notice("skip"))
        read_until(ann, lambda m: m["type"] == "over")
        watcher = connect(sockets, client, tid, None, None)
        watcher.ws.send_json({"type": "skip"})
        assert "spectators" in error_of(watcher)
