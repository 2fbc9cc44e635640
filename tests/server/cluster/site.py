"""A site of several `dicehall serve` processes on one PostgreSQL and one Redis, on
loopback, for the tests: the services, the processes, and clients over real sockets.

PostgreSQL: DICEHALL_TEST_PG_URL (as `.ci/run` sets it), else a throwaway cluster
started here with Debian's binaries (/usr/lib/postgresql/*/bin). Redis:
DICEHALL_TEST_REDIS_URL, else a `redis-server` started here. Without either the
tests are skipped, saying which package to install.
"""

from __future__ import annotations

import contextlib
import glob
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from tests.server.helpers import Conn

HOST = "127.0.0.1"
START_SECONDS = 60.0  # a process is ready within this, even on a loaded machine


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


def _wait_port(port: int, seconds: float) -> bool:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        with contextlib.suppress(OSError), socket.create_connection((HOST, port), 0.2):
            return True
        time.sleep(0.05)
    return False


@contextlib.contextmanager
def redis_service() -> Iterator[str | None]:
    """A Redis URL, or None (with no redis-server installed)."""
    url = os.environ.get("DICEHALL_TEST_REDIS_URL")
    if url:
        yield url
        return
    binary = shutil.which("redis-server")
    if binary is None:
        yield None
        return
    port = free_port()
    with tempfile.TemporaryDirectory(prefix="dicehall-redis-") as folder:
        args = [binary, "--port", str(port), "--bind", HOST, "--save", "", "--appendonly", "no"]
        proc = subprocess.Popen(
            [*args, "--dir", folder], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        try:
            assert _wait_port(port, 10), "redis-server did not start"
            yield f"redis://{HOST}:{port}/0"
        finally:
            proc.terminate()
            proc.wait(10)


@contextlib.contextmanager
def postgres_service() -> Iterator[str | None]:
    """A PostgreSQL URL, or None (with no PostgreSQL installed)."""
    url = os.environ.get("DICEHALL_TEST_PG_URL")
    if url:
        yield url
        return
    bins = sorted(glob.glob("/usr/lib/postgresql/*/bin"))
    if not bins:
        yield None
        return
    bin_ = Path(bins[-1])
    port = free_port()
    root = os.geteuid() == 0
    as_user = ["runuser", "-u", "postgres", "--"] if root else []
    folder = tempfile.mkdtemp(prefix="dicehall-pg-")
    if root:
        shutil.chown(folder, "postgres")
    data = f"{folder}/data"

    def run(*cmd: str) -> None:
        subprocess.run([*as_user, *cmd], check=True, capture_output=True)

    opts = f"-c listen_addresses={HOST} -p {port} -k {folder} -c fsync=off"
    try:
        run(str(bin_ / "initdb"), "-D", data, "-U", "dicehall", "--auth=trust", "-E", "UTF8")
        run(str(bin_ / "pg_ctl"), "-D", data, "-l", f"{folder}/log", "-w", "-o", opts, "start")
        try:
            run(str(bin_ / "createdb"), "-h", HOST, "-p", str(port), "-U", "dicehall", "site")
            yield f"postgresql+psycopg://dicehall@{HOST}:{port}/site"
        finally:
            run(str(bin_ / "pg_ctl"), "-D", data, "-m", "immediate", "stop")
    finally:
        shutil.rmtree(folder, ignore_errors=True)


class Server:
    """One `dicehall serve` process of the site."""

    def __init__(
        self, db: str, redis: str | None, log: Path, env: dict[str, str] | None = None
    ) -> None:
        """`env`: settings of this test's own (DICEHALL_*), over the lifted limits below;
        no `redis`: a single server."""
        self.port = free_port()
        self.url = f"http://{HOST}:{self.port}"
        self.log = log
        self.terminated = False
        env = {
            **os.environ,
            # every client is 127.0.0.1: lift the per-address limits
            "DICEHALL_TABLES_BURST": "1000",
            "DICEHALL_JOINS_BURST": "1000",
            "DICEHALL_MESSAGE_RATE": "1000",
            "DICEHALL_MESSAGE_BURST": "1000",
            "DICEHALL_COMPUTE_IN_PROCESSES": "false",
            **(env or {}),
        }
        args = ["serve", "--db", db, "--port", str(self.port)]
        if redis is not None:
            args += ["--redis", redis]
        with open(log, "ab") as out:
            self.proc = subprocess.Popen(
                [sys.executable, "-c", "from dicehall.cli import main; main()", *args],
                stdout=out,
                stderr=out,
                env=env,
                start_new_session=True,
            )

    def wait_ready(self) -> None:
        end = time.monotonic() + START_SECONDS
        while time.monotonic() < end:
            assert self.proc.poll() is None, f"the server stopped: {self.log.read_text()}"
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"{self.url}/readyz", timeout=2).status_code == 200:
                    return
            time.sleep(0.1)
        raise AssertionError(f"the server was not ready in time: {self.log.read_text()}")

    def ws(self, path: str) -> ClientConnection:
        # entered at once, as `with` would (websockets 17 warns otherwise); closed by the test
        return connect(f"ws://{HOST}:{self.port}{path}", open_timeout=20).__enter__()

    def kill(self) -> None:
        """SIGKILL: nothing of the process's own shutdown runs."""
        self.proc.kill()
        self.proc.wait(30)

    def terminate(self) -> None:
        """SIGTERM, once (uvicorn takes a second one as "exit now")."""
        if self.proc.poll() is None and not self.terminated:
            self.terminated = True
            self.proc.terminate()

    def stop(self) -> None:
        self.terminate()
        if self.proc.poll() is None:
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)


