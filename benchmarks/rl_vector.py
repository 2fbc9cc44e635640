"""Agent decisions per CPU second: the vector environment beside the engine and the single env.

Three loops of random agents (uniform among the legal ids) against random
opponents, timed in process CPU time, taking turns in slices round after
round (the machine may be shared and noisy; what counts are the ratios from
the same run, each the median of the paired rounds):

- engine: the engine's own per-decision loop, `playouts.py`'s trusted fast
  path (`apply_trusted`, throws from `random_faces`), counting the decisions
  of every seat, not its throws;
- single: `DicehallGymEnv(game, opponents="random")`, one decision of the
  learning seat per step (the opponents' moves and the throws inside it);
- vector N: `DicehallVectorEnv(N, game, opponents="random")`, the decisions
  of the learning seat in its N environments per step, observations and
  masks included: every environment whose step took a decision (a formal one
  of a game the dice decided too), not the steps that only start the next
  episode (autoreset NEXT_STEP). Its CPU time is `step`'s alone; the random
  agent's choice from the masks (vectorised) is timed apart, in `agent`.
- self-play N (with `--self-play`): the same with every seat the caller's
  (`seat=None`), each step one decision of whichever seat is to act: what
  the environment itself costs a decision, without the batch's opponents.

Usage:

    .venv/bin/python benchmarks/rl_vector.py [--game kariki --seats 2]
        [--sizes 64,256,1024,4096,16384] [--rounds 3] [--slice 1.0] [--markdown]
        [--self-play]

Without `--game` every game runs at the seat counts of CONFIGS.

With `--share` it counts instead the learning seat's share of every seat's
decisions in the episodes that end (formal ones of games the dice decided
left out) (random agent, random opponents, 1,024
environments, 300 steps): the batch plays the rest between two of the
learner's decisions.

With `--instructions` it counts instead the machine instructions of an agent
decision in the vector environment at each size (valgrind, as
`step_instructions.py`: two runs of 10 and 40 steps, the difference divided
by the difference in decisions, the random agent's choice included), a
figure a loaded machine does not move; `--tree DIR` (repeatable: a source
tree's src/ or an unpacked wheel, whose compiled modules then count) compares
builds side by side.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from dicehall.core import Game
from dicehall.core.chance import random_faces
from dicehall.games import make_game
from dicehall.rl.gymnasium import DicehallGymEnv
from dicehall.rl.vector import DicehallVectorEnv

CONFIGS = [("kariki", 2), ("tepiiku", 3), ("toplshteyner", 2), ("toplshteyner", 4), ("tao", 2),
           ("tao", 4)]  # fmt: skip

Loop = Callable[[float], tuple[int, float, float]]
"""Runs for about `budget` CPU seconds; returns (decisions, CPU seconds they took, CPU
seconds of the agent's choices, already in the first figure or not)."""


def engine_loop(game: Game, seed: int = 1) -> Loop:
    """Random games on the engine's trusted fast path, counting every seat's decisions."""
    rand = random.Random(seed).random

    def run(budget: float) -> tuple[int, float, float]:
        decisions = 0
        start = time.process_time()
        while time.process_time() - start < budget:
            for _ in range(16):
                state = game.new_state()
                while True:
                    if state.is_chance():
                        state.apply_chance_trusted(random_faces(state.chance_dice(), rand))
                        continue
                    seats = state.actors()
                    if not seats:
                        break
                    legal = state.legal_actions(seats[0])
                    state.apply_trusted(seats[0], legal[int(rand() * len(legal))])
                    decisions += 1
        return decisions, time.process_time() - start, 0.0

    return run


def single_loop(gid: str, seats: int, seed: int = 1) -> Loop:
    env = DicehallGymEnv(gid, seats=seats, opponents="random")
    env.reset(seed=seed)
    rand = random.Random(seed).random

    def run(budget: float) -> tuple[int, float, float]:
        decisions = 0
        start = time.process_time()
        while time.process_time() - start < budget:
            _, info = env.reset()
            done = False
            while not done:
                legal = info["legal"] or [0]
                _, _, terminated, truncated, info = env.step(legal[int(rand() * len(legal))])
                done = terminated or truncated
                decisions += 1
        return decisions, time.process_time() - start, 0.0

    return run


def vector_loop(gid: str, seats: int, n: int, seed: int = 1, seat: int | None = 0) -> Loop:
    envs = DicehallVectorEnv(n, gid, seats=seats, seat=seat, opponents="random")
    _, infos = envs.reset(seed=seed)
    rng = np.random.default_rng(seed)
    masks = [infos["action_mask"]]

    def run(budget: float) -> tuple[int, float, float]:
        decisions, stepping, choosing = 0, 0.0, 0.0
        clock = time.process_time
        while stepping + choosing < budget:
            t0 = clock()
            actions = np.argmax(rng.random(masks[0].shape, dtype=np.float32) * masks[0], axis=1)
            decided = int(np.count_nonzero(masks[0].any(axis=1)))
            t1 = clock()
            masks[0] = envs.step(actions)[4]["action_mask"]
            t2 = clock()
            decisions += decided
            stepping += t2 - t1
            choosing += t1 - t0
        return decisions, stepping, choosing

    return run


def measure(
    gid: str, seats: int, sizes: list[int], rounds: int, slice_: float, self_play: bool = False
) -> dict[str, Any]:
    """Decisions per CPU second of each loop in each round, the loops taking turns."""
    game = make_game(gid, seats)
    loops: dict[str, Loop] = {
        "engine": engine_loop(game),
        "single": single_loop(gid, seats),
        **{f"vector {n}": vector_loop(gid, seats, n) for n in sizes},
    }
    if self_play:
        loops.update({f"self-play {n}": vector_loop(gid, seats, n, seat=None) for n in sizes})
    rates: dict[str, list[float]] = {name: [] for name in loops}
    agent: dict[str, list[float]] = {name: [] for name in loops}
    names = list(loops)
    for r in range(rounds):
        for name in names[r % len(names) :] + names[: r % len(names)]:
            decisions, cpu, choosing = loops[name](slice_)
            rates[name].append(decisions / cpu)
            agent[name].append(decisions / (cpu + choosing))
    return {"rates": rates, "agent": agent}


def paired(rates: dict[str, list[float]], a: str, b: str) -> str:
    ratios = [x / y for x, y in zip(rates[a], rates[b], strict=True)]
    return f"{statistics.median(ratios):.3g} ({min(ratios):.3g}-{max(ratios):.3g})"


def table(gid: str, seats: int, result: dict[str, Any], markdown: bool) -> str:
    rates, agent = result["rates"], result["agent"]
    head = ["loop", "decisions/CPU s", "with the agent", "x engine", "x single env"]
    rows = []
    for name in rates:
        vector = name not in ("engine", "single")
        rows.append(
            [
                name,
                f"{statistics.median(rates[name]):,.0f}",
                f"{statistics.median(agent[name]):,.0f}" if vector else "",
                "1" if name == "engine" else paired(rates, name, "engine"),
                "1" if name == "single" else paired(rates, name, "single"),
            ]
        )
    title = f"{gid}, {seats} seats"
    if markdown:
        lines = [f"**{title}**", "", "| " + " | ".join(head) + " |"]
        lines.append("| --- | " + " | ".join(["---:"] * (len(head) - 1)) + " |")
        lines += ["| " + " | ".join(row) + " |" for row in rows]
        return "\n".join(lines) + "\n"
    widths = [max(len(r[i]) for r in [head, *rows]) for i in range(len(head))]
    out = [title] + [
        "  ".join(
            cell.rjust(w) if i else cell.ljust(w)
            for i, (cell, w) in enumerate(zip(r, widths, strict=True))
        )
        for r in [head, *rows]
    ]
    return "\n".join(out) + "\n"


VECTOR = """
import sys
import numpy as np
from dicehall.rl.vector import DicehallVectorEnv

gid, seats, n, steps = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
envs = DicehallVectorEnv(n, gid, seats=seats, opponents="random")
_, infos = envs.reset(seed=1)
rng = np.random.default_rng(1)
masks, decisions = infos["action_mask"], 0
for _ in range(steps):
    decisions += int(np.count_nonzero(masks.any(axis=1)))
    masks = envs.step(np.argmax(rng.random(masks.shape) * masks, axis=1))[4]["action_mask"]
print(decisions)
"""


def instructions(gid: str, seats: int, n: int, src: Path) -> float:
    """Instructions per agent decision at `n` environments, start-up taken out."""
    from step_instructions import counted

    d1, i1 = counted(VECTOR, [gid, str(seats), str(n), "10"], src)
    d2, i2 = counted(VECTOR, [gid, str(seats), str(n), "40"], src)
    return (i2 - i1) / (d2 - d1)


def share(gid: str, seats: int, n: int = 1024, steps: int = 300, seed: int = 1) -> float:
    """The learner's decisions over every seat's (`batch.decisions`), in ended episodes; a
    game the dice decided before anyone did (its one formal decision) counts for neither."""
    envs = DicehallVectorEnv(n, gid, seats=seats, seat=0, opponents="random")
    _, infos = envs.reset(seed=seed)
    rng = np.random.default_rng(seed)
    masks = infos["action_mask"]
    mine = np.zeros(n, dtype=np.int64)
    learner = every = 0
    for _ in range(steps):
        mine += masks.any(axis=1) & ~infos.get("decided_by_dice", np.zeros(n, dtype=bool))
        _, _, terminated, truncated, infos = envs.step(
            np.argmax(rng.random(masks.shape) * masks, axis=1)
        )
        masks = infos["action_mask"]
        ended = np.flatnonzero(terminated | truncated)
        learner += int(mine[ended].sum())
        every += int(envs.batch.decisions[ended].sum())
        mine[ended] = 0
    return learner / every


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game")
    parser.add_argument("--seats", type=int)
    parser.add_argument("--sizes", default="64,256,1024,4096,16384")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--slice", type=float, default=1.0, help="CPU seconds per loop and round")
    parser.add_argument("--markdown", action="store_true")
    parser.add_argument("--instructions", action="store_true", help="count, with valgrind")
    parser.add_argument("--tree", type=Path, action="append", help="with --instructions")
    parser.add_argument("--self-play", action="store_true", help="also every seat the caller's")
    parser.add_argument("--share", action="store_true", help="the learner's share of decisions")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    configs = [(args.game, args.seats or make_game(args.game).seats)] if args.game else CONFIGS
    if args.share:
        for gid, seats in configs:
            print(f"{gid}, {seats} seats: the learner's share {share(gid, seats):.3f}", flush=True)
        return
    if args.instructions:
        trees = args.tree or [Path(__file__).resolve().parent.parent / "src"]
        print("| game, seats | envs | " + " | ".join(str(t) for t in trees) + " |")
        print("| --- | ---: | " + " | ".join("---:" for _ in trees) + " |")
        for gid, seats in configs:
            for n in sizes:
                counts = [f"{instructions(gid, seats, n, t):,.0f}" for t in trees]
                print(f"| {gid}, {seats} | {n:,} | " + " | ".join(counts) + " |", flush=True)
        return
    for gid, seats in configs:
        result = measure(gid, seats, sizes, args.rounds, args.slice, args.self_play)
        print(table(gid, seats, result, args.markdown), flush=True)


if __name__ == "__main__":
    main()
