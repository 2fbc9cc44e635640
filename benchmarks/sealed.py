"""What sealed dice cost a table, per game: the tracking of shown throws, the stand-ins.

For each game a set of random games is played once (logged states, as a table
plays them); then, interleaved round after round and timed in process CPU
time, each game's steps are

- replayed: a logged state applying every step (what a table does anyway);
- tracked: `core.shown.ShownThrows` following every step (what a sealed table
  adds per step, on the event loop);
- stood in: `core.shown.stand_ins` for the finished game (what its first
  transcript request adds, in a worker thread).

Printed per game: steps and throws per game, CPU per game for each, the
tracking's cost as a ratio to the replay, and the worst single tracked step.
The machine may be shared and noisy: the ratios from one run are what count.

    .venv/bin/python benchmarks/sealed.py [--games 6] [--rounds 3]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from typing import Any

from dicehall.core.chance import RandomDice
from dicehall.core.game import Game
from dicehall.core.shown import ShownThrows, stand_ins
from dicehall.core.transcript import apply_step
from dicehall.games import game_ids, make_game


def random_game(game: Game, seed: int) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    dice = RandomDice(seed)
    state = game.new_state(record=True)
    steps: list[dict[str, Any]] = []
    while not state.is_over():
        if state.is_chance():
            step: dict[str, Any] = {"chance": list(dice.throw(state.chance_dice()))}
        else:
            seat = rng.choice(state.actors())
            step = {"seat": seat, "action": dict(rng.choice(state.legal_actions(seat)))}
        apply_step(state, step)
        steps.append(step)
    return steps


def replayed(game: Game, steps: list[dict[str, Any]]) -> None:
    state = game.new_state(record=True)
    for step in steps:
        apply_step(state, step)


def tracked(game: Game, steps: list[dict[str, Any]]) -> tuple[ShownThrows, float]:
    shown = ShownThrows(game)
    worst = 0.0
    for step in steps:
        t = time.process_time()
        shown.step(step)
        worst = max(worst, time.process_time() - t)
    return shown, worst


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    print(
        f"{'game':<13}{'steps':>7}{'throws':>8}{'replay ms':>11}{'track ms':>10}"
        f"{'ratio':>7}{'worst step ms':>15}{'stand-ins ms':>14}"
    )
    for gid in game_ids():
        game = make_game(gid)
        games = [random_game(game, s) for s in range(args.games)]
        times: dict[str, list[float]] = {"replay": [], "track": [], "stand": []}
        worst = 0.0
        throws = 0
        for _ in range(args.rounds):
            for steps in games:
                t = time.process_time()
                replayed(game, steps)
                times["replay"].append(time.process_time() - t)
                t = time.process_time()
                shown, slowest = tracked(game, steps)
                times["track"].append(time.process_time() - t)
                worst = max(worst, slowest)
                throws = len(shown.shown)
                sealed = set(shown.sealed(None))
                t = time.process_time()
                stand_ins(game, steps, sealed)
                times["stand"].append(time.process_time() - t)
        mean = {k: statistics.mean(v) * 1000 for k, v in times.items()}
        steps_mean = statistics.mean(len(g) for g in games)
        print(
            f"{gid:<13}{steps_mean:>7.0f}{throws:>8}{mean['replay']:>11.1f}{mean['track']:>10.1f}"
            f"{mean['track'] / mean['replay']:>7.1f}{worst * 1000:>15.1f}{mean['stand']:>14.1f}"
        )


if __name__ == "__main__":
    main()
