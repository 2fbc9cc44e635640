"""The worker pools: a worker process ends with the server that started it."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

SERVER = """
import asyncio, os
from dicehall.server.ops.workers import Pool

async def main() -> None:
    pool = Pool("odds and advice", 1, 4, processes=True)
    print(await pool.run(os.getpid), flush=True)
    await asyncio.sleep(3600)

asyncio.run(main())
"""


def alive(pid: int) -> bool:
    """Running, not gone and not a zombie waiting for whoever adopted it."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] not in ("Z", "X")


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
def test_a_worker_process_dies_with_its_killed_server() -> None:
    server = subprocess.Popen([sys.executable, "-c", SERVER], stdout=subprocess.PIPE, text=True)
    worker = None
    try:
        assert server.stdout is not None
        worker = int(server.stdout.readline())
        assert worker != server.pid and alive(worker)
        server.send_signal(signal.SIGKILL)
        server.wait(timeout=30)
        deadline = time.monotonic() + 60
        while alive(worker) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not alive(worker), "the odds worker outlived its killed server"
    finally:
        server.kill()
        server.wait(timeout=30)
        if worker is not None and alive(worker):
            os.kill(worker, signal.SIGKILL)
