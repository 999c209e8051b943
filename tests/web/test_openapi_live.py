"""The OpenAPI document is true: schemathesis generates requests for every operation from
/openapi.json and sends them to a live `ball serve` process (fixture `server_process`); each
answer must have a documented status code and content type, a JSON body matching the
documented schema, and no status in the 5xx range.

Bounded: a few derandomized examples per operation (positive and negative), no redirects
followed (the desk answers 303 to the PIN page). The PDF operations are left out of the
fuzzing (one rendering takes seconds on a shared machine); tests/printing covers them and one
request here checks their documented content type."""

from __future__ import annotations

import urllib.request

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis.errors import Unsatisfiable
from schemathesis.checks import not_a_server_error
from schemathesis.core.failures import Failure, FailureGroup
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

pytestmark = pytest.mark.slow

CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
]
EXAMPLES = 6  # per operation and generation mode: ~50 operations stay within a minute or two
SLOW = ("/print/regulation.pdf", "/print/forms.pdf")


def _fuzz(operation, mode, base_url: str) -> list[str]:
    """Failures found for one operation (empty when every answer is as documented)."""
    found: list[str] = []

    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(case=operation.as_strategy(generation_mode=mode))
    def run(case) -> None:
        try:
            case.call_and_validate(
                base_url=base_url, checks=CHECKS, allow_redirects=False, timeout=60
            )
        except (Failure, FailureGroup) as exc:  # one failed check, or several at once
            checks = exc.exceptions if isinstance(exc, FailureGroup) else [exc]
            found.extend(f"{operation.label} [{mode}]: {str(c)[:600]}" for c in checks)

    try:
        run()
    except Unsatisfiable:  # nothing to make invalid (an operation without parameters)
        if mode is schemathesis.GenerationMode.POSITIVE:
            raise
    return found


def test_every_answer_is_documented(server_process):
    server = server_process(demo=True)
    schema = schemathesis.openapi.from_url(server.url + "/openapi.json")
    failures: list[str] = []
    tested = 0
    for result in schema.get_all_operations():
        operation = result.ok()
        if operation.path in SLOW:
            continue
        for mode in (schemathesis.GenerationMode.POSITIVE, schemathesis.GenerationMode.NEGATIVE):
            failures += _fuzz(operation, mode, server.url)
        tested += 1
    assert tested >= 45, f"only {tested} operations in the document"
    assert not failures, "\n\n".join(failures)


def test_pdf_operations_answer_as_documented(server_process):
    server = server_process()
    url = server.url + "/print/regulation.pdf?lang=xx"
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(url, timeout=60)
    assert refused.value.code in (400, 422)
    assert refused.value.headers["content-type"] == "application/json"
