"""Load test of the game server over real WebSockets, on loopback only.

Starts a server (its own process, a fresh SQLite file in a temporary folder)
on 127.0.0.1, opens tables of human seats played by simulated clients that
answer every turn at once with a random legal action, plays whole games
(each table rematches when a game ends) for a bounded time, and prints moves
per second and the latency from an action to each seat's update.

Clients think for --think-ms on average (uniform between half and one and a
half times it) before each action, as people do; --think-ms 0 answers at once
and measures the most moves the server can take (latency is then mostly the
queue of all the other tables' moves).

With --odds-flood N, N more clients ask GET /api/odds (Toplshteyner for 2 to 8
seats, Kariki, Tao) back to back all the while, and a spectator pings once
every 20 ms while three `toplshteyner?seats=8` requests, sent first while the
odds are not cached yet, are in flight: the
tables' latency and that ping's round trip show whether slow work reaches
the event loop.

The simulated clients run in --clients processes of their own (the tables
shared out among them; the odds flood and the spectator in one more), so that
parsing every seat's updates does not compete with itself, and the server's
CPU is counted from its own processes alone, over the playing time only (after
every table is made and its seats are connected: a move's cost, not a
connection's; a rematch's seats connect during the play and count).
--fairness picks the tables' dice (sealed, the server's default, follows each
throw in a tracking worker process, counted beside the server; seed does not);
--profile FILE has py-spy sample the server over the middle of the play.
--seats 500,1000 runs each size in turn.

With --baseline DIR (a source tree with src/, such as a checkout of an earlier
commit), each size runs --rounds times as a pair, that tree's server then this
one's, back to back under the same client code, and a table of medians and the
paired ratio of CPU a move closes each size: on a shared machine the load
drifts between separate sessions, and CPU a move with it.

    .venv/bin/python benchmarks/server_load.py --seats 500 --fairness seed \
        --baseline /tmp/before --rounds 2

    .venv/bin/python benchmarks/server_load.py --seats 500
    .venv/bin/python benchmarks/server_load.py --seats 1000 --clients 3
    .venv/bin/python benchmarks/server_load.py --seats 500 --think-ms 0
    .venv/bin/python benchmarks/server_load.py --seats 200 --odds-flood 4

With --processes 1,2 --db postgresql+psycopg://... --redis redis://..., the same
load runs once per entry, one after the other on the same (emptied) database: 1
is one server process on that database (no Redis), 2 and more are that many
processes of one site on the database and Redis (docs/operators/several-processes.md,
processes), each table's seats spread over them so most seats are relayed to
their table's owner; a table of moves a second and latency closes the run.

    .venv/bin/python benchmarks/server_load.py --seats 200 --seconds 30 --processes 1,2 \
        --db postgresql+psycopg://dicehall@127.0.0.1:55432/dicehall_test \
        --redis redis://127.0.0.1:56379/0
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import json
import multiprocessing
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect

from dicehall.server.http.commands import tune_gc

HOST = "127.0.0.1"

SERVER = """
import sys, uvicorn
from dicehall.server import create_app
from dicehall.server.http import commands
from dicehall.server.http.commands import tune_gc, tune_threads
from dicehall.server.ops.limits import Limits
# Every simulated client comes from 127.0.0.1, so the per-address limits are lifted.
db, port, loop, ws = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
site = {"redis_url": sys.argv[5]} if len(sys.argv) > 5 else {}
app = create_app(db, rate=200.0, burst=400, limits=Limits.generous(), **site)
tune_gc()
tune_threads()
# as `dicehall serve` runs it; an older tree (before it had these options) ran uvicorn's
# defaults on the standard event loop
options = dict(getattr(commands, "WEBSOCKET_OPTIONS", {"loop": "asyncio"}))
if loop != "default":
    options["loop"] = loop
if ws != "default":
    options["ws"] = ws
uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning", **options)
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


class Stats:
    """What one client process saw; merged over the processes at the end."""

    def __init__(self) -> None:
        self.moves = 0
        self.games = 0
        self.errors = 0
        self.latencies: list[float] = []
        self.odds: dict[int, int] = {}  # the flood's answers by status code
        self.pings: list[float] = []  # the spectator's round trips during the seats=8 odds
        self.heavy: list[str] = []  # what each seats=8 request got, and how fast
        self.workers_cpu = 0.0  # the server's worker processes' CPU seconds (set at the end)
        self.system_cpu = 0.0  # the kernel's part of the server's own (set at the end)

    def merge(self, other: Stats) -> None:
        self.moves += other.moves
        self.games += other.games
        self.errors += other.errors
        self.latencies += other.latencies
        for code, n in other.odds.items():
            self.odds[code] = self.odds.get(code, 0) + n
        self.pings += other.pings
        self.heavy += other.heavy


