"""Random-playout speed of every game, in steps per second.

A step is one chance outcome or one action, applied through the public,
checked API (`apply`, `apply_chance`) on states that keep no event log: the
loop a solver or a reinforcement-learning environment runs. Usage:

    .venv/bin/python benchmarks/playouts.py [--seconds 3] [--game kariki] [--seats 4]
"""

from __future__ import annotations

import argparse
import random
import time

from dicehall.core import Game, RandomDice
from dicehall.games import game_class, game_ids, make_game


def playout_steps(game: Game, seconds: float, seed: int = 1) -> tuple[int, int, float]:
    """Play random games for about `seconds`; return (steps, games, elapsed)."""
    rng = random.Random(seed)
    dice = RandomDice(seed)
    rand = rng.random
    steps = games = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        state = game.new_state()
        while True:
            if state.is_chance():
                state.apply_chance(dice.throw(state.chance_dice()))
            else:
                actors = state.actors()
                if not actors:
                    break
                seat = actors[0]
                legal = state.legal_actions(seat)
                state.apply(seat, legal[int(rand() * len(legal))])
            steps += 1
        games += 1
    return steps, games, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--game", choices=game_ids())
    parser.add_argument("--seats", type=int)
    args = parser.parse_args()
    print(f"{'game':<14}{'seats':>6}{'steps/s':>12}{'games/s':>10}{'steps/game':>12}")
    for gid in [args.game] if args.game else game_ids():
        seats = args.seats or game_class(gid).default_seats
        steps, games, elapsed = playout_steps(make_game(gid, seats), args.seconds)
        print(
            f"{gid:<14}{seats:>6}{steps / elapsed:>12,.0f}{games / elapsed:>10,.1f}"
            f"{steps / max(games, 1):>12.1f}"
        )


if __name__ == "__main__":
    main()
