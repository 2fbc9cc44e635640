"""What the standing bot ladder costs the server: CPU per ladder game, per game.

A server (in this process, on a fresh SQLite file) offers one game at a time
and runs its ladder flat out (`ladder_games_per_minute` 600, no pause before a
move) until `--games` ladder games of it are recorded; the process's CPU time
over that span (event loop, bot threads, the database's writer: everything
the ladder makes the server do) divided by the games is the figure, beside the
steps and the kilobytes of their JSON the database keeps per game. At a pace
of P games a minute, taking the games in turn, the ladder costs about P times
the mean of those figures in CPU-seconds a minute.

    .venv/bin/python benchmarks/ladder.py [--games 5]
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from pathlib import Path

from fastapi.testclient import TestClient
from sqlalchemy import func, select

from dicehall.games import game_class, game_ids
from dicehall.server import create_app
from dicehall.server.ops.settings import ServerConfig
from dicehall.server.people.results import game_results
from dicehall.server.tables.store import steps


def cost(gid: str, games: int, folder: Path) -> tuple[float, float, float]:
    """(CPU seconds per ladder game, mean steps per game, kB of stored steps per game)."""
    config = ServerConfig(
        compute_in_processes=False,
        access_log=False,
        ladder_games_per_minute=600.0,
        ladder_bot_delay_ms=0,
    )
    db = folder / f"{gid}.sqlite"
    app = create_app(f"sqlite:///{db}", games={gid: game_class(gid)},
                     config=config)  # fmt: skip

    with TestClient(app) as client:
        engine = client.app.state.hall.store.engine  # type: ignore[attr-defined]
        start = time.process_time()
        done = 0
        while done < games:
            time.sleep(0.05)
            with engine.connect() as db:
                done = db.execute(select(func.count()).select_from(game_results)).scalar_one()
        spent = time.process_time() - start
        with engine.connect() as db:
            ids = select(game_results.c.table_id)
            count = select(func.count()).select_from(steps).where(steps.c.table_id.in_(ids))
            stepped = db.execute(count).scalar_one()
            data = sum(
                len(json.dumps(step))
                for step in db.execute(select(steps.c.step).where(steps.c.table_id.in_(ids)))
                .scalars()
            )  # fmt: skip
    return spent / done, stepped / done, data / 1000 / done


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=5, help="ladder games per game")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        figures = {gid: cost(gid, args.games, Path(tmp)) for gid in game_ids()}
    print(f"{'game':<14}{'CPU s / ladder game':>22}{'steps / game':>14}{'step kB / game':>17}")
    for gid, (cpu, stepped, kb) in figures.items():
        print(f"{gid:<14}{cpu:>22.3f}{stepped:>14.0f}{kb:>17.0f}")
    mean = statistics.fmean(cpu for cpu, _, _ in figures.values())
    kb = statistics.fmean(kb for _, _, kb in figures.values())
    print(f"mean over the games (the ladder takes them in turn): {mean:.3f} CPU s a game")
    print(f"at 1 game a minute: {mean / 60:.2%} of one core, {kb * 1440 / 1000:.0f} MB a day")


if __name__ == "__main__":
    main()
