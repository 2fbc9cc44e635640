"""The compiled rules against pure Python: the wheel as `pip install .` builds it.

Builds this tree's wheel (`pip wheel`, which compiles the core's Game and
State and the four rules modules with mypyc: setup.py), unpacks it, and runs
`playouts.py --json` alternately on the pure source tree and on the unpacked
wheel, round by round, each in its own process. Prints steps per CPU second of
the checked and the trusted loop and the paired ratio compiled/pure, and with
OpenSpiel installed each tree's trusted/OpenSpiel ratio (its loop runs in the
same processes). Needs a C compiler and Python's headers. Usage:

    .venv/bin/python benchmarks/compiled.py [--rounds 3] [--keep DIR]

Building takes a minute or two: `--keep DIR` builds in DIR and leaves it
there, and a later run with the same DIR reuses the build when src/ has not
changed since.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def prepare(folder: Path) -> Path:
    """The wheel built and unpacked in `folder`: a tree to put first on the path."""
    start = time.time()
    wheels = folder / "wheel"
    shutil.rmtree(wheels, ignore_errors=True)
    pip = [sys.executable, "-m", "pip", "wheel", str(ROOT), "--no-deps", "-q", "-w", str(wheels)]
    subprocess.run(pip, check=True, stdout=subprocess.DEVNULL)
    print(f"built in {time.time() - start:.0f} s wall", file=sys.stderr)
    src = folder / "src"
    with zipfile.ZipFile(next(wheels.glob("*.whl"))) as wheel:
        wheel.extractall(src)
    if not list(src.rglob("rules.*.so")):
        sys.exit("the wheel holds no compiled module: no C compiler or mypyc? (setup.py)")
    return src


def playouts(src: Path) -> dict[str, dict[str, float]]:
    env = {**os.environ, "PYTHONPATH": str(src)}
    command = [sys.executable, str(ROOT / "benchmarks/playouts.py"), "--json", "--rounds", "2"]
    run = subprocess.run(command, env=env, capture_output=True, text=True)
    if run.returncode != 0:
        sys.exit(f"playouts.py failed on {src}:\n{run.stderr}")
    return {row["game"]: row for row in map(json.loads, run.stdout.splitlines())}


def build(folder: Path) -> Path:
    """The compiled tree in `folder`, built unless it is there for the same sources."""
    stamp = folder / "sources"
    sources = "".join(
        f"{path.relative_to(ROOT)} {path.stat().st_mtime_ns}\n"
        for path in sorted(
            [*(ROOT / "src").rglob("*.py"), ROOT / "setup.py", ROOT / "pyproject.toml"]
        )
    )
    if stamp.exists() and stamp.read_text() == sources:
        return folder / "src"
    shutil.rmtree(folder / "src", ignore_errors=True)
    src = prepare(folder)
    stamp.write_text(sources)
    return src


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--keep", type=Path, help="build here and keep the build")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = args.keep or Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        compiled = build(folder)
        runs: dict[str, list[dict[str, dict[str, float]]]] = {"pure": [], "compiled": []}
        for _ in range(args.rounds):
            runs["pure"].append(playouts(ROOT / "src"))
            runs["compiled"].append(playouts(compiled))
    spiel = "trusted/openspiel" in next(iter(runs["pure"][0].values()))
    print("steps per CPU second; compiled/pure: median of paired rounds (range)")
    print(
        f"{'game':<14}{'loop':<9}{'pure':>10}{'compiled':>10}{'compiled/pure':>22}"
        + (f"{'pure/OS':>10}{'compiled/OS':>13}" if spiel else "")
    )
    for game in runs["pure"][0]:
        for loop in ("checked", "trusted"):
            pure = [r[game][loop] for r in runs["pure"]]
            fast = [r[game][loop] for r in runs["compiled"]]
            ratios = [f / p for f, p in zip(fast, pure, strict=True)]
            line = (
                f"{game:<14}{loop:<9}{statistics.median(pure):>10,.0f}"
                f"{statistics.median(fast):>10,.0f}{statistics.median(ratios):>10.2f}"
                f" ({min(ratios):.2f}-{max(ratios):.2f})"
            )
            if spiel and loop == "trusted":  # OpenSpiel's loop ran in the same processes
                for tree in ("pure", "compiled"):
                    versus = [r[game]["trusted/openspiel"] for r in runs[tree]]
                    line += f"{statistics.median(versus):>{10 if tree == 'pure' else 13}.2f}"
            print(line)


if __name__ == "__main__":
    main()
