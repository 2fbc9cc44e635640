"""What the lobby's ratings cost: `GET /api/tables` with its sitters' ratings.

A server (in this process, on a fresh SQLite file, the toy game) holds
`--tables` listed tables of three seats, a bot at two of them; the bot
accounts are rated, the person at each is a guest of its own. Timed in one
run, interleaved round after round (the machine may be shared: the ratios
count), per lobby request:

- the list without ratings (`Hall.open_tables()` alone);
- the list with ratings from the cache, as every poll within its 10 s is;
- the same with the cache emptied before each request: one query for every sitter;
- the whole `GET /api/tables` through the test client (JSON, HTTP), for scale.

    .venv/bin/python benchmarks/lobby.py [--tables 200] [--rounds 5] [--requests 20]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from dicehall.server import create_app
from dicehall.server.ops.limits import Limits
from dicehall.server.ops.settings import ServerConfig

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from tests.toy_game import GAMES


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--requests", type=int, default=20, help="lobby requests per round")
    args = parser.parse_args()
    config = ServerConfig(compute_in_processes=False, access_log=False)
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app(f"sqlite:///{Path(tmp) / 'db.sqlite'}", games=GAMES,
                         limits=Limits.generous(), config=config)  # fmt: skip
        with TestClient(app) as client:
            body = {"game": "duel", "seats": 3, "bots": {"1": "random", "2": "random"},
                    "rated": True, "bot_delay_ms": 10_000}  # fmt: skip
            for _ in range(args.tables):
                client.cookies.clear()  # a guest each: every table has a sitter of its own
                assert client.post("/api/tables", json=body).status_code == 200
            state: Any = client.app.state  # type: ignore[attr-defined]
            hall, cache = state.hall, state.sitters
            client.portal.call(hall.store.run, _rate_the_bots, hall.store.engine)

            def cached() -> None:
                client.portal.call(_lobby, hall, cache)

            def emptied() -> None:
                cache.shown = {}
                client.portal.call(_lobby, hall, cache)

            def plain() -> None:
                client.portal.call(_lobby, hall, None)

            def http() -> None:
                client.get("/api/tables")

            cases = {"no ratings": plain, "cached": cached, "one query": emptied, "HTTP": http}
            runs: dict[str, list[float]] = {name: [] for name in cases}
            for _ in range(args.rounds):
                for name, fn in cases.items():
                    start = time.perf_counter()
                    for _ in range(args.requests):
                        fn()
                    runs[name].append((time.perf_counter() - start) / args.requests * 1000)
    print(f"the lobby's list of {args.tables} tables of 3 seats, ms a request (median of rounds)")
    for name, times in runs.items():
        print(f"  {name:<11} {statistics.median(times):7.2f}")


async def _lobby(hall: Any, cache: Any) -> None:
    """What the lobby route does on the event loop, without the HTTP around it."""
    if cache is None:
        hall.open_tables()
        return
    await cache.refresh_tables(hall.listed())
    hall.open_tables(cache.seat_ratings)


def _rate_the_bots(engine: Any) -> None:
    """Ratings for the two bot players of every table, as if they had played."""
    from sqlalchemy import insert

    from dicehall.server.people.accounts import AccountStore
    from dicehall.server.people.results import ratings

    bots = [AccountStore(engine).bot(name) for name in ("random", "random 2")]
    values = {"game": "duel", "mu": 27.0, "sigma": 3.0, "ordinal": 18.0, "games": 50, "wins": 20.0}
    with engine.begin() as db:
        for bot in bots:
            assert bot is not None
            db.execute(insert(ratings).values(account_id=bot.id, **values))


if __name__ == "__main__":
    main()
