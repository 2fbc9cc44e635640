"""Running a coroutine from a test, whatever else the worker process is doing."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

T = TypeVar("T")


def run(coroutine: Coroutine[Any, Any, T]) -> T:
    """`asyncio.run` in a thread of its own: a test worker that ran a browser test keeps
    Playwright's event loop running in its main thread, where `asyncio.run` refuses."""
    with ThreadPoolExecutor(1) as thread:
        return thread.submit(asyncio.run, coroutine).result()
