"""Browser tests: a real server in a subprocess, driven by headless Chromium through Playwright.

The server runs on 127.0.0.1 with a free port and a temporary SQLite file; tables are made with
bot pace "instant" (bot delay 0). Chromium is Debian's (/usr/bin/chromium): Playwright never
downloads a browser here. Without it every browser test is skipped, with the reason said
(each test module checks CHROMIUM at import).
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect, sync_playwright

# The page's own waits are short; the suite runs in two workers beside servers and
# bots on two cores, where a chat line or an update can take longer than 5 s to show.
expect.set_options(timeout=15_000)

CHROMIUM = Path(os.environ.get("DICEHALL_CHROMIUM", "/usr/bin/chromium"))
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screenshots"

NO_CHROMIUM = f"Chromium not found at {CHROMIUM}: browser tests skipped"

SERVE = (
    "import sys; from dicehall.cli import main; "
    "main(['serve', '--host', '127.0.0.1', '--port', sys.argv[1], '--db', sys.argv[2]])"
)

ONE_ADDRESS = {
    f"DICEHALL_{name.upper()}": "100000"
    for name in (
        "tables_per_minute", "tables_burst", "joins_per_minute", "joins_burst",
        "waiting_per_address", "waiting_per_account", "odds_per_minute", "odds_burst",
        "reviews_per_minute", "reviews_burst",
        "registrations_per_hour", "registrations_burst", "sockets_per_address",
        "sockets_per_account",
    )
}  # fmt: skip
"""Every page of the suite comes from 127.0.0.1: the per-address and per-account limits
are for many people, not for one test run (tests/server/test_limits.py tests them)."""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def wait_until_up(url: str, process: subprocess.Popen[bytes], seconds: float = 20) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the server exited with code {process.returncode}")
        try:
            with urllib.request.urlopen(f"{url}/api/games", timeout=1) as response:
                json.load(response)
                return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"the server did not answer at {url} within {seconds} s")


def start_server(port: int, db: Path) -> subprocess.Popen[bytes]:
    """`dicehall serve` on 127.0.0.1:port over an SQLite file, answering when this returns."""
    process = subprocess.Popen(
        [sys.executable, "-c", SERVE, str(port), str(db)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env={**os.environ, "PYTHONUNBUFFERED": "1", **ONE_ADDRESS},
    )
    try:
        wait_until_up(f"http://127.0.0.1:{port}", process)
    except RuntimeError:
        stop_server(process)
        raise
    return process


def stop_server(process: subprocess.Popen[bytes]) -> None:
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


@pytest.fixture(scope="session")
def server_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The SQLite file of the `server` fixture's server."""
    return tmp_path_factory.mktemp("server") / "dicehall.sqlite"


@pytest.fixture(scope="session")
def server(server_db: Path) -> Iterator[str]:
    """The base URL of a fresh server on its own SQLite file."""
    port = free_port()
    process = start_server(port, server_db)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        stop_server(process)


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def new_page(browser: Browser) -> Iterator[Any]:
    """Pages in fresh browser contexts (a context is one browser's storage: one player).

    Every page records its JavaScript errors; a test fails if any page had one.
    """
    contexts = []
    errors: list[str] = []

    def make(width: int = 1280, height: int = 900) -> Page:
        context = browser.new_context(viewport={"width": width, "height": height})
        context.grant_permissions(["clipboard-read", "clipboard-write"])
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(15_000)
        page.on("pageerror", lambda e: errors.append(str(e)))
        return page

    yield make
    for context in contexts:
        context.close()
    assert not errors, f"JavaScript errors on the page: {errors}"


def screenshot(page: Page, name: str) -> None:
    """Save a screenshot of the page as a test artifact (git-ignored)."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=True)
