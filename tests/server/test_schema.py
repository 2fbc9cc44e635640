"""The OpenAPI document matches the server: a bounded schemathesis run over every
REST route finds no server error, no undocumented status code and no answer
that breaks its declared schema."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import schemathesis
from hypothesis import HealthCheck, given, settings
from schemathesis.checks import (
    content_type_conformance,
    not_a_server_error,
    response_schema_conformance,
    status_code_conformance,
)

from tests.server.helpers import running

CHECKS = (
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
)


def test_every_route_answers_as_documented(tmp_path: Path) -> None:
    with running(tmp_path / "db.sqlite") as client:  # lifespan started: the hall is up
        schema = schemathesis.openapi.from_asgi("/openapi.json", client.app)
        operations = [result.ok() for result in schema.get_all_operations()]
        assert len(operations) >= 10
        for operation in operations:

            @given(case=operation.as_strategy())
            @settings(max_examples=12, deadline=None, suppress_health_check=list(HealthCheck))
            def check(case: Any) -> None:
                case.call_and_validate(checks=CHECKS)

            check()
