"""Shared test settings: bounded Hypothesis runs so `make test` stays fast on 2 cores."""

import os

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
