"""Random-playout speed of every game: the checked API, the trusted fast path, OpenSpiel.

A step is one chance outcome or one action, on states that keep no event log:
the loop a solver, a simulation or a reinforcement-learning environment runs.
Three loops of the same shape: each binds its new state's methods once per game
(as a search loop would), then at every step asks whether a throw is due, who
acts (the engine: `actors()`; OpenSpiel: whether the game is over), the choices
(legal actions, or the throw's dice / chance outcomes), draws one uniformly (one
random number; the checked loop's dice, a `RandomDice`, draw one per die), and
applies it. What each side does per step is the same; what differs is the
rules underneath (Python here, C++ behind OpenSpiel's bindings):

- checked: the public API, `apply` / `apply_chance`, every step validated;
- trusted: `apply_trusted` / `apply_chance_trusted` with faces from
  `random_faces`, steps taken from the state itself and not checked again;
- openspiel: OpenSpiel's C++ `liars_dice` (2 players, 1 die each) driven from
  Python, chance outcomes from `chance_outcomes()`, when `open_spiel` is
  installed (`pip install open_spiel`).

The machine may be shared and noisy, so the loops run interleaved in short
slices, round after round, timed in process CPU time, and the figures that
count are the ratios between them from the same run. Usage:

    .venv/bin/python benchmarks/playouts.py [--rounds 10] [--slice 0.2] [--game kariki] [--seats 4]

With `--baseline DIR` (a source tree, as `git archive <commit> src | tar -x -C
DIR`) it compares two versions of the rules instead: each round runs the
`--json` loops in a fresh process for DIR/src and for this tree, alternately,
and prints the trusted loop's steps per CPU second of both and their ratio,
and, with OpenSpiel installed, each tree's trusted/OpenSpiel ratio, OpenSpiel's
loop running interleaved in the same processes.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from dicehall.core import Action, Faces, Game, RandomDice
from dicehall.core.chance import random_faces
from dicehall.games import game_class, game_ids, make_game

Loop = Callable[[float], tuple[int, int]]
"""Plays random games for about `budget` CPU seconds; returns (steps, games)."""


GAMES_PER_CLOCK = 16
"""Games played between two looks at the clock: a look costs microseconds here, as much as
a whole game of OpenSpiel's liars_dice, so looking once a game would slow the short games."""


def timed(play_one: Callable[[], int]) -> Loop:
    """The loop around a game: `play_one()` plays a game and returns its steps."""

    def run(budget: float) -> tuple[int, int]:
        steps = games = 0
        clock = time.process_time
        deadline = clock() + budget
        while clock() < deadline:
            for _ in range(GAMES_PER_CLOCK):
                steps += play_one()
            games += GAMES_PER_CLOCK
        return steps, games

    return run


def engine_loop(game: Game, trusted: bool, seed: int = 1) -> Loop:
    """Random games on the engine: the checked public API, or the trusted fast path."""
    rand = random.Random(seed).random
    throw = RandomDice(seed).throw

    def play_one() -> int:
        state = game.new_state()
        is_chance, chance_dice = state.is_chance, state.chance_dice
        actors, legal_actions = state.actors, state.legal_actions
        apply: Callable[[int, Action], object]
        apply_chance: Callable[[Faces], None]
        if trusted:
            apply, apply_chance = state.apply_trusted, state.apply_chance_trusted
        else:
            apply, apply_chance = state.apply, state.apply_chance
        steps = 0
        while True:
            if is_chance():
                dice = chance_dice()
                apply_chance(random_faces(dice, rand) if trusted else throw(dice))
            else:
                seats = actors()
                if not seats:
                    return steps
                seat = seats[0]
                legal = legal_actions(seat)
                apply(seat, legal[int(rand() * len(legal))])
            steps += 1

    return timed(play_one)


def checked_loop(game: Game, seed: int = 1) -> Loop:
    return engine_loop(game, trusted=False, seed=seed)


def trusted_loop(game: Game, seed: int = 1) -> Loop:
    return engine_loop(game, trusted=True, seed=seed)


def openspiel_loop(seed: int = 1) -> Loop | None:
    """OpenSpiel's C++ liars_dice, the same loop shape, chance from `chance_outcomes()`."""
    try:
        import pyspiel  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        return None
    game = pyspiel.load_game("liars_dice")
    rand = random.Random(seed).random

    def play_one() -> int:
        state = game.new_initial_state()
        is_terminal, is_chance = state.is_terminal, state.is_chance_node
        outcomes, legal_actions, apply = (
            state.chance_outcomes,
            state.legal_actions,
            state.apply_action,
        )
        steps = 0
        while not is_terminal():
            if is_chance():
                chances = outcomes()
                apply(chances[int(rand() * len(chances))][0])
            else:
                legal = legal_actions()
                apply(legal[int(rand() * len(legal))])
            steps += 1
        return steps

    return timed(play_one)


