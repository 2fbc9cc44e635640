"""What a board replay costs the server, per game: the frames of one seat's view.

For each game a set of random games is played once; then, interleaved round
after round and timed in process CPU time, each game's steps are

- replayed: a logged state applying every step (the floor: a table does this anyway);
- framed: `server.replay.frames` for seat 0, a view, the legal actions with labels
  and the new events after every step (what GET /api/tables/{id}/replay does, in a
  worker thread).

Printed per game: steps per game, CPU per game for each, the ratio, and the size of
the frames as JSON (what the page downloads). The machine may be shared and noisy:
the ratios from one run are what count.

    .venv/bin/python benchmarks/replay.py [--games 6] [--rounds 3]
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

from dicehall.games import game_ids, make_game
from dicehall.server.tables.replay import frames
from sealed import random_game, replayed  # benchmarks/sealed.py, beside this script


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    print("| game | steps | replay | frames | frames / replay | JSON per game |")
    print("| --- | --- | --- | --- | --- | --- |")
    for gid in game_ids():
        game = make_game(gid)
        games = [random_game(game, seed) for seed in range(args.games)]
        plain: list[float] = []
        framed: list[float] = []
        size = 0
        for _ in range(args.rounds):
            for steps in games:
                t = time.process_time()
                replayed(game, steps)
                plain.append(time.process_time() - t)
                t = time.process_time()
                shown = frames(game, steps, 0)
                framed.append(time.process_time() - t)
                size += len(json.dumps(shown))
        steps_mean = statistics.mean(len(s) for s in games)
        p, f = statistics.mean(plain), statistics.mean(framed)
        kib = size / (args.rounds * len(games)) / 1024
        print(
            f"| {gid} | {steps_mean:.0f} | {p * 1000:.1f} ms | {f * 1000:.1f} ms"
            f" | {f / p:.1f}× | {kib:.0f} KiB |"
        )


if __name__ == "__main__":
    main()
