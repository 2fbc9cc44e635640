"""The OpenAPI document matches the server: a bounded schemathesis run over every
REST route with every one of its checks (`schemathesis --checks all`: no server error,
no undocumented status code or content type, no answer that breaks its declared schema,
no malformed request taken, no schema-valid request refused ...) finds nothing.

One allowance, stated: five routes take bodies whose validity depends on the rules
(a game's seats, options and bots; a transcript's steps; a name's being reserved), more
than a schema can say; a schema-valid body those rules refuse gets a 400 that names
what was wrong, as the document declares, so schemathesis' "schema-valid request
accepted" check is replaced there by exactly that.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import schemathesis
from hypothesis import HealthCheck, given, settings
from schemathesis.checks import positive_data_acceptance

from tests.server.helpers import running

RULE_DEPENDENT = {
    ("POST", "/api/tables"),
    ("POST", "/api/replay"),
    ("POST", "/api/review"),
    ("POST", "/api/quickmatch"),
    ("POST", "/api/account/register"),
}


def test_every_route_answers_as_documented(tmp_path: Path) -> None:
    with running(tmp_path / "db.sqlite") as client:  # lifespan started: the hall is up
        schema = schemathesis.openapi.from_asgi("/openapi.json", client.app)
        operations = [result.ok() for result in schema.get_all_operations()]
        assert len(operations) >= 10
        for operation in operations:
            check_operation(operation, (operation.method.upper(), operation.path) in RULE_DEPENDENT)


def check_operation(operation: Any, by_rules: bool) -> None:
    @given(case=operation.as_strategy())
    @settings(max_examples=12, deadline=None, suppress_health_check=list(HealthCheck))
    def check(case: Any) -> None:
        if not by_rules:
            case.call_and_validate()  # every built-in check
            return
        answer = case.call_and_validate(excluded_checks=[positive_data_acceptance])
        if answer.status_code == 400:
            assert answer.json()["detail"], "a 400 says what was wrong"

    check()
