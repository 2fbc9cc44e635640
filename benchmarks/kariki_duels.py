"""Kariki from five to ten seats: does a bot beat every other bot in long duels?

Usage (from the repository's root; about a minute a duel of 20,000 games):

    PYTHONPATH=src nice -n 10 python benchmarks/kariki_duels.py --bot solver \
        --against heuristic table random --seats 5 6 7 8 9 10 --games 20000

Each duel is `dicehall duel kariki --bots BOT,OTHER --seats N` (seats alternate
between the two bots, rotated over every seat on shared dice: see
`dicehall.strategy.duel`). Prints one Markdown row per duel: both bots' win
rates per seat held with 95% intervals, the fair share 1/N, and whether the
bot wins, that is its interval lies wholly above the fair share (in a duel of
two bots one is above the fair share exactly when the other is below it).
The log is benchmarks/results/kariki_tables.md.
"""

from __future__ import annotations

import argparse
import datetime
import time

from dicehall.games import make_game
from dicehall.strategy.duel import duel


def row(bot: str, other: str, seats: int, games: int, seed: int) -> str:
    start = time.process_time()
    result = duel(make_game("kariki", seats), [bot, other], games, seed)
    seconds = time.process_time() - start
    mine, theirs = result.scores[bot], result.scores[other]
    low, high = mine.ci95
    verdict = "yes" if low > result.fair_share else ("no" if high < result.fair_share else "tie")
    return (
        f"| {seats} | {bot} vs {other} | {games:,} "
        f"| {mine.win_rate:.2%} ({low:.2%}-{high:.2%}) "
        f"| {theirs.win_rate:.2%} ({theirs.ci95[0]:.2%}-{theirs.ci95[1]:.2%}) "
        f"| {result.fair_share:.2%} | {verdict} | {seconds:.0f} |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bot", default="solver")
    parser.add_argument("--against", nargs="+", default=["heuristic", "table", "random"])
    parser.add_argument("--seats", nargs="+", type=int, default=[5, 6, 7, 8, 9, 10])
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"{datetime.date.today()}: kariki duels, {args.games:,} games each, seed {args.seed}")
    print()
    print(
        "| seats | duel | games | bot's win rate a seat (95%) | other's | fair | bot wins | CPU s |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for seats in args.seats:
        for other in args.against:
            print(row(args.bot, other, seats, args.games, args.seed), flush=True)


if __name__ == "__main__":
    main()
