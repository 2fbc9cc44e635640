"""Solve Kariki's table strategy (three to ten seats in) and write the shipped file.

Usage (from the repository's root; minutes, run nice'd):

    PYTHONPATH=src nice -n 10 python benchmarks/kariki_table_strategy.py \
        [-o src/dicehall/games/kariki/solver/strategies/kariki-table-exact-roller.npz]

Solves the round game of `games/kariki/solver/table_solve.py` for every seat
count 3-10 with the default options, and the games of three and four seats
in per score (`table_scored.py`, three on the two-seat values, four on
three's; most of an hour), writes them as one strategy file and
prints the seconds per seat count, each seat position's cost at a fresh roll
(the chance of winning at the opening score for the scored policy) and the
file's SHA-256, to be recorded as `table_stored.SHIPPED_SHA256`.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from dicehall.games import make_game
from dicehall.games.kariki.solver import table_stored
from dicehall.games.kariki.solver.table_scored import (
    scored_values,
    solve_scored,
    two_seat_values,
)
from dicehall.games.kariki.solver.table_solve import solve_round
from dicehall.strategy.strategy_file import file_sha256


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument(
        "-o", "--output", type=Path, default=table_stored.SHIPPED / table_stored.SHIPPED_NAME
    )
    parser.add_argument(
        "--scored-iterations",
        type=int,
        default=table_stored.SCORED_ITERATIONS,
        help="CFR+ iterations per score and subgame of the scored policies",
    )
    args = parser.parse_args()
    solutions = []
    for seats in table_stored.SEAT_COUNTS:
        start = time.perf_counter()
        game = make_game("kariki", seats)
        solution = solve_round(game, table_stored.ITERATIONS)
        solutions.append(solution)
        costs = ", ".join(f"{c:.3f}" for c in solution.costs[-1])
        print(
            f"{seats} seats: {time.perf_counter() - start:.0f} s; fresh-roll costs {costs}",
            flush=True,
        )
    scored = []
    lower = two_seat_values(make_game("kariki", 2))
    for seats in table_stored.SCORED_SEATS:
        start = time.perf_counter()
        solution = solve_scored(make_game("kariki", seats), args.scored_iterations, lower)
        scored.append(solution)
        lower = scored_values(solution)
        wins = ", ".join(f"{v:.3f}" for v in solution.values[(0,) * seats])
        seconds = time.perf_counter() - start
        print(f"{seats} seats in, per score: {seconds:.0f} s; opening wins {wins}", flush=True)
    table_stored.write(args.output, solutions, table_stored.SHIPPED_OPTIONS, scored)
    print(f"{args.output}: SHA-256 {file_sha256(args.output)}")


if __name__ == "__main__":
    main()
