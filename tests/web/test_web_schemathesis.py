"""Schemathesis against the server's own OpenAPI spec (``/api/openapi.json``): every
operation, with bodies and path parameters generated from the schemas, both valid and
not. The server runs in this process (tests/web/hostile_helpers.py) with its limits off.

Checks: no 5xx; an error is a 4xx whose body is ``{"error": "one line"}``; the server
logged no error or traceback. ``slow``: ten times as many examples."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from hostile_helpers import InProcess, Records, served
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error

from ono99.web.limits import Limits

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

_LIVE: dict[str, Any] = {}


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[InProcess, Records]]:
    with served(tmp_path_factory.mktemp("schemathesis"), Limits.off()) as (srv, records):
        _LIVE["records"] = records
        yield srv, records
        assert records.problems() == [], records.text()[-3000:]


@pytest.fixture(scope="module")
def api_schema(live: tuple[InProcess, Records]) -> Any:
    return schemathesis.openapi.from_url(live[0].url + "/api/openapi.json")


schema = schemathesis.pytest.from_fixture("api_schema")


def _check(case: Any) -> None:
    response = case.call(timeout=30)
    case.validate_response(response, checks=[not_a_server_error])
    assert response.status_code < 500
    if response.status_code >= 400:
        body = response.json()
        assert isinstance(body, dict) and isinstance(body.get("error"), str), body
        assert body["error"] and "\n" not in body["error"]
    records: Records = _LIVE["records"]
    assert records.problems() == [], records.text()[-3000:]


QUICK = settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=list(HealthCheck),
)


@pytest.mark.slow
@schema.parametrize()
@QUICK
def test_openapi(case: Any) -> None:
    _check(case)


@pytest.mark.slow
@schema.parametrize()
@settings(QUICK, max_examples=200)
def test_openapi_long(case: Any) -> None:
    _check(case)
