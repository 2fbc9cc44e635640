"""Table talk: messages reach everyone at the table, quick messages, the spectators' chat
the host may close, length and rate limits with clear errors, markup kept as plain text,
storage with the table (never in the transcript's steps), and no secret in any chat frame."""

from __future__ import annotations

import contextlib
import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from dicehall.server.tables import chat
from dicehall.server.tables.chat import quick_messages
from tests.server.helpers import (
    Conn,
    check_messages,
    create,
    drive,
    receive,
    running,
    secrets_of,
)
from tests.server.people import SECRET_KEYS, connect, error_of, two_players
from tests.toy_game import GAMES as TOY


@contextlib.contextmanager
def table_of_two(db: Path, **body: Any) -> Iterator[tuple[TestClient, str, Conn, Conn, Conn]]:
    """Ann (the host), Bob and a spectator at a Secret Duel."""
    with running(db) as client, contextlib.ExitStack() as sockets:
        tid, tokens = two_players(client, **body)
        ann = connect(sockets, client, tid, tokens[0], 0)
        bob = connect(sockets, client, tid, tokens[1], 1)
        watcher = connect(sockets, client, tid, None, None)
        yield client, tid, ann, bob, watcher


def next_chat(conn: Conn) -> dict[str, Any]:
    while True:
        m = conn.read()
        if m["type"] == "chat":
            message: dict[str, Any] = m["message"]
            return message


def test_a_message_reaches_everyone_at_the_table(tmp_path: Path) -> None:
    with table_of_two(tmp_path / "db.sqlite") as (client, tid, ann, bob, watcher):
        ann.ws.send_json({"type": "chat", "text": "  hello   <b>Bob</b>\n"})
        for conn in (ann, bob, watcher):
            got = next_chat(conn)
            assert got["seat"] == 0 and got["name"] == "Player 1"
            assert got["text"] == "hello <b>Bob</b>"  # kept as text: the page never parses it
        bob.ws.send_json({"type": "chat", "quick": "well-played"})
        assert [next_chat(c)["text"] for c in (ann, bob, watcher)] == ["well played"] * 3
        watcher.ws.send_json({"type": "chat", "text": "go Bob", "name": "Zoe"})
        assert next_chat(bob)["name"] == "Zoe (watching)"
        history = client.get(f"/api/tables/{tid}/chat").json()["messages"]
        assert [(m["seat"], m["text"], m["quick"]) for m in history] == [
            (0, "hello <b>Bob</b>", None),
            (1, "well played", "well-played"),
            (None, "go Bob", None),
        ]


def test_the_host_may_close_the_chat_to_spectators(tmp_path: Path) -> None:
    with table_of_two(tmp_path / "db.sqlite") as (client, tid, ann, bob, watcher):
        bob.ws.send_json({"type": "chat-spectators", "open": False})
        assert "only the host" in error_of(bob)
        ann.ws.send_json({"type": "chat-spectators", "open": "no"})
        assert "true or false" in error_of(ann)
        ann.ws.send_json({"type": "chat-spectators", "open": False})
        while True:
            m = watcher.read()
            if m["type"] == "table" and not m["table"]["settings"]["spectator_chat"]:
                break
        watcher.ws.send_json({"type": "chat", "text": "psst"})
        assert error_of(watcher) == "the host has closed this table's chat to spectators"
        bob.ws.send_json({"type": "chat", "text": "players still talk"})
        assert next_chat(watcher)["text"] == "players still talk"  # and spectators read
        assert [m["text"] for m in client.get(f"/api/tables/{tid}/chat").json()["messages"]] == [
            "players still talk"
        ]


def test_limits_answer_with_a_clear_error_and_keep_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(chat, "RATE", 0.001)  # no refill while the test runs
    with table_of_two(tmp_path / "db.sqlite") as (client, tid, ann, _bob, _watcher):
        ann.ws.send_json({"type": "chat", "text": "x" * (chat.MAX_CHARS + 1)})
        assert error_of(ann) == (
            f"chat message too long: {chat.MAX_CHARS + 1} characters; the limit is 300"
        )
        ann.ws.send_json({"type": "chat", "text": " \t\n"})
        assert error_of(ann) == "an empty chat message: write something"
        ann.ws.send_json({"type": "chat", "quick": "<script>"})
        assert "unknown quick message '<script>'" in error_of(ann)
        ann.ws.send_json({"type": "chat", "text": 5})
        assert error_of(ann) == "a chat message is a string"
        for i in range(chat.BURST - 4):  # the four refused ones counted too
            ann.ws.send_json({"type": "chat", "text": f"message {i}"})
        ann.ws.send_json({"type": "chat", "text": "one too many"})
        assert error_of(ann).startswith("too many chat messages: at most 5 at once")
        texts = [m["text"] for m in client.get(f"/api/tables/{tid}/chat").json()["messages"]]
        assert texts == [f"message {i}" for i in range(chat.BURST - 4)]


