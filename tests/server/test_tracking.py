"""Sealed dice tracked in a worker process, as a server that computes in processes does:
every audience is given exactly the openings that tracking in line gives it, once each,
and a worker killed mid-game costs nothing (the table sends its steps again)."""

from __future__ import annotations

import os
import signal
from concurrent.futures import ProcessPoolExecutor

import pytest

from dicehall.server.tables.tracking import Tracker
from tests.sealed_play import sealed_game

GAMES = ["kariki", "tepiiku", "toplshteyner", pytest.param("tao", marks=pytest.mark.slow)]


def by_throw(got: dict[int | None, list[dict[str, object]]]) -> dict[int | None, list[object]]:
    return {a: [o["throw"] for o in openings] for a, openings in got.items()}


def kill_worker(tracker: Tracker) -> None:
    executor = tracker._executor
    assert isinstance(executor, ProcessPoolExecutor)
    for pid in list(executor._processes):  # type: ignore[attr-defined]
        os.kill(pid, signal.SIGKILL)


@pytest.mark.parametrize("gid", GAMES)
def test_a_worker_process_gives_each_audience_what_tracking_in_line_gives(gid: str) -> None:
    inline, expected = sealed_game(gid, 5)
    tracker = Tracker(processes=True)
    try:
        transcript, got = sealed_game(gid, 5, tracker=tracker)
        first = tracker._executor
        killed, after_kill = sealed_game(
            gid, 5, tracker=tracker, midway=lambda: kill_worker(tracker)
        )
        assert tracker._executor is not first  # the killed worker was replaced
    finally:
        tracker.close()
    assert transcript == killed == inline
    for openings in (got, after_kill):
        assert by_throw(openings) == by_throw(expected)
        assert openings == expected
