"""deploy/nginx/dicehall.conf, run as written (only its names, ports and certificate
swapped for the test's), in front of two `dicehall serve` processes on PostgreSQL and
Redis (a single process on SQLite when either is missing): the page, a whole game over
HTTPS and WebSocket through the proxy with every transcript verifying, and the
per-address limit counting each client's own address, not the proxy's, which a client
cannot forge. Skipped without nginx (Debian's nginx or nginx-light) or openssl."""

from __future__ import annotations

import contextlib
import json
import os
import random
import re
import shutil
import ssl
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import InvalidMessage
from websockets.sync.client import ClientConnection, connect

from dicehall.server.tables.fairness import verify_transcript
from tests.server.cluster.site import (
    Server,
    _Socket,
    free_port,
    postgres_service,
    redis_service,
    site,
)
from tests.server.helpers import Conn, drive, sqlite_url

CONF = Path(__file__).parents[2] / "deploy" / "nginx" / "dicehall.conf"
NGINX = shutil.which("nginx") or next(
    (p for p in ("/usr/sbin/nginx",) if os.access(p, os.X_OK)), None
)
OPENSSL = shutil.which("openssl")

pytestmark = [
    pytest.mark.skipif(NGINX is None, reason="no nginx: apt-get install nginx-light"),
    pytest.mark.skipif(OPENSSL is None, reason="no openssl to make the test's certificate"),
]

TABLES_BURST = 3
# the waiting-table caps out of the way: this test is about the bucket for new tables
LIMITS = {
    "DICEHALL_TABLES_BURST": str(TABLES_BURST),
    # the window an hour long: its counts step once an hour, which a burst rarely straddles
    "DICEHALL_TABLES_PER_MINUTE": "0.05",
    "DICEHALL_WAITING_PER_ADDRESS": "100",
    "DICEHALL_WAITING_PER_ACCOUNT": "100",
}
PLAYERS = ("127.0.0.4", "127.0.0.5")  # the game's two players, each from its own address
A, B = "127.0.0.2", "127.0.0.3"  # two clients of the limit


