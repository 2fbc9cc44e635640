"""Requests about a table go to the node that owns it.

`Router` is ASGI middleware in front of the app. A request about a table
(`/api/tables/{id}...`, `/api/rooms/{room}...`, `/ws/tables/{id}`) is
handled here when this node holds the table's lease, or takes it now (its
owner died, or the table is finished and nobody holds it); otherwise an HTTP
request is forwarded whole to the owner over the bus and its answer returned,
and a WebSocket is relayed (relay.py). `GET /api/tables`, the lobby, asks
every node for the tables it holds and lists them all; a quick match or a bot's
seat request goes to the node with the longest-waiting table that fits
(seats.py). Everything else (the games, odds, new tables, the page) is
answered by whichever node got it.

The owner runs a forwarded request through its own app, marked in the ASGI
scope (which no client can set), so it is never forwarded again.
"""

from __future__ import annotations

import asyncio
import base64
import json
import logging
import re
from typing import TYPE_CHECKING, Any

from redis.exceptions import RedisError

from dicehall.server.cluster.bus import ClusterError, NoReceiver
from dicehall.server.cluster.relay import FORWARDED, Receive, Relay, Scope, Send
from dicehall.server.cluster.seats import BOT, SEAT_PATHS, best_node, query_of
from dicehall.server.tables.hall import ROOM_SHAPE, TABLE_ID_SHAPE

if TYPE_CHECKING:
    from dicehall.server.cluster.node import Node

log = logging.getLogger("dicehall.server")

TABLE_PATH = re.compile(r"/api/tables/([^/]+)(?:/.*)?")
ROOM_PATH = re.compile(r"/api/rooms/([^/]+)(?:/join)?")
SOCKET_PATH = re.compile(r"/ws/tables/([^/]+)")
LOBBY_SECONDS = 5.0  # a node that does not list its tables in this time is left out


class Router:
    def __init__(self, app: Any, node: Node) -> None:
        self.app = app
        self.node = node

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if kind not in ("http", "websocket") or scope.get(FORWARDED):
            await self.app(scope, receive, send)
            return
        try:
            if kind == "http" and scope["path"] == "/api/tables" and scope["method"] == "GET":
                await self._lobby(scope, send)
                return
            if kind == "http" and scope["path"] in SEAT_PATHS and scope["method"] == "POST":
                await self._seat(scope, receive, send)
                return
            table_id = await self._table_of(scope["path"], kind)
            owner = self.node.id if table_id is None else await self.node.route(table_id)
        except ClusterError as e:
            await _unavailable(scope, receive, send, str(e))
            return
        if owner == self.node.id:
            await self.app(scope, receive, send)
        elif kind == "websocket":
            assert table_id is not None
            await Relay(self.node, owner, table_id).serve(scope, receive, send)
        else:
            await self._forward(owner, table_id, scope, receive, send)

    async def _table_of(self, path: str, kind: str) -> str | None:
        """The table a request is about, if any (ids of a shape never made: none)."""
        if kind == "websocket":
            m = SOCKET_PATH.fullmatch(path)
        else:
            m = TABLE_PATH.fullmatch(path)
            if m is None and (room := ROOM_PATH.fullmatch(path)) is not None:
                code = room[1].strip().upper()
                if not ROOM_SHAPE.fullmatch(code):
                    return None
                hall = self.node.hall
                found = hall.rooms.get(code)
                if found is None:
                    found = await asyncio.to_thread(hall.store.id_of_room, code)
                return found
        if m is None or not TABLE_ID_SHAPE.fullmatch(m[1]):
            return None
        return m[1]

    async def _forward(
        self, owner: str, table_id: str | None, scope: Scope, receive: Receive, send: Send
    ) -> None:
        body = await _body(receive)
        if body is not None:
            await self._forward_body(owner, table_id, scope, body, receive, send)

    async def _seat(self, scope: Scope, receive: Receive, send: Send) -> None:
        """A quick match or a bot's seat: answered by the node whose fitting table has
        waited longest (seats.py), here when none has one."""
        body = await _body(receive)
        if body is None:
            return
        query = query_of(self.node.hall, scope["path"], body)
        if query is not None and query["for"] == BOT and not _header(scope, b"authorization"):
            query = None  # refused here (401) without asking the site
        owner = None if query is None else await best_node(self.node, query)
        if owner is None or owner == self.node.id:
            await self.app(scope, _replayed(body, receive), send)
        else:
            await self._forward_body(owner, None, scope, body, receive, send)

    async def _forward_body(
        self,
        owner: str,
        table_id: str | None,
        scope: Scope,
        body: bytes,
        receive: Receive,
        send: Send,
    ) -> None:
        try:
            answer = await self.node.bus.request(owner, _request(scope, body, table_id))
        except (TimeoutError, NoReceiver, RedisError, OSError) as e:
            log.warning("cluster: a request for table %s got no answer: %s", table_id, e)
            await _unavailable(scope, receive, send, "the table's server did not answer")
            return
        await _respond(send, answer)

    async def _lobby(self, scope: Scope, send: Send) -> None:
        """Every node's open tables."""
        request = _request(scope, b"", None)

        async def ask(node: str) -> dict[str, Any]:
            if node == self.node.id:
                return await run_here(self.node, request)
            return await self.node.bus.request(node, request, LOBBY_SECONDS)

        nodes = await self.node.nodes()
        answers = await asyncio.gather(*(ask(n) for n in nodes), return_exceptions=True)
        tables: list[Any] = []
        for node, answer in zip(nodes, answers, strict=True):
            if isinstance(answer, dict) and answer.get("status") == 200:
                tables.extend(json.loads(base64.b64decode(answer["body"])))
            else:
                log.warning("cluster: node %s left out of the lobby: %r", node, answer)
        body = json.dumps(tables).encode()
        headers = [(b"content-type", b"application/json"), (b"content-length", b"%d" % len(body))]
        await send({"type": "http.response.start", "status": 200, "headers": headers})
        await send({"type": "http.response.body", "body": body})


