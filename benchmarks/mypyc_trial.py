"""The mypyc trial: the core and the four rules modules compiled, against pure Python.

Copies src/ to a temporary folder, makes the few changes mypyc's native
classes need (a subclass may not narrow an attribute's declared type; a
class's __slots__ cannot be read through the class), compiles
dicehall/core/game.py, chance.py and games/*/rules.py there with mypyc, and
then runs `playouts.py --json` alternately on the pure and the compiled tree,
round by round, each in its own process. Prints steps per CPU second of the
checked and the trusted loop and the paired ratio compiled/pure, and with
OpenSpiel installed each tree's trusted/OpenSpiel ratio (its loop runs in the
same processes). Needs a C
compiler and Python's headers. Usage:

    .venv/bin/python benchmarks/mypyc_trial.py [--rounds 3] [--keep DIR]

Compiling takes minutes (about 18 on a loaded two-core machine): `--keep DIR`
builds in DIR and leaves it there, and a later run with the same DIR reuses
the build when src/ has not changed since.
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
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
COMPILED = [
    "dicehall/core/game.py",
    "dicehall/core/chance.py",
    *(f"dicehall/games/{g}/rules.py" for g in ("kariki", "tao", "tepiiku", "toplshteyner")),
]
SUBCLASSED = [
    ("dicehall/core/game.py", "class Game(ABC):"),
    ("dicehall/games/kariki/rules.py", "class Kariki(Game):"),
    ("dicehall/games/tao/rules.py", "class TaoDice(Game):"),
    ("dicehall/games/tepiiku/rules.py", "class Tepiiku(Game):"),
    ("dicehall/games/toplshteyner/rules.py", "class Toplshteyner(Game):"),
]
"""The Game classes that Python code subclasses (each game's package adds its solver)."""
FUTURE = "from __future__ import annotations\n"
PATCHES = [
    # A native subclass may not narrow `game: Game` to the game's own class.
    ("dicehall/games/tepiiku/rules.py", "    game: Tepiiku\n", ""),
    ("dicehall/games/tepiiku/rules.py", "self.game.bankroll", 'getattr(self.game, "bankroll")'),
    ("dicehall/games/toplshteyner/rules.py", "    game: Toplshteyner\n", ""),
    # Each game's package subclasses its rules' Game (adding the solver bots) in Python.
    *(
        patch
        for file, header in SUBCLASSED
        for patch in (
            (file, FUTURE, FUTURE + "\nfrom mypy_extensions import mypyc_attr\n"),
            (
                file,
                f"\n{header}\n",
                f"\n@mypyc_attr(allow_interpreted_subclasses=True)\n{header}\n",
            ),
        )
    ),
    # Reading __slots__ through the class is not supported: name the fields once more.
    (
        "dicehall/games/kariki/rules.py",
        "for name in KarikiState.__slots__:",
        "for name in _FIELDS:",
    ),
]


def prepare(folder: Path) -> Path:
    src = folder / "src"
    shutil.copytree(ROOT / "src", src, ignore=shutil.ignore_patterns("__pycache__"))
    for file, old, new in PATCHES:
        path = src / file
        text = path.read_text()
        assert old in text, f"{file} no longer has {old!r}: update the trial's patches"
        path.write_text(text.replace(old, new))
    kariki = src / "dicehall/games/kariki/rules.py"
    sys.path.insert(0, str(ROOT / "src"))
    from dicehall.games.kariki.rules import KarikiState

    kariki.write_text(kariki.read_text() + f"\n_FIELDS = {KarikiState.__slots__!r}\n")
    start = time.time()
    mypyc = [sys.executable, "-m", "mypyc", *COMPILED]
    subprocess.run(mypyc, cwd=src, check=True, stdout=subprocess.DEVNULL)
    print(f"compiled in {time.time() - start:.0f} s wall", file=sys.stderr)
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
        for path in sorted((ROOT / "src").rglob("*.py"))
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
