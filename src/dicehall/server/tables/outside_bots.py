"""Bots from outside: programs that play a seat over the same WebSocket protocol as a player.

A bot from outside is a name and a secret bot token, issued by `dicehall bot-token
NAME` and kept here only as a SHA-256 hash (`bot_tokens`). A host invites one by
giving a seat the bot `"outside"` when creating the table (`POST /api/tables`,
`"bots": {"1": "outside"}`; the lobby offers it): that seat is kept for a bot and
no person may take it. A bot asks for a seat with its token (`POST /api/bots/sit`,
http/bots.py), gets that seat's own seat token, and connects to
`/ws/tables/{id}?token=...` like any player's page; the game starts once every
person and every invited bot sits.

Each of its decisions has `ServerConfig.outside_bot_ms` (250 ms by default, the
limit of the maexchen bot servers), counted from the moment its turn comes; past
it the table plays the seat's timeout step, as for a person whose time ran out
(no time bank). A bot that goes away is stood in for by the table's bot after the
grace period, as a person is. docs/bots.md is the protocol for writing one.

Bot tokens live in their own table so that they fold into accounts later: a bot's
row becomes an account of kind "bot" and its token one of that account's
credentials, with `name_of` the one lookup to move.
"""

from __future__ import annotations

import hashlib
import secrets
import time
from typing import TYPE_CHECKING, Any

from sqlalchemy import Column, Float, String, Table, delete, insert, select
from sqlalchemy.engine import Engine

from dicehall.core.errors import DicehallError
from dicehall.server.tables.store import metadata

if TYPE_CHECKING:
    from dicehall.server.tables.hall import Hall
    from dicehall.server.tables.live import LiveTable

OUTSIDE = "outside"
"""The bot name that keeps a seat for a bot from outside."""
KEPT, TAKING = "bot", "bot-taking"
"""A kept seat's `reserved` mark: waiting for a bot, and while one's claim is being stored."""
NAME_CHARS = set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_. ")

bot_tokens = Table(
    "bot_tokens",
    metadata,
    Column("name", String(40), primary_key=True),
    Column("token_hash", String(64), nullable=False, unique=True),
    Column("created", Float, nullable=False),
)


class BotTokenError(DicehallError):
    """A bot name that cannot be used; the message says why."""


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class BotTokens:
    """The bots allowed to sit at tables, by name, with their tokens' hashes."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        metadata.create_all(engine, tables=[bot_tokens])

    def issue(self, name: str) -> str:
        """A new token for bot `name` (replacing its old one); shown once, kept as a hash."""
        name = name.strip()
        if not 1 <= len(name) <= 40 or not set(name) <= NAME_CHARS:
            raise BotTokenError(
                f"a bot's name is 1 to 40 letters, digits, spaces, '-', '_' or '.'; got {name!r}"
            )
        token = secrets.token_urlsafe(24)
        with self.engine.begin() as db:
            db.execute(delete(bot_tokens).where(bot_tokens.c.name == name))
            db.execute(
                insert(bot_tokens).values(name=name, token_hash=_hash(token), created=time.time())
            )
        return token

    def name_of(self, token: str) -> str | None:
        """The bot a token belongs to (looked up by its hash), or None."""
        with self.engine.connect() as db:
            query = select(bot_tokens.c.name).where(bot_tokens.c.token_hash == _hash(token))
            name: str | None = db.execute(query).scalar()
        return name


def kept_seat() -> dict[str, Any]:
    """A player entry for a seat kept for a bot from outside (hall.create)."""
    return {"name": "bot from outside", "bot": None, "token_hash": None, "reserved": KEPT,
            "outside": True}  # fmt: skip


def is_outside(player: dict[str, Any]) -> bool:
    return bool(player.get("outside"))


def waiting_seat(hall: Hall, game: str | None, seats: int | None) -> tuple[LiveTable, int] | None:
    """The longest-waiting table with a seat kept for a bot, of `game` and `seats` if given."""
    for table in sorted(hall.live.values(), key=lambda t: t.record.created):
        if table.status != "waiting":
            continue
        if game is not None and table.record.game != game:
            continue
        if seats is not None and table.record.seats != seats:
            continue
        for seat, player in enumerate(table.record.players):
            if player.get("reserved") == KEPT and player["token_hash"] is None:
                return table, seat
    return None
