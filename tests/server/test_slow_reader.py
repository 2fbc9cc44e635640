"""A client that stops reading is cut off, not buffered without end.

A WebSocket send waits once the socket's buffers are full (uvicorn's
protocols pause the writer when the transport's buffer passes its high-water
mark), so a client that does not read holds the connection's writer at its
first unsent message while its later ones wait in the connection's queue; at
MAX_QUEUED the connection is marked `overflow`, further messages are dropped,
and `serve_socket` closes it (1008, "too far behind"). These tests stand a
socket whose send never completes, or completes at once, behind a Connection.
"""

from __future__ import annotations

import asyncio
from typing import cast

from starlette.websockets import WebSocket

from dicehall.server.http.sockets import MAX_QUEUED, Connection
from dicehall.server.ops.limits import TokenBucket
from tests.aio import run


class FakeSocket:
    """`send_text` records the message, then waits for `opened` (set: a reading client)."""

    def __init__(self, reading: bool) -> None:
        self.sent: list[str] = []
        self.opened = asyncio.Event()
        if reading:
            self.opened.set()

    async def send_text(self, text: str) -> None:
        self.sent.append(text)
        await self.opened.wait()


async def pushed(reading: bool, messages: int) -> tuple[FakeSocket, Connection]:
    ws = FakeSocket(reading)
    conn = Connection(cast(WebSocket, ws), None, TokenBucket(1.0, 1))
    writer = asyncio.create_task(conn.write())
    for i in range(messages):
        conn.push(f"m{i}")
        if i % 100 == 0:
            await asyncio.sleep(0)  # the writer runs between moves, as at a real table
    await asyncio.sleep(0.01)
    writer.cancel()
    return ws, conn


def test_a_client_that_stops_reading_is_marked_overflow_and_held_no_further() -> None:
    ws, conn = run(pushed(reading=False, messages=MAX_QUEUED + 500))
    assert ws.sent == ["m0"]  # the writer waits on the first send that does not get through
    assert conn.overflow.is_set()
    assert conn.queue.qsize() == MAX_QUEUED  # the rest were dropped, not queued


def test_a_reading_client_gets_every_message_in_order_and_no_overflow() -> None:
    ws, conn = run(pushed(reading=True, messages=MAX_QUEUED + 500))
    assert ws.sent == [f"m{i}" for i in range(MAX_QUEUED + 500)]
    assert not conn.overflow.is_set()
