"""Every table of the server's database in one MetaData, for the migrations to be
checked against (migrations/): each module keeps the tables it uses."""

from __future__ import annotations

from dicehall.server import accounts, chat, results, settings  # noqa: F401  (their tables)
from dicehall.server.store import metadata

__all__ = ["metadata"]
