"""Too long a URL or headers: 414 or 431 from the server as `dicehall serve` runs it
(uvicorn with http/heads.py's protocol), for plain requests and WebSocket upgrades alike."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import uvicorn

from dicehall.server import create_app
from dicehall.server.http.heads import MAX_HEAD, MAX_LINE, HeadLimits, too_large

UPGRADE = (
    b"Upgrade: websocket\r\nConnection: Upgrade\r\n"
    b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
)


@pytest.fixture
def port(tmp_path: Path) -> Iterator[int]:
    app = create_app(f"sqlite:///{tmp_path / 'db.sqlite'}")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        free = int(s.getsockname()[1])
    config = uvicorn.Config(
        app,
        host="127.0.0.1",
        port=free,
        http=HeadLimits,
        h11_max_incomplete_event_size=MAX_HEAD,
        log_level="warning",
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.02)
    yield free
    server.should_exit = True
    thread.join(10)


def status_of(port: int, request: bytes) -> int:
    with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
        s.sendall(request)
        answer = s.recv(64)
    return int(answer.split(b" ", 2)[1])


def test_a_long_url_gets_414_and_long_headers_431(port: int) -> None:
    long = b"a" * (MAX_LINE + 100)
    assert status_of(port, b"GET /api/games HTTP/1.1\r\nHost: x\r\n\r\n") == 200
    assert status_of(port, b"GET /api/games?x=" + long + b" HTTP/1.1\r\nHost: x\r\n\r\n") == 414
    upgrade = b"GET /ws/tables/abc?x=" + long + b" HTTP/1.1\r\nHost: x\r\n" + UPGRADE + b"\r\n"
    assert status_of(port, upgrade) == 414  # an upgrade too: an answer, not silence
    assert (
        status_of(port, b"GET /api/games HTTP/1.1\r\nHost: x\r\nX-A: " + long + b"\r\n\r\n") == 431
    )
    many = b"".join(b"X-%d: 1\r\n" % i for i in range(200))
    assert status_of(port, b"GET /api/games HTTP/1.1\r\nHost: x\r\n" + many + b"\r\n") == 431


def test_a_head_is_measured_as_it_arrives() -> None:
    assert too_large(b"GET /" + b"a" * MAX_LINE) == 414  # no line end yet: already too long
    assert too_large(b"GET / HTTP/1.1\r\nHost: x") is None
    assert too_large(b"GET / HTTP/1.1\r\n" + b"X: " + b"a" * 4000 + b"\r\n" * 5) is None
    assert too_large(b"GET / HTTP/1.1\r\n" + (b"X: " + b"a" * 4000 + b"\r\n") * 5) == 431
