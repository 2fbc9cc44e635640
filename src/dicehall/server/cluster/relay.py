"""A WebSocket whose client is on one node and whose table is on another.

The client's node (the gateway) accepts the connection and relays it: every
frame the client sends goes to the owner's inbox, every frame the owner sends
comes back on the gateway's relay channel, unchanged. The owner runs the
ordinary WebSocket protocol (http/sockets.py) on a `Hosted` connection, an ASGI
WebSocket made of those messages, so a relayed client gets exactly what a
client connected to the owner gets: its own seat's views and nothing else,
the same checks, the same limits.

Either side closes the pair: the owner's close reaches the client with its
code, the client's close reaches the owner. When the table moves to another
owner (taken over, handed over) the gateway closes the client with 1012
(service restart): the client reconnects, and its welcome, from the new
owner, holds every stored step.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import secrets
from typing import TYPE_CHECKING, Any

from redis.exceptions import RedisError

from dicehall.server.cluster.bus import ClusterError, NoReceiver

if TYPE_CHECKING:
    from dicehall.server.cluster.node import Node

CLOSE = "\x00close "  # a relayed frame that closes the connection: CLOSE + its code
MAX_QUEUED = 2000  # frames waiting for a client that does not read; then it is closed (1008)
FORWARDED = "dicehall.forwarded"  # ASGI scope key: a request another node sent here

Scope = dict[str, Any]
Receive = Any
Send = Any


class Relay:
    """The gateway's side: one client at a table another node owns."""

    def __init__(self, node: Node, owner: str, table_id: str) -> None:
        self.node = node
        self.id = secrets.token_hex(8)
        self.owner = owner
        self.table_id = table_id
        self.queue: asyncio.Queue[tuple[str, Any]] = asyncio.Queue()

    def deliver(self, text: str) -> None:
        if text.startswith(CLOSE):
            self.close(int(text[len(CLOSE) :]))
        elif self.queue.qsize() >= MAX_QUEUED:
            self.close(1008)
        else:
            self.queue.put_nowait(("text", text))

    def close(self, code: int) -> None:
        self.queue.put_nowait(("close", code))

    async def serve(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (await receive())["type"] != "websocket.connect":
            return
        await send({"type": "websocket.accept"})
        bus = self.node.bus
        self.node.relays[self.id] = self
        try:
            try:
                await bus.send_now(
                    self.owner,
                    {
                        "kind": "ws-open",
                        "conn": self.id,
                        "gateway": self.node.id,
                        "table": self.table_id,
                        "path": scope["path"],
                        "query": scope.get("query_string", b"").decode("latin-1"),
                        "client": list(scope["client"]) if scope.get("client") else None,
                    },
                )
            except (NoReceiver, RedisError, OSError):
                await send({"type": "websocket.close", "code": 1012})
                return
            inward = asyncio.create_task(self._inward(receive))
            outward = asyncio.create_task(self._outward(send))
            try:
                await asyncio.wait([inward, outward], return_when=asyncio.FIRST_COMPLETED)
            finally:
                for task in (inward, outward):
                    task.cancel()
                if outward.done() and not inward.done():
                    # closed here (the table moved) or by the owner: the owner forgets it
                    bus.send(self.owner, {"kind": "ws-close", "conn": self.id, "code": 1001})
        finally:
            self.node.relays.pop(self.id, None)

    async def _inward(self, receive: Receive) -> None:
        bus = self.node.bus
        while True:
            m = await receive()
            if m["type"] == "websocket.receive":
                frame: dict[str, Any] = {"kind": "ws-in", "conn": self.id}
                if m.get("text") is not None:
                    frame["text"] = m["text"]
                else:
                    frame["bytes"] = base64.b64encode(m.get("bytes") or b"").decode()
                bus.send(self.owner, frame)
            elif m["type"] == "websocket.disconnect":
                bus.send(self.owner, {"kind": "ws-close", "conn": self.id, "code": m.get("code")})
                return

    async def _outward(self, send: Send) -> None:
        while True:
            kind, value = await self.queue.get()
            if kind == "close":
                with contextlib.suppress(Exception):
                    await send({"type": "websocket.close", "code": value})
                return
            await send({"type": "websocket.send", "text": value})


class Hosted:
    """The owner's side: a connection of another node's client, as an ASGI WebSocket."""

    def __init__(self, node: Node, conn: str, gateway: str) -> None:
        self.node = node
        self.id = conn
        self.gateway = gateway
        self.inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.connected = False
        self.closed = False
        self.gone = False

    @staticmethod
    async def open(node: Node, message: dict[str, Any]) -> None:
        """Run the WebSocket protocol for a client of the node that sent `message`."""
        hosted = Hosted(node, message["conn"], message["gateway"])
        table_id = message["table"]
        try:
            owner = await node.route(table_id)
        except ClusterError:
            owner = None
        if owner != node.id or node.app is None:
            hosted.close(1012)  # it moved meanwhile: the client reconnects
            return
        node.hosted[hosted.id] = hosted
        path = message["path"]
        scope: Scope = {
            "type": "websocket",
            "asgi": {"version": "3.0"},
            "http_version": "1.1",
            "scheme": "ws",
            "path": path,
            "raw_path": path.encode(),
            "root_path": "",
            "query_string": message["query"].encode("latin-1"),
            "headers": [],
            "client": tuple(message["client"]) if message.get("client") else None,
            "server": None,
            "subprotocols": [],
            FORWARDED: True,
        }
        try:
            await node.app(scope, hosted.receive, hosted.send)
        finally:
            node.hosted.pop(hosted.id, None)
            if not hosted.closed and not hosted.gone:
                hosted.close(1011)

    def received(self, message: dict[str, Any]) -> None:
        if "text" in message:
            self.inbox.put_nowait({"type": "websocket.receive", "text": message["text"]})
        else:
            data = base64.b64decode(message.get("bytes", ""))
            self.inbox.put_nowait({"type": "websocket.receive", "bytes": data})

    def disconnected(self, code: int | None) -> None:
        if not self.gone:
            self.gone = True
            self.inbox.put_nowait({"type": "websocket.disconnect", "code": code or 1006})

    def close(self, code: int) -> None:
        """Close from this side (the node stops): the client is told, the protocol ends."""
        if not self.closed:
            self.closed = True
            self.node.bus.relay(self.gateway, self.id, f"{CLOSE}{code}")
        self.disconnected(code)

    async def receive(self) -> dict[str, Any]:
        if not self.connected:
            self.connected = True
            return {"type": "websocket.connect"}
        return await self.inbox.get()

    async def send(self, message: dict[str, Any]) -> None:
        kind = message["type"]
        if kind == "websocket.send" and not self.closed:
            text = message.get("text")
            if text is None:
                text = (message.get("bytes") or b"").decode("utf-8", "replace")
            self.node.bus.relay(self.gateway, self.id, text)
        elif kind == "websocket.close" and not self.closed:
            self.closed = True
            self.node.bus.relay(self.gateway, self.id, f"{CLOSE}{message.get('code', 1000)}")
