"""Who may keep tables waiting for players, and how many.

A waiting table holds a room code, memory and a line in the lobby until someone
joins or it expires (expiry.py). One client must not be able to fill the
server with them, and the server's overall cap must never lock a new client
out. So:

- each client address may keep `waiting_per_address` tables waiting, and each
  account `waiting_per_account` (limits.Limits); past either a new one is
  refused (429) with what to do instead;
- when the whole server holds `max_waiting_tables`, a new table closes the oldest
  waiting table of whichever address holds the most, rather than refusing: with
  the caps per address, filling the server takes many addresses, and even then
  the newcomer gets in at the expense of the biggest holder.

The origin of a table (address, account) is kept in memory only: a table
resumed after a restart counts against nobody, and expires as any other.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import TYPE_CHECKING

from dicehall.server.ops.limits import TooManyRequests

if TYPE_CHECKING:
    from dicehall.server.tables.live import LiveTable

WAITING = "waiting"
FULL_TEXT = "the server was full of tables waiting for players: this one, the oldest of its host's"


def check_caps(
    tables: Iterable[LiveTable],
    address: str | None,
    account: str | None,
    per_address: int,
    per_account: int,
) -> None:
    """Refuse (TooManyRequests) a new waiting table over the address's or account's cap."""
    waiting = [t for t in tables if t.status == WAITING]
    if address is not None:
        held = sum(1 for t in waiting if t.origin[0] == address)
        if held >= per_address:
            raise TooManyRequests(
                f"{held} tables made from your address are waiting for players, the limit:"
                " start or close one of them, or join a table from the lobby",
                60,
            )
    if account is not None:
        held = sum(1 for t in waiting if t.origin[1] == account)
        if held >= per_account:
            raise TooManyRequests(
                f"you have {held} tables waiting for players, the limit: start or close one"
                " of them, or join a table from the lobby",
                60,
            )


def to_make_room(tables: Iterable[LiveTable], max_waiting: int) -> LiveTable | None:
    """With the server's cap met: the oldest waiting table of the address holding the most
    (tables of no known address count as one holder); None while there is room."""
    waiting = [t for t in tables if t.status == WAITING]
    if len(waiting) < max_waiting:
        return None
    biggest = Counter(t.origin[0] for t in waiting).most_common(1)[0][0]
    return min((t for t in waiting if t.origin[0] == biggest), key=lambda t: t.record.created)
