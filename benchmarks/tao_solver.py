"""Solve two-seat Tao Dice and measure it: `python benchmarks/tao_solver.py [--iterations N]`.

Runs the whole solve (CFR+ on every betting round, values iterated; minutes
to tens of minutes on one core), writes the strategy where the solver bot
finds it (or --out), then measures the stored policy's exact exploitability
for a single match and for the token game, and the heuristic's and random's.
Prints one JSON object per step. Run it niced on a shared machine.
With `--state FILE` the CFR+ state (regrets, values: about 600 MB) is kept
there after every sweep, and a later run with the same FILE goes on from
it: `--max-sweeps` counts the sweeps already made. `--workers N` runs the
CFR+ passes in N processes (default: one per core; the same numbers); `--predictive` runs
predictive CFR+ (`chunk_iterations`). `--carry` carries the
average strategy across sweeps (`solve(carry=True)`), and `--measure` gives
the exploitability of the strategy stored after every sweep.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

from dicehall.games.tao.solver import stored as strategies
from dicehall.games.tao.solver.solve import (
    CFRState,
    Exploitability,
    Model,
    Solved,
    exploitability,
    solve,
)
from dicehall.strategy.strategy_file import load, save


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=strategies.ITERATIONS)
    parser.add_argument("--per-sweep", type=int, default=strategies.PER_SWEEP)
    parser.add_argument("--max-sweeps", type=int, default=strategies.SWEEPS)
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument("--state", type=Path, default=None, help="keep / resume CFR+ state here")
    parser.add_argument("--carry", action="store_true", help="carry the average across sweeps")
    parser.add_argument(
        "--workers", type=int, default=os.cpu_count() or 1, help="processes for the CFR+ passes"
    )
    parser.add_argument("--predictive", action="store_true", help="predictive CFR+")
    parser.add_argument("--measure", action="store_true", help="exploitability after each sweep")
    parser.add_argument("--bots", default="", help="also measure these bots (heuristic,random)")
    parser.add_argument("--no-solve", action="store_true", help="only measure --bots")
    parser.add_argument(
        "--decisions", type=int, default=0, help="time the solver's decisions in N games"
    )
    parser.add_argument("--seats", type=int, default=2, help="with --decisions: the table's size")
    args = parser.parse_args()
    if args.decisions:
        time_decisions(args.decisions, args.seats)
        return
    model = Model()
    start = time.perf_counter()
    if not args.no_solve:
        solve_and_measure(model, args, start)
    for name in filter(None, args.bots.split(",")):
        from dicehall.games.tao.solver.bot_policies import bot_policy

        t = time.perf_counter()
        found = strategies.stored()
        if name == "solver" and found is None:
            raise SystemExit("no stored strategy to measure")
        policy = found.policy if name == "solver" and found else bot_policy(model, name)
        report(name, exploitability(model, policy), t)


def solve_and_measure(model: Model, args: argparse.Namespace, start: float) -> None:

    def tick(what: str, done: int, total: int) -> None:
        if done == total:
            print(f"  {what} {time.perf_counter() - start:.0f}s", file=sys.stderr, flush=True)

    out = args.out or strategies.path()

    def checkpoint(solved: Solved) -> None:
        meta = {"iterations": solved.iterations, "sweeps": solved.sweeps,
                "change": solved.change, "seconds": solved.seconds}  # fmt: skip
        save(out, strategies.to_file(solved, meta))
        print(json.dumps({"step": "sweep", **meta}), flush=True)
        if args.measure:
            t = time.perf_counter()
            stored = strategies.Strategy.of_file(load(out, "tao", 2, {}))
            report("solver", exploitability(model, stored.policy), t)

    state: Path | None = args.state
    resume = CFRState.load(state) if state is not None and state.exists() else None
    if resume is not None:
        print(json.dumps({"step": "resume", "iterations": resume.iterations,
                          "sweeps": resume.sweeps}), flush=True)  # fmt: skip
    solved = solve(
        model, iterations=args.iterations, per_sweep=args.per_sweep,
        max_sweeps=args.max_sweeps, tick=tick, after_sweep=checkpoint, resume=resume,
        keep=None if state is None else lambda kept: kept.save(state), carry=args.carry,
        workers=args.workers, predictive=args.predictive,
    )  # fmt: skip
    meta = {"iterations": solved.iterations, "sweeps": solved.sweeps,
            "change": solved.change, "seconds": solved.seconds}  # fmt: skip
    stored = strategies.save_solved(solved, out, meta)
    print(json.dumps({"step": "solve", **meta, "history": solved.history, "out": str(out),
                      "bytes": out.stat().st_size}), flush=True)  # fmt: skip
    if not args.measure:  # else measured after its sweep
        report("solver", exploitability(model, stored.policy), time.perf_counter())


def report(bot: str, e: Exploitability, since: float) -> None:
    print(json.dumps({"step": "exploitability", "bot": bot, "match": e.match,
                      "token": e.token, "best_response": e.best_response,
                      "opener_wins": e.policy_opener, "rounds": e.rounds,
                      "seconds": time.perf_counter() - since}), flush=True)  # fmt: skip


def time_decisions(games: int, seats: int) -> None:
    """CPU time of the solver bot's and the heuristic's decisions on the same views.

    At two seats the stored strategy; at more, the bet reader (needs no strategy).
    """
    import gc
    import random

    from dicehall.core import RandomDice, Table, make_bots
    from dicehall.games import make_game
    from dicehall.games.tao.bots import HeuristicBot
    from dicehall.games.tao.solver.bot import SolverBot

    game = make_game("tao", seats)
    if seats == 2 and strategies.stored() is None:
        raise SystemExit("no stored strategy: solve first")
    solver, heuristic = (
        SolverBot(game, 0, random.Random(0)),
        HeuristicBot(game, 0, random.Random(0)),
    )
    times: dict[str, list[float]] = {"solver": [], "heuristic": []}
    collected: dict[str, list[bool]] = {"solver": [], "heuristic": []}

    def timed(t: Table) -> None:
        state = t.state
        for seat in state.actors():
            view, legal = state.view(seat), state.legal_actions(seat)
            for name, bot in (("solver", solver), ("heuristic", heuristic)):
                bot.seat = seat
                full = gc.get_stats()[2]["collections"]
                t0 = time.process_time()
                bot.choose(view, legal)
                times[name].append(time.process_time() - t0)
                collected[name].append(gc.get_stats()[2]["collections"] > full)

    for seed in range(games):
        table = Table(game, RandomDice(seed), record=False)
        names = (["solver", "heuristic"] * seats)[:seats]
        table.play(make_bots(game, names, random.Random(seed)), on_step=timed)
    # The largest times hold the first decision (the bot's imports) and the interpreter's
    # full garbage collections (of the whole process, games and all), which fall inside
    # whichever decision allocates then: the largest of the others is shown apart.
    report = {name: {"decisions": len(ts), "mean_us": 1e6 * sum(ts) / len(ts),
                     "p99_ms": 1e3 * sorted(ts)[int(0.99 * len(ts))],
                     "max_ms": 1e3 * max(ts), "first_ms": 1e3 * ts[0],
                     "full_collections": sum(collected[name]),
                     "max_without_first_or_collection_ms": 1e3 * max(
                         t for i, (t, c) in enumerate(zip(ts, collected[name], strict=True))
                         if i and not c)}
              for name, ts in times.items()}  # fmt: skip
    print(json.dumps({"step": "decisions", **report}))


if __name__ == "__main__":
    main()
