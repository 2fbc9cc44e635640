"""What one hostile client can do to everyone else: floods against a server on its own core.

Loopback only. Starts `dicehall serve` (its defaults: the limits people get) pinned to
core 0 with `taskset`, and runs every client in this process, which should be pinned to
another core (run it under `taskset -c 1`): on a machine where attacker and server share
busy cores, a flood measures the machine, not the server.

A victim table (Kariki, two people at 127.0.0.10 and .11, playing at once, a new table
when a game ends) keeps a spectator's ping going every 60 ms and its seats' moves; each
phase floods the server from other loopback addresses for --seconds while the victim's
ping and move round trips are measured (p50/p99), and counts what the server answered
the attacker: the baseline (no flood), then junk WebSocket frames, sockets, new tables,
room lookups, registrations, logins (wrong passwords for the victim's name, from 20
addresses; the owner's correct password from an address of their own at the end),
advice, odds and chat. The limits should refuse most of each flood.

    taskset -c 1 .venv/bin/python benchmarks/abuse.py --seconds 4
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

ROOT = Path(__file__).resolve().parents[1]
VICTIM, VICTIM2, OWNER = "127.0.0.10", "127.0.0.11", "127.0.0.12"
PASSWORD = "correct horse battery"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def http(base: str, address: str) -> httpx.AsyncClient:
    transport = httpx.AsyncHTTPTransport(local_address=address)
    return httpx.AsyncClient(base_url=f"http://{base}", transport=transport, timeout=30)


async def ws_connect(base: str, path: str, address: str, **kw: Any) -> ClientConnection:
    return await connect(f"ws://{base}{path}", local_addr=(address, 0), **kw)


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))] * 1000


class Victim:
    """Another table: its spectator's pings and its seats' moves, round trips in seconds."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.pings: list[float] = []
        self.moves: list[float] = []
        self.failures: Counter[str] = Counter()
        self.running = True
        self.watched: str | None = None  # the table the spectator pings at

    async def ping_loop(self) -> None:
        while self.running:
            try:
                if self.watched is None:
                    self.watched = (await own_table(self.base, OWNER, bots=False))["table_id"]
                ws = await ws_connect(self.base, f"/ws/tables/{self.watched}", VICTIM)
                async with ws:
                    while self.running:
                        sent = time.perf_counter()
                        await ws.send('{"type": "ping"}')
                        while json.loads(await ws.recv())["type"] != "pong":
                            pass
                        self.pings.append(time.perf_counter() - sent)
                        await asyncio.sleep(0.06)  # within a socket's 20 messages a second
            except (ConnectionClosed, OSError, httpx.HTTPError, KeyError) as e:
                self.failures[f"ping: {type(e).__name__}"] += 1
                await asyncio.sleep(0.2)

    async def play_loop(self) -> None:
        """One table, then its rematches (a new table a game would meet the per-address
        budget of new tables: people play rematches)."""
        rng = random.Random(1)
        async with http(self.base, VICTIM) as host, http(self.base, VICTIM2) as guest:
            made = await host.post("/api/tables", json={"game": "kariki", "seats": 2})
            made.raise_for_status()
            t = made.json()
            joined = (await guest.post(f"/api/tables/{t['table_id']}/join", json={})).json()
            table, seats = t["table_id"], [(t["token"], VICTIM), (joined["token"], VICTIM2)]
            while self.running:
                try:
                    await self._one_game(table, seats, rng)
                    again = []
                    for (token, addr), h in zip(seats, (host, guest), strict=True):
                        r = await h.post(
                            f"/api/tables/{table}/rematch", headers={"X-Seat-Token": token}
                        )
                        r.raise_for_status()
                        again.append((r.json()["token"], addr))
                    table, seats = r.json()["table_id"], again
                except (ConnectionClosed, OSError, httpx.HTTPError, KeyError) as e:
                    self.failures[f"play: {type(e).__name__}"] += 1
                    await asyncio.sleep(0.5)

    async def _one_game(self, table: str, seats: list[tuple[str, str]], rng: random.Random) -> None:
        sockets = [
            await ws_connect(self.base, f"/ws/tables/{table}?token={tok}", addr)
            for tok, addr in seats
        ]
        sent: dict[int, float] = {}
        try:
            await asyncio.gather(*(self._seat(ws, sent, rng) for ws in sockets))
        finally:
            for ws in sockets:
                await ws.close()

    async def _seat(self, ws: ClientConnection, sent: dict[int, float], rng: random.Random) -> None:
        async for raw in ws:
            m = json.loads(raw)
            if m["type"] == "over" or not self.running:
                return
            if m["type"] not in ("welcome", "update"):
                continue
            now = time.perf_counter()
            if m["type"] == "update" and m.get("from_step") in sent:
                self.moves.append(now - sent.pop(m["from_step"]))
            if m["status"] == "playing" and m["legal"]:
                action = rng.choice(m["legal"])["action"]
                sent.setdefault(m["step"], time.perf_counter())
                await ws.send(json.dumps({"type": "action", "step": m["step"], "action": action}))

    def take(self) -> tuple[list[float], list[float]]:
        pings, moves, self.pings, self.moves = self.pings, self.moves, [], []
        return pings, moves


