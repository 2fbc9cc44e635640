"""What a move's WebSocket frames cost a server with nothing else to do: the floor
under `server_load.py`'s CPU a move.

A move at a four-seat table is one frame in (the mover's action) and four out
(each seat's update, about 1.3 KB at Kariki). This runs exactly that traffic
through uvicorn, with the server's own WebSocket options, and no game, no
database and no table: groups of four connections, one of which in turn sends
a small frame after thinking --think-ms (uniform between half and one and a
half times it), and the server answers it with a 1.3 KB text frame to each of
the four. The clients run in --clients processes of their own and the
server's CPU is read from /proc over the play alone, as in server_load.py.

--app picks the server:

- `asgi`: a bare ASGI application that awaits the four sends in the handler
  of the frame that came in: the least any Python server on uvicorn can do;
- `starlette`: FastAPI's WebSocket with a queue and a writer task per
  connection and JSON in and out, the shape of `server/http/sockets.py`;
- `direct`: the same, but the four sends awaited in the handler, as `asgi`
  does: what the writer task's hop costs (a slow reader would hold the
  handler up here, which is why the server has the task).

    .venv/bin/python benchmarks/socket_floor.py --seats 500 --app asgi
    .venv/bin/python benchmarks/socket_floor.py --seats 500 --app starlette
    .venv/bin/python benchmarks/socket_floor.py --seats 500 --app direct
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import random
import socket
import subprocess
import sys
import time
from typing import Any

from websockets.asyncio.client import connect

UPDATE = json.dumps({"type": "update", "pad": "x" * 1240})  # a Kariki update's size

SERVER = r"""
import asyncio, json, sys
import uvicorn
from dicehall.server.http.commands import WEBSOCKET_OPTIONS, tune_gc

app_kind, port, update = sys.argv[1], int(sys.argv[2]), sys.argv[3]
groups: dict[str, list] = {}

async def asgi(scope, receive, send):
    if scope["type"] != "websocket":
        return
    members = groups.setdefault(scope["path"], [])
    await receive()  # websocket.connect
    await send({"type": "websocket.accept"})
    members.append(send)
    while True:
        event = await receive()
        if event["type"] != "websocket.receive":
            members.remove(send)
            return
        for other in list(members):
            await other({"type": "websocket.send", "text": update})

def starlette_app():
    from fastapi import FastAPI, WebSocket, WebSocketDisconnect
    app = FastAPI()

    @app.websocket("/t/{group}")
    async def table(ws: WebSocket, group: str) -> None:
        await ws.accept()
        queue: asyncio.Queue[str] = asyncio.Queue()
        members = groups.setdefault(group, [])
        members.append((queue, ws))

        async def write() -> None:
            while True:
                await ws.send_text(await queue.get())

        writer = asyncio.create_task(write())
        try:
            while True:
                message = json.loads(await ws.receive_text())
                text = json.dumps({"type": "update", "step": message["step"], "pad": update})
                for other, other_ws in list(members):
                    if app_kind == "direct":
                        await other_ws.send_text(text)
                    else:
                        other.put_nowait(text)
        except WebSocketDisconnect:
            members.remove((queue, ws))
            writer.cancel()

    return app

tune_gc()
app = asgi if app_kind == "asgi" else starlette_app()
uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning", **WEBSOCKET_OPTIONS)
"""


def cpu_seconds(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / 100


async def play_group(sockets: list[Any], think: float, until: float, moves: list[int]) -> None:
    step = 0
    while time.perf_counter() < until:
        await asyncio.sleep(random.uniform(think / 2, think * 1.5))
        await sockets[step % 4].send(json.dumps({"type": "act", "step": step}))
        for ws in sockets:
            await ws.recv()
        step += 1
        moves[0] += 1


def client_process(
    port: int, groups: range, think: float, seconds: float, ready: Any, go: Any, out: Any
) -> None:
    async def main() -> int:
        tables = [
            [
                await connect(f"ws://127.0.0.1:{port}/t/{g}", max_size=None, compression=None)
                for _ in range(4)
            ]
            for g in groups
        ]
        ready.put(True)
        await asyncio.to_thread(go.wait)
        moves = [0]
        until = time.perf_counter() + seconds
        await asyncio.gather(*(play_group(t, think, until, moves) for t in tables))
        for t in tables:
            for ws in t:
                await ws.close()
        return moves[0]

    out.put(asyncio.run(main()))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seats", type=int, default=500)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--think-ms", type=float, default=500)
    parser.add_argument("--clients", type=int, default=3)
    parser.add_argument("--app", choices=("asgi", "starlette", "direct"), default="asgi")
    args = parser.parse_args()
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = subprocess.Popen([sys.executable, "-c", SERVER, args.app, str(port), UPDATE])
    try:
        time.sleep(3)
        context = multiprocessing.get_context("spawn")
        ready, go, out = context.Queue(), context.Event(), context.Queue()
        tables = args.seats // 4
        shares = [range(c, tables, args.clients) for c in range(args.clients)]
        procs = [
            context.Process(
                target=client_process,
                args=(port, share, args.think_ms / 1000, args.seconds, ready, go, out),
            )
            for share in shares
        ]
        for p in procs:
            p.start()
        for _ in procs:
            ready.get(timeout=120)  # every group connected before the clock starts
        before = cpu_seconds(server.pid)
        go.set()
        moves = sum(out.get(timeout=args.seconds + 120) for _ in procs)
        cpu = cpu_seconds(server.pid) - before
        for p in procs:
            p.join(timeout=30)
    finally:
        server.terminate()
        server.wait(timeout=30)
    print(
        f"{args.app}: {tables} tables x 4 seats, {moves} moves ({moves / args.seconds:.0f}/s): "
        f"server CPU {cpu:.1f} s, {cpu / max(moves, 1) * 1000:.3f} ms a move"
    )


if __name__ == "__main__":
    main()