def interleaved(loops: dict[str, Loop], rounds: int, slice_: float) -> dict[str, list[float]]:
    """Steps per CPU second of each loop in each round, the loops taking turns."""
    rates: dict[str, list[float]] = {name: [] for name in loops}
    names = list(loops)
    for r in range(rounds):
        for name in names[r % len(names) :] + names[: r % len(names)]:
            start = time.process_time()
            steps, _ = loops[name](slice_)
            rates[name].append(steps / (time.process_time() - start))
    return rates


def ratio(rates: dict[str, list[float]], a: str, b: str) -> str:
    """Median of the per-round ratios a/b, with their range."""
    paired = [x / y for x, y in zip(rates[a], rates[b], strict=True)]
    return f"{statistics.median(paired):.2f} ({min(paired):.2f}-{max(paired):.2f})"


def against_baseline(baseline: Path, rounds: int, slice_: float, games: list[str]) -> None:
    """Trusted steps per CPU second of DIR/src and of this tree, in alternating processes;
    with OpenSpiel, each tree's trusted/OpenSpiel ratio too, from the same processes."""
    trees = {"baseline": baseline / "src", "current": Path(__file__).resolve().parents[1] / "src"}
    runs: dict[str, dict[str, list[dict[str, float]]]] = {n: {g: [] for g in games} for n in trees}
    for r in range(rounds):
        for name in list(trees)[:: 1 if r % 2 == 0 else -1]:
            for gid in games:
                command = [sys.executable, __file__, "--json", "--rounds", "2", "--game", gid]
                command += ["--slice", str(slice_)]
                env = {**os.environ, "PYTHONPATH": str(trees[name])}
                out = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
                runs[name][gid].append(json.loads(out.stdout))
    spiel = "trusted/openspiel" in runs["current"][games[0]][0]
    print("trusted steps per CPU second; current/baseline: median of paired rounds (range)")
    header = f"{'game':<14}{'baseline':>10}{'current':>10}{'current/baseline':>24}"
    print(header + (f"{'baseline/OS':>13}{'current/OS':>12}" if spiel else ""))
    for gid in games:
        base = [run["trusted"] for run in runs["baseline"][gid]]
        current = [run["trusted"] for run in runs["current"][gid]]
        paired = [c / b for c, b in zip(current, base, strict=True)]
        line = (
            f"{gid:<14}{statistics.median(base):>10,.0f}{statistics.median(current):>10,.0f}"
            f"{statistics.median(paired):>12.3f} ({min(paired):.3f}-{max(paired):.3f})"
        )
        if spiel:
            for name in trees:
                line += (
                    f"{statistics.median(r['trusted/openspiel'] for r in runs[name][gid]):>12.2f}"
                )
        print(line, flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--slice", type=float, default=0.2, help="CPU seconds per loop and round")
    parser.add_argument("--game", choices=game_ids())
    parser.add_argument("--seats", type=int)
    parser.add_argument("--json", action="store_true", help="one JSON line per game, medians")
    parser.add_argument("--baseline", type=Path, help="a source tree to compare with (has src/)")
    args = parser.parse_args()
    if args.baseline is not None:
        games = [args.game] if args.game else game_ids()
        against_baseline(args.baseline, args.rounds, args.slice, games)
        return
    spiel = openspiel_loop()
    if args.json:
        for gid in [args.game] if args.game else game_ids():
            game = make_game(gid, args.seats or game_class(gid).default_seats)
            loops = {"checked": checked_loop(game), "trusted": trusted_loop(game)}
            if spiel is not None:
                loops["openspiel"] = spiel
            rates = interleaved(loops, args.rounds, args.slice)
            medians = {name: statistics.median(r) for name, r in rates.items()}
            if spiel is not None:
                paired = zip(rates["trusted"], rates["openspiel"], strict=True)
                medians["trusted/openspiel"] = statistics.median(t / o for t, o in paired)
            print(json.dumps({"game": gid, **medians}), flush=True)
        return
    if spiel is None:
        print("open_spiel is not installed: no OpenSpiel column (pip install open_spiel)")
    print("steps per CPU second; ratios are medians of paired rounds (range)")
    header = f"{'game':<13}{'seats':>5}{'checked':>10}{'trusted':>10}{'trusted/checked':>20}"
    if spiel is not None:
        header += f"{'OpenSpiel':>11}{'checked/OS':>19}{'trusted/OS':>19}"
    print(header)
    for gid in [args.game] if args.game else game_ids():
        seats = args.seats or game_class(gid).default_seats
        game = make_game(gid, seats)
        loops = {"checked": checked_loop(game), "trusted": trusted_loop(game)}
        if spiel is not None:
            loops["openspiel"] = spiel
        rates = interleaved(loops, args.rounds, args.slice)
        line = (
            f"{gid:<13}{seats:>5}{statistics.median(rates['checked']):>10,.0f}"
            f"{statistics.median(rates['trusted']):>10,.0f}"
            f"{ratio(rates, 'trusted', 'checked'):>20}"
        )
        if spiel is not None:
            line += (
                f"{statistics.median(rates['openspiel']):>11,.0f}"
                f"{ratio(rates, 'checked', 'openspiel'):>19}"
                f"{ratio(rates, 'trusted', 'openspiel'):>19}"
            )
        print(line, flush=True)


if __name__ == "__main__":
    main()
