"""How often a bot from outside beats its per-decision limit: examples/bot_client.py on a live
`dicehall serve` (127.0.0.1, a fresh SQLite file) at the default 250 ms.

Plays `--games` Kariki games of three seats: seat 0 the host, also played by the example's
loop, seat 1 kept for the bot from outside, seat 2 the server's heuristic bot, no bot pause.
Printed: the bot's decisions, how many of them the table had to time out, and the bot's own
time per decision as the client sees it (message in to move out; the network and the
server's queue come on top, which is what the timeouts count).

    .venv/bin/python benchmarks/outside_bot.py [--games 5] [--limit-ms 250]
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

EXAMPLE = Path(__file__).resolve().parents[1] / "examples"
sys.path.insert(0, str(EXAMPLE))
import bot_client  # noqa: E402  (examples/bot_client.py)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def timed_choose(spent: list[float]) -> Any:
    plain = bot_client.choose

    def choose(view: dict[str, Any], legal: list[dict[str, Any]]) -> dict[str, Any]:
        t = time.perf_counter()
        action = plain(view, legal)
        spent.append(time.perf_counter() - t)
        return action

    return choose


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--limit-ms", type=int, default=250)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp())
    db = f"sqlite:///{folder / 'db.sqlite'}"
    dicehall = [
        sys.executable,
        "-c",
        "import sys; from dicehall.cli import main; main(sys.argv[1:])",
    ]
    token = subprocess.run(
        [*dicehall, "bot-token", "bench", "--db", db], check=True, capture_output=True, text=True
    ).stdout.strip()
    port = free_port()
    server = f"http://127.0.0.1:{port}"
    env = {**os.environ, "DICEHALL_OUTSIDE_BOT_MS": str(args.limit_ms)}
    process = subprocess.Popen(
        [*dicehall, "serve", "--port", str(port), "--db", db, "--no-access-log"],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    decisions = timeouts = 0
    spent: list[float] = []
    try:
        for _ in range(200):
            try:
                urllib.request.urlopen(f"{server}/api/games", timeout=1).close()
                break
            except OSError:
                time.sleep(0.1)
        bot_client.choose = timed_choose(spent)
        for _ in range(args.games):
            body = {"game": "kariki", "seats": 3, "bots": {"1": "outside", "2": "heuristic"}}
            request = urllib.request.Request(
                f"{server}/api/tables",
                json.dumps({**body, "bot_delay_ms": 0}).encode(),
                {"Content-Type": "application/json"},
            )
            with urllib.request.urlopen(request, timeout=10) as answer:
                table = json.load(answer)
            host = threading.Thread(
                target=bot_client.play, args=(server, table["table_id"], table["token"])
            )
            host.start()
            seat = bot_client.sit(server, token, "kariki")
            assert seat is not None
            bot_client.play(server, seat["table_id"], seat["token"])
            host.join()
            url = f"{server}/api/tables/{table['table_id']}/transcript"
            with urllib.request.urlopen(url, timeout=30) as answer:
                steps = json.load(answer)["steps"]
            mine = [s for s in steps if s.get("seat") == 1]
            decisions += len(mine)
            timeouts += sum(1 for s in mine if s.get("timeout"))
    finally:
        process.terminate()
        process.wait(10)
    ms = sorted(t * 1000 for t in spent)
    print(f"limit {args.limit_ms} ms, {args.games} games: seat 1 made {decisions} decisions,")
    print(f"  {timeouts} timed out ({100 * timeouts / max(1, decisions):.1f}%)")
    print(
        f"  the bot's own choice (both seats): median {statistics.median(ms):.3f} ms,"
        f" max {ms[-1]:.3f} ms over {len(ms)}"
    )


if __name__ == "__main__":
    main()
