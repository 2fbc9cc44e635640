"""Games per second of the NumPy batch simulator against the engine, random play.

The engine plays the loops of `playouts.py`: the checked public API and
its fastest, the trusted fast path; the batch plays `--games` games at once.
All are timed in process CPU seconds, interleaved round by round; each ratio
is the median of the paired rounds. Usage:

    .venv/bin/python benchmarks/batch.py [--rounds 3] [--games 20000] [--seats 4]
"""

from __future__ import annotations

import argparse
import statistics
import time

from dicehall.batch import SUPPORTED, play
from dicehall.games import game_class, make_game
from playouts import checked_loop, trusted_loop


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--games", type=int, default=20_000, help="games per batch")
    parser.add_argument("--slice", type=float, default=0.5, help="engine CPU seconds per round")
    parser.add_argument("--game", choices=SUPPORTED)
    parser.add_argument("--seats", type=int)
    args = parser.parse_args()
    print("games per CPU second, random play; ratio: median of paired rounds (range)")
    print(
        f"{'game':<14}{'seats':>6}{'checked':>10}{'trusted':>10}{'batch':>10}"
        f"{'batch/checked':>22}{'batch/trusted':>22}"
    )
    for gid in [args.game] if args.game else SUPPORTED:
        cls = game_class(gid)
        for seats in [args.seats] if args.seats else range(cls.min_seats, cls.max_seats + 1):
            game = make_game(gid, seats)
            loops = {"checked": checked_loop(game), "trusted": trusted_loop(game)}
            rates: dict[str, list[float]] = {"checked": [], "trusted": [], "batch": []}
            for r in range(args.rounds):
                for name, loop in loops.items():
                    start = time.process_time()
                    _, games = loop(args.slice)
                    rates[name].append(games / (time.process_time() - start))
                start = time.process_time()
                play(game, args.games, seed=r)
                rates["batch"].append(args.games / (time.process_time() - start))
            line = f"{gid:<14}{seats:>6}" + "".join(
                f"{statistics.median(rates[name]):>10,.0f}" for name in rates
            )
            for name in loops:
                paired = [b / e for b, e in zip(rates["batch"], rates[name], strict=True)]
                span = f"({min(paired):.1f}-{max(paired):.1f})"
                line += f"{statistics.median(paired):>10.1f} {span:>11}"
            print(line, flush=True)


if __name__ == "__main__":
    main()
