r"""Online tables: the game server (REST + WebSocket), its database and fair dice.

Its modules are grouped by concern, and imports run one way, down this picture: a
group imports only the groups below it, never one above or beside it (no import
circle anywhere, not even through an import inside a function), and each group's
__init__.py imports nothing.

              http/
             /     \
       people/     cluster/
             \     /
             tables/
                |
              ops/

http/        the app (create_app), REST under /api, the WebSocket at /ws, health and
             metrics, `dicehall serve` and `dicehall verify`
people/      accounts, finished games and their ratings, players' pages
cluster/     several processes on one site (--redis): leases, the bus, forwarding
tables/      one table in play, the hall, the store, fair dice, chat, presence, quick
             match, bots from outside, the bot ladder, replay
ops/         the process: its settings, per-client limits, worker pools, odds and
             advice, the JSON it writes
migrations/  the schema's Alembic revisions, beside the groups: tables/store.py runs
             `migrations.upgrade` (which imports nothing of dicehall), and the env.py
             that Alembic runs reads every group's tables through schema.py
web/         the browser page (JS, CSS, HTML; no Python), served at /

Each group's __init__.py lists its modules and says what it may import. The web
stack (FastAPI, uvicorn, SQLAlchemy) comes with the `server` extra, so nothing here
imports it until `create_app` is asked for: `dicehall verify` uses
tables/fairness.py alone and works without the extra.
"""

from __future__ import annotations

import importlib.util
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from dicehall.server.http.app import create_app

__all__ = ["SERVER_MODULES", "create_app", "missing_modules"]

SERVER_MODULES = (
    "fastapi",
    "starlette",
    "uvicorn",
    "sqlalchemy",
    "pydantic_settings",
    "websockets",
    "prometheus_client",
    "redis",
    "alembic",
    "argon2",
)
"""What the `server` extra brings; nothing outside this package (and `dicehall serve`)
imports them, so the core, the other commands and `dicehall.rl.env` install without them."""


def missing_modules() -> list[str]:
    """The modules of the `server` extra that are not installed."""
    return [m for m in SERVER_MODULES if importlib.util.find_spec(m) is None]


def __getattr__(name: str) -> Any:
    if name == "create_app":
        from dicehall.server.http.app import create_app

        return create_app
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