Flood = Callable[[str, float, Counter[str]], Awaitable[None]]


async def read_all(ws: ClientConnection, seen: Counter[str]) -> None:
    """Count what the server sends an attacker's socket, and how it closes it."""
    try:
        async for raw in ws:
            m = json.loads(raw)
            seen[m["type"] if m["type"] != "error" else m["message"][:36]] += 1
    except ConnectionClosed as e:
        seen[f"closed {e.rcvd.code if e.rcvd else '?'}"] += 1


async def socket_flood(
    base: str, stop: float, seen: Counter[str], address: str, message: str, sockets: int = 16
) -> None:
    """`sockets` seats' sockets at tables of the attacker's own, each sending `message` just
    within its message budget (19 a second): as much as the limits let one address ask."""
    async with http(base, address) as h:
        made = []
        for _ in range(sockets // 2):
            r = await h.post(
                "/api/tables",
                json={
                    "game": "kariki",
                    "seats": 2,
                    "bot_delay_ms": 10_000,
                    "bots": {"1": "random"},
                },
            )
            if r.status_code == 200:
                made.append(r.json())
            else:
                seen[f"table {r.status_code}"] += 1

    async def one(table: dict[str, Any]) -> None:
        path = f"/ws/tables/{table['table_id']}?token={table['token']}"
        async with await ws_connect(base, path, address) as ws:
            reader = asyncio.create_task(read_all(ws, seen))
            with contextlib.suppress(ConnectionClosed):
                while time.perf_counter() < stop:
                    await ws.send(message)
                    seen["sent"] += 1
                    await asyncio.sleep(1 / 19)
            reader.cancel()

    await asyncio.gather(*(one(t) for t in made for _ in range(2)))


async def many(n: int, job: Callable[[int], Awaitable[None]]) -> None:
    await asyncio.gather(*(job(i) for i in range(n)))


async def http_flood(
    base: str,
    stop: float,
    seen: Counter[str],
    address: str,
    request: Callable[[httpx.AsyncClient, int], Awaitable[httpx.Response]],
    workers: int = 8,
) -> None:
    async with http(base, address) as h:

        async def work(w: int) -> None:
            i = w
            while time.perf_counter() < stop:
                try:
                    r = await request(h, i)
                    seen[str(r.status_code)] += 1
                except httpx.HTTPError as e:
                    seen[type(e).__name__] += 1
                i += workers

        await many(workers, work)


MADE: dict[tuple[str, bool], dict[str, Any]] = {}


async def own_table(base: str, address: str, bots: bool) -> dict[str, Any]:
    """A table of the address's own (the same one each time it is asked for)."""
    if (address, bots) in MADE:
        return MADE[address, bots]
    async with http(base, address) as h:
        body: dict[str, Any] = {"game": "kariki", "seats": 2, "bot_delay_ms": 10_000}
        if bots:
            body["bots"] = {"1": "heuristic"}
        r = await h.post("/api/tables", json=body)
        r.raise_for_status()
        table: dict[str, Any] = r.json()
        MADE[address, bots] = table
        return table


async def messages(base: str, stop: float, seen: Counter[str]) -> None:
    """Junk frames as fast as one socket takes them."""
    address = "127.0.1.1"
    table = await own_table(base, address, bots=False)
    ws = await ws_connect(base, f"/ws/tables/{table['table_id']}?token={table['token']}", address)
    frame = "x" * 200
    reader = asyncio.create_task(read_all(ws, seen))
    with contextlib.suppress(ConnectionClosed):
        while time.perf_counter() < stop and not reader.done():
            for _ in range(100):
                await ws.send(frame)
            seen["frames written"] += 100
            await asyncio.sleep(0)
    await asyncio.wait([reader], timeout=2)
    reader.cancel()
    await ws.close()


async def connections(base: str, stop: float, seen: Counter[str]) -> None:
    """As many spectator sockets as one address can open."""
    address = "127.0.1.2"
    table = await own_table(base, address, bots=False)
    held: list[ClientConnection] = []
    try:
        while time.perf_counter() < stop:
            try:
                ws = await asyncio.wait_for(
                    ws_connect(base, f"/ws/tables/{table['table_id']}", address), 5
                )
                first = json.loads(await asyncio.wait_for(ws.recv(), 5))
                if first["type"] == "error":
                    seen["refused (4429)"] += 1
                    await ws.close()
                    await asyncio.sleep(0.005)
                else:
                    seen["open"] += 1
                    held.append(ws)
            except (ConnectionClosed, OSError, TimeoutError) as e:
                seen[type(e).__name__] += 1
    finally:
        await asyncio.wait([asyncio.create_task(ws.close()) for ws in held], timeout=5)


async def tables(base: str, stop: float, seen: Counter[str]) -> None:
    await http_flood(
        base, stop, seen, "127.0.1.3", lambda h, _i: h.post("/api/tables", json={"game": "kariki"})
    )


async def rooms(base: str, stop: float, seen: Counter[str]) -> None:
    def ask(h: httpx.AsyncClient, i: int) -> Awaitable[httpx.Response]:
        return h.get(f"/api/rooms/{''.join(random.choices('ABCDEFGHJKLMNPQRSTUVWXYZ', k=6))}")

    await http_flood(base, stop, seen, "127.0.1.4", ask)


async def registrations(base: str, stop: float, seen: Counter[str]) -> None:
    def ask(h: httpx.AsyncClient, i: int) -> Awaitable[httpx.Response]:
        h.cookies.clear()
        name = f"farm{secrets.token_hex(4)}"
        return h.post("/api/account/register", json={"name": name, "password": PASSWORD})

    await many(4, lambda k: http_flood(base, stop, seen, f"127.0.2.{k + 1}", ask, workers=4))


async def logins(base: str, stop: float, seen: Counter[str]) -> None:
    """Wrong passwords for the owner's name from 20 addresses; the owner's own at the end."""

    def ask(h: httpx.AsyncClient, i: int) -> Awaitable[httpx.Response]:
        return h.post("/api/account/login", json={"name": "owner", "password": f"guess{i:06d}"})

    async def owner() -> None:  # in the thick of it: a second before the flood ends
        await asyncio.sleep(max(0.0, stop - 1 - time.perf_counter()))
        async with http(base, OWNER) as h:
            t = time.perf_counter()
            body = {"name": "owner", "password": PASSWORD}
            r = await h.post("/api/account/login", json=body, timeout=120)
            seen[f"owner's login {r.status_code} in {time.perf_counter() - t:.2f} s"] += 1

    await asyncio.gather(
        owner(),
        many(20, lambda k: http_flood(base, stop, seen, f"127.0.3.{k + 1}", ask, workers=1)),
    )


async def advice(base: str, stop: float, seen: Counter[str]) -> None:
    await socket_flood(base, stop, seen, "127.0.1.6", '{"type": "advice"}')


async def odds(base: str, stop: float, seen: Counter[str]) -> None:
    def ask(h: httpx.AsyncClient, i: int) -> Awaitable[httpx.Response]:
        return h.get("/api/odds/toplshteyner", params={"seats": 2 + i % 7, "x": i})

    await http_flood(base, stop, seen, "127.0.1.7", ask)


async def chat(base: str, stop: float, seen: Counter[str]) -> None:
    await socket_flood(base, stop, seen, "127.0.1.8", json.dumps({"type": "chat", "text": "spam"}))


async def idle(base: str, stop: float, seen: Counter[str]) -> None:
    await asyncio.sleep(max(0.0, stop - time.perf_counter()))


PHASES: list[tuple[str, Flood]] = [
    ("baseline", idle),
    ("messages", messages),
    ("connections", connections),
    ("table creation", tables),
    ("room lookups", rooms),
    ("registration", registrations),
    ("logins", logins),
    ("advice", advice),
    ("odds", odds),
    ("chat", chat),
]


async def run(base: str, seconds: float) -> list[dict[str, Any]]:
    async with http(base, OWNER) as h:
        r = await h.post("/api/account/register", json={"name": "owner", "password": PASSWORD})
        r.raise_for_status()
    victim = Victim(base)
    tasks = [asyncio.create_task(victim.ping_loop()), asyncio.create_task(victim.play_loop())]
    await asyncio.sleep(2)  # warm: the victim's first games and pings
    victim.take()
    rows = []
    for name, flood in PHASES:
        seen: Counter[str] = Counter()
        stop = time.perf_counter() + seconds
        try:
            while time.perf_counter() < stop:  # a flood the server cut short starts again
                await asyncio.wait_for(flood(base, stop, seen), seconds + 150)
        except Exception as e:  # a flood that broke is reported, not fatal
            seen[f"flood failed: {type(e).__name__}"] += 1
        pings, moves = victim.take()
        rows.append({"phase": name, "pings": pings, "moves": moves, "seen": dict(seen)})
        print(row_text(rows[-1]), flush=True)
        await asyncio.sleep(1)  # the server settles before the next phase
        victim.take()
    victim.running = False
    for t in tasks:
        t.cancel()
    rows.append({"phase": "victim failures", "seen": dict(victim.failures)})
    return rows


def row_text(row: dict[str, Any]) -> str:
    p, m = row["pings"], row["moves"]
    return (
        f"| {row['phase']} | {pct(p, 0.5):.1f} | {pct(p, 0.99):.1f} | {len(p)} | "
        f"{pct(m, 0.5):.1f} | {pct(m, 0.99):.1f} | {len(m)} | "
        + ", ".join(f"{k}: {v}" for k, v in sorted(row["seen"].items()))
        + " |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=4.0, help="each flood's length")
    parser.add_argument("--server-core", default="0", help="taskset's core list for the server")
    parser.add_argument(
        "--server-nice",
        type=int,
        default=0,
        help="the server's niceness (negative, as root: ahead of other work on a shared core)",
    )
    args = parser.parse_args()
    port = free_port()
    base = f"127.0.0.1:{port}"
    folder = tempfile.mkdtemp(prefix="dicehall-abuse-")
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "DICEHALL_ACCESS_LOG": "false"}
    env["DICEHALL_LOG_LEVEL"] = "warning"
    command = [
        "nice",
        "-n",
        str(args.server_nice),
        "taskset",
        "-c",
        args.server_core,
        sys.executable,
        "-c",
        "from dicehall.cli import main; main()",
    ]
    command += ["serve", "--host", "127.0.0.1", "--port", str(port)]
    command += ["--db", f"sqlite:///{folder}/db.sqlite"]
    log = open(Path(folder) / "server.log", "w")  # noqa: SIM115
    server = subprocess.Popen(command, env=env, stdout=log, stderr=log, start_new_session=True)
    try:
        deadline = time.time() + 60
        while True:
            try:
                httpx.get(f"http://{base}/readyz", timeout=1).raise_for_status()
                break
            except httpx.HTTPError:
                if time.time() > deadline or server.poll() is not None:
                    raise SystemExit(f"the server did not start; see {log.name}") from None
                time.sleep(0.3)
        mine = os.sched_getaffinity(0)
        print(
            f"server on core(s) {args.server_core}, clients on {sorted(mine)};"
            f" {args.seconds:g} s a flood"
        )
        print(
            "| flood | ping p50 ms | ping p99 ms | pings | move p50 ms | move p99 ms | moves | "
            "what the attacker got |"
        )
        print("| --- | --- | --- | --- | --- | --- | --- | --- |")
        rows = asyncio.run(run(base, args.seconds))
        print("victim's failures:", rows[-1]["seen"] or "none")
        log.flush()
        lines = Path(log.name).read_text().splitlines()
        print(f"server log: {len(lines)} lines; tracebacks: {sum('Traceback' in x for x in lines)}")
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(30)


if __name__ == "__main__":
    main()
