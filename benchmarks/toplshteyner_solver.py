"""Solve Toplshteyner's decision tables (its solver/) with a progress bar, and time it.

    python benchmarks/toplshteyner_solver.py --seats 2,3,4,5 [--objective money,win]
        [--for-fun] [--sixes-end-turn] [--ship]

Layers go to the table cache (dicehall.core.diskcache), where the solver bots
and the advice find them; --ship writes them into the package instead (the
default options' tables for small seat counts ship there). Prints, per seat
count and objective, the seconds, sweeps and the largest epsilon (what a
roller could gain by one different choice; 0 for an exact equilibrium).
"""

from __future__ import annotations

import argparse
import time

from rich.console import Console
from rich.progress import Progress

from dicehall.games.toplshteyner.solver import solve, stored
from dicehall.games.toplshteyner.solver.model import Model


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seats", default="2,3,4")
    parser.add_argument("--objective", default="money,win")
    parser.add_argument("--for-fun", action="store_true")
    parser.add_argument("--sixes-end-turn", action="store_true")
    parser.add_argument("--ship", action="store_true", help="write into the package")
    args = parser.parse_args()
    console = Console()
    for seats in (int(x) for x in args.seats.split(",")):
        for objective in args.objective.split(","):
            model = Model(objective, args.for_fun, args.sixes_end_turn)
            folder = stored.cache_dir()
            engine = solve.Solver(model, seats, None if args.ship else folder)
            start = time.perf_counter()
            with Progress(console=console, transient=True) as progress:
                task = progress.add_task(f"{model.name(seats)}", total=len(engine.layer_keys()))
                engine.solve(lambda done, _, t=task: progress.update(t, completed=done))
            seconds = time.perf_counter() - start
            if args.ship:
                stored.SHIPPED.mkdir(exist_ok=True)
                for (players, k), layer in engine.layers.items():
                    layer.turn = {}
                    path = stored.SHIPPED / (
                        f"{model.name(seats)}-v{stored.SHIPPED_VERSION}-{players}-{k}.npz"
                    )
                    stored.save_layer(layer, path)
            layers = engine.layers.values()
            console.print(
                f"{model.name(seats)}: {len(engine.layers)} layers, {seconds:.1f} s, "
                f"sweeps {max(x.sweeps for x in layers)} at most, "
                f"epsilon {max(x.epsilon for x in layers):.2g}, "
                f"residual {max(x.residual for x in layers):.2g}"
            )


if __name__ == "__main__":
    main()
