"""Start-up cost of the dicehall command: CPU seconds of whole runs, in fresh processes.

Each command runs in a new interpreter (`python -c "from dicehall.cli import
main; main()" ARGS`, stdin empty so `play` stops at its first prompt), and
its cost is the child's user + system CPU time, which a loaded machine
inflates far less than wall time. With `--baseline DIR` (a source tree such
as `git archive <commit> src | tar -x -C DIR`), the same commands also run
with DIR/src first on the path, interleaved run by run with the current tree,
and the ratios baseline/current come from the same run. Each command runs once
untimed first (a table it caches on first use is then read back, as on every
later run, and the bytecode it compiles is written, as `pip install` writes
it: the runs never inherit PYTHONDONTWRITEBYTECODE), and the baseline reads
and writes its own copy of the table cache, so that two trees keying a cached
table differently do not evict each other's entry at every run. Usage:

    .venv/bin/python benchmarks/startup.py [--runs 5] [--baseline /tmp/base]
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from dicehall.core import diskcache

COMMANDS = [
    ["--help"],
    ["games"],
    ["rules", "kariki"],
    *(
        command
        for game in ("kariki", "tao", "tepiiku", "toplshteyner")
        for command in (["odds", game], ["play", game, "--seed", "1"])
    ),
    ["play", "kariki", "--seats", "2", "--seed", "1"],
]
"""`play kariki --seed 1` has a solver bot claim before the first prompt (its strategy is
loaded for that claim); at two seats with this seed the player acts first."""
CURRENT = Path(__file__).resolve().parent.parent / "src"


def cpu_of_run(args: list[str], src: Path, cache: Path | None) -> float:
    """User + system CPU seconds of one run of the command with `src` first on the path
    (and `cache` as its table cache, if given)."""
    env = {**os.environ, "PYTHONPATH": str(src)}
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # an installed package has its bytecode cached
    if cache is not None:
        env["DICEHALL_CACHE"] = str(cache)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(
        [sys.executable, "-c", "from dicehall.cli import main; main()", *args],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=env,
        check=False,
    )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--baseline", type=Path, help="a source tree to compare with (has src/)")
    args = parser.parse_args()
    trees = {"current": CURRENT}
    caches: dict[str, Path | None] = {"current": None}
    with tempfile.TemporaryDirectory(prefix="dicehall-baseline-cache-") as own:
        if args.baseline is not None:
            trees = {"baseline": args.baseline / "src", **trees}
            shared = diskcache.cache_dir()
            if shared is not None and shared.exists():
                shutil.copytree(shared, own, dirs_exist_ok=True)
            caches["baseline"] = Path(own)
        measure(trees, caches, args.runs)


def measure(trees: dict[str, Path], caches: dict[str, Path | None], runs: int) -> None:
    head = "".join(f"{name + ' s':>14}" for name in trees)
    extra = f"{'baseline/current':>19}" if len(trees) == 2 else ""
    print("median CPU seconds per run (user + system)")
    print(f"{'command':<32}{head}{extra}")
    for command in COMMANDS:
        costs: dict[str, list[float]] = {name: [] for name in trees}
        for name, src in trees.items():
            cpu_of_run(command, src, caches[name])  # untimed: fills a cache on first use
        for _ in range(runs):
            for name, src in trees.items():
                costs[name].append(cpu_of_run(command, src, caches[name]))
        line = f"{' '.join(command):<32}" + "".join(
            f"{statistics.median(costs[name]):>14.3f}" for name in trees
        )
        if len(trees) == 2:
            ratios = [b / c for b, c in zip(costs["baseline"], costs["current"], strict=True)]
            line += f"{statistics.median(ratios):>19.2f}"
        print(line, flush=True)


if __name__ == "__main__":
    main()
