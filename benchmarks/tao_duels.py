"""What a Tao Dice duel costs, and whether two versions play it alike.

`python benchmarks/tao_duels.py --seats 6 --games 60` plays the duel
`dicehall duel tao --bots solver,heuristic --seed 21` runs (the first
`--games` games of it) and prints its CPU seconds per 1,000 games and a
fingerprint: a hash of every game's winners and net stones, in order. Two
versions that make the same decisions give the same fingerprint.

With `--baseline DIR` (a source tree, as `git archive <commit> src | tar -x
-C DIR`) each round plays the same games once under DIR/src and once under
this tree, in fresh processes, alternately, and prints both costs, their
ratio and whether the fingerprints agree. Run it niced on a shared machine.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any


def measure(seats: int, games: int, bots: str, seed: int) -> dict[str, Any]:
    from dicehall.games import make_game
    from dicehall.strategy.duel import duel

    fingerprint = hashlib.sha256()

    class Recording:
        def map(self, fn: Callable[[Any], Any], chunks: Sequence[Any]) -> Iterator[Any]:
            for chunk in chunks:
                results = fn(chunk)
                for r in results:
                    fingerprint.update(repr((r.winners, r.net)).encode())
                yield results

    game = make_game("tao", seats)
    start = time.process_time()
    result = duel(game, bots.split(","), games, seed=seed, runner=Recording())
    cpu = time.process_time() - start
    return {
        "seats": seats,
        "games": games,
        "cpu_s_per_1000": 1000 * cpu / games,
        "fingerprint": fingerprint.hexdigest()[:16],
        "win_rate": result.to_json()["win_rate"],
    }


def against_baseline(baseline: Path, args: argparse.Namespace) -> None:
    trees = {"baseline": baseline / "src", "current": Path(__file__).resolve().parents[1] / "src"}
    runs: dict[str, list[dict[str, Any]]] = {name: [] for name in trees}
    for r in range(args.rounds):
        for name in list(trees)[:: 1 if r % 2 == 0 else -1]:
            command = [sys.executable, __file__, "--seats", str(args.seats), "--games",
                       str(args.games), "--bots", args.bots, "--seed", str(args.seed)]  # fmt: skip
            env = {**os.environ, "PYTHONPATH": str(trees[name])}
            out = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
            runs[name].append(json.loads(out.stdout))
    base, current = runs["baseline"], runs["current"]
    pairs = list(zip(base, current, strict=True))
    ratios = [b["cpu_s_per_1000"] / c["cpu_s_per_1000"] for b, c in pairs]
    print(json.dumps({
        "seats": args.seats, "games": args.games,
        "baseline_cpu_s_per_1000": statistics.median(b["cpu_s_per_1000"] for b in base),
        "current_cpu_s_per_1000": statistics.median(c["cpu_s_per_1000"] for c in current),
        "speedup_median": statistics.median(ratios), "speedup_range": [min(ratios), max(ratios)],
        "same_games": all(b["fingerprint"] == c["fingerprint"] for b, c in pairs),
        "fingerprint": current[0]["fingerprint"], "win_rate": current[0]["win_rate"],
    }))  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seats", type=int, default=6)
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--bots", default="solver,heuristic")
    parser.add_argument("--seed", type=int, default=21)
    parser.add_argument("--baseline", type=Path, help="a source tree to compare with (has src/)")
    parser.add_argument("--rounds", type=int, default=2, help="with --baseline: paired runs")
    args = parser.parse_args()
    if args.baseline is not None:
        against_baseline(args.baseline, args)
        return
    print(json.dumps(measure(args.seats, args.games, args.bots, args.seed)))


if __name__ == "__main__":
    main()
