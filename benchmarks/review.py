"""What a game review and a practice set cost: the work of GET /api/tables/{id}/review
and GET /api/practice/{game}, one compute-worker job each.

For each game, at the seat count its solver covers and at the game's default seat
count (Kariki, Toplshteyner and Tao Dice at four), games among the heuristic bots
are played (seeded) until their seats' reviews hold at least `--decisions` decisions
with a real choice; then, once the strategy is loaded (one review first, untimed),
every seat of every game is reviewed (`strategy.review.review_json`, the worker's
job) and timed in wall time. Printed per game: the decisions reviewed, how many
the model rated, the time per 100 decisions, the longest single review, and the
JSON per 100 decisions; then the time to draw a practice set of `--count` puzzles
(`strategy.practice.practice_json`), first and again for another seed.

`--seats` instead times a practice set at every seat count of every game (what
GET /api/practice's cap rests on); Tao Dice past two seats only with `--slow`, as
its set there takes minutes and ends with no puzzle.

    .venv/bin/python benchmarks/review.py [--decisions 100] [--count 10]
    .venv/bin/python benchmarks/review.py --seats [--slow] [--count 10]
"""

from __future__ import annotations

import argparse
import json
import random
import time
from typing import Any

from dicehall.core import RandomDice, Table, make_bots
from dicehall.core.errors import DicehallError
from dicehall.games import game_class, make_game
from dicehall.strategy.practice import practice_json
from dicehall.strategy.review import review, review_json

SEATS = {"kariki": 2, "toplshteyner": 2, "tepiiku": 3, "tao": 2}
"""The seat counts with a solver's values (where a review rates most decisions)."""
CASES = [*SEATS.items(), ("kariki", 4), ("toplshteyner", 4), ("tao", 4)]
"""Those, and the default seat counts a lobby's tables mostly have."""


def games_with(gid: str, seats: int, decisions: int) -> list[dict[str, Any]]:
    """Seeded heuristic games until their seats' reviews hold `decisions` decisions."""
    game = make_game(gid, seats)
    found: list[dict[str, Any]] = []
    total = 0
    seed = 0
    while total < decisions:
        table = Table(game, RandomDice(seed), record=False)
        table.play(make_bots(game, ["heuristic"], random.Random(seed)))
        data = json.loads(json.dumps(table.transcript()))
        found.append(data)
        total += sum(len(review(data, s).decisions) for s in range(game.seats))
        seed += 1
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--decisions", type=int, default=100)
    parser.add_argument("--count", type=int, default=10)
    parser.add_argument("--seats", action="store_true", help="practice at every seat count")
    parser.add_argument("--slow", action="store_true", help="with --seats: Tao past two seats")
    args = parser.parse_args()
    if args.seats:
        seat_sweep(args.count, args.slow)
        return
    print("| game | seats | games | decisions | rated | per 100 decisions | longest review"
          " | JSON per 100 | practice set, first | again |")  # fmt: skip
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for gid, seats in CASES:
        games = games_with(gid, seats, args.decisions)
        review(games[0], 0)  # the strategy loaded: not timed
        decisions = rated = size = 0
        spent = longest = 0.0
        for data in games:
            for seat in range(seats):
                t = time.perf_counter()
                text = review_json(data, seat)
                took = time.perf_counter() - t
                spent += took
                longest = max(longest, took)
                answer = json.loads(text)
                decisions += answer["summary"]["decisions"]
                rated += answer["summary"]["rated"]
                size += len(text)
        sets = "refused | refused"  # past the server's cap (Tao Dice): see --seats
        if not (gid == "tao" and seats > SEATS["tao"]):
            t = time.perf_counter()
            practice_json(make_game, gid, seats, args.count, 0)
            first = time.perf_counter() - t
            t = time.perf_counter()
            practice_json(make_game, gid, seats, args.count, 1)
            sets = f"{first:.2f} s | {time.perf_counter() - t:.2f} s"
        per = 100 / max(decisions, 1)
        print(
            f"| {gid} | {seats} | {len(games)} | {decisions} | {rated} | {spent * per:.2f} s"
            f" | {longest:.2f} s | {size * per / 1024:.0f} KiB | {sets} |",
            flush=True,
        )


def seat_sweep(count: int, slow: bool) -> None:
    """A practice set of `count` at every seat count: the first draw of a fresh seed."""
    print("| game | seats | practice set | puzzles |")
    print("| --- | --- | --- | --- |")
    for gid in SEATS:
        cls = game_class(gid)
        for seats in range(cls.min_seats, cls.max_seats + 1):
            if gid == "tao" and seats > 2 and not (slow and seats == 3):
                continue
            t = time.perf_counter()
            try:
                found = str(
                    len(json.loads(practice_json(make_game, gid, seats, count, 7))["puzzles"])
                )
            except DicehallError as e:
                found = f"none: {e}"
            print(f"| {gid} | {seats} | {time.perf_counter() - t:.2f} s | {found} |", flush=True)


if __name__ == "__main__":
    main()
