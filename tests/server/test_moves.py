"""Moves name the step they answer: raw frames sent twice, resent after a reconnect,
or sent for a turn that has passed are refused as stale and applied once, in every game."""

from __future__ import annotations

import contextlib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from dicehall.core.game import Game
from dicehall.server.tables.catalog import Catalog
from tests.server.helpers import CASES, create, receive, running
from tests.toy_game import GAMES as TOY


def seated(
    client: TestClient, gid: str, games: Mapping[str, type[Game]] | None
) -> tuple[str, dict[int, str]]:
    """A table of humans only (nobody moves unless told): its id and each seat's token."""
    seats = Catalog(games).game_class(gid).default_seats
    table = create(client, gid, seats=seats)
    tokens = {table["seat"]: table["token"]}
    for _ in range(seats - 1):
        joined = client.post(f"/api/tables/{table['table_id']}/join", json={}).json()
        tokens[joined["seat"]] = joined["token"]
    return table["table_id"], tokens


def until(ws: WebSocketTestSession, kind: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Read to the next message of `kind`; also what came before it."""
    before = []
    while (m := receive(ws))["type"] != kind:
        before.append(m)
    return m, before


def answers(ws: WebSocketTestSession) -> list[dict[str, Any]]:
    """Every update and error up to the pong of a ping sent now (the server answers in order)."""
    ws.send_json({"type": "ping"})
    _, before = until(ws, "pong")
    return [m for m in before if m["type"] in ("update", "error")]


@pytest.mark.parametrize(("gid", "games"), CASES, ids=[gid for gid, _ in CASES])
def test_a_double_sent_and_a_resent_move_are_applied_once(
    tmp_path: Path, gid: str, games: Mapping[str, type[Game]] | None
) -> None:
    with running(tmp_path / "db.sqlite", games) as client, contextlib.ExitStack() as opened:
        # Every socket is closed before the client, even when an assertion fails:
        # a test client left with an open socket never finishes its exit.
        tid, tokens = seated(client, gid, games)
        url = f"/ws/tables/{tid}?token="
        welcomes = {}
        socks = {}
        for seat, token in tokens.items():
            socks[seat] = opened.enter_context(client.websocket_connect(url + token))
            welcomes[seat] = until(socks[seat], "welcome")[0]
        seat = next((s for s, w in welcomes.items() if w["legal"]), None)
        if seat is None:
            pytest.skip(f"{gid}: no seat has a choice when the table starts (dice alone move it)")
        ws, position = socks[seat], welcomes[seat]
        frame = {
            "type": "action",
            "step": position["step"],
            "action": position["legal"][0]["action"],
        }

        ws.send_json(frame)
        ws.send_json(frame)  # a double click
        got = answers(ws)
        assert [m["type"] for m in got] == ["update", "error"], got
        assert got[0]["from_step"] == position["step"]
        after = client.get(f"/api/tables/{tid}").json()["step"]
        assert after == got[0]["step"]
        # A move that ended the game (dice alone play out a Toplshteyner) makes the
        # repeat answer a finished game; any other repeat is stale.
        refusal = got[1]["message"]
        assert "stale move: it answers step" in refusal or refusal == "the game is over", got

        ws.close()  # the connection drops; the page resends on reconnect
        with client.websocket_connect(url + tokens[seat]) as again:
            assert until(again, "welcome")[0]["step"] == after
            again.send_json(frame)
            (refused,) = answers(again)
            assert refused["type"] == "error", refused
            assert "stale move" in refused["message"] or refused["message"] == refusal
        assert client.get(f"/api/tables/{tid}").json()["step"] == after


def test_a_move_for_a_turn_that_has_passed_is_stale(tmp_path: Path) -> None:
    with running(tmp_path / "db.sqlite", None) as client:
        tid, tokens = seated(client, "tepiiku", None)
        with client.websocket_connect(f"/ws/tables/{tid}?token={tokens[0]}") as ws:
            welcome = until(ws, "welcome")[0]
            ws.send_json({"type": "action", "step": welcome["step"] - 1, "action": {"type": "x"}})
            (refused,) = answers(ws)
            assert "stale move" in refused["message"]
        assert client.get(f"/api/tables/{tid}").json()["step"] == welcome["step"]


def test_a_simultaneous_choice_stays_open_to_the_step_it_began_at(tmp_path: Path) -> None:
    """C3: both seats answer the same step; the second move is not stale for it."""
    with running(tmp_path / "db.sqlite") as client:
        tid, tokens = seated(client, "duel", TOY)
        with (
            client.websocket_connect(f"/ws/tables/{tid}?token={tokens[0]}") as a,
            client.websocket_connect(f"/ws/tables/{tid}?token={tokens[1]}") as b,
        ):
            step = until(a, "welcome")[0]["step"]
            assert until(b, "welcome")[0]["step"] == step
            a.send_json({"type": "action", "step": step, "action": {"type": "stay"}})
            assert [m["type"] for m in answers(a)] == ["update"]
            b.send_json({"type": "action", "step": step, "action": {"type": "fold"}})
            got = [m for m in answers(b) if m.get("from_step") != step]
            assert [m["type"] for m in got] == ["update"], got