def test_chat_is_kept_with_the_table_not_in_its_transcript(tmp_path: Path) -> None:
    db = tmp_path / "db.sqlite"
    with running(db) as client:
        table = create(client, "duel", bots={1: "random"})
        tid, token = table["table_id"], table["token"]
        with client.websocket_connect(f"/ws/tables/{tid}?token={token}") as ws:
            conn = Conn(ws, 0)
            ws.send_json({"type": "chat", "quick": "good-luck"})
            drive([conn], random.Random(1))
            ws.send_json({"type": "chat", "quick": "good-game"})  # after the end too
            assert next_chat(conn)["text"] == "good game"
        transcript = client.get(f"/api/tables/{tid}/transcript").json()
    assert "good luck" not in json.dumps(transcript)
    with running(db) as client:  # a new server: the talk is still the table's
        with client.websocket_connect(f"/ws/tables/{tid}") as ws:
            welcome = receive(ws)
        assert [m["text"] for m in welcome["chat"]] == ["good luck!", "good game"]


def test_chat_frames_carry_no_secret(tmp_path: Path) -> None:
    """A whole game with talk: every connection gets the same chat frames, holding only the
    sender's public seat and name and the text, and the game's own frames still leak nothing."""
    with table_of_two(tmp_path / "db.sqlite") as (client, tid, ann, bob, watcher):
        for conn, text in ((ann, "I have a six"), (bob, "liar"), (watcher, "hm")):
            conn.ws.send_json({"type": "chat", "text": text})
        drive([ann, bob, watcher], random.Random(3))
        transcript = client.get(f"/api/tables/{tid}/transcript").json()
        secret = secrets_of(client, tid)
        conns = [ann, bob, watcher]
        for conn in conns:  # the rest of the talk is still on its way to some
            while sum(m["type"] == "chat" for m in conn.messages) < 3:
                conn.read()
    from dicehall.server.tables.catalog import Catalog

    game = Catalog(TOY).make("duel", 2, transcript["options"])
    check_messages(conns, transcript, game, secret)
    chats = [[m for m in c.messages if m["type"] == "chat"] for c in conns]
    assert chats[0] == chats[1] == chats[2] and len(chats[0]) == 3
    for frame in chats[0]:
        assert set(frame) == {"type", "message"}
        assert set(frame["message"]) == {"idx", "at", "seat", "name", "text", "quick"}
        assert not SECRET_KEYS & set(frame["message"])
    welcomes = [m for c in conns for m in c.messages if m["type"] == "welcome"]
    assert all(m["chat"] == [] for m in welcomes)  # they came before anyone spoke


def test_quick_messages_belong_to_their_game(tmp_path: Path) -> None:
    """ "liar!" and "nice Kariki" are Kariki's; a table is offered its game's and everyone's,
    in its welcome, and refuses another game's."""
    assert list(quick_messages("kariki"))[:3] == ["liar", "believe", "nice-kariki"]
    for game in ("tao", "tepiiku", "toplshteyner", "duel"):
        assert "liar" not in quick_messages(game) and "nice-kariki" not in quick_messages(game)
    with table_of_two(tmp_path / "db.sqlite") as (client, tid, ann, _bob, _watcher):
        ann.ws.send_json({"type": "chat", "quick": "liar"})
        assert "unknown quick message 'liar' at this table" in error_of(ann)
        with client.websocket_connect(f"/ws/tables/{tid}") as ws:
            welcome = ws.receive_json()
            assert (
                welcome["quick"]
                == quick_messages("duel")
                == {
                    "good-luck": "good luck!",
                    "well-played": "well played",
                    "good-game": "good game",
                }
            )
