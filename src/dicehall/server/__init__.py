"""Online tables: the game server (REST + WebSocket), its database and fair dice.

app.py       create_app: the FastAPI application
api.py       the REST endpoints under /api
sockets.py   the WebSocket protocol at /ws/tables/{id}
hall.py      every table the server holds: create, join, rematch, resume
live.py      one table in play: steps, persistence, bots, timers, broadcasts
store.py     the database (SQLAlchemy Core): table rows and ordered steps
fairness.py  fair dice (sealed and seed tables) and the verify report
catalog.py   the games a server offers
limits.py    how much one client may create and join
accounts.py  player accounts and sessions; account_api.py their endpoints
results.py   finished games by seat, and OpenSkill ratings of rated tables
profiles.py  players' pages, leaderboards, a game's record
migrations/  the database schema's Alembic revisions
commands.py  `dicehall serve` and `dicehall verify`
server_settings.py  the server's settings: DICEHALL_* variables, config file, flags
ops.py       health, readiness and Prometheus metrics
cluster/     several processes on one site (--redis): leases, the bus, forwarding

The web stack (FastAPI, uvicorn, SQLAlchemy) comes with the `server` extra, so
nothing here imports it until `create_app` is asked for: `dicehall verify`
uses fairness.py alone and works without the extra.
"""

from __future__ import annotations

import importlib.util
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from dicehall.server.app import create_app

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
        from dicehall.server.app import create_app

        return create_app
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
