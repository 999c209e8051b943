"""405 Method Not Allowed with the path's real methods (issue 30 item 15).

Starlette answers 405 from the first route whose path matches and lists only that route's
methods in `Allow`, though a resource is often several routes (GET /api/games and POST
/api/games). And a path that only another route's parameter swallows (GET /desk/events,
taken by GET /desk/{event_id} with an int id) got 422 for its "id", where the resource
/desk/events exists and takes POST only. Both answers are made here from every route of
the app, so a router added later is covered without a change here.
"""

from __future__ import annotations

from fastapi import FastAPI, Request
from fastapi.exception_handlers import http_exception_handler
from fastapi.responses import JSONResponse, Response
from fastapi.routing import iter_route_contexts
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import BaseRoute

# The order `Allow` lists methods in (any others follow, sorted).
ORDER = ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS")


def allowed(request: Request, *, but: BaseRoute | None = None) -> list[str]:
    """Every method, in ORDER, of the routes whose path pattern matches `request`'s path,
    nested routers included; with `but`, the route that refused a path parameter (a pattern
    matches whether or not its parameters would convert), only the more literal ones."""
    path = request.url.path
    # With `but`: only patterns more literal than its own (fewer parameters) name another
    # resource; its other methods share the refused parameter, and a wider pattern
    # (.../{table}/{what} beside .../{table}/close) is no better a match.
    most = str(getattr(but, "path", "")).count("{") - 1 if but is not None else None
    by_template: dict[str, set[str]] = {}
    for context in iter_route_contexts(request.app.routes):
        methods = getattr(context, "methods", None)
        regex = getattr(context, "path_regex", None)
        pattern = context.path or ""
        if not methods or regex is None or (most is not None and pattern.count("{") > most):
            continue
        if regex.fullmatch(path):
            by_template.setdefault(pattern, set()).update(methods)
    if not by_template:
        return []
    # The resource is the pattern with the fewest parameters: /desk/events, not the
    # /desk/{event_id} that also matches it (and whose id "events" would not convert).
    fewest = min(t.count("{") for t in by_template)
    found = set().union(*(m for t, m in by_template.items() if t.count("{") == fewest))
    return sorted(found, key=lambda m: (ORDER.index(m) if m in ORDER else len(ORDER), m))


def not_allowed(methods: list[str]) -> JSONResponse:
    return JSONResponse(
        {"detail": f"method not allowed here; allowed: {', '.join(methods)}"},
        status_code=405,
        headers={"Allow": ", ".join(methods)},
    )


def path_taken_by_another_route(request: Request) -> list[str]:
    """For a request refused because a path parameter did not convert: the methods of the
    other routes whose literal path is this one (GET /desk/events: POST), else []."""
    route = request.scope.get("route")
    return allowed(request, but=route) if route is not None else []


def install(app: FastAPI) -> None:
    """Answer every 405 with the `Allow` of all the path's routes."""

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> Response:
        if exc.status_code == 405:
            methods = allowed(request)
            if methods:
                return not_allowed(methods)
        return await http_exception_handler(request, exc)
