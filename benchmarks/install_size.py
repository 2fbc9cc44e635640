"""What `pip install dicehall` and each extra put on disk: packages and megabytes.

Each install goes into a fresh venv (uv, no pip of its own), the wheel named
on the command line with the extra, constrained to requirements.lock so the
figures are those of the tested set. The size is everything under the venv's
site-packages, bytecode compiled as pip compiles it; the count the
distributions installed (dicehall included).
The largest packages are named, so a claim such as "73 MB of it is NumPy"
can be checked. Usage:

    .venv/bin/python benchmarks/install_size.py dist/dicehall-*-cp311-*.whl \
        [--extras server,postgres,rl,openspiel,plot,cluster,dev] [--python python3.11]

`train` is left out by default: it brings PyTorch, several hundred megabytes.
"""

from __future__ import annotations

import argparse
import importlib.metadata
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).parent.parent
EXTRAS = "server,postgres,rl,openspiel,plot,cluster,dev"


def tree_bytes(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file() and not p.is_symlink())


def measure(uv: str, python: str, wheel: Path, extra: str, work: Path) -> dict[str, object]:
    venv = work / (extra or "plain")
    subprocess.run([uv, "venv", "--quiet", "--python", python, str(venv)], check=True)
    target = f"dicehall[{extra}] @ {wheel.resolve().as_uri()}" if extra else str(wheel)
    lock = ROOT / "requirements.lock"
    subprocess.run(
        [uv, "pip", "install", "--quiet", "--compile-bytecode", "--python",
         str(venv / "bin" / "python"),
         "-c", str(lock), target],
        check=True,
    )  # fmt: skip
    (site,) = venv.glob("lib/python3.*/site-packages")
    dists = list(importlib.metadata.distributions(path=[str(site)]))
    sizes: dict[str, int] = {}
    for dist in dists:
        name = dist.metadata["Name"]
        files = [site / f for f in dist.files or []]
        sizes[name] = sum(f.stat().st_size for f in files if f.is_file())
    largest = sorted(sizes.items(), key=lambda kv: -kv[1])[:3]
    return {
        "extra": extra or "(none)",
        "packages": len(dists),
        "mb": tree_bytes(site) / 1e6,
        "largest": ", ".join(f"{n} {b / 1e6:.0f}" for n, b in largest),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("wheel", type=Path)
    parser.add_argument("--extras", default=EXTRAS, help="comma-separated; '' for none")
    parser.add_argument("--python", default=sys.executable)
    args = parser.parse_args()
    uv = shutil.which("uv") or str(Path(sys.executable).parent / "uv")
    extras = ["", *(e for e in args.extras.split(",") if e)]
    print(f"wheel: {args.wheel.name}")
    print("| extra | packages | MB in site-packages | largest (MB) |")
    print("| --- | ---: | ---: | --- |")
    with tempfile.TemporaryDirectory(prefix="dicehall-size-") as tmp:
        for extra in extras:
            row = measure(uv, args.python, args.wheel, extra, Path(tmp))
            print(f"| {row['extra']} | {row['packages']} | {row['mb']:.0f} | {row['largest']} |")
            sys.stdout.flush()
            shutil.rmtree(Path(tmp) / (extra or "plain"))


if __name__ == "__main__":
    main()
