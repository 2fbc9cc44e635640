"""Every table of the server's database in one MetaData, for the migrations to be
checked against (migrations/): each module keeps the tables it uses."""

from __future__ import annotations

from dicehall.server import (  # noqa: F401  (their tables)
    accounts,
    chat,
    outside_bots,
    results,
    settings,
)
from dicehall.server.store import metadata

__all__ = ["metadata"]
