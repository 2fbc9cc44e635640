"""From a fresh clone to a served page: the README's first command, timed.

Clones the repository (a local path or URL) into a temporary folder, runs
`make serve` there on a free port, and times until the page answers 200; then
stops the server. The clock includes creating .venv and installing the
lock, so the figure depends on pip's cache and the network (the log says
which). Usage:

    .venv/bin/python benchmarks/first_page.py [REPO] [--ref BRANCH]
"""

from __future__ import annotations

import argparse
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("repo", nargs="?", default=str(Path(__file__).parent.parent))
    parser.add_argument("--ref", default=None, help="branch or tag to clone")
    parser.add_argument("--timeout", type=float, default=1200)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="dicehall-clone-") as tmp:
        clone = Path(tmp) / "dicehall"
        ref = ["--branch", args.ref] if args.ref else []
        started = time.perf_counter()
        subprocess.run(["git", "clone", "--quiet", *ref, args.repo, str(clone)], check=True)
        cloned = time.perf_counter() - started
        port = free_port()
        log = open(Path(tmp) / "serve.log", "wb")  # noqa: SIM115 (closed below)
        env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH")}
        proc = subprocess.Popen(
            ["make", "serve", f"PORT={port}", "LADDER=0"],
            cwd=clone,
            stdout=log,
            stderr=subprocess.STDOUT,
            env=env,
            start_new_session=True,
        )
        try:
            while True:
                if proc.poll() is not None:
                    sys.exit(f"make serve stopped:\n{(Path(tmp) / 'serve.log').read_text()}")
                if time.perf_counter() - started > args.timeout:
                    sys.exit("no page in time")
                try:
                    with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2) as r:
                        if r.status == 200 and b"<html" in r.read().lower():
                            break
                except OSError:
                    pass
                time.sleep(0.2)
            total = time.perf_counter() - started
        finally:
            os.killpg(proc.pid, signal.SIGTERM)
            proc.wait(30)
            log.close()
    print(f"clone {cloned:.1f} s; clone to a served page (make serve) {total:.1f} s")


if __name__ == "__main__":
    main()
