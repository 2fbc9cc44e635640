"""A fixture for tests that count a rate limit's refusals exactly.

The `limits` library's sliding-window counter keeps its counts in fixed steps of
time, multiples of the window since the epoch, and weighs the last step's count by
how much of it still overlaps the window. A burst that straddles a step is therefore
weighed as partly spent, and one more request gets through. That is the algorithm,
not a fault; but a test that expects the exact burst would fail now and then. Such a
test runs one second into a day (the clock still ticks), where every window that
divides a day begins."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
import time_machine

DAY = 86_400


@pytest.fixture
def window_start() -> Iterator[None]:
    midnight = int(time.time()) // DAY * DAY
    with time_machine.travel(midnight + 1, tick=True):
        yield
