"""A table's house rules: listed or private, grace period, time bank, chat, what happens
when no person is left. They are the server's business, not the game's, so they live in
their own SQL table next to the table's row (store.py), keyed by the table's id; a table
without a row of its own (one made before these settings existed) gets the defaults.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any

from sqlalchemy import JSON, Column, ForeignKey, String, Table, insert, select, update
from sqlalchemy.engine import Engine

from dicehall.core.errors import OptionError
from dicehall.server.ops.settings import DEFAULT_GRACE_SECONDS
from dicehall.server.tables.store import metadata

DEFAULT_TURN_SECONDS = 60.0
"""The turn timer of a listed table whose host chose none: strangers must not stall it."""

MIN_TURN_SECONDS = 10.0
"""The shortest turn timer a host may set: less ends a person's turn before they have read
the position (tests set it lower to see timeouts quickly)."""

FINISH, CLOSE = "finish", "close"
"""When no person is left in a game: the bots finish it at once, or the table is closed."""

table_settings = Table(
    "table_settings",
    metadata,
    Column("table_id", String(32), ForeignKey("tables.id"), primary_key=True),
    Column("settings", JSON, nullable=False),
)


@dataclass
class TableSettings:
    listed: bool = True  # shown in the lobby's open tables; private tables only by room code
    grace_seconds: float = DEFAULT_GRACE_SECONDS
    time_bank_seconds: float | None = None  # extra time per player for the whole game
    when_empty: str = FINISH
    spectator_chat: bool = True  # the host may close the chat to spectators
    rated: bool = False  # the result moves the players' ratings (people/results.py); else casual
    ladder: bool = False  # a game of the standing bot ladder (ladder.py)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TableSettings:
        known = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in data.items() if k in known})


def default_turn_seconds(listed: bool, asked: float | None) -> float | None:
    """A listed table always has a turn timer; a private one keeps the host's choice, which
    is at least MIN_TURN_SECONDS."""
    if asked is not None and asked < MIN_TURN_SECONDS:
        raise OptionError(
            f"turn_seconds must be at least {MIN_TURN_SECONDS:g} seconds (or none, at a private "
            f"table): a shorter timer ends turns before a person can read them; got {asked:g}"
        )
    if asked is None and listed:
        return DEFAULT_TURN_SECONDS
    return asked


def time_bank(settings: TableSettings, turn_seconds: float | None) -> float:
    """Each player's time bank: as set, else half a turn (none without a timer)."""
    if turn_seconds is None:
        return 0.0
    if settings.time_bank_seconds is not None:
        return settings.time_bank_seconds
    return turn_seconds / 2


class SettingsStore:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        metadata.create_all(engine, tables=[table_settings])

    def insert(self, table_id: str, settings: TableSettings) -> None:
        with self.engine.begin() as db:
            db.execute(
                insert(table_settings).values(table_id=table_id, settings=settings.to_json())
            )

    def save(self, table_id: str, settings: TableSettings) -> None:
        with self.engine.begin() as db:
            done = db.execute(
                update(table_settings)
                .where(table_settings.c.table_id == table_id)
                .values(settings=settings.to_json())
            )
            if done.rowcount == 0:
                db.execute(
                    insert(table_settings).values(table_id=table_id, settings=settings.to_json())
                )

    def get(self, table_id: str) -> TableSettings:
        with self.engine.connect() as db:
            query = select(table_settings.c.settings).where(table_settings.c.table_id == table_id)
            data = db.execute(query).scalar()
        return TableSettings.from_json(data) if isinstance(data, dict) else TableSettings()
