"""`--ray` against one process: wall time of a duel, a ladder and a Kariki solve, from one run.

Each job runs locally (`cluster.Local`), then on a Ray cluster started here
(`--cpus` CPUs, or joined at `--address`), and the two results are checked to
be identical. Wall time, since the work is spread over processes; the Ray
column excludes starting the cluster, which is printed on its own. On a
shared or small machine the ratio says little about a real cluster: Ray's gain
is the CPUs it adds.

Usage:

    .venv/bin/python benchmarks/ray_runs.py [--games 2000] [--iterations 50] [--cpus 2]
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from dicehall.cluster import Local, RayRunner, Runner, import_ray
from dicehall.games import make_game
from dicehall.games.kariki.solver import solve as kariki
from dicehall.ratings import ladder
from dicehall.strategy.duel import duel


def timed(fn: Callable[[], Any]) -> tuple[Any, float]:
    start = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - start


def jobs(games: int, iterations: int) -> dict[str, Callable[[Runner], Any]]:
    duel_game = make_game("kariki", 3)
    ladder_game = make_game("tepiiku", 3)
    model = kariki.backward_of(make_game("kariki", 2)).model

    def solve(run: Runner) -> Any:
        solved = kariki.solve(model, iterations=iterations, runner=run)
        return solved.values, {k: p.tobytes() for k, p in solved.policies.items()}

    return {
        f"duel kariki, 3 seats, {games} games": lambda run: duel(
            duel_game, ["heuristic", "random"], games, seed=1, runner=run
        ).to_json(),
        f"ladder tepiiku, 3 seats, {games} games": lambda run: [
            s.to_json()
            for s in ladder(ladder_game, ["heuristic", "random"], games, 1, None, run).table()
        ],
        f"solve kariki, {iterations} iterations": solve,
    }


def warm_up(i: int) -> int:
    import dicehall.games.kariki.solver.solve  # noqa: F401  (what the jobs' chunks import)

    return i


def same(a: Any, b: Any) -> bool:
    if isinstance(a, tuple):
        return bool(np.array_equal(a[0], b[0])) and a[1] == b[1]
    return bool(a == b)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--iterations", type=int, default=50)
    parser.add_argument("--cpus", type=int, default=2)
    parser.add_argument("--address", default=None, help="join this cluster instead")
    args = parser.parse_args()
    ray = import_ray()
    todo = jobs(args.games, args.iterations)
    _, start = timed(
        lambda: ray.init(
            address=args.address,
            num_cpus=None if args.address else args.cpus,
            include_dashboard=False,
            log_to_driver=False,
            logging_level="WARNING",
        )
    )
    cpus = int(ray.cluster_resources().get("CPU", 0))
    print(f"Ray cluster: {cpus} CPUs, started or joined in {start:.1f} s")
    on_ray = RayRunner(ray)
    # Workers start and import dicehall on their first task: a warm-up, timed apart.
    _, t_warm = timed(lambda: list(on_ray.map(warm_up, list(range(2 * cpus)))))
    print(f"first tasks (workers importing): {t_warm:.1f} s")
    print(f"{'job':<38} {'local s':>8} {'ray s':>8} {'local/ray':>9}  identical")
    try:
        for name, job in todo.items():
            here, t_here = timed(lambda job=job: job(Local()))
            there, t_there = timed(lambda job=job: job(on_ray))
            print(
                f"{name:<38} {t_here:8.1f} {t_there:8.1f} {t_here / t_there:9.2f}  "
                f"{same(here, there)}"
            )
    finally:
        ray.shutdown()


if __name__ == "__main__":
    main()