@contextlib.contextmanager
def site(
    db: str, redis: str, n: int, folder: Path, env: dict[str, str] | None = None
) -> Iterator[list[Server]]:
    """n processes on a wiped database and Redis, all ready; stopped after."""
    from redis import Redis
    from sqlalchemy import create_engine, text

    r = Redis.from_url(redis)
    r.flushdb()
    r.close()
    engine = create_engine(db)
    with engine.begin() as c:  # the database as new, whatever a test or a server made in it
        c.execute(text("DROP SCHEMA public CASCADE"))
        c.execute(text("CREATE SCHEMA public"))
    engine.dispose()
    servers: list[Server] = []
    try:
        for i in range(n):
            servers.append(Server(db, redis, folder / f"server{i}.log", env))
        for s in servers:
            s.wait_ready()
        try:
            yield servers
        except BaseException:
            for s in servers:  # what each process logged, for the failure's report
                lines = s.log.read_text(errors="replace").splitlines()[-60:]
                print(f"--- {s.log.name} ---", *lines, sep="\n", file=sys.stderr)
            raise
    finally:
        for s in servers:  # all at once, then each waited for
            s.terminate()
        for s in servers:
            s.stop()


class _Socket:
    """What tests/server/helpers.py's Conn and drive() ask of a WebSocket."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws

    def send_json(self, message: Any) -> None:
        self.ws.send(json.dumps(message))


class NetConn(Conn):
    """A Conn over a real socket to one process of the site: every raw message kept."""

    def __init__(self, server: Server, path: str, seat: int | None) -> None:
        self.server = server
        self.path = path
        self.raw: ClientConnection = server.ws(path)
        super().__init__(_Socket(self.raw), seat)  # type: ignore[arg-type]

    def next_message(self, timeout: float = 20.0) -> dict[str, Any]:
        data: dict[str, Any] = json.loads(self.raw.recv(timeout))
        return data

    def read(self) -> dict[str, Any]:
        m = self.next_message()
        self.messages.append(m)
        if m["type"] in ("welcome", "update"):
            self.pos = m
        elif m["type"] == "over":
            self.over = m
        elif m["type"] == "error":
            raise AssertionError(f"seat {self.seat} got an error: {m['message']}")
        return m

    def reconnect(self, server: Server) -> None:
        """After its process died or closed it: connect again, to `server`."""
        with contextlib.suppress(Exception):
            self.raw.close()
        self.server = server
        self.raw = server.ws(self.path)
        self.ws = _Socket(self.raw)  # type: ignore[assignment]
        self.pos = {}

    def rejoin(self, server: Server, tries: int = 5) -> dict[str, Any]:
        """Reconnect to `server` and read the welcome, connecting again on a 1012 (the
        table moved meanwhile, as a lease that lapsed on a loaded machine does), as the
        page does."""
        for attempt in range(tries):
            self.reconnect(server)
            try:
                return self.read_until("welcome")
            except ConnectionClosed as e:
                if e.rcvd is None or e.rcvd.code != 1012 or attempt == tries - 1:
                    raise
                time.sleep(0.5)
        raise AssertionError("unreachable")

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.raw.close()


def closed(conn: NetConn, timeout: float = 20.0) -> int | None:
    """Read until the connection closes; its close code."""
    end = time.monotonic() + timeout
    try:
        while time.monotonic() < end:
            conn.messages.append(conn.next_message(max(0.1, end - time.monotonic())))
    except ConnectionClosed as e:
        return e.rcvd.code if e.rcvd is not None else None
    raise AssertionError("the connection stayed open")
