"""Messages between the processes of one site, over Redis pub/sub.

Each process (node) listens on three channels: its inbox (JSON requests and
replies: forwarded HTTP requests, a WebSocket's frames from a client on
another node, "take over now"), its relay channel (frames the owner of a
table sends to a client connected to this node: `<connection id>\\n<text>`,
the text as the owner wrote it, never re-encoded), and the channel every node
hears. Messages go out through one queue and one connection in batches, so
two messages from one node to one channel arrive in the order they were sent.

The subscription has a connection of its own with no read timeout: on older
redis-py (5.2, the lowest this project allows) a client's `socket_timeout`
ends an idle `listen()` every few seconds, cutting a read short, and an idle
site is the normal case. Pub/sub keeps nothing: a message to a node that has
died is lost. Nothing lost that way is a stored step; the clients of that
node reconnect, and the new owner's welcome holds every step
(docs/operators/several-processes.md).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
from collections.abc import Awaitable, Callable
from typing import Any

from redis.asyncio import Redis
from redis.exceptions import RedisError

from dicehall.server.ops.workers import Busy

log = logging.getLogger("dicehall.server")

BATCH = 256  # messages per round trip to Redis, at most
REPLY_SECONDS = 30.0  # a forwarded request's answer, at most (a join may wait for the database)

Handler = Callable[[dict[str, Any]], Awaitable[None] | None]
RelayHandler = Callable[[str, str], None]


def listener_for(redis_url: str) -> Redis:
    """The subscription's own client: connecting is bounded, reading never times out."""
    return Redis.from_url(redis_url, socket_connect_timeout=5, socket_keepalive=True)


class NoReceiver(ConnectionError):
    """Nobody listens on that node's inbox: it has stopped or died."""


class ClusterError(Busy):
    """Redis cannot be reached, or the table's owner cannot be found now (503)."""

    def __init__(self, message: str) -> None:
        super().__init__(message, 1)


class Bus:
    def __init__(
        self,
        redis: Any,
        listener: Any,
        node: str,
        prefix: str,
        on_message: Handler,
        on_relay: RelayHandler,
        on_error: Callable[[], None],
    ) -> None:
        self.redis = redis  # publishing, with the site's timeouts
        self.listener = listener  # the subscription: reads block until a message comes
        self.node = node
        self.prefix = prefix
        self.on_message = on_message
        self.on_relay = on_relay
        self.on_error = on_error
        self.queue: asyncio.Queue[tuple[str, bytes | str]] = asyncio.Queue()
        self.replies: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self.pubsub: Any = None
        self.tasks: list[asyncio.Task[None]] = []
        self.handlers: set[asyncio.Task[None]] = set()
        self.stopping = False

    def inbox(self, node: str) -> str:
        return f"{self.prefix}inbox:{node}"

    def relay_channel(self, node: str) -> str:
        return f"{self.prefix}relay:{node}"

    @property
    def everyone(self) -> str:
        return f"{self.prefix}all"

    async def start(self) -> None:
        self.pubsub = self.listener.pubsub()
        await self.pubsub.subscribe(
            self.inbox(self.node), self.relay_channel(self.node), self.everyone
        )
        self.tasks = [asyncio.create_task(self._read()), asyncio.create_task(self._publish())]

    async def stop(self) -> None:
        """Send what is queued (briefly), then stop listening."""
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(self._drained(), 2.0)
        self.stopping = True
        self.tasks[1].cancel()  # the publisher
        if self.pubsub is not None:  # the reader's listen() ends with its connection
            with contextlib.suppress(RedisError, OSError, asyncio.TimeoutError):
                await asyncio.wait_for(self.pubsub.aclose(), 2.0)
            with contextlib.suppress(RedisError, OSError, asyncio.TimeoutError):
                await asyncio.wait_for(self.listener.aclose(), 2.0)
        self.tasks[0].cancel()
        await asyncio.wait(self.tasks, timeout=0.5)  # a cancelled read may linger in redis-py

    async def _drained(self) -> None:
        while not self.queue.empty():
            await asyncio.sleep(0.01)

    # --- sending ---------------------------------------------------------------------

    def send(self, node: str, message: dict[str, Any]) -> None:
        """A JSON message to a node's inbox, in order after what this node sent before."""
        self.queue.put_nowait((self.inbox(node), json.dumps(message)))

    def relay(self, node: str, conn: str, text: str) -> None:
        """A frame for connection `conn`, whose client is connected to `node`."""
        self.queue.put_nowait((self.relay_channel(node), f"{conn}\n{text}"))

    def broadcast(self, message: dict[str, Any]) -> None:
        self.queue.put_nowait((self.everyone, json.dumps(message)))

    async def send_now(self, node: str, message: dict[str, Any]) -> None:
        """Send at once; NoReceiver if that node is not listening."""
        try:
            heard = await self.redis.publish(self.inbox(node), json.dumps(message))
        except RedisError:
            self.on_error()
            raise
        if not heard:
            raise NoReceiver(f"node {node} is not listening")

    async def request(
        self, node: str, message: dict[str, Any], timeout: float = REPLY_SECONDS
    ) -> dict[str, Any]:
        """Send and wait for the node's reply (TimeoutError, NoReceiver, RedisError)."""
        rid = secrets.token_hex(8)
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self.replies[rid] = future
        try:
            await self.send_now(node, {**message, "rid": rid, "from": self.node})
            return await asyncio.wait_for(future, timeout)
        finally:
            self.replies.pop(rid, None)

    def reply(self, request: dict[str, Any], answer: dict[str, Any]) -> None:
        self.send(request["from"], {**answer, "kind": "reply", "rid": request["rid"]})

    async def _publish(self) -> None:
        while True:
            batch = [await self.queue.get()]
            while not self.queue.empty() and len(batch) < BATCH:
                batch.append(self.queue.get_nowait())
            try:
                pipe = self.redis.pipeline(transaction=False)
                for channel, data in batch:
                    pipe.publish(channel, data)
                await pipe.execute()
            except RedisError as e:
                self.on_error()
                log.warning("cluster: %d messages not sent: %s", len(batch), e)

    # --- receiving -------------------------------------------------------------------

    async def _read(self) -> None:
        relay = self.relay_channel(self.node).encode()
        while not self.stopping:
            try:
                async for m in self.pubsub.listen():
                    if m["type"] != "message":
                        continue
                    if m["channel"] == relay:
                        conn, _, text = m["data"].decode().partition("\n")
                        self.on_relay(conn, text)
                    else:
                        self._dispatch(json.loads(m["data"]))
            except asyncio.CancelledError:
                raise
            except (RedisError, OSError) as e:
                if self.stopping:  # stop() closed the connection under the read
                    return
                self.on_error()
                log.warning("cluster: lost the message bus, reconnecting: %s", e)
                await asyncio.sleep(0.5)
            except Exception:
                self.on_error()
                log.exception("cluster: a bus message failed")

    def _dispatch(self, message: dict[str, Any]) -> None:
        if message.get("kind") == "reply":
            future = self.replies.get(message.get("rid", ""))
            if future is not None and not future.done():
                future.set_result(message)
            return
        result = self.on_message(message)
        if result is not None:
            task = asyncio.ensure_future(result)
            self.handlers.add(task)
            task.add_done_callback(self.handlers.discard)
