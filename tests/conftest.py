"""Shared test settings: bounded Hypothesis runs so `make test` stays fast on 2 cores."""

import faulthandler
import os
import sys
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "default",
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    print_blob=True,
)
settings.load_profile("default")

# Tests compute every table afresh and write nothing under the user's cache
# folder; the cache's own tests point it at a temporary folder.
os.environ["DICEHALL_CACHE"] = "off"

HUNG_TEST_SECONDS = 900
"""A test still running after this long is stuck, not slow (the slowest take about two
minutes on a loaded machine): print every thread's stack and end the run, so that a
hang is a failure with its cause on screen rather than a run that never finishes."""


@pytest.fixture(autouse=True)
def _hang_watchdog() -> Iterator[None]:
    faulthandler.dump_traceback_later(HUNG_TEST_SECONDS, exit=True, file=sys.__stderr__)
    try:
        yield
    finally:
        faulthandler.cancel_dump_traceback_later()
