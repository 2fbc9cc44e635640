"""Where live sealed tables learn whom each throw has been shown to: away from the event loop.

`core.shown.ShownThrows` replays every step of a sealed table, with probes,
to learn whom each throw has been shown to: about as much work again as the
table's own moves (in a profile of a loaded server, 40% of its busy time).
A game that declares what its steps show (Kariki) spares nearly all of it
(`State.declared_shown`; 0.02 ms a move at 500 seats, against 0.5 by replay).
In a thread of the server's process that work holds the interpreter lock the
event loop needs, and every table's moves wait for it. So a server that
computes in processes follows its sealed tables in one worker process of its
own: the worker holds a `ShownThrows` per table and answers each step with
the (throw, audience) pairs it showed. One worker and one queue keep each
table's steps in order. The steps go over in batches: a thread of the server
gathers every table's new steps for `HAND_OVER_SECONDS` and sends them as
one job, so the cost of a hand-over is paid once per batch, not per move.

A worker that dies loses its copies and nothing else: each table keeps its
steps, sends them all again with its next job (or when its transcript is
asked for), and ignores the pairs it already knew, so nothing is told twice.
"""

from __future__ import annotations

import contextlib
import functools
import logging
import multiprocessing
import os
import threading
import time
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
from dicehall.server.ops.workers import worker_start

log = logging.getLogger("dicehall.server")

Shown = list[tuple[int, Audience]]
"""(throw, audience) pairs: the throw has just been shown to the audience."""

Job = tuple[str, "Game | None", "list[Step] | None"]
"""A table's key, its game when it starts afresh, and its new steps (None: forget it)."""

HAND_OVER_SECONDS = 0.1
"""How long a table's steps wait for other tables' before they go to the worker together.
A hand-over to a process costs the server a pickling and the wake-ups of three threads
(the queue's feeder, the pool's manager, the answers thread): one per move was about a
third of a loaded server's CPU; with 10 ms batches the server itself still spent about
0.25 ms more on a sealed move than on a seed one at 500 seats, with 100 ms 0.06 ms
(benchmarks/results/server_load.md). Batched, it costs that
once per batch however many tables move, and an opening reaches its audience at most
that much later: it waits for the seat's next update anyway (live.OPENINGS_HOLD_SECONDS)."""

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


def follow_all(jobs: list[Job]) -> list[Shown | Exception]:
    """In the worker: a batch of tables' jobs, in order, each its own answer: what its
    steps showed, or the error it met (Forgotten ...), which leaves the others alone;
    a job without steps forgets its table."""
    answers: list[Shown | Exception] = []
    for key, game, steps in jobs:
        if steps is None:
            forget(key)
            answers.append([])
            continue
        try:
            answers.append(follow_steps(key, game, steps))
        except Exception as e:  # one table's failure is its own
            answers.append(e)
    return answers


