"""This process as one node of a site of several: its leases, its takeovers, its
handover on the way out.

Every second a node refreshes its heartbeat key, renews the leases of the
tables it holds (dropping any another node has taken), lets go of the leases
of tables it no longer holds, takes over unfinished tables whose lease has
lapsed (their owner died: it rebuilds them from the stored steps and plays on),
and closes relayed connections whose table has moved to another owner, so their
clients reconnect. On SIGTERM (`stop`) it stops its tables after the step in
progress is stored, closes its clients' connections with 1012 (service
restart), lets go of every lease and tells the other nodes to take the tables
at once rather than after the lease would have lapsed.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import secrets
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from redis.asyncio import Redis
from redis.exceptions import RedisError

from dicehall.server.cluster.bus import Bus, ClusterError, listener_for
from dicehall.server.cluster.forward import serve_forwarded
from dicehall.server.cluster.lease import RENEW_SECONDS, Leases
from dicehall.server.cluster.relay import Hosted, Relay
from dicehall.server.cluster.seats import answer_find
from dicehall.server.tables.live import CLOSED, OVER, LiveTable

if TYPE_CHECKING:
    from dicehall.server.tables.hall import Hall

log = logging.getLogger("dicehall.server")

PREFIX = "dicehall:"
PENDING_SECONDS = 10.0
"""A lease taken for a request keeps this long before its table must be in memory."""
HEARTBEAT_SECONDS = 10.0
"""A node is gone from the site (the lobby, its relayed clients) this long after its last
beat; its tables move sooner, with their leases."""
TAKE_AT_ONCE = 20
"""Tables one node takes over in one round (a second); the rest wait for the next."""
RESTART = 1012  # WebSocket close code: service restart, reconnect


def reachable(redis_url: str) -> str | None:
    """None if Redis answers at that URL, else why not (before the server starts)."""
    from redis import Redis as SyncRedis

    client = SyncRedis.from_url(redis_url, socket_timeout=5, socket_connect_timeout=5)
    try:
        client.ping()
    except (RedisError, OSError) as e:
        return str(e) or type(e).__name__
    finally:
        client.close()
    return None


class Node:
    def __init__(self, redis_url: str, hall: Hall, prefix: str = PREFIX) -> None:
        self.id = secrets.token_hex(8)
        self.hall = hall
        self.prefix = prefix
        self.redis: Any = Redis.from_url(redis_url, socket_timeout=5, socket_connect_timeout=5)
        self.errors = 0  # failed Redis calls (http/health.py's bus_errors)
        self.leases = Leases(self.redis, self.id, prefix)
        listener = listener_for(redis_url)
        self.bus = Bus(
            self.redis, listener, self.id, prefix, self._on_message, self._on_relay, self.error
        )
        self.relays: dict[str, Relay] = {}  # our clients at tables owned elsewhere
        self.hosted: dict[str, Hosted] = {}  # other nodes' clients at our tables
        self.pending: dict[str, float] = {}  # leases taken, table not in memory yet
        self.draining = False
        self.app: Callable[..., Awaitable[None]] | None = None  # the ASGI app (relay.py)
        self._loop_task: asyncio.Task[None] | None = None
        self._scanning = asyncio.Lock()

    def error(self) -> None:
        self.errors += 1

    # --- keys --------------------------------------------------------------------------

    def _heartbeat(self, node: str) -> str:
        return f"{self.prefix}node:{node}"

    @property
    def _nodes(self) -> str:
        return f"{self.prefix}nodes"

    @property
    def _tables(self) -> str:
        return f"{self.prefix}tables"  # ids of unfinished tables, whoever holds them

    # --- life cycle --------------------------------------------------------------------

    async def start(self) -> None:
        """Join the site: listen, beat, list the database's unfinished tables, take
        those nobody holds."""
        await self.redis.ping()
        await self.bus.start()
        await self._beat()
        await self.redis.sadd(self._nodes, self.id)
        unfinished = await asyncio.to_thread(self.hall.store.unfinished_ids)
        if unfinished:
            await self.redis.sadd(self._tables, *unfinished)
        await self.scan()
        self._loop_task = asyncio.create_task(self._loop())

    async def stop(self) -> None:
        """Hand every table over and leave the site (SIGTERM)."""
        self.draining = True
        if self._loop_task is not None:
            self._loop_task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._loop_task
        for hosted in list(self.hosted.values()):
            hosted.close(RESTART)
        for relay in list(self.relays.values()):
            relay.close(RESTART)
        for table in list(self.hall.live.values()):
            await self._stop_table(table)
        held = self.owned()
        with contextlib.suppress(RedisError, OSError):
            await self.hall.store.writer.run(int)  # every queued write is done
            await self.leases.release(held)
            await self.redis.srem(self._nodes, self.id)
            await self.redis.delete(self._heartbeat(self.id))
            self.bus.broadcast({"kind": "scan"})
        await self.bus.stop()
        with contextlib.suppress(RedisError, OSError):
            await self.redis.aclose()
        if held:
            log.info("handed over %d tables", len(held))

    async def _stop_table(self, table: LiveTable) -> None:
        """Stop a table once the step it is taking (if any) is stored."""
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(table.lock.acquire(), 5.0)
            table.lock.release()
        table.close()
        for listener in list(table.listeners):
            ws = getattr(listener, "ws", None)
            if ws is not None:
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(ws.close(code=RESTART), 1.0)

    async def ready(self) -> str | None:
        """http/health.py's readiness check for the bus."""
        if self.draining:
            return "handing its tables over"
        await self.redis.ping()
        return None

    # --- ownership ---------------------------------------------------------------------

    def owned(self) -> list[str]:
        """Tables whose leases this node keeps: those it holds, and those just taken."""
        now = time.monotonic()
        self.pending = {t: at for t, at in self.pending.items() if now - at < PENDING_SECONDS}
        return sorted({*self.hall.live, *self.hall.finished, *self.pending})

    async def opened(self, table_id: str) -> None:
        """Hall hook: a new table, before it is stored; StorageError-like ClusterError."""
        try:
            if not await self.leases.acquire(table_id):
                raise ClusterError(f"table id {table_id} is already leased")
            self.pending[table_id] = time.monotonic()
            await self.redis.sadd(self._tables, table_id)
        except RedisError as e:
            self.error()
            raise ClusterError(f"the message bus is unreachable: {e}") from e

    def ended(self, table_id: str) -> None:
        """Hall hook: a table is over or closed; nobody need take it over any more."""
        task = asyncio.ensure_future(self._forget(table_id))
        self.bus.handlers.add(task)
        task.add_done_callback(self.bus.handlers.discard)

    async def _forget(self, table_id: str) -> None:
        try:
            await self.redis.srem(self._tables, table_id)
        except RedisError:
            self.error()  # a later take() finds it finished and forgets it then

    async def route(self, table_id: str) -> str:
        """The node to handle a request about this table: this one if it holds the
        lease or takes it now (rebuilding an unfinished table), else the holder."""
        for _ in range(3):
            try:
                holder = await self.leases.owner(table_id)
                if holder is not None:  # a dead holder's lease lapses within LEASE_SECONDS
                    return holder
                if await self.take(table_id):
                    return self.id
            except RedisError as e:
                self.error()
                raise ClusterError(f"the message bus is unreachable: {e}") from e
            await asyncio.sleep(0.05)
        raise ClusterError(f"the owner of table {table_id} is changing; try again")

    async def take(self, table_id: str) -> bool:
        """Take a lapsed lease and the table with it (rebuilt from the database)."""
        if self.draining or not await self.leases.acquire(table_id):
            return False
        self.pending[table_id] = time.monotonic()
        try:
            record = await asyncio.to_thread(self.hall.store.get, table_id)
            if record is None or record.status in (OVER, CLOSED):
                await self.redis.srem(self._tables, table_id)
                return True  # finished: rebuilt on demand, as on one process
            if table_id not in self.hall.live:
                steps = await asyncio.to_thread(self.hall.store.steps_of, table_id)
                if await self.hall.adopt(record, steps):
                    log.info("took over table %s at step %d", table_id, len(steps))
        except Exception:
            await self.leases.release([table_id])
            self.pending.pop(table_id, None)
            raise
        return True

    async def ladder_turn(self, interval: float) -> bool:
        """Whether this node opens the site's next ladder table (tables/ladder.py): the first node
        to ask in each interval takes the turn, so the site keeps the ladder's pace."""
        try:
            return bool(
                await self.redis.set(
                    f"{self.prefix}ladder", self.id, nx=True, px=max(1, int(interval * 1000))
                )
            )
        except RedisError:
            self.error()
            return False

    async def nodes(self) -> list[str]:
        """Every live node of the site, this one included."""
        members = sorted(m.decode() for m in await self.redis.smembers(self._nodes))
        if not members:
            return [self.id]
        beats = await self.redis.mget([self._heartbeat(m) for m in members])
        dead = [m for m, b in zip(members, beats, strict=True) if b is None]
        if dead:
            await self.redis.srem(self._nodes, *dead)
        return [m for m, b in zip(members, beats, strict=True) if b is not None]

    # --- every second ------------------------------------------------------------------

    async def _beat(self) -> None:
        await self.redis.set(self._heartbeat(self.id), "1", px=int(HEARTBEAT_SECONDS * 1000))

    async def _loop(self) -> None:
        """Beat and renew every second, whatever else is slow: taking tables over runs in
        its own task, so rebuilding many never delays this node's own renewals."""
        scanner: asyncio.Task[None] | None = None
        try:
            while True:
                await asyncio.sleep(RENEW_SECONDS)
                try:
                    await self.tick()
                except (RedisError, OSError) as e:
                    self.error()
                    log.warning("cluster: Redis call failed: %s", e)
                except Exception:
                    log.exception("cluster: the lease loop failed")
                if scanner is None or scanner.done():
                    scanner = asyncio.create_task(self._scan_logged())
        finally:
            if scanner is not None:
                scanner.cancel()

    async def _scan_logged(self) -> None:
        try:
            await self.scan()
        except (RedisError, OSError) as e:
            self.error()
            log.warning("cluster: Redis call failed: %s", e)

    async def tick(self) -> None:
        await self._beat()
        await self.redis.sadd(self._nodes, self.id)
        held = self.owned()
        for table_id in await self.leases.renew(held):
            log.warning("table %s: another process took it over; stopped here", table_id)
            table = self.hall.release(table_id)
            self.pending.pop(table_id, None)
            if table is not None:
                for listener in list(table.listeners):
                    ws = getattr(listener, "ws", None)
                    if ws is not None:
                        with contextlib.suppress(Exception):
                            await asyncio.wait_for(ws.close(code=RESTART), 1.0)
        await self._check_relays()

    async def scan(self) -> None:
        """Take the unfinished tables whose lease has lapsed, at most TAKE_AT_ONCE a round
        and in an order of this node's own, so that the survivors of a dead node share
        its tables rather than one taking them all."""
        if self.draining:
            return
        async with self._scanning:
            ids = sorted(m.decode() for m in await self.redis.smembers(self._tables))
            mine = set(self.owned())
            ids = [t for t in ids if t not in mine]
            random.shuffle(ids)
            taken = 0
            for table_id, holder in zip(ids, await self.leases.owners(ids), strict=True):
                if holder is not None:
                    continue
                try:
                    taken += await self.take(table_id)
                except Exception:
                    log.exception("cluster: could not take over table %s", table_id)
                if taken >= TAKE_AT_ONCE:
                    break
                await asyncio.sleep(0)  # the loop's other work between rebuilds

    async def _check_relays(self) -> None:
        """Close relayed connections whose table changed owner, and hosted ones whose
        client's node died: the clients reconnect."""
        relays = list(self.relays.values())
        owners = await self.leases.owners([r.table_id for r in relays])
        for relay, owner in zip(relays, owners, strict=True):
            if owner != relay.owner:
                relay.close(RESTART)
        alive = set(await self.nodes())
        for hosted in list(self.hosted.values()):
            if hosted.gateway not in alive:
                hosted.disconnected(1006)

    # --- messages from other nodes -----------------------------------------------------

    def _on_message(self, message: dict[str, Any]) -> Awaitable[None] | None:
        kind = message.get("kind")
        if kind == "scan":
            return self.scan()
        if kind == "http":
            return serve_forwarded(self, message)
        if kind == "find-seat":
            answer_find(self, message)
            return None
        if kind == "ws-open":
            return Hosted.open(self, message)
        hosted = self.hosted.get(message.get("conn", ""))
        if hosted is not None:
            if kind == "ws-in":
                hosted.received(message)
            elif kind == "ws-close":
                hosted.disconnected(message.get("code"))
        return None

    def _on_relay(self, conn: str, text: str) -> None:
        relay = self.relays.get(conn)
        if relay is not None:
            relay.deliver(text)
