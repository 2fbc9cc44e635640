"""Games per second of the NumPy batch simulator against the engine, random play.

The engine plays the loops of `playouts.py`: the checked public API and
its fastest, the trusted fast path; the batch plays `--games` games at once.
All are timed in process CPU seconds, interleaved round by round; each ratio
is the median of the paired rounds. Usage:

    .venv/bin/python benchmarks/batch.py [--rounds 3] [--games 20000] [--seats 4]

With `--bots heuristic` (a game whose batch plays it: `dicehall.batch.POLICIES`)
every seat is that bot instead: the engine plays it through `dicehall sim`'s
trusted tables, the batch its array form; the checked column is left out.
"""

from __future__ import annotations

import argparse
import statistics
import time

from dicehall.batch import SUPPORTED, play, policies
from dicehall.core.sim import simulate
from dicehall.games import game_class, make_game
from playouts import checked_loop, trusted_loop


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--games", type=int, default=20_000, help="games per batch")
    parser.add_argument("--slice", type=float, default=0.5, help="engine CPU seconds per round")
    parser.add_argument("--game", choices=SUPPORTED)
    parser.add_argument("--seats", type=int)
    parser.add_argument("--bots", default="random", help="every seat's bot")
    args = parser.parse_args()
    if args.bots != "random":
        bots_main(args)
        return
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


def bots_main(args: argparse.Namespace) -> None:
    """Games per CPU second of one bot in every seat: `dicehall sim` against the batch."""
    print(f"games per CPU second, {args.bots} in every seat; ratio: median of paired rounds")
    print(f"{'game':<14}{'seats':>6}{'engine':>10}{'batch':>10}{'batch/engine':>22}")
    games = [gid for gid in SUPPORTED if args.bots in policies(gid)]
    for gid in [args.game] if args.game else games:
        cls = game_class(gid)
        for seats in [args.seats] if args.seats else range(cls.min_seats, cls.max_seats + 1):
            game = make_game(gid, seats)
            engine: list[float] = []
            batch: list[float] = []
            for r in range(args.rounds):
                start, played = time.process_time(), 0
                while time.process_time() - start < args.slice:
                    played += simulate(game, [args.bots], 10, seed=r * 1000 + played).games
                engine.append(played / (time.process_time() - start))
                start = time.process_time()
                play(game, args.games, seed=r, bots=[args.bots])
                batch.append(args.games / (time.process_time() - start))
            paired = [b / e for b, e in zip(batch, engine, strict=True)]
            span = f"({min(paired):.1f}-{max(paired):.1f})"
            print(
                f"{gid:<14}{seats:>6}{statistics.median(engine):>10,.0f}"
                f"{statistics.median(batch):>10,.0f}{statistics.median(paired):>10.1f} {span:>11}",
                flush=True,
            )


if __name__ == "__main__":
    main()