def nginx_conf(folder: Path, tls: int, plain: int, upstreams: list[int]) -> Path:
    """The deployed file with the test's ports and certificate, inside a main config."""
    text = CONF.read_text()

    def swap(old: str, new: str) -> None:
        nonlocal text
        assert text.count(old) == 1, f"{CONF.name} no longer has {old!r}: update this test"
        text = text.replace(old, new)

    swap("listen 443 ssl http2;", f"listen 127.0.0.1:{tls} ssl;")
    swap("listen [::]:443 ssl http2;", "")
    swap("listen 80;", f"listen 127.0.0.1:{plain};")
    swap("listen [::]:80;", "")
    swap("/etc/letsencrypt/live/dicehall.example.org/fullchain.pem", str(folder / "cert.pem"))
    swap("/etc/letsencrypt/live/dicehall.example.org/privkey.pem", str(folder / "key.pem"))
    servers = [f"    server 127.0.0.1:{p} max_fails=1 fail_timeout=5s;" for p in upstreams]
    swap(
        "    server 127.0.0.1:8001 max_fails=1 fail_timeout=5s;\n"
        "    server 127.0.0.1:8002 max_fails=1 fail_timeout=5s;",
        "\n".join(servers),
    )
    temps = "\n".join(
        f"{kind}_temp_path {folder / kind};"
        for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    main = folder / "nginx.conf"
    main.write_text(
        ("user root;\n" if os.geteuid() == 0 else "")
        + f"daemon off;\npid {folder / 'nginx.pid'};\nerror_log {folder / 'error.log'} info;\n"
        + "events { worker_connections 256; }\n"
        + f"http {{\naccess_log {folder / 'access.log'};\n{temps}\n{text}\n}}\n"
    )
    return main


@contextlib.contextmanager
def nginx(folder: Path, upstreams: list[int]) -> Iterator[str]:
    """nginx on the test's config; its HTTPS base URL."""
    assert OPENSSL is not None
    key, cert = str(folder / "key.pem"), str(folder / "cert.pem")
    subprocess.run(
        [OPENSSL, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
         "-subj", "/CN=localhost", "-keyout", key, "-out", cert],
        check=True,
        capture_output=True,
    )  # fmt: skip
    tls, plain = free_port(), free_port()
    conf = nginx_conf(folder, tls, plain, upstreams)
    assert NGINX is not None
    checked = subprocess.run([NGINX, "-t", "-c", str(conf)], capture_output=True, text=True)
    assert checked.returncode == 0, checked.stderr
    proc = subprocess.Popen([NGINX, "-c", str(conf)], stderr=subprocess.PIPE)
    try:
        end = time.monotonic() + 20
        while True:
            with contextlib.suppress(httpx.HTTPError):
                httpx.get(f"http://127.0.0.1:{plain}/", timeout=1)
                break
            assert proc.poll() is None and time.monotonic() < end, "nginx did not start"
            time.sleep(0.1)
        redirect = httpx.get(f"http://127.0.0.1:{plain}/x?y=1", headers={"Host": "example"})
        assert redirect.status_code == 301
        assert redirect.headers["location"] == "https://example/x?y=1"
        yield f"https://127.0.0.1:{tls}"
    except BaseException:
        errors = folder / "error.log"
        if errors.exists():  # nginx's own account, for the test's report
            print("--- nginx error.log ---", errors.read_text(errors="replace")[-4000:], sep="\n")
        raise
    finally:
        proc.terminate()
        proc.wait(10)


@contextlib.contextmanager
def servers(folder: Path) -> Iterator[tuple[str, list[Server]]]:
    """Two processes on PostgreSQL and Redis, else one on SQLite: (what, servers)."""
    with postgres_service() as pg, redis_service() as redis:
        if pg is not None and redis is not None:
            with site(pg, redis, 2, folder, LIMITS) as two:
                yield "two processes on PostgreSQL and Redis", two
            return
        one = Server(sqlite_url(folder), None, folder / "server.log", LIMITS)
        try:
            one.wait_ready()
            yield "one process on SQLite (no PostgreSQL or Redis here)", [one]
        finally:
            one.stop()


def client(address: str) -> httpx.Client:
    """HTTPS from a loopback address of its own: the proxy sees it as that client."""
    transport = httpx.HTTPTransport(local_address=address, verify=False)
    return httpx.Client(transport=transport, timeout=30)


def open_socket(url: str, context: ssl.SSLContext, address: str) -> ClientConnection:
    """The handshake, tried again as the page's own reconnect would: on a busy machine
    nginx once closed one before it reached a server. Entered at once, as `with` would
    (websockets 17 warns otherwise), and closed by the test; a minute for each try."""
    for attempt in range(3):
        try:
            return connect(
                url, ssl=context, open_timeout=60, source_address=(address, 0)
            ).__enter__()
        except (InvalidMessage, OSError) as e:
            if attempt == 2:
                raise
            print(f"the handshake failed ({e!r}); trying again")
            time.sleep(1)
    raise AssertionError("unreachable")


class ProxiedConn(Conn):
    """A seat's WebSocket through the proxy (wss), from the seat's own address."""

    def __init__(self, base: str, path: str, seat: int, address: str) -> None:
        context = ssl.create_default_context()
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE
        url = base.replace("https://", "wss://") + path
        self.raw: ClientConnection = open_socket(url, context, address)
        super().__init__(_Socket(self.raw), seat)  # type: ignore[arg-type]

    def read(self) -> dict[str, Any]:
        m: dict[str, Any] = json.loads(self.raw.recv(30))
        self.messages.append(m)
        if m["type"] in ("welcome", "update"):
            self.pos = m
        elif m["type"] == "over":
            self.over = m
        elif m["type"] == "error":
            raise AssertionError(f"seat {self.seat} got an error: {m['message']}")
        return m


def happy_path(base: str) -> None:
    """The page, then a game of two people from two addresses: create, join by room
    code, play over WebSocket to the end, the transcript verifying."""
    with client(PLAYERS[0]) as first, client(PLAYERS[1]) as second:
        page = first.get(f"{base}/")
        assert page.status_code == 200 and "<html" in page.text.lower()
        assert first.get(f"{base}/healthz").status_code == 200
        made = first.post(f"{base}/api/tables", json={"game": "kariki", "seats": 2})
        assert made.status_code == 200, made.text
        table = made.json()
        joined = second.post(f"{base}/api/rooms/{table['room']}/join", json={"name": "B"})
        assert joined.status_code == 200, joined.text
        tid = table["table_id"]
        conns = [
            ProxiedConn(base, f"/ws/tables/{tid}?token={grant['token']}", grant["seat"], who)
            for grant, who in ((table, PLAYERS[0]), (joined.json(), PLAYERS[1]))
        ]
        try:
            drive(conns, random.Random(3))  # type: ignore[arg-type]
        finally:
            for c in conns:
                c.raw.close()
        transcript = first.get(f"{base}/api/tables/{tid}/transcript")
        assert transcript.status_code == 200, transcript.text
        report = verify_transcript(transcript.json())
        assert report["ok"], report


def limits_count_the_client(base: str) -> None:
    """A's tables meet the limit; B, behind the same proxy, is not held by A's; and A
    cannot slip past by naming another address in X-Forwarded-For."""
    body = {"game": "kariki", "seats": 2}
    with client(A) as a, client(B) as b:
        codes = [a.post(f"{base}/api/tables", json=body).status_code for _ in range(TABLES_BURST)]
        assert codes == [200] * TABLES_BURST
        over = a.post(f"{base}/api/tables", json=body)
        assert over.status_code == 429 and "Retry-After" in over.headers, over.text
        forged = a.post(f"{base}/api/tables", json=body, headers={"X-Forwarded-For": "10.9.8.7"})
        assert forged.status_code == 429, forged.text
        assert b.post(f"{base}/api/tables", json=body).status_code == 200


def test_nginx_in_front_of_the_servers(tmp_path: Path) -> None:
    with servers(tmp_path) as (what, procs), nginx(tmp_path, [s.port for s in procs]) as base:
        started = time.perf_counter()
        happy_path(base)
        limits_count_the_client(base)
        print(f"proxy test: {what}, {time.perf_counter() - started:.1f} s through nginx")
        seen = "".join(s.log.read_text(errors="replace") for s in procs)
    # the servers saw A's own address (uvicorn's access log), not the proxy's
    assert re.search(rf'{re.escape(A)}:\d+ - "POST /api/tables HTTP/1.1" 429', seen), seen[-3000:]
    log = (tmp_path / "access.log").read_text()
    assert re.search(rf"^{re.escape(A)} .* 429 ", log, re.M), log[-2000:]
    for player in PLAYERS:  # each player's WebSocket went through the proxy
        assert re.search(rf'^{re.escape(player)} .*"GET /ws/tables/\S+ HTTP/1.1" 101 ', log, re.M)
