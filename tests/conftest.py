"""Shared test settings: bounded Hypothesis runs so `make test` stays fast on 2 cores."""

from hypothesis import HealthCheck, settings

settings.register_profile(
    "default",
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    print_blob=True,
)
settings.load_profile("default")
