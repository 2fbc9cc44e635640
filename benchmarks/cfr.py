"""Strategy-engine speed: CFR+ iterations per second, best responses, solver decisions.

Figures, all in process CPU time (the machine may be shared), from one run:

- Kuhn poker (55 nodes, one instance): CFR+ iterations per second.
- Kariki's largest subgame (thrower on a fresh roll, 1584 nodes) in a batch
  of 45 scores, the largest batch the two-seat solve runs: iterations per
  second, and subgame-instances x iterations per second (the solve's unit of
  work; a full solve is 9 levels x 30 subgames of up to 45 scores each).
- One exact best response of that batch, per second.
- Decisions per second of the solver bot against the heuristic bot on the
  same views (two and four seats), and the microseconds per solver decision.
- Loading the shipped strategy file.

Usage:

    .venv/bin/python benchmarks/cfr.py [--iterations 200] [--views 3000]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

import numpy as np

from dicehall.core import RandomDice, State, Table, View, make_bots
from dicehall.games import make_game
from dicehall.games.kariki.solver.model import RoundModel
from dicehall.games.kariki.solver.stored import SHIPPED, Strategy, file_name, solved_options
from dicehall.strategy.cfr import CFRPlus
from dicehall.strategy.passes import Passes
from dicehall.strategy.strategy_file import load
from dicehall.strategy.tree import build_tree

sys.path.insert(0, str(Path(__file__).parent.parent))
from tests.strategy.kuhn import Kuhn


def cpu(fn: object, *args: object) -> float:
    start = time.process_time()
    fn(*args)  # type: ignore[operator]
    return time.process_time() - start


def kuhn_rate(iterations: int) -> float:
    tree = build_tree(
        Kuhn().new_state(),
        lambda s: s.result().net[0] if s.is_over() else None,
        lambda s, seat: (seat, s.view(seat)["card"], tuple(s.view(seat)["history"])),
    )
    run = CFRPlus(tree, tree.leaf_values(float))
    return iterations / cpu(run.iterate, iterations)


def kariki_rates(model: RoundModel, iterations: int, batch: int) -> tuple[float, float]:
    tree = model.trees[0, -1]
    rng = np.random.default_rng(1)
    leaf = rng.random((batch, len(tree.leaf_labels)))
    passes = Passes(tree)
    run = CFRPlus(tree, leaf, passes)
    rate = iterations / cpu(run.iterate, iterations)
    policy = run.average_policy()
    rounds = 20
    br = rounds / cpu(lambda: [passes.best_response(policy, leaf, 0) for _ in range(rounds)])
    return rate, br


def views(seats: int, count: int) -> list[tuple[View, list[object], int]]:
    """Decisions from real games: (view, legal actions, seat)."""
    game = make_game("kariki", seats)
    out: list[tuple[View, list[object], int]] = []
    seed = 0
    while len(out) < count:
        table = Table(game, RandomDice(seed), record=False)
        bots = make_bots(game, ["solver", "heuristic"], random.Random(seed))

        def grab(t: Table) -> None:
            state: State = t.state
            for seat in state.actors():
                out.append((state.view(seat), list(state.legal_actions(seat)), seat))

        table.play(bots, on_step=grab)
        seed += 1
    return out[:count]


def decision_rates(seats: int, count: int) -> tuple[float, float]:
    game = make_game("kariki", seats)
    decisions = views(seats, count)
    rates = []
    for name in ("solver", "heuristic"):
        bots = {s: game.bots()[name](game, s, random.Random(s)) for s in range(seats)}
        elapsed = cpu(lambda b=bots: [b[s].choose(v, legal) for v, legal, s in decisions])  # type: ignore[misc]
        rates.append(count / elapsed)
    return rates[0], rates[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=200)
    parser.add_argument("--views", type=int, default=3000)
    args = parser.parse_args()
    print(f"Kuhn poker CFR+: {kuhn_rate(args.iterations * 10):,.0f} iterations/s")
    model = RoundModel(make_game("kariki", 2))
    for batch in (1, 45):
        rate, br = kariki_rates(model, args.iterations, batch)
        print(
            f"Kariki subgame (0, fresh roll), batch {batch:2d}: {rate:,.1f} iterations/s "
            f"({rate * batch:,.0f} instance-iterations/s); best response {br:,.1f}/s"
        )
    for seats in (2, 4):
        solver, heuristic = decision_rates(seats, args.views)
        print(
            f"{seats} seats: solver {solver:,.0f} decisions/s ({1e6 / solver:,.0f} µs each), "
            f"heuristic {heuristic:,.0f}/s; heuristic/solver speed {heuristic / solver:.2f}"
        )
    game = make_game("kariki", 2)
    path = SHIPPED / file_name(solved_options(game))
    start = time.perf_counter()
    Strategy.of_file(load(path))
    print(f"shipped strategy ({path.stat().st_size / 1e6:.2f} MB): loaded and checked in "
          f"{(time.perf_counter() - start) * 1000:.0f} ms")  # fmt: skip


if __name__ == "__main__":
    main()
