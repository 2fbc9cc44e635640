"""Table talk: chat for the players and spectators of a table, and the quick messages.

Bluffing games are half talk, so every table has a chat. A message is plain text (the
page shows it as text, never as markup), at most MAX_CHARS long, and each connection may
send BURST at once, then one every 1/RATE seconds. The host may close the chat to
spectators (settings.spectator_chat). Messages are stored with the table, in their own SQL
table, never in the transcript's steps (those stay the rules' record), and a finished
table's history shows them (GET /api/tables/{id}/chat). They are written in the
store's writer thread, never on the event loop, and a message is sent to the table only
once it is stored.

Nothing in a chat message comes from the game: the server adds only the sender's seat and
name, which are public. A spectator sees only public facts, so nothing a spectator writes
can carry a secret.
"""

from __future__ import annotations

import asyncio
import time
import unicodedata
from collections.abc import Awaitable, Callable
from typing import Any

from sqlalchemy import Column, Float, ForeignKey, Integer, String, Table, insert, select
from sqlalchemy.engine import Engine

from dicehall.core.errors import DicehallError
from dicehall.server.ops.limits import TokenBucket
from dicehall.server.ops.workers import Busy
from dicehall.server.tables.house_rules import SettingsStore, TableSettings
from dicehall.server.tables.store import metadata

Write = Callable[..., Awaitable[None]]  # Store.write: a write method run in the writer thread

MAX_CHARS = 300
MAX_NAME = 24
RATE = 0.5  # messages a second, after a burst
BURST = 5
HISTORY = 200  # messages a connecting page is sent

QUICK: dict[str, str] = {
    "liar": "liar!",
    "believe": "I believe you",
    "nice-kariki": "nice Kariki",
    "nice-bluff": "nice bluff",
    "nice-escape": "nice escape!",
    "nice-point": "nice point!",
    "good-luck": "good luck!",
    "well-played": "well played",
    "good-game": "good game",
}
"""Preset messages for the table talk, by id: one click instead of typing."""
QUICK_AT: dict[str, tuple[str, ...]] = {
    "kariki": ("liar", "believe", "nice-kariki"),
    "tao": ("nice-bluff",),
    "tepiiku": ("nice-escape",),
    "toplshteyner": ("nice-point",),
}
"""The quick messages that belong to one game ("liar!" means something at Kariki only);
every table also has EVERY_GAME's."""
EVERY_GAME = ("good-luck", "well-played", "good-game")


def quick_messages(game: str) -> dict[str, str]:
    """The quick messages of a table of `game`, by id, in the order the page shows them."""
    return {q: QUICK[q] for q in (*QUICK_AT.get(game, ()), *EVERY_GAME)}


chat_messages = Table(
    "chat_messages",
    metadata,
    Column("table_id", String(32), ForeignKey("tables.id"), primary_key=True),
    Column("idx", Integer, primary_key=True),
    Column("at", Float, nullable=False),
    Column("seat", Integer, nullable=True),  # null: a spectator
    Column("name", String(64), nullable=False),
    Column("text", String(MAX_CHARS * 4), nullable=False),
    Column("quick", String(32), nullable=True),
)


class ChatError(DicehallError):
    """A chat message the table does not take: empty, too long, too fast, not allowed."""


def chat_limit() -> TokenBucket:
    return TokenBucket(RATE, BURST)


def clean_text(text: object, limit: int, what: str) -> str:
    """Printable text only: control characters go, whitespace is folded, length checked."""
    if not isinstance(text, str):
        raise ChatError(f"a chat {what} is a string")
    kept = "".join(" " if unicodedata.category(c)[0] in "CZ" else c for c in text)
    folded = " ".join(kept.split())
    if len(folded) > limit:
        raise ChatError(f"chat {what} too long: {len(folded)} characters; the limit is {limit}")
    return folded


class ChatStore:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        metadata.create_all(engine, tables=[chat_messages])

    def add(self, table_id: str, message: dict[str, Any]) -> None:
        with self.engine.begin() as db:
            db.execute(insert(chat_messages).values(table_id=table_id, **message))

    def of(self, table_id: str) -> list[dict[str, Any]]:
        with self.engine.connect() as db:
            query = (
                select(chat_messages)
                .where(chat_messages.c.table_id == table_id)
                .order_by(chat_messages.c.idx)
            )
            rows = db.execute(query).all()
        return [_public(row._asdict()) for row in rows]


def _public(row: dict[str, Any]) -> dict[str, Any]:
    return {k: row[k] for k in ("idx", "at", "seat", "name", "text", "quick")}


class TableChat:
    """One table's chat: checks a message and stores it; the socket tells everyone."""

    def __init__(
        self,
        store: ChatStore,
        table_id: str,
        settings: TableSettings,
        saved: SettingsStore,
        write: Write,
        game: str = "",
    ) -> None:
        self.store = store
        self.table_id = table_id
        self.quick = quick_messages(game)
        self.settings = settings
        self.saved = saved
        self.write = write
        self.lock = asyncio.Lock()  # one message stored at a time: each takes the next idx
        self._messages: list[dict[str, Any]] | None = None  # loaded on first use

    def messages(self) -> list[dict[str, Any]]:
        if self._messages is None:
            self._messages = self.store.of(self.table_id)
        return self._messages

    def latest(self) -> list[dict[str, Any]]:
        """What a connecting page is sent with its welcome: the latest messages."""
        return self.messages()[-HISTORY:]

    async def open_to_spectators(self, open_: object) -> None:
        """The host opens or closes the chat to spectators (kept with the table's settings)."""
        if not isinstance(open_, bool):
            raise ChatError('say {"type": "chat-spectators", "open": true or false}')
        was = self.settings.spectator_chat
        self.settings.spectator_chat = open_
        try:
            await self.write(self.saved.save, self.table_id, self.settings)
        except Busy as e:
            self.settings.spectator_chat = was
            raise ChatError(f"the server could not keep that setting: {e}") from e

    async def post(self, seat: int | None, name: str, request: dict[str, Any]) -> dict[str, Any]:
        """A new message from a seat (None: a spectator); raises ChatError and stores nothing
        when the message is not taken."""
        if seat is None and not self.settings.spectator_chat:
            raise ChatError("the host has closed this table's chat to spectators")
        quick = request.get("quick")
        if quick is not None:
            if quick not in self.quick:
                raise ChatError(
                    f"unknown quick message {quick!r} at this table; "
                    f"they are: {', '.join(self.quick)}"
                )
            text = self.quick[quick]
        else:
            text = clean_text(request.get("text"), MAX_CHARS, "message")
            if not text:
                raise ChatError("an empty chat message: write something")
        if seat is None:
            given = clean_text(request.get("name", ""), MAX_NAME, "name")
            name = f"{given or 'a spectator'} (watching)"
        async with self.lock:
            message = {
                "idx": len(self.messages()),
                "at": round(time.time(), 3),
                "seat": seat,
                "name": name,
                "text": text,
                "quick": quick,
            }
            try:
                await self.write(self.store.add, self.table_id, message)
            except Busy as e:
                raise ChatError(
                    "the server could not keep that message; please send it again"
                ) from e
            self.messages().append(message)
        return message