FLOOD = [f"/api/odds/toplshteyner?seats={n}" for n in range(2, 9)] + [
    "/api/odds/kariki",
    "/api/odds/tao",
]


async def flood(http: httpx.AsyncClient, stats: Stats, seed: int, stop: float) -> None:
    """Ask for odds back to back until `stop`."""
    rng = random.Random(seed)
    while time.perf_counter() < stop:
        r = await http.get(rng.choice(FLOOD))
        stats.odds[r.status_code] = stats.odds.get(r.status_code, 0) + 1
        if r.status_code in (429, 503):
            await asyncio.sleep(0.05)


async def heavy_odds_and_pings(
    base: str, http: httpx.AsyncClient, table: Table, stats: Stats, start: float
) -> None:
    """Three seats=8 odds requests at once, and a spectator's pings until they are answered."""
    await asyncio.sleep(max(0.0, start - time.perf_counter()))

    async def ask() -> None:
        t = time.perf_counter()
        r = await http.get("/api/odds/toplshteyner?seats=8", timeout=120)
        stats.heavy.append(f"{r.status_code} in {time.perf_counter() - t:.2f} s")

    async with connect(f"ws://{base}/ws/tables/{table.table_id}") as ws:
        asked = asyncio.gather(ask(), ask(), ask())
        while not asked.done():
            sent = time.perf_counter()
            await ws.send(json.dumps({"type": "ping"}))
            while json.loads(await ws.recv())["type"] != "pong":
                pass
            stats.pings.append(time.perf_counter() - sent)
            await asyncio.sleep(0.02)
        await asyncio.wait_for(asked, 1)


class Table:
    """One table's seats; `sent` holds when the first action at each step was sent."""

    def __init__(self, table_id: str, tokens: dict[int, str]) -> None:
        self.table_id = table_id
        self.tokens = tokens
        self.sent: dict[int, float] = {}


async def open_table(http: httpx.AsyncClient, game: str, seats: int, fairness: str) -> Table:
    body = {"game": game, "seats": seats, "bot_delay_ms": 0, "fairness": fairness}
    r = await http.post("/api/tables", json=body)
    r.raise_for_status()
    made = r.json()
    tokens = {made["seat"]: made["token"]}
    for _ in range(seats - 1):
        joined = (await http.post(f"/api/tables/{made['table_id']}/join", json={})).json()
        tokens[joined["seat"]] = joined["token"]
    return Table(made["table_id"], tokens)


async def play_seat(
    ws: ClientConnection, table: Table, stats: Stats, rng: random.Random, stop: float, think: float
) -> None:
    """Answer every turn of one seat until the game is over or time is up."""
    async for raw in ws:
        now = time.perf_counter()
        m = json.loads(raw)
        kind = m["type"]
        if kind == "over":
            return
        if kind == "error":
            stats.errors += 1
            continue
        if kind not in ("welcome", "update"):
            continue
        if kind == "update" and m["from_step"] in table.sent:
            stats.latencies.append(now - table.sent[m["from_step"]])
        if m["legal"] and m["status"] == "playing" and now < stop:
            if think:
                await asyncio.sleep(think * (0.5 + rng.random()))
            action = rng.choice(m["legal"])["action"]
            table.sent.setdefault(m["step"], time.perf_counter())
            await ws.send(json.dumps({"type": "action", "step": m["step"], "action": action}))
            stats.moves += 1
        elif now >= stop:
            return


async def connect_seats(bases: list[str], table: Table, seed: int) -> list[ClientConnection]:
    """The table's seats, each connected to the next server process in turn."""
    return [
        await connect(f"ws://{bases[(seed + i) % len(bases)]}/ws/tables/{table.table_id}?token={t}")
        for i, t in enumerate(table.tokens.values())
    ]


