"""Kariki: the time a bot takes per decision at three seats and more, from its view alone.

Usage (from the repository's root):

    PYTHONPATH=src python benchmarks/kariki_table_timing.py --bot solver --seats 3 5 10 --games 50

Plays whole games of the bot against itself and times every `choose` call
(claims and answers; the policy file is loaded before the clock starts).
Prints the mean, the 99th percentile and the largest time per decision.
"""

from __future__ import annotations

import argparse
import random
import time

from dicehall.core import RandomDice, Table, make_bots
from dicehall.games import make_game


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--bot", default="solver")
    parser.add_argument("--seats", type=int, nargs="+", default=[3, 5, 10])
    parser.add_argument("--games", type=int, default=50)
    args = parser.parse_args()
    print("| bot | seats | decisions | mean µs | p99 µs | max µs |")
    print("| --- | --- | --- | --- | --- | --- |")
    for seats in args.seats:
        game = make_game("kariki", seats)
        times: list[float] = []
        warm = Table(game, RandomDice(0), record=False)
        warm.play(make_bots(game, [args.bot], random.Random(0)))  # loads the policy
        for seed in range(1, args.games + 1):
            bots = make_bots(game, [args.bot], random.Random(seed))
            for bot in bots.values():
                inner = bot.choose

                def choose(view, legal, inner=inner, times=times):  # type: ignore[no-untyped-def]
                    start = time.perf_counter()
                    chosen = inner(view, legal)
                    times.append(time.perf_counter() - start)
                    return chosen

                bot.choose = choose  # type: ignore[method-assign]
            Table(game, RandomDice(seed), record=False).play(bots)
        times.sort()
        mean = sum(times) / len(times)
        p99 = times[int(0.99 * (len(times) - 1))]
        print(
            f"| {args.bot} | {seats} | {len(times)} | {1e6 * mean:.0f} | {1e6 * p99:.0f} | "
            f"{1e6 * times[-1]:.0f} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
