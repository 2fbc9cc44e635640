"""Which process owns a table: a lease in Redis, renewed while the owner lives.

A table is played by one process at a time, the holder of its lease: the key
`<prefix>lease:<table id>` holding the owner's node id, with a time to live.
The owner renews every lease it holds once a second (one script call for all
of them); a process that dies stops renewing, its leases lapse after
`LEASE_SECONDS`, and the first other process to take one (SET NX) rebuilds
the table from its stored steps. A renewal that finds a lease taken by another
process (the owner stalled past the time to live) reports it lost: the old
owner drops the table at once. Steps are keyed by (table, index) in the
database, so even an owner that has not noticed yet cannot store a step twice.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

LEASE_SECONDS = 5.0
"""A lease lapses this long after its owner last renewed it: long enough that a process
stalled for a few seconds on a loaded machine keeps its tables, short enough that a
dead one's are taken over within seconds."""
RENEW_SECONDS = 1.0
"""How often an owner renews its leases (and each process looks for lapsed ones)."""

# KEYS: lease keys; ARGV: node id, time to live (ms). Renews those held by the node,
# takes those nobody holds (a lapse nobody took over yet is safe to keep), and
# returns the 1-based positions of those another node holds.
_RENEW = """
local lost = {}
for i, key in ipairs(KEYS) do
  local holder = redis.call('GET', key)
  if holder == ARGV[1] then
    redis.call('PEXPIRE', key, ARGV[2])
  elseif not holder then
    redis.call('SET', key, ARGV[1], 'PX', ARGV[2])
  else
    table.insert(lost, i)
  end
end
return lost
"""

# KEYS: lease keys; ARGV: node id. Deletes those the node holds.
_RELEASE = """
local n = 0
for _, key in ipairs(KEYS) do
  if redis.call('GET', key) == ARGV[1] then
    n = n + redis.call('DEL', key)
  end
end
return n
"""


class Leases:
    """The leases of one node (`node`) on a Redis client (redis.asyncio.Redis)."""

    def __init__(self, redis: Any, node: str, prefix: str, seconds: float = LEASE_SECONDS):
        self.redis = redis
        self.node = node
        self.prefix = prefix
        self.ttl_ms = int(seconds * 1000)
        self._renew = redis.register_script(_RENEW)
        self._release = redis.register_script(_RELEASE)

    def key(self, table_id: str) -> str:
        return f"{self.prefix}lease:{table_id}"

    async def acquire(self, table_id: str) -> bool:
        """Take the table's lease if nobody holds it."""
        return bool(await self.redis.set(self.key(table_id), self.node, nx=True, px=self.ttl_ms))

    async def owner(self, table_id: str) -> str | None:
        held = await self.redis.get(self.key(table_id))
        return None if held is None else held.decode()

    async def owners(self, table_ids: list[str]) -> list[str | None]:
        if not table_ids:
            return []
        held = await self.redis.mget([self.key(t) for t in table_ids])
        return [None if h is None else h.decode() for h in held]

    async def renew(self, table_ids: list[str]) -> list[str]:
        """Renew the node's leases of these tables; the ones another node holds now."""
        if not table_ids:
            return []
        lost = await self._renew(
            keys=[self.key(t) for t in table_ids], args=[self.node, self.ttl_ms]
        )
        return [table_ids[i - 1] for i in lost]

    async def release(self, table_ids: Iterable[str]) -> int:
        keys = [self.key(t) for t in table_ids]
        if not keys:
            return 0
        return int(await self._release(keys=keys, args=[self.node]))
