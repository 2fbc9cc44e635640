"""Bounded pools that keep slow work off the event loop.

Every table runs on the server's one event loop, so anything that takes more
than a few milliseconds there (odds, advice, a bot's search, a database write
that waits for a lock) would freeze every table at once. Such work goes to a
`Pool`: a thread or process executor with a cap on the jobs running or
waiting. Past the cap a job is refused at once with `Busy` (503 with
Retry-After over HTTP, an error message over the WebSocket) instead of
queueing without end.

Worker processes run at a lower priority than the server (`WORKER_NICENESS`):
on a machine with few cores an odds job that takes a core for seconds would
otherwise hold up every table's moves, which are the work people wait for.
They die with the server: each watches its parent and ends itself when the
server is gone, however it went (kill -9 included), so a killed server leaves
no odds worker computing for nobody.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

log = logging.getLogger("dicehall.server")

T = TypeVar("T")

PARENT_CHECK_SECONDS = 0.5
WORKER_NICENESS = 10


def worker_start(parent: int) -> None:
    """In a new worker process: yield the CPU to the server, and end with it."""
    with contextlib.suppress(OSError):  # where priorities cannot change, run as is
        os.nice(WORKER_NICENESS)
    _watch_parent(parent)


def _watch_parent(parent: int) -> None:
    """In a worker process: end it as soon as the server process `parent` is gone.

    A thread polls the parent's id (an orphan is handed to another process). Linux's
    PR_SET_PDEATHSIG would signal at once, but it fires when the parent's *thread*
    that started the worker ends, not the process, and workers are started from
    whichever thread submits; the poll has no such trap and works everywhere.
    """

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_CHECK_SECONDS)
        os._exit(0)

    if os.getppid() != parent:  # gone before we got here
        os._exit(0)
    threading.Thread(target=watch, name="dicehall-parent-watch", daemon=True).start()


THREAD_NICENESS = 5  # added to the server's own


def _lower_thread_priority() -> None:
    """In a new pool thread: Linux gives each thread a niceness of its own; this one's is
    the server's plus THREAD_NICENESS (not a fixed figure: a server run ahead of other work
    keeps its threads ahead of it too)."""
    with contextlib.suppress(OSError, AttributeError):
        me = threading.get_native_id()
        os.setpriority(os.PRIO_PROCESS, me, os.getpriority(os.PRIO_PROCESS, me) + THREAD_NICENESS)


class Busy(Exception):
    """The server cannot take this on now (503); retry_after is in whole seconds."""

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class Pool:
    """At most `limit` jobs running or waiting in an executor made on first use.

    `workers` threads, or processes with `processes=True` (for pure-Python CPU
    work, which in a thread would still hold the interpreter lock the event
    loop needs). `workers=0` runs jobs inline: for an in-memory database,
    whose one connection may not cross threads.
    """

    def __init__(
        self,
        what: str,
        workers: int,
        limit: int,
        processes: bool = False,
        retry_after: int = 5,
        lower_priority: bool = False,
    ) -> None:
        self.what = what
        # threads that yield the CPU to the event loop (password hashes: tens of ms of CPU
        # each, which on a server of one core would otherwise delay every table's messages)
        self.lower_priority = lower_priority
        self.workers = workers
        self.limit = limit
        self.processes = processes
        self.retry_after = retry_after
        self.pending = 0
        self._executor: Executor | None = None

    def executor(self) -> Executor:
        if self._executor is None:
            if self.processes:
                # spawn, not fork: the server has threads, and a forked child would inherit
                # their locks mid-flight
                context = multiprocessing.get_context("spawn")
                self._executor = ProcessPoolExecutor(
                    self.workers,
                    mp_context=context,
                    initializer=worker_start,
                    initargs=(os.getpid(),),
                )
            else:
                self._executor = ThreadPoolExecutor(
                    self.workers,
                    f"dicehall-{self.what}",
                    initializer=_lower_thread_priority if self.lower_priority else None,
                )
        return self._executor

    def busy(self) -> Busy:
        return Busy(
            f"the server is busy with {self.what}; try again in {self.retry_after} s",
            self.retry_after,
        )

    def submit(self, fn: Callable[..., T], *args: Any) -> asyncio.Future[T]:
        """Start a job (or refuse it with Busy); the future can be shielded and shared."""
        if self.pending >= self.limit:
            raise self.busy()
        loop = asyncio.get_running_loop()
        if self.workers == 0:
            future: asyncio.Future[T] = loop.create_future()
            try:
                future.set_result(fn(*args))
            except Exception as e:
                future.set_exception(e)
            return future
        try:
            future = asyncio.wrap_future(self.executor().submit(fn, *args), loop=loop)
        except (BrokenProcessPool, RuntimeError):
            self._replace()
            raise self.busy() from None
        self.pending += 1
        future.add_done_callback(self._done)
        return future

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        try:
            return await self.submit(fn, *args)
        except BrokenProcessPool:
            self._replace()
            raise self.busy() from None

    def _done(self, future: asyncio.Future[Any]) -> None:
        self.pending -= 1
        if not future.cancelled() and isinstance(future.exception(), BrokenProcessPool):
            self._replace()

    def _replace(self) -> None:
        """A worker process died (killed, out of memory): start afresh on the next job."""
        if self._executor is not None:
            log.error("%s: a worker process died; starting new ones", self.what)
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None

    def warm(self) -> None:
        """Start every worker now rather than on the first requests: processes take a while
        to start, and the executor starts them in the thread that submits, the event
        loop's. One job per worker at once, as none is idle yet, starts each of them."""
        if self.workers and self.processes:
            executor = self.executor()
            for _ in range(self.workers):
                executor.submit(int)

    def close(self) -> None:
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None