async def run_table(
    bases: list[str],
    http: httpx.AsyncClient,
    table: Table,
    stats: Stats,
    seed: int,
    stop: float,
    think: float,
    sockets: list[ClientConnection],
) -> None:
    """Play the table's seats (`sockets`, connected already) until `stop`; each rematch
    connects its seats anew."""
    rng = random.Random(seed)
    while time.perf_counter() < stop:
        try:
            plays = (play_seat(ws, table, stats, rng, stop, think) for ws in sockets)
            async with asyncio.timeout(max(0.0, stop - time.perf_counter()) + 5):
                await asyncio.gather(*plays)
        except TimeoutError:
            return
        finally:
            for ws in sockets:
                await ws.close()
        if time.perf_counter() >= stop:
            return
        stats.games += 1
        tokens = {}
        for token in table.tokens.values():
            r = await http.post(
                f"/api/tables/{table.table_id}/rematch", headers={"X-Seat-Token": token}
            )
            tokens[r.json()["seat"]] = r.json()["token"]
            new_id = r.json()["table_id"]
        table = Table(new_id, tokens)
        sockets = await connect_seats(bases, table, seed)


def cpu_seconds(pid: int, system_only: bool = False) -> float | None:
    """CPU time a process has used (Linux), to tell the server's share from the clients';
    `system_only`: the kernel's part alone (on loopback, a socket send carries the
    receiving side's TCP work too)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    ticks = int(fields[12]) if system_only else int(fields[11]) + int(fields[12])
    return ticks / os.sysconf("SC_CLK_TCK")


def worker_pids(pid: int) -> list[int]:
    """The server's worker processes (sealed-dice tracking, odds): its children (Linux)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            if int(stat.read_text().rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(stat.parent.name))
        except (OSError, ValueError, IndexError):
            continue
    return found


def workers_cpu(server_pids: list[int]) -> float:
    return sum(cpu_seconds(w) or 0.0 for pid in server_pids for w in worker_pids(pid))


def wait_for_server(base: str, deadline: float) -> None:
    while time.time() < deadline:
        try:
            ready = httpx.get(f"http://{base}/readyz", timeout=1)
            if ready.status_code == 404:  # an older tree, without /readyz
                ready = httpx.get(f"http://{base}/api/games", timeout=1)
            ready.raise_for_status()
            return
        except httpx.HTTPError:
            time.sleep(0.2)
    raise SystemExit("the server did not start")


@dataclasses.dataclass(frozen=True)
class Share:
    """One client process's part of the load."""

    bases: list[str]  # the server processes, one address each
    game: str
    tables: int
    seats: int
    seconds: float
    think: float
    fairness: str
    seed: int
    floods: int = 0  # odds-flooding clients in this process
    pings: bool = False  # the spectator's pings during three seats=8 odds, in this process
    cpus: tuple[int, ...] = ()  # with --pin: the cores this process may run on


async def load(share: Share, ready: Any, go: Any) -> Stats:
    """Make this share's tables (on the processes in turn), say so, wait for the go, then
    play for `seconds`, each seat of a table on the next process."""
    stats = Stats()
    bases, base = share.bases, share.bases[0]
    limits = httpx.Limits(max_connections=50)
    async with contextlib.AsyncExitStack() as stack:
        https = [
            await stack.enter_async_context(
                httpx.AsyncClient(base_url=f"http://{b}", limits=limits, timeout=30)
            )
            for b in bases
        ]
        asker = await stack.enter_async_context(
            httpx.AsyncClient(base_url=f"http://{base}", timeout=30)
        )
        made = [
            await open_table(https[i % len(bases)], share.game, share.seats, share.fairness)
            for i in range(share.tables)
        ]
        # connected before the clock starts: what a move costs, not what a connection does
        seated = [
            await connect_seats(bases, t, share.seed * 10_000 + i) for i, t in enumerate(made)
        ]
        watched: Table | None = made[0] if made else None
        if share.pings and watched is None:  # the spectator watches a table of its own
            watched = await open_table(https[0], share.game, share.seats, share.fairness)
        tune_gc()  # the clients' own collector pauses would count as server latency
        ready.put(share.seed)
        await asyncio.get_running_loop().run_in_executor(None, go.wait)
        stop = time.perf_counter() + share.seconds
        jobs = [
            run_table(
                bases,
                https[i % len(bases)],
                t,
                stats,
                share.seed * 10_000 + i,
                stop,
                share.think,
                seated[i],
            )
            for i, t in enumerate(made)
        ]
        jobs += [flood(asker, stats, i, stop) for i in range(share.floods)]
        if share.pings and watched is not None:
            # at once, while the odds are not cached yet: the worst case of the three
            jobs.append(heavy_odds_and_pings(base, asker, watched, stats, stop - share.seconds))
        await asyncio.gather(*jobs)
    return stats