def _header(scope: Scope, name: bytes) -> bytes | None:
    return next((v for k, v in scope["headers"] if k.lower() == name), None)


async def _body(receive: Receive) -> bytes | None:
    """A request's whole body; None if the client went away first."""
    body = b""
    while True:
        m = await receive()
        if m["type"] != "http.request":
            return None
        body += bytes(m.get("body", b""))
        if not m.get("more_body"):
            return body


def _replayed(body: bytes, receive: Receive) -> Receive:
    """A receive that gives the body read already, then whatever the client sends."""
    given = False

    async def again() -> dict[str, Any]:
        nonlocal given
        if not given:
            given = True
            return {"type": "http.request", "body": body, "more_body": False}
        message: dict[str, Any] = await receive()
        return message

    return again


def _request(scope: Scope, body: bytes, table_id: str | None) -> dict[str, Any]:
    return {
        "kind": "http",
        "table": table_id,
        "method": scope["method"],
        "path": scope["path"],
        "query": scope.get("query_string", b"").decode("latin-1"),
        "headers": [[k.decode("latin-1"), v.decode("latin-1")] for k, v in scope["headers"]],
        "client": list(scope["client"]) if scope.get("client") else None,
        "body": base64.b64encode(body).decode(),
    }


async def _respond(send: Send, answer: dict[str, Any]) -> None:
    headers = [(k.encode("latin-1"), v.encode("latin-1")) for k, v in answer["headers"]]
    await send({"type": "http.response.start", "status": answer["status"], "headers": headers})
    await send({"type": "http.response.body", "body": base64.b64decode(answer["body"])})


async def _unavailable(scope: Scope, receive: Receive, send: Send, why: str) -> None:
    """503 with Retry-After, or for a WebSocket an error and close 1013 (try again later)."""
    if scope["type"] == "websocket":
        if (await receive())["type"] != "websocket.connect":
            return
        await send({"type": "websocket.accept"})
        text = json.dumps({"type": "error", "message": f"{why}; reconnect in a moment"})
        await send({"type": "websocket.send", "text": text})
        await send({"type": "websocket.close", "code": 1013})
        return
    body = json.dumps({"detail": f"{why}; try again in a moment"}).encode()
    headers = [(b"content-type", b"application/json"), (b"retry-after", b"1")]
    await send({"type": "http.response.start", "status": 503, "headers": headers})
    await send({"type": "http.response.body", "body": body})


async def run_here(node: Node, request: dict[str, Any]) -> dict[str, Any]:
    """Run a forwarded HTTP request through this node's app; its answer as a message."""
    assert node.app is not None
    body = base64.b64decode(request["body"])
    path = request["path"]
    scope: Scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": request["method"],
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "root_path": "",
        "query_string": request["query"].encode("latin-1"),
        "headers": [(k.encode("latin-1"), v.encode("latin-1")) for k, v in request["headers"]],
        "client": tuple(request["client"]) if request.get("client") else None,
        "server": None,
        FORWARDED: True,
    }
    sent = False
    answer: dict[str, Any] = {"status": 500, "headers": [], "body": ""}
    chunks: list[bytes] = []

    async def receive() -> dict[str, Any]:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        await asyncio.Event().wait()  # no disconnect: the request stays open until answered
        raise AssertionError("unreachable")

    async def send(message: dict[str, Any]) -> None:
        if message["type"] == "http.response.start":
            answer["status"] = message["status"]
            answer["headers"] = [
                [k.decode("latin-1"), v.decode("latin-1")] for k, v in message.get("headers", [])
            ]
        elif message["type"] == "http.response.body":
            chunks.append(message.get("body", b""))

    await node.app(scope, receive, send)
    answer["body"] = base64.b64encode(b"".join(chunks)).decode()
    return answer


async def serve_forwarded(node: Node, request: dict[str, Any]) -> None:
    """Answer a request another node forwarded here, if this node still owns its table."""
    table_id = request.get("table")
    try:
        owner = node.id if table_id is None else await node.route(table_id)
        if owner != node.id:
            raise ClusterError(f"table {table_id} has moved to another server")
        answer = await run_here(node, request)
    except Exception as e:  # moved, or a bug: the asking node must not wait for nothing
        why = str(e) if isinstance(e, ClusterError) else "the table's server failed on it"
        if not isinstance(e, ClusterError):
            log.exception("cluster: a forwarded request failed")
        body = json.dumps({"detail": f"{why}; try again in a moment"}).encode()
        answer = {
            "status": 503,
            "headers": [["content-type", "application/json"], ["retry-after", "1"]],
            "body": base64.b64encode(body).decode(),
        }
    node.bus.reply(request, answer)
