"""The OpenAPI document names the answers the app gives (the live fuzzing is in
test_openapi_live.py): one error body, pages as HTML, PDFs as PDF."""

from __future__ import annotations

import warnings

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore", DeprecationWarning)
    from fastapi.testclient import TestClient

from ball.web.app import create_app


@pytest.fixture(scope="module")
def doc():
    with TestClient(create_app()) as client:
        return client.get("/openapi.json").json()


def _operations(doc):
    for path, operations in doc["paths"].items():
        for method, operation in operations.items():
            yield path, method, operation


def test_every_error_is_the_one_error_body(doc):
    assert "HTTPValidationError" not in doc["components"]["schemas"]
    assert doc["components"]["schemas"]["ErrorBody"]["required"] == ["detail"]
    for path, method, operation in _operations(doc):
        for status, response in operation["responses"].items():
            if status.startswith("4"):
                schema = response["content"]["application/json"]["schema"]
                assert schema == {"$ref": "#/components/schemas/ErrorBody"}, (path, method, status)


def test_the_app_sends_the_documented_error_body():
    with TestClient(create_app()) as client:
        refused = client.get("/clock/api/clocks/not-a-number")
    assert refused.status_code == 422
    assert set(refused.json()) == {"detail"} and "clock_id" in refused.json()["detail"]


@pytest.mark.parametrize(
    ("path", "media"),
    [
        ("/desk", "text/html"),
        ("/desk/{event_id}", "text/html"),
        ("/desk/{event_id}/rounds/{number}/control.json", "application/json"),
        ("/public/{event_id}/standings", "text/html"),
        ("/clock/{clock_id}", "text/html"),
        ("/clock/api/clocks/{clock_id}", "application/json"),
        ("/print/forms.pdf", "application/pdf"),
    ],
)
def test_pages_are_html_and_files_have_their_type(doc, path, media):
    assert list(doc["paths"][path]["get"]["responses"]["200"]["content"]) == [media]


def test_signed_out_desk_answers_are_documented(doc):
    responses = doc["paths"]["/desk/{event_id}/entrants"]["post"]["responses"]
    assert {"303", "401", "403", "404"} <= set(responses)
