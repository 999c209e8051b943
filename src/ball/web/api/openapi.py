"""The OpenAPI document says what the app really answers (tested by schemathesis against a
live `ball serve`, tests/web/test_openapi_live.py).

- One error body everywhere: `{"detail": "one line naming the fault"}` (`ErrorBody`). The
  app's 422 handler (`ball.web.app`) sends that, not FastAPI's list of validation errors, so
  every 422 in the document points at `ErrorBody`.
- Every operation documents 400, 413 and 429 as generic answers of the layers in front of
  the routes (a value the database refuses, the request size limit, the rate limits), so a
  client learns them once and a new middleware needs no change here.
- Routers document their own statuses with the helpers below: `json_errors(404, 409)` for
  the JSON APIs, `page_errors(...)` for the arbiter desk, whose form routes answer with an
  HTML page (a form fault, a stale save) or a JSON body (no session, bad CSRF token, no such
  event), and `SEE_OTHER` / `TEMPORARY_REDIRECT` for redirects (no body documented).
- Pages are `response_class=HTMLResponse` (text/html); PDFs are `application/pdf`.
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi
from pydantic import BaseModel, Field

ERROR_REF = "#/components/schemas/ErrorBody"

WHY = {
    400: "Bad input: the value is refused (detail names it)",
    401: "No desk session: sign in with the event PIN first",
    403: "Refused: cross-site request, wrong CSRF token or wrong PIN",
    404: "No such resource (an id beyond the id range names nothing either)",
    409: "Conflict: the state moved on (stale version, not allowed now)",
    413: "The request body is too large",
    422: "The request does not match the documented parameters or body",
    429: "Too many attempts: try again later",
    503: "The server holds as many of these as it keeps: try again later",
}
GLOBAL_STATUSES = (400, 413, 429)


class ErrorBody(BaseModel):
    """The body of every JSON error answer."""

    detail: str = Field(description="One line naming what was wrong")


def json_errors(*codes: int) -> dict[int | str, dict[str, Any]]:
    """`responses=` for JSON routes: each status with an `ErrorBody` (named outright: a
    `model` would be filed under the route's own media type, text/html on a page)."""
    return {code: {"description": WHY[code], "content": _json_error()} for code in codes}


def page_errors(*codes: int) -> dict[int | str, dict[str, Any]]:
    """`responses=` for pages and HTML forms: an HTML page or an `ErrorBody`."""
    return {
        code: {
            "description": WHY[code],
            "content": {**_json_error(), "text/html": {"schema": {"type": "string"}}},
        }
        for code in codes
    }


SEE_OTHER: dict[int | str, dict[str, Any]] = {
    303: {"description": "See Other: to the next page (or to the PIN page, when signed out)"}
}
TEMPORARY_REDIRECT: dict[int | str, dict[str, Any]] = {
    307: {"description": "Temporary Redirect to the page named in Location"}
}
PDF: dict[int | str, dict[str, Any]] = {
    200: {
        "description": "The PDF file",
        "content": {"application/pdf": {"schema": {"type": "string", "format": "binary"}}},
    }
}


def _json_error() -> dict[str, Any]:
    return {"application/json": {"schema": {"$ref": ERROR_REF}}}


def _error_content() -> dict[str, Any]:
    return {
        **_json_error(),
        "text/plain": {"schema": {"type": "string"}},
        "text/html": {"schema": {"type": "string"}},
    }


def make_true(doc: dict[str, Any]) -> dict[str, Any]:
    """Rewrite FastAPI's generated document to the answers the app gives (in place)."""
    schemas = doc.setdefault("components", {}).setdefault("schemas", {})
    schemas["ErrorBody"] = ErrorBody.model_json_schema()
    for operations in doc.get("paths", {}).values():
        for operation in operations.values():
            responses = operation.setdefault("responses", {})
            invalid = responses.get("422")
            if invalid is not None:  # FastAPI's HTTPValidationError; the app sends ErrorBody
                invalid["description"] = WHY[422]
                invalid["content"] = _json_error()
            for code in GLOBAL_STATUSES:
                responses.setdefault(
                    str(code), {"description": WHY[code], "content": _error_content()}
                )
    for unused in ("HTTPValidationError", "ValidationError"):
        schemas.pop(unused, None)
    return doc


def install(app: FastAPI) -> None:
    """Serve the rewritten document at /openapi.json (built once, on first request)."""

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            doc = get_openapi(
                title=app.title,
                version=app.version,
                summary=app.summary,
                description=app.description,
                routes=app.routes,
            )
            app.openapi_schema = make_true(doc)
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]
