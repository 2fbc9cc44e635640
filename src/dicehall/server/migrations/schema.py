"""Every table of the server's database in one MetaData, for the migrations to be
checked against (this package's revisions, and its env.py): each module keeps the
tables it uses, in the groups tables/ and people/."""

from __future__ import annotations

from dicehall.server.people import accounts, results  # noqa: F401  (their tables)
from dicehall.server.tables import chat, house_rules, outside_bots  # noqa: F401  (their tables)
from dicehall.server.tables.store import metadata

__all__ = ["metadata"]
