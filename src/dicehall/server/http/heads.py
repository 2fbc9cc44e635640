"""Requests whose head is too long get 414 or 431, not silence.

uvicorn parses requests with h11, which refuses a head over
`h11_max_incomplete_event_size` (uvicorn's setting, 16 KiB by default) only while
the head is still incomplete, and then with a bare 400; a WebSocket upgrade whose
URL passes h11 but exceeds the `websockets` library's 8 KiB line limit is dropped
without any answer. So `dicehall serve` runs uvicorn with this protocol: h11 itself,
with the head measured as it arrives against the strictest of those limits, and
answered as RFC 9110 says: 414 URI Too Long for a request line (the URL) over
MAX_LINE, 431 Request Header Fields Too Large for a header line over MAX_LINE, more
than MAX_HEADERS headers, or a head over MAX_HEAD in all. The connection is closed
after it.
"""

from __future__ import annotations

from typing import Any

from uvicorn.protocols.http.h11_impl import H11Protocol

MAX_LINE = 8 * 1024 - 2  # the websockets library's line limit, less its CRLF
MAX_HEAD = 16 * 1024  # uvicorn's h11_max_incomplete_event_size, by default
MAX_HEADERS = 100  # the websockets library takes 128

REASONS = {414: "URI Too Long", 431: "Request Header Fields Too Large"}


def too_large(head: bytes | bytearray) -> int | None:
    """414 or 431 for a request head (all of it, or as much as has come), else None."""
    lines = bytes(head).split(b"\r\n")
    if len(lines[0]) > MAX_LINE:
        return 414
    if len(head) > MAX_HEAD or len(lines) - 1 > MAX_HEADERS:
        return 431
    if any(len(line) > MAX_LINE for line in lines[1:]):
        return 431
    return None


class HeadLimits(H11Protocol):
    """uvicorn's h11 protocol, with request heads measured as they arrive (module doc)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._head = bytearray()
        self._reading_head = True
        self._refused = False

    def data_received(self, data: bytes) -> None:
        if self._refused:
            return
        if self._reading_head:
            self._head += data
            end = self._head.find(b"\r\n\r\n")
            status = too_large(self._head if end < 0 else self._head[:end])
            if status is not None:
                self._refuse(status)
                return
            if end >= 0:
                self._reading_head = False
                self._head.clear()
        super().data_received(data)

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._reading_head = True  # the next request on this connection: measured afresh

    def _refuse(self, status: int) -> None:
        self._refused = True
        body = f"{status} {REASONS[status]}: the request's head is over the server's limits\n"
        self.transport.write(
            (
                f"HTTP/1.1 {status} {REASONS[status]}\r\n"
                "content-type: text/plain; charset=utf-8\r\n"
                "connection: close\r\n"
                f"content-length: {len(body)}\r\n\r\n{body}"
            ).encode()
        )
        self.transport.close()
