"""Solve the Tepiiku solver's tables into the cache, and measure them.

    python benchmarks/tepiiku_solver.py [--caps 1,2,...] [--json] [--policy-table]

For each cap (the coins every seat is modelled to hold): the wall and CPU
seconds of the solve, the sweeps of the top pot's value iteration, the largest
deviation gain in any tie game (0 when every tie has an exact equilibrium),
the NashConv of the thumbs equilibrium and of the heuristic's thumbs (coins a
round, over the solver's continuation values), and the time of a solver
decision. Solved tables are kept in the cache, where the bot finds them.
`--policy-table` prints the optimal Fish policy at the largest cap as the
Markdown table of docs/researchers/tepiiku.md.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections.abc import Sequence

from rich.console import Console

from dicehall.core import Action, RandomDice, Table, View
from dicehall.games import make_game
from dicehall.games.tepiiku.solver import solve, stored
from dicehall.games.tepiiku.solver.bot import SolverBot
from dicehall.games.tepiiku.solver.odds import policy_markdown
from dicehall.strategy.progress import bar


class Timed:
    """A bot that adds the time of each of its decisions to a shared tally."""

    def __init__(self, bot: SolverBot, tally: list[float]) -> None:
        self.bot, self.tally = bot, tally

    def choose(self, view: View, legal: Sequence[Action]) -> Action:
        start = time.perf_counter()
        action = self.bot.choose(view, legal)
        self.tally.append(time.perf_counter() - start)
        return action


def decision_time(games: int = 20) -> float:
    """Mean seconds per solver decision over the decisions of a few games."""
    game = make_game("tepiiku")
    tally: list[float] = []
    for seed in range(games):
        bots = {s: Timed(SolverBot(game, s, random.Random(seed * 3 + s)), tally) for s in range(3)}
        Table(game, RandomDice(seed), record=False, trusted=True).play(bots)
    return sum(tally) / max(len(tally), 1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--caps", default=",".join(map(str, stored.CAPS)))
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--policy-table", action="store_true")
    args = parser.parse_args()
    caps = [int(c) for c in args.caps.split(",")]
    console = Console(stderr=True)
    rows = []
    for cap in caps:
        found = stored.load(cap)
        wall, cpu = time.perf_counter(), time.process_time()
        if found is None:
            with bar(solve.tables_steps(cap), f"Tepiiku cap {cap}", console) as progress:
                found = solve.solve_tables(cap, progress.advance)
            stored.save(found)
        rows.append(
            {
                "cap": cap,
                "seconds": round(time.perf_counter() - wall, 1),
                "cpu_seconds": round(time.process_time() - cpu, 1),
                "tie_epsilon": found.tie_epsilon,
                "thumbs_nash_conv": found.thumbs_nash_conv,
                "heuristic_thumbs_nash_conv": found.heuristic_nash_conv,
            }
        )
        if not args.json:
            console.print(rows[-1])
    result = {"caps": rows, "decision_seconds": decision_time()}
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        console.print(f"solver decision: {result['decision_seconds'] * 1e6:.0f} µs")
    if args.policy_table:
        print(policy_markdown(stored.tables(max(caps))))


if __name__ == "__main__":
    main()
