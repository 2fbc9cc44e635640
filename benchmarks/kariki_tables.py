"""Kariki at three seats and more: one seat's exact best response against a table of bots.

Usage (from the repository's root, long: run nice'd):

    PYTHONPATH=src nice -n 10 python benchmarks/kariki_tables.py --seats 3 4 \
        --bots solver heuristic random [--simulate 2000]

Prints one Markdown row per (bot, seats): the best responder's chance of
winning per seat position after the first roller, from the roll-off, its gain
over the fair share, and the seconds taken; with `--simulate N`, the computed
best response (which takes the bots as they play before any pull is shown)
played N games against the real bots, which remember pulls across rounds
(benchmarks/results/kariki_tables.md). With `--distrust` the best response is
computed against the bots as they play once they hold seat 0 for a liar, and
simulated against the real ones: a strategy that does not lean on the bots'
memory staying at the prior.
"""

from __future__ import annotations

import argparse
import datetime
import random
import time

from dicehall.core import Game
from dicehall.core.bots import Bot, BotFactory
from dicehall.games import make_game
from dicehall.games.kariki.bots import HeuristicBot
from dicehall.games.kariki.solver.best_response import TableModel, simulate, table_best_response


def distrusting(factory: BotFactory) -> BotFactory:
    """The bot as it plays once it has caught seat 0 in many unforced lies and nobody else."""

    def make(game: Game, seat: int, rng: random.Random) -> Bot:
        bot = factory(game, seat, rng)
        memory = getattr(bot, "answers", bot)
        if isinstance(memory, HeuristicBot):
            memory.unforced_claims[0] = memory.unforced_lies[0] = 1_000_000
        return bot

    return make


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seats", type=int, nargs="+", default=[3])
    parser.add_argument("--bots", nargs="+", default=["solver", "heuristic", "random"])
    parser.add_argument("--simulate", type=int, default=0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--distrust",
        action="store_true",
        help="compute against the bots as they play once they hold seat 0 for a liar "
        "(the heuristic's honesty of seat 0 at zero); simulate against the real bots",
    )
    args = parser.parse_args()
    print(f"# {datetime.datetime.now(datetime.UTC):%Y-%m-%d %H:%M} UTC")
    print("| bot | seats | win by seat after the first roller | win (roll-off) | gain | s |")
    print("| --- | --- | --- | --- | --- | --- |")
    for seats in args.seats:
        game = make_game("kariki", seats)
        start = time.perf_counter()
        model = TableModel(game)
        built = time.perf_counter() - start
        for bot in args.bots:
            factory = game.bots()[bot]
            computed = distrusting(factory) if args.distrust else factory
            result, kept = table_best_response(model, bot, computed, keep=args.simulate > 0)
            positions = ", ".join(f"{k}: {v:.4f}" for k, v in enumerate(result.by_offset))
            print(
                f"| {bot} | {seats} | {positions} | {result.value:.5f} | "
                f"{100 * result.gain:+.2f} pp | {result.seconds:.0f} (+{built:.0f} trees) |",
                flush=True,
            )
            if args.simulate and kept is not None:
                rate, half = simulate(model, kept, factory, args.simulate, args.seed)
                print(
                    f"|  | simulated vs the real {bot} ({args.simulate} games) | | "
                    f"{rate:.4f} ± {half:.4f} | {100 * (rate - result.fair):+.2f} pp | |",
                    flush=True,
                )


if __name__ == "__main__":
    main()
