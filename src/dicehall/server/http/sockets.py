"""The WebSocket protocol at /ws/tables/{id}?token=... (no token: watch).

Server to client: "welcome" on connect, "update" after every step (each
connection with its own seat's view, legal actions and new events), "over"
at the end, "table" when seats change, "advice", "pong", and "error" (to
that client only), "paused"/"resumed" while the database refuses a step.
Client to server: {"type": "action", "step": N, "action": {...}} (N: the step
of the welcome or update the move answers), {"type": "throw", "step": N} (a
player's own throw, when the position's "throw_due" names their seat), {"type": "advice"},
{"type": "ping"}, the seat requests of tables/presence.py (leave, concede, replace,
skip), the table's chat of tables/chat.py ("chat", "chat-spectators"), and at sealed
tables {"type": "commit"} and {"type": "reveal"} (the seat's entropy for the
dice, tables/fairness.py). A bad or stale message gets an error and changes
nothing; the connection and the table stay usable. See docs/reference/websocket.md.

What one client may hold and send: at most `sockets_per_address` open sockets
per client address and `sockets_per_account` per logged-in account, spectators
included (ops/limits.py's Limits; past either the new socket is closed with code
4429 and the reason). Each socket has a message budget (`rate` a second, `burst`
at once); a frame over it is dropped before anything else is done with it (no
decoding, no JSON), with one error message, and a socket that goes on sending
over budget (`MAX_STRIKES` dropped frames within a window) is closed with code
1008 and the reason: the flood costs the server no more than receiving it.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import math
from dataclasses import dataclass
from typing import Any

from starlette.websockets import WebSocket, WebSocketDisconnect

from dicehall.core.errors import DicehallError
from dicehall.core.nesting import depth
from dicehall.server.ops.compute import Compute
from dicehall.server.ops.limits import Caps, TokenBucket
from dicehall.server.ops.wire import dumps
from dicehall.server.ops.workers import Busy
from dicehall.server.people.accounts import Account
from dicehall.server.tables.chat import ChatError, chat_limit
from dicehall.server.tables.fairness import check_commit
from dicehall.server.tables.hall import Hall, NotFound
from dicehall.server.tables.live import LiveTable
from dicehall.server.tables.presence import PresenceError

log = logging.getLogger("dicehall.server")

MAX_MESSAGE_BYTES = 8 * 1024
MAX_DEPTH = 16  # nesting levels of arrays and objects in one message; no message needs more
MAX_QUEUED = 2000  # messages waiting for a client that does not read; then it is closed
MAX_STRIKES = 100  # frames dropped over budget, refilled at `rate` a second; then it is closed
TOO_MANY_SOCKETS = 4429
TOO_MANY_MESSAGES = 1008  # policy violation


@dataclass
class SocketCaps:
    """The open sockets per client address and per account (one process's own)."""

    by_address: Caps
    by_account: Caps

    def take(self, address: str, account: str | None) -> str | None:
        """Count a new socket in, or say why not."""
        if not self.by_address.take(address):
            return f"too many open connections from your address: at most {self.by_address.cap}"
        if account is not None and not self.by_account.take(account):
            self.by_address.give_back(address)
            return f"too many open connections for your account: at most {self.by_account.cap}"
        return None

    def give_back(self, address: str, account: str | None) -> None:
        self.by_address.give_back(address)
        if account is not None:
            self.by_account.give_back(account)


class Connection:
    """One WebSocket at a table. Messages go out in order through a queue; a client that
    lets MAX_QUEUED of them pile up is cut off (`overflow`) instead of holding memory."""

    def __init__(self, ws: WebSocket, seat: int | None, limit: TokenBucket) -> None:
        self.ws = ws
        self.seat = seat
        self.limit = limit
        self.chat_limit = chat_limit()
        self.queue: asyncio.Queue[str] = asyncio.Queue()
        self.overflow = asyncio.Event()
        self.warned = False
        # frames dropped over budget: past MAX_STRIKES (refilled as the budget is) it is closed
        self.strikes = TokenBucket(limit.rate, MAX_STRIKES)
        self.flooding = False

    def push(self, text: str) -> None:
        if self.overflow.is_set():
            return
        if self.queue.qsize() >= MAX_QUEUED:
            self.overflow.set()
            return
        self.queue.put_nowait(text)

    def send(self, message: dict[str, Any]) -> None:
        self.push(dumps(message))

    def error(self, message: str) -> None:
        self.send({"type": "error", "message": message})

    async def write(self) -> None:
        while True:
            await self.ws.send_text(await self.queue.get())


async def serve_socket(
    ws: WebSocket,
    hall: Hall,
    compute: Compute,
    table_id: str,
    rate: float,
    burst: int,
    account: Account | None = None,
    caps: SocketCaps | None = None,
) -> None:
    """`account`: who the connection's session cookie is logged in as (a seat asked for by
    number, `?seat=N`, is that account's; the cap per account counts it); `caps` the open
    sockets per address and per account."""
    await ws.accept()
    address = ws.client.host if ws.client is not None else "unknown"
    holder = None if account is None else account.id
    if caps is not None:
        refused = caps.take(address, holder)
        if refused is not None:
            await _refuse(ws, refused, TOO_MANY_SOCKETS)
            return
    try:
        await _serve(ws, hall, compute, table_id, rate, burst, account)
    finally:
        if caps is not None:
            caps.give_back(address, holder)


async def _serve(
    ws: WebSocket,
    hall: Hall,
    compute: Compute,
    table_id: str,
    rate: float,
    burst: int,
    account: Account | None,
) -> None:
    try:
        table = hall.get(table_id)
    except NotFound as e:
        await _refuse(ws, str(e), 4404)
        return
    token = ws.query_params.get("token")
    seat = None
    if token:
        seat = table.seat_of(token)
        if seat is None:
            await _refuse(ws, "this token holds no seat at this table", 4403)
            return
    elif "seat" in ws.query_params:
        seat = _account_seat(table, account, ws.query_params["seat"])
        if seat is None:
            await _refuse(ws, "you are not logged in as the player of that seat", 4403)
            return
    conn = Connection(ws, seat, TokenBucket(rate, burst))
    async with table.lock:  # a step being stored: welcome with it, not before it
        table.listeners.add(conn)
        conn.push(table.welcome(seat))
    if table.status == "over":
        conn.push(table.over_message())
    if seat is not None:
        table.presence.arrive(seat)
    table.notify_seats()
    reader = asyncio.create_task(_read(conn, table, compute))
    tasks = [reader, asyncio.create_task(conn.write()), asyncio.create_task(conn.overflow.wait())]
    code: int | None = None
    try:
        await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        if reader.done() and not reader.cancelled() and reader.exception() is None:
            code = reader.result()
    finally:
        table.listeners.discard(conn)
        for task in tasks:
            task.cancel()
        if seat is not None:
            table.presence.depart(seat, code)
        table.notify_seats()
    if conn.flooding:
        log.info("table %s: closed a connection that kept sending over its budget", table.id)
        with contextlib.suppress(Exception):
            await asyncio.wait_for(
                ws.close(code=TOO_MANY_MESSAGES, reason="too many messages: over budget"), 1.0
            )
    elif conn.overflow.is_set():
        log.info("table %s: closed a connection that stopped reading", table.id)
        # the close frame may never get through to a client that does not read: don't wait
        with contextlib.suppress(Exception):
            await asyncio.wait_for(ws.close(code=1008, reason="too far behind"), 1.0)


def _account_seat(table: LiveTable, account: Account | None, asked: str) -> int | None:
    """The seat `asked` if the account holds it (a seat taken, under this account)."""
    if account is None or not asked.isdigit():
        return None
    seat = int(asked)
    players = table.record.players
    if seat >= len(players) or players[seat].get("account") != account.id:
        return None
    return seat if players[seat]["token_hash"] is not None else None


async def _read(conn: Connection, table: LiveTable, compute: Compute) -> int | None:
    """Handle the client's messages in order until it goes; its close code, if any."""
    try:
        while True:
            message = await conn.ws.receive()
            if message["type"] == "websocket.disconnect":
                code: int | None = message.get("code")
                return code
            try:
                await _handle(conn, table, compute, message.get("text"), message.get("bytes"))
            except (WebSocketDisconnect, RuntimeError):
                raise
            except Exception:  # a bug, not the client's fault: say so, keep the connection
                log.exception("table %s: a message failed", table.id)
                conn.error("the server failed on that message; nothing changed")
    except WebSocketDisconnect as e:
        return e.code
    except RuntimeError:
        return None


async def _refuse(ws: WebSocket, message: str, code: int) -> None:
    await ws.send_text(dumps({"type": "error", "message": message}))
    await ws.close(code=code)


async def _handle(
    conn: Connection, table: LiveTable, compute: Compute, text: str | None, data: bytes | None
) -> None:
    if not conn.limit.allow():
        if not conn.strikes.allow():  # over budget for long: close it (serve_socket)
            conn.flooding = True
            conn.overflow.set()
            return
        if not conn.warned:
            conn.warned = True
            conn.error(f"too many messages: at most {conn.limit.rate:g} a second; slow down")
        return
    conn.warned = False
    size = len(text.encode()) if text is not None else len(data or b"")
    if size > MAX_MESSAGE_BYTES:
        conn.error(f"message too large: {size} bytes; the limit is {MAX_MESSAGE_BYTES}")
        return
    if text is None:
        conn.error("send text frames holding JSON objects")
        return
    try:
        message = json.loads(text)
    except RecursionError:
        conn.error(f"message nested too deeply: at most {MAX_DEPTH} levels")
        return
    except ValueError as e:
        conn.error(f"not JSON: {e}")
        return
    # a message can nest no deeper than it has brackets: most have a handful, and the
    # count is cheaper than the walk, which a move paid for every time
    brackets = text.count("[") + text.count("{")
    if brackets > MAX_DEPTH and depth(message, MAX_DEPTH) > MAX_DEPTH:
        conn.error(f"message nested too deeply: at most {MAX_DEPTH} levels")
        return
    if not isinstance(message, dict) or not isinstance(message.get("type"), str):
        conn.error('a message is a JSON object with a "type": action, advice or ping')
        return
    kind = message["type"]
    if kind == "ping":
        conn.send({"type": "pong"})
    elif kind == "action":
        await _act(conn, table, message)
    elif kind == "throw":
        await _throw(conn, table, message)
    elif kind == "advice":
        await _advise(conn, table, compute)
    elif kind in SEAT_REQUESTS:
        _seat_request(conn, table, kind, message)
    elif kind in ("chat", "chat-spectators"):
        await _chat(conn, table, kind, message)
    elif kind in ("commit", "reveal"):
        await _entropy(conn, table, message)
    else:
        kinds = ", ".join(
            ("action", "throw", "advice", "ping", *SEAT_REQUESTS, "chat", "commit", "reveal")
        )
        conn.error(f"unknown message type {kind!r}; send one of: {kinds}")


async def _chat(conn: Connection, table: LiveTable, kind: str, message: dict[str, Any]) -> None:
    """A chat message to everyone at the table, or the host opening/closing it to watchers."""
    chat = table.chat
    if chat is None:
        conn.error("this table has no chat")
        return
    try:
        if kind == "chat-spectators":
            if conn.seat is None or conn.seat != table.presence.host():
                raise ChatError("only the host may open or close the chat to spectators")
            await chat.open_to_spectators(message.get("open"))
            table.notify_seats()
            return
        if not conn.chat_limit.allow():
            wait = conn.chat_limit.wait()
            raise ChatError(
                f"too many chat messages: at most {conn.chat_limit.burst} at once, then one"
                f" every {1 / conn.chat_limit.rate:g} s; try again in {math.ceil(wait)} s"
            )
        name = table.names[conn.seat] if conn.seat is not None else ""
        posted = await chat.post(conn.seat, name, message)
    except ChatError as e:
        conn.error(str(e))
        return
    table.tell_all({"type": "chat", "message": posted})


SEAT_REQUESTS = ("leave", "concede", "replace", "skip")


def _seat_request(conn: Connection, table: LiveTable, kind: str, message: dict[str, Any]) -> None:
    """Leave, concede, skip to the result, or (the host) hand a gone seat to the bot."""
    if conn.seat is None:
        conn.error(f"spectators cannot {kind}: that is for the players")
        return
    presence = table.presence
    try:
        if kind == "replace":
            presence.replace(conn.seat, message.get("seat"))
        elif kind == "leave":
            presence.leave(conn.seat)
        elif kind == "concede":
            presence.concede(conn.seat)
        else:
            presence.skip(conn.seat)
    except (PresenceError, Busy) as e:
        conn.error(str(e))


async def _act(conn: Connection, table: LiveTable, message: dict[str, Any]) -> None:
    if conn.seat is None:
        conn.error("spectators cannot act: connect with a seat token to play")
        return
    if "seat" in message and message["seat"] != conn.seat:
        conn.error(f"this connection plays seat {conn.seat} only")
        return
    action = message.get("action")
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        conn.error('an action is a JSON object with a "type", one of the legal actions')
        return
    step = _step(conn, message, "an action")
    if step is None:
        return
    try:
        await table.act(conn.seat, action, step)
    except (DicehallError, Busy) as e:
        conn.error(str(e))


def _step(conn: Connection, message: dict[str, Any], what: str) -> int | None:
    """The step a move answers, or None after telling the client it is missing."""
    step = message.get("step")
    if isinstance(step, bool) or not isinstance(step, int):
        conn.error(
            f'{what} names the step it answers: "step": the step of the welcome or'
            " update it was chosen from"
        )
        return None
    return step


async def _throw(conn: Connection, table: LiveTable, message: dict[str, Any]) -> None:
    """A player's own throw (a Toplshteyner roller's), when the table waits for it."""
    if conn.seat is None:
        conn.error("spectators cannot throw: that is for the players")
        return
    step = _step(conn, message, "a throw")
    if step is None:
        return
    try:
        await table.throw(conn.seat, step)
    except (DicehallError, Busy) as e:
        conn.error(str(e))


async def _entropy(conn: Connection, table: LiveTable, message: dict[str, Any]) -> None:
    """A seat's entropy for the dice (sealed tables): its commitment, then its values."""
    if conn.seat is None:
        conn.error("spectators add no entropy: connect with a seat token")
        return
    try:
        if message["type"] == "commit":
            await table.commit(conn.seat, check_commit(message.get("commit")))
        else:
            await table.reveal(conn.seat, message.get("batch"), message.get("value"))
    except (DicehallError, Busy) as e:
        conn.error(str(e))


async def _advise(conn: Connection, table: LiveTable, compute: Compute) -> None:
    """The game's odds behind each legal action, computed from this seat's view alone."""
    if conn.seat is None or table.status != "playing":
        conn.send({"type": "advice", "table": None})
        return
    view = table.state.view(conn.seat)
    legal = list(table.state.legal_actions(conn.seat))
    if not legal:
        conn.send({"type": "advice", "table": None})
        return
    try:
        odds = await compute.advice(table.game, view, legal)
    except Busy as e:
        conn.error(str(e))
        return
    except Exception:
        log.exception("table %s: advice failed", table.id)
        conn.error("no advice available for this position")
        return
    conn.send({"type": "advice", "table": odds})