def client_process(share: Share, ready: Any, go: Any, results: Any) -> None:
    if share.cpus:
        os.sched_setaffinity(0, share.cpus)
    results.put(asyncio.run(load(share, ready, go)).__dict__)


def run_clients(
    shares: list[Share], server_pids: list[int], profile: str | None = None
) -> tuple[Stats, float, float]:
    """Every share in its own process; the servers' CPU and the wall time of the play."""
    context = multiprocessing.get_context("spawn")
    ready, results, go = context.Queue(), context.Queue(), context.Event()
    procs = [
        context.Process(target=client_process, args=(share, ready, go, results)) for share in shares
    ]
    for proc in procs:
        proc.start()
    try:
        for _ in procs:
            ready.get(timeout=600)
        cpu_before = sum(cpu_seconds(pid) or 0.0 for pid in server_pids)
        system_before = sum(cpu_seconds(pid, True) or 0.0 for pid in server_pids)
        workers_before = workers_cpu(server_pids)
        started = time.perf_counter()
        go.set()
        spy = None
        if profile:  # py-spy samples the (first) server over the middle half of the play
            time.sleep(shares[0].seconds / 4)
            seconds = str(max(1, int(shares[0].seconds / 2)))
            spy_args = ["record", "-p", str(server_pids[0]), "-d", seconds, "-r", "200"]
            spy_args += ["-f", "raw", "-o", profile, "--nonblocking"]
            spy = subprocess.Popen(["py-spy", *spy_args], stdout=subprocess.DEVNULL)
        stats = Stats()
        for _ in procs:
            part = Stats()
            part.__dict__.update(results.get(timeout=shares[0].seconds + 600))
            stats.merge(part)
        elapsed = time.perf_counter() - started
        cpu = sum(cpu_seconds(pid) or 0.0 for pid in server_pids) - cpu_before
        stats.workers_cpu = workers_cpu(server_pids) - workers_before
        stats.system_cpu = sum(cpu_seconds(pid, True) or 0.0 for pid in server_pids)
        stats.system_cpu -= system_before
        if spy is not None:
            spy.wait(timeout=60)
    finally:
        for proc in procs:
            proc.join(timeout=30)
            if proc.is_alive():
                proc.kill()
    return stats, cpu, elapsed


def client_cpus(server_cpu: int) -> tuple[int, ...]:
    """The cores the clients may use when the server has `server_cpu` to itself."""
    others = tuple(sorted(os.sched_getaffinity(0) - {server_cpu}))
    if not others:
        raise SystemExit("--pin needs a second core for the clients")
    return others


def empty(db: str, redis: str | None) -> None:
    """A PostgreSQL database and a Redis as new, between runs of --processes."""
    from sqlalchemy import create_engine, text

    engine = create_engine(db)
    with engine.begin() as c:
        c.execute(text("DROP SCHEMA public CASCADE"))
        c.execute(text("CREATE SCHEMA public"))
    engine.dispose()
    if redis is not None:
        from redis import Redis

        r = Redis.from_url(redis)
        r.flushdb()
        r.close()


