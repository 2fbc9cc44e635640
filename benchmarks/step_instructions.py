"""Instructions per step of the playout loops, counted by valgrind: a figure load cannot move.

On a shared, loaded machine the CPU-time ratios of `playouts.py` wander by
tens of percent from run to run, too much to see a change of a few percent.
This counts the machine instructions of the same loops instead (valgrind's
cachegrind, no cache simulation): each game's trusted loop plays the same
seeded games, once with `--games` games and once with three times as many,
and the difference divided by the difference in steps is the cost of a step
with start-up taken out. OpenSpiel's `liars_dice` loop is counted the same way
when `open_spiel` is installed. Instructions are not time (an instruction of
the interpreter and one of C++ need not take as long), so the CPU-time ratios
stay the figures that count; this one says whether a change did less work.
Needs `valgrind` (apt-get install valgrind); each count takes a few seconds
to a minute. Usage:

    .venv/bin/python benchmarks/step_instructions.py [--games 300] [--game kariki] [--baseline DIR]

With `--baseline DIR` (a source tree with src/) the same loops are counted on
DIR/src too, beside this tree's, with the ratio baseline/current.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
CURRENT = HERE.parent / "src"
GAMES_PER_RUN = {"tao": 15}
"""Tao's games run to a thousand steps and more: fewer of them."""

PLAY = """
import sys
sys.path.insert(0, {here!r})
import playouts
from dicehall.games import make_game

playouts.timed = lambda play_one: play_one  # one call, one game
gid, games = sys.argv[1], int(sys.argv[2])
if gid == "openspiel":
    play_one = playouts.openspiel_loop()
else:
    play_one = playouts.trusted_loop(make_game(gid))
assert play_one is not None, "open_spiel is not installed"
print(sum(play_one() for _ in range(games)))
"""


def counted(code: str, args: list[str], src: Path) -> tuple[int, int]:
    """(the last number `code` prints, the instructions it took) of `python -c code args`
    on the package at `src` (a source tree's src/, or an unpacked wheel)."""
    command = ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null"]
    command += [sys.executable, "-c", code, *args]
    env = {**os.environ, "PYTHONPATH": str(src)}
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
    refs = re.search(r"I\s+refs:\s+([\d,]+)", done.stderr)
    assert refs is not None, done.stderr
    return int(done.stdout.split()[-1]), int(refs.group(1).replace(",", ""))


def count(gid: str, games: int, src: Path) -> tuple[int, int]:
    """(steps, instructions) of `games` games of the loop, start-up included."""
    return counted(PLAY.format(here=str(HERE)), [gid, str(games)], src)


def per_step(gid: str, games: int, src: Path) -> float:
    """Instructions per step, start-up taken out: two runs, `games` and three times as many."""
    steps1, ins1 = count(gid, games, src)
    steps3, ins3 = count(gid, 3 * games, src)
    return (ins3 - ins1) / (steps3 - steps1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--game")
    parser.add_argument("--baseline", type=Path, help="a source tree to compare with (has src/)")
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        sys.exit("valgrind is not installed (apt-get install valgrind)")
    sys.path.insert(0, str(CURRENT))
    from dicehall.games import game_ids

    games = [args.game] if args.game else game_ids()
    trees = {"current": CURRENT}
    if args.baseline is not None:
        trees = {"baseline": args.baseline / "src", **trees}
    try:
        import pyspiel  # type: ignore[import-not-found,unused-ignore]  # noqa: F401

        spiel: float | None = per_step("openspiel", 10 * args.games, CURRENT)
    except ImportError:
        spiel = None
    print("instructions per step of the trusted loop (valgrind)")
    if spiel is not None:
        print(f"OpenSpiel's liars_dice: {spiel:,.0f}")
    head = "".join(f"{name:>12}" for name in trees)
    extra = f"{'baseline/current':>18}" if len(trees) == 2 else ""
    print(f"{'game':<14}{head}{extra}" + (f"{'OS/current':>12}" if spiel else ""))
    for gid in games:
        n = GAMES_PER_RUN.get(gid, args.games)
        cost = {name: per_step(gid, n, src) for name, src in trees.items()}
        line = f"{gid:<14}" + "".join(f"{c:>12,.0f}" for c in cost.values())
        if len(trees) == 2:
            line += f"{cost['baseline'] / cost['current']:>18.3f}"
        if spiel is not None:
            line += f"{spiel / cost['current']:>12.2f}"
        print(line, flush=True)


if __name__ == "__main__":
    main()
