"""Where live sealed tables learn whom each throw has been shown to: away from the event loop.

`core.shown.ShownThrows` replays every step of a sealed table, with probes,
to learn whom each throw has been shown to: about as much work again as the
table's own moves (in a profile of a loaded server, 40% of its busy time).
In a thread of the server's process that work holds the interpreter lock the
event loop needs, and every table's moves wait for it. So a server that
computes in processes follows its sealed tables in one worker process of its
own: the worker holds a `ShownThrows` per table and answers each step with
the (throw, audience) pairs it showed. One worker and one queue keep each
table's steps in order.

A worker that dies loses its copies and nothing else: each table keeps its
steps, sends them all again with its next job (or when its transcript is
asked for), and ignores the pairs it already knew, so nothing is told twice.
"""

from __future__ import annotations

import contextlib
import logging
import multiprocessing
import os
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import (
    CancelledError,
    Executor,
    Future,
    ProcessPoolExecutor,
    ThreadPoolExecutor,
)
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from dicehall.core.game import Game
from dicehall.core.shown import Audience, ShownThrows, Step
from dicehall.server.workers import worker_start

log = logging.getLogger("dicehall.server")

Shown = list[tuple[int, Audience]]
"""(throw, audience) pairs: the throw has just been shown to the audience."""

_followed: dict[str, ShownThrows] = {}
"""In the worker (or the tracking thread): each table's game so far, by the table's key."""


class Forgotten(LookupError):
    """The worker does not know the table (it was restarted): send every step again."""


def follow_steps(key: str, game: Game | None, steps: Sequence[Step]) -> Shown:
    """In the worker: follow a table's new steps. With `game` the table starts afresh
    (its first job, or all its steps again after a worker was lost)."""
    if game is not None:
        _followed[key] = ShownThrows(game)
    shown = _followed.get(key)
    if shown is None:
        raise Forgotten(key)
    found: Shown = []
    for step in steps:
        found += shown.step(step)
    if shown.state.is_over():
        del _followed[key]  # nothing after the end shows anything
    return found


def forget(key: str) -> None:
    _followed.pop(key, None)


class Tracker:
    """One worker, a process (`processes=True`) or a thread, made on first use."""

    def __init__(self, processes: bool) -> None:
        self.processes = processes
        self._executor: Executor | None = None
        self._lock = threading.Lock()
        # answers are handed on from a thread of their own: a process pool's executor
        # calls back holding a lock that submitting needs, and a table's lock is taken
        # both around submitting and around reading an answer
        self._answers = ThreadPoolExecutor(1, "dicehall-shown-answers")
        self.closed = False  # the server stops: nothing more is followed

    def submit(self, key: str, game: Game | None, steps: Sequence[Step]) -> Future[Shown]:
        """Follow steps in the worker; a worker lost meanwhile fails the future
        (BrokenProcessPool), and one started since fails it with Forgotten."""
        with self._lock:
            if self.closed:
                raise CancelledError("the server is stopping")
            if self._executor is None:
                self._executor = self._start()
            try:
                return self._executor.submit(follow_steps, key, game, list(steps))
            except (BrokenProcessPool, RuntimeError):
                log.error("sealed-dice tracking: the worker process died; starting a new one")
                self._executor.shutdown(wait=False, cancel_futures=True)
                self._executor = self._start()
                return self._executor.submit(follow_steps, key, game, list(steps))

    def answered(self, job: Future[Shown], take: Callable[[Future[Shown]], None]) -> None:
        """Call `take(job)` when the job is done, in the answers thread, in order."""

        def hand_on(done: Future[Shown]) -> None:
            with contextlib.suppress(RuntimeError):  # after close: nobody waits for it
                self._answers.submit(take, done)

        job.add_done_callback(hand_on)

    def forget(self, key: str) -> None:
        with self._lock:
            if self._executor is not None:
                # a lost worker's successor knows nothing to forget
                with contextlib.suppress(BrokenProcessPool, RuntimeError):
                    self._executor.submit(forget, key)

    def _start(self) -> Executor:
        if not self.processes:
            return ThreadPoolExecutor(1, "dicehall-shown")
        # spawn, not fork: the server has threads (workers.py says why)
        return ProcessPoolExecutor(
            1,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=worker_start,
            initargs=(os.getpid(),),
        )

    def warm(self) -> None:
        """Start the worker now rather than at the first sealed throw (a process takes a while)."""
        self.submit("", None, []).add_done_callback(_ignore)

    def close(self) -> None:
        with self._lock:
            executor, self._executor = self._executor, None
            self.closed = True
        if executor is not None:  # outside the lock: cancelled jobs' callbacks run here
            executor.shutdown(wait=False, cancel_futures=True)
        self._answers.shutdown(wait=False)


def _ignore(future: Future[Any]) -> None:
    future.exception()