def run(
    args: argparse.Namespace, processes: int, db: str | None, seats: int, src: Path | None = None
) -> tuple[Stats, float, float]:
    """One load run on `processes` server processes (the code of the source tree `src`, or
    this one's); its stats, seconds and server CPU."""
    tables = max(1, seats // args.per_table)
    env = None if src is None else {**os.environ, "PYTHONPATH": str(src)}
    with tempfile.TemporaryDirectory() as folder:
        if db is None:
            db = f"sqlite:///{Path(folder) / 'load.sqlite'}"
        else:
            empty(db, args.redis)
        extra = [args.redis] if processes > 1 else []
        ports = [free_port() for _ in range(processes)]
        # with --pin, the server (and so its worker processes) on one core, the clients on
        # the others: what one core holds, and no client competes with it for that core
        pin = [] if args.pin is None else ["taskset", "-c", str(args.pin)]
        servers = [
            subprocess.Popen(
                [*pin, sys.executable, "-c", SERVER, db, str(port), args.loop, args.ws, *extra],
                env=env,
            )
            for port in ports
        ]
        bases = [f"{HOST}:{port}" for port in ports]
        clients = max(1, min(args.clients, tables))
        common: dict[str, Any] = {
            "bases": bases,
            "game": args.game,
            "seats": args.per_table,
            "seconds": args.seconds,
            "think": args.think_ms / 1000,
            "fairness": args.fairness,
            "cpus": () if args.pin is None else client_cpus(args.pin),
        }
        shares = [
            Share(tables=tables // clients + (i < tables % clients), seed=i, **common)
            for i in range(clients)
        ]
        if args.odds_flood:  # the flood, and the spectator in a process of its own, so that
            # parsing the flood's answers never delays the reading of a pong
            shares.append(Share(tables=0, floods=args.odds_flood, seed=clients, **common))
            shares.append(Share(tables=0, pings=True, seed=clients + 1, **common))
        try:
            for base in bases:
                wait_for_server(base, time.time() + 60)
            stats, cpu, elapsed = run_clients(shares, [s.pid for s in servers], args.profile)
        finally:
            for server in servers:
                server.terminate()
            for server in servers:
                server.wait(timeout=30)
    return stats, elapsed, cpu


def p99(values: list[float]) -> float:
    ordered = sorted(values) or [0.0]
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--seats", default="500", help="concurrent human seats, or a list to run in turn"
    )
    parser.add_argument("--per-table", type=int, default=4, help="seats at each table")
    parser.add_argument("--game", default="kariki")
    parser.add_argument("--seconds", type=float, default=60.0, help="how long to play")
    parser.add_argument("--think-ms", type=float, default=500.0, help="mean time to act")
    parser.add_argument("--odds-flood", type=int, default=0, help="clients flooding /api/odds")
    parser.add_argument(
        "--processes", default="1", help="server processes, or a list to compare (1,2)"
    )
    parser.add_argument("--db", help="a PostgreSQL URL to play on (it is emptied first)")
    parser.add_argument("--redis", help="the Redis of a site of several processes")
    parser.add_argument("--clients", type=int, default=2, help="client processes for the seats")
    parser.add_argument(
        "--fairness",
        default="sealed",
        help="sealed or seed dice; with --baseline, sealed,seed runs both in each round",
    )
    parser.add_argument(
        "--pin", type=int, help="the server and its workers on this core, the clients off it"
    )
    parser.add_argument("--profile", help="py-spy's raw samples of the server to this file")
    parser.add_argument(
        "--loop",
        choices=("default", "asyncio", "uvloop"),
        default="default",
        help="the server's event loop (default: as `dicehall serve` picks it)",
    )
    parser.add_argument(
        "--ws",
        choices=("default", "websockets", "websockets-sansio", "wsproto"),
        default="default",
        help="uvicorn's WebSocket implementation (default: as `dicehall serve` picks it)",
    )
    parser.add_argument(
        "--baseline", type=Path, help="a source tree (has src/) whose server runs side by side"
    )
    parser.add_argument("--rounds", type=int, default=1, help="with --baseline: paired runs")
    args = parser.parse_args()
    counts = [int(n) for n in args.processes.split(",")]
    if any(n > 1 for n in counts) and not (args.db and args.redis):
        raise SystemExit("several processes need --db postgresql+psycopg://... and --redis")
    sizes = [int(n) for n in args.seats.split(",")]
    modes = args.fairness.split(",")
    if not modes or any(m not in ("sealed", "seed") for m in modes):
        raise SystemExit(f"--fairness is sealed, seed or sealed,seed; got {args.fairness!r}")
    if len(modes) > 1 and args.baseline is None:
        raise SystemExit("several --fairness modes run only with --baseline (in pairs)")
    if args.baseline is not None:
        against_baseline(args, sizes, counts[0])
        return
    rows = []
    for seats in sizes:
        for n in counts:
            stats, elapsed, cpu = run(args, n, args.db, seats)
            rows.append((n, stats, cpu))
            report(args, n, seats, stats, elapsed, cpu)
    if len(counts) > 1:
        print("\nprocesses | moves/s | games | server CPU a move | p50 | p99")
        for n, stats, cpu in rows:
            lat = stats.latencies or [0.0]
            print(
                f"{n} | {stats.moves / args.seconds:.0f} | {stats.games} | "
                f"{cpu / max(1, stats.moves) * 1000:.2f} ms | "
                f"{statistics.median(lat) * 1000:.1f} ms | {p99(lat) * 1000:.1f} ms"
            )


def against_baseline(args: argparse.Namespace, sizes: list[int], processes: int) -> None:
    """Each size `--rounds` times, for each --fairness mode the baseline tree's server then
    this one's, back to back (a shared machine's load drifts: pairs, not separate sessions);
    medians side by side, the median of the paired ratios of CPU a move, and with both
    modes, sealed against seed within each tree, from the same rounds."""
    trees = {"baseline": args.baseline.resolve() / "src", "current": None}
    modes = args.fairness.split(",")
    for seats in sizes:
        rows: dict[tuple[str, str], list[tuple[float, float, float, float, float]]] = {
            (t, m): [] for m in modes for t in trees
        }
        for _ in range(args.rounds):
            for mode in modes:
                for name, src in trees.items():
                    one = argparse.Namespace(**{**vars(args), "fairness": mode})
                    stats, elapsed, cpu = run(one, processes, args.db, seats, src)
                    print(f"[{name}]", end=" ")
                    report(one, processes, seats, stats, elapsed, cpu)
                    moves = max(1, stats.moves)
                    lat = stats.latencies or [0.0]
                    rows[name, mode].append(
                        (
                            stats.moves / args.seconds,
                            cpu / moves * 1000,
                            (cpu + stats.workers_cpu) / moves * 1000,
                            statistics.median(lat) * 1000,
                            p99(lat) * 1000,
                        )
                    )
        pinned = "" if args.pin is None else f", the server pinned to core {args.pin}"
        print(f"\n{seats} seats, medians of {args.rounds} paired runs{pinned}")
        print("tree | dice | moves/s | server CPU a move | with its workers | p50 | p99")
        for (name, mode), runs in rows.items():
            m = [statistics.median(column) for column in zip(*runs, strict=True)]
            cpu_ms = f"{m[1]:.2f} ms | {m[2]:.2f} ms"
            print(f"{name} | {mode} | {m[0]:.0f} | {cpu_ms} | {m[3]:.1f} ms | {m[4]:.1f} ms")
        for mode in modes:
            paired(f"{mode}: current/baseline", rows["baseline", mode], rows["current", mode])
        if len(modes) > 1:
            for name in trees:
                paired(f"{name}: sealed/seed", rows[name, "seed"], rows[name, "sealed"])
        print()


def paired(
    what: str, under: Sequence[tuple[float, ...]], over: Sequence[tuple[float, ...]]
) -> None:
    """The median (and range) of the round-by-round ratios of CPU a move, with workers."""
    ratios = [o[2] / u[2] for u, o in zip(under, over, strict=True)]
    print(
        f"{what} CPU a move (with workers): {statistics.median(ratios):.2f} "
        f"({min(ratios):.2f}-{max(ratios):.2f})"
    )


def report(
    args: argparse.Namespace, processes: int, seats: int, stats: Stats, elapsed: float, cpu: float
) -> None:
    tables = max(1, seats // args.per_table)
    lat = stats.latencies or [0.0]
    where = "one process" if processes == 1 else f"{processes} processes of one site"
    print(
        f"{args.game}: {tables} tables x {args.per_table} seats = {tables * args.per_table} "
        f"seats over {elapsed:.1f} s, thinking {args.think_ms:g} ms a move, {where}, "
        f"{args.fairness} dice, {args.clients} client processes"
    )
    print(f"moves: {stats.moves} ({stats.moves / args.seconds:.0f}/s), games: {stats.games}")
    print(f"errors: {stats.errors}, updates timed: {len(stats.latencies)}")
    if cpu and stats.moves:
        print(
            f"server CPU while playing: {cpu:.1f} s in all, "
            f"{cpu / stats.moves * 1000:.2f} ms a move "
            f"(system {stats.system_cpu / stats.moves * 1000:.2f}); its worker processes "
            f"(sealed-dice tracking, odds) {stats.workers_cpu:.1f} s, "
            f"{(cpu + stats.workers_cpu) / stats.moves * 1000:.2f} ms a move with them"
        )
    print(
        f"action -> each seat's update: p50 {statistics.median(lat) * 1000:.1f} ms, "
        f"p99 {p99(lat) * 1000:.1f} ms"
    )
    if args.odds_flood:
        answers = ", ".join(f"{code}: {n}" for code, n in sorted(stats.odds.items()))
        print(f"odds flood ({args.odds_flood} clients): {answers}")
        pings = sorted(stats.pings) or [0.0]
        print(
            f"spectator ping during three seats=8 odds ({', '.join(stats.heavy)}): "
            f"{len(pings)} pings, p50 {statistics.median(pings) * 1000:.1f} ms, "
            f"p99 {p99(pings) * 1000:.1f} ms, max {pings[-1] * 1000:.1f} ms"
        )


if __name__ == "__main__":
    main()
