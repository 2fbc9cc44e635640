"""What accounts and ratings cost the server, beside what a table does anyway.

Timed in one run, interleaved round after round (the machine may be shared
and noisy: the ratios count):

- a password hashed and checked with Argon2id at the server's settings
  (`ServerConfig.password_*`), in the password pool's thread, per login;
- a rated game's record (`ResultStore.record`: its result, every seat, the
  OpenSkill update of each seat's rating), in the database's writer thread
  once per finished game;
- a step's write (`Store.append`), which every move costs, for scale.

    .venv/bin/python benchmarks/accounts.py [--seats 4] [--rounds 5] [--games 40]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from argon2 import PasswordHasher

from dicehall.core.game import Result
from dicehall.server.ops.settings import ServerConfig
from dicehall.server.people.accounts import AccountStore
from dicehall.server.people.results import Finished, ResultStore
from dicehall.server.tables.store import Store, TableRecord


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--games", type=int, default=40, help="rated games per round")
    args = parser.parse_args()
    config = ServerConfig()
    hasher = PasswordHasher(
        time_cost=config.password_time_cost, memory_cost=config.password_memory_kib
    )
    folder = Path(tempfile.mkdtemp())
    store = Store(f"sqlite:///{folder / 'bench.sqlite'}")
    accounts = AccountStore(store.engine, hasher)
    results = ResultStore(store.engine)
    players = [accounts.new_guest().id for _ in range(args.seats)]
    timings: dict[str, list[float]] = {"password": [], "record": [], "step": []}
    n = 0
    for _ in range(args.rounds):
        start = time.perf_counter()
        stored = accounts.hash_password("correct horse battery")
        assert accounts.matches(stored, "correct horse battery")
        timings["password"].append(time.perf_counter() - start)
        for _ in range(args.games):
            n += 1
            table = TableRecord(
                f"t{n}", f"R{n}", "kariki", args.seats, {}, [], "over", "", "", None, 0
            )
            store.insert(table)
            result = Result((n % args.seats,), tuple(0 for _ in range(args.seats)), "stakes")
            game = Finished(table.id, "kariki", True, list(players), ["p"] * args.seats, result)
            start = time.perf_counter()
            results.record(game)
            timings["record"].append(time.perf_counter() - start)
            start = time.perf_counter()
            store.append(table.id, 0, [{"chance": [1, 2]}], None)
            timings["step"].append(time.perf_counter() - start)
    store.close()
    step = statistics.median(timings["step"])
    print(f"{args.seats} seats, {args.rounds} rounds, {n} rated games, SQLite (WAL, NORMAL)")
    print(f"{'what':<34}{'median ms':>10}{'× a step':>10}")
    for what, label in (
        ("password", "password hash + check (Argon2id)"),
        ("record", "rated game's record"),
        ("step", "one step's write"),
    ):
        ms = statistics.median(timings[what]) * 1000
        print(f"{label:<34}{ms:>10.2f}{ms / 1000 / step:>10.1f}")


if __name__ == "__main__":
    main()