class Tracker:
    """One worker, a process (`processes=True`) or a thread, made on first use, and the
    thread that hands it the tables' steps in batches (HAND_OVER_SECONDS)."""

    def __init__(self, processes: bool, hand_over_seconds: float = HAND_OVER_SECONDS) -> None:
        self.processes = processes
        self.hand_over_seconds = hand_over_seconds
        self._executor: Executor | None = None
        self._lock = threading.Lock()
        self._due = threading.Condition(self._lock)  # a job waits for the hand-over thread
        self._waiting: list[tuple[Job, Future[Shown]]] = []
        self._hands: threading.Thread | None = None
        # answers are handed on from a thread of their own: a process pool's executor
        # calls back holding a lock that submitting needs, and a table's lock is taken
        # both around submitting and around reading an answer
        self._answers = ThreadPoolExecutor(1, "dicehall-shown-answers")
        self.closed = False  # the server stops: nothing more is followed

    def submit(self, key: str, game: Game | None, steps: Sequence[Step]) -> Future[Shown]:
        """Follow steps in the worker, with the next batch; a worker lost meanwhile fails
        the future (BrokenProcessPool), and one started since fails it with Forgotten."""
        return self._queue((key, game, list(steps)))

    def answered(self, job: Future[Shown], take: Callable[[Future[Shown]], None]) -> None:
        """Call `take(job)` when the job is done, in the answers thread, in order."""

        def hand_on(done: Future[Shown]) -> None:
            with contextlib.suppress(RuntimeError):  # after close: nobody waits for it
                self._answers.submit(take, done)

        job.add_done_callback(hand_on)

    def forget(self, key: str) -> None:
        """The worker drops the table, after the steps already queued for it."""
        with contextlib.suppress(CancelledError):  # the server stops: the worker goes too
            self._queue((key, None, None))

    def _queue(self, job: Job) -> Future[Shown]:
        answer: Future[Shown] = Future()
        with self._lock:
            if self.closed:
                raise CancelledError("the server is stopping")
            if self._hands is None:
                self._hands = threading.Thread(
                    target=self._hand_over, name="dicehall-shown-hands", daemon=True
                )
                self._hands.start()
            self._waiting.append((job, answer))
            if len(self._waiting) == 1:
                self._due.notify()
        return answer

    def _hand_over(self) -> None:
        """The hand-over thread: wait for a job, let others gather behind it for
        `hand_over_seconds`, then send them all to the worker as one."""
        while True:
            with self._lock:
                while not self._waiting and not self.closed:
                    self._due.wait()
                if self.closed:
                    return
            time.sleep(self.hand_over_seconds)
            with self._lock:
                if self.closed:
                    return
                batch, self._waiting = self._waiting, []
                try:
                    done = self._send([job for job, _ in batch])
                except Exception as e:  # no worker could be started: these jobs fail
                    log.exception("sealed-dice tracking: no worker could take the steps")
                    done = Future()
                    done.set_exception(e)
            done.add_done_callback(functools.partial(self._hand_answers, batch))

    def _send(self, jobs: list[Job]) -> Future[list[Shown | Exception]]:
        """With the lock held: the batch to the worker, a new one if it died."""
        if self._executor is None:
            self._executor = self._start()
        try:
            return self._executor.submit(follow_all, jobs)
        except (BrokenProcessPool, RuntimeError):
            log.error("sealed-dice tracking: the worker process died; starting a new one")
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = self._start()
            return self._executor.submit(follow_all, jobs)

    def _hand_answers(
        self, batch: list[tuple[Job, Future[Shown]]], done: Future[list[Shown | Exception]]
    ) -> None:
        """From the worker's side: each job's answer, given in the answers thread."""
        with contextlib.suppress(RuntimeError):  # after close: nobody waits for them
            self._answers.submit(_give_answers, done, [answer for _, answer in batch])

    def _start(self) -> Executor:
        if not self.processes:
            return ThreadPoolExecutor(1, "dicehall-shown")
        # spawn, not fork: the server has threads (ops/workers.py says why)
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
            waiting, self._waiting = self._waiting, []
            self.closed = True
            self._due.notify_all()
        for _, answer in waiting:
            answer.cancel()
        if executor is not None:  # outside the lock: cancelled jobs' callbacks run here
            executor.shutdown(wait=False, cancel_futures=True)
        self._answers.shutdown(wait=False)


def _give_answers(done: Future[list[Shown | Exception]], answers: list[Future[Shown]]) -> None:
    """In the answers thread: a batch's outcome, job by job (a lost worker fails them all)."""
    try:
        outcomes: list[Shown | Exception] = done.result()
    except CancelledError:
        for answer in answers:
            answer.cancel()
        return
    except Exception as e:  # the worker died (BrokenProcessPool), or the batch failed
        outcomes = [e] * len(answers)
    for answer, outcome in zip(answers, outcomes, strict=True):
        if not answer.set_running_or_notify_cancel():
            continue
        if isinstance(outcome, Exception):
            answer.set_exception(outcome)
        else:
            answer.set_result(outcome)


def _ignore(future: Future[Any]) -> None:
    if not future.cancelled():  # a cancelled future has no exception to read: it raises
        future.exception()
