"""The request's language as pure ASGI middleware: `request.state.lang` and its cookie.

Pure ASGI rather than `@app.middleware("http")` (Starlette's BaseHTTPMiddleware), which
wrapped every request in an extra task and stream and cost about a sixth of a simulator
action (issue 15). The choice itself is `ball.web.i18n.pick_language`.
"""

from __future__ import annotations

from starlette.datastructures import MutableHeaders
from starlette.requests import HTTPConnection
from starlette.responses import Response

from ball.web.i18n import COOKIE, pick_language


def _cookie_header(lang: str) -> str:
    """The Set-Cookie value that remembers `lang` for a year (as Starlette writes it)."""
    response = Response()
    response.set_cookie(COOKIE, lang, max_age=365 * 24 * 3600)
    return response.headers["set-cookie"]


def choice_inputs(scope) -> tuple[str | None, str | None, str | None]:
    """`?lang=`, the cookie and Accept-Language, as `HTTPConnection` reads them. Issue 15:
    parsing the query and the headers into Starlette's structures cost a few per cent of a
    simulator action, and most requests carry no cookie and no query that could name
    `lang` (neither the word nor an escape): then only the headers are scanned."""
    query_string = scope.get("query_string", b"")
    accept = None
    has_cookie = False
    for name, value in scope["headers"]:
        if name == b"cookie":
            has_cookie = True
        elif name == b"accept-language" and accept is None:  # the first, as Headers.get
            accept = value.decode("latin-1")
    if has_cookie or b"lang" in query_string or b"%" in query_string:
        conn = HTTPConnection(scope)
        return conn.query_params.get("lang"), conn.cookies.get(COOKIE), accept
    return None, None, accept


class Language:
    """Sets `request.state.lang` from `?lang=`, the cookie, Accept-Language, then English;
    a `?lang=` that names a language is remembered in the cookie."""

    def __init__(self, app) -> None:
        self.app = app

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        query, cookie, accept = choice_inputs(scope)
        lang = pick_language(query, cookie, accept)
        # request.state is this dict (Starlette keeps a request's state in scope["state"])
        scope["state"] = {**scope.get("state", {}), "lang": lang}
        if not (query and query.lower() == lang):
            await self.app(scope, receive, send)
            return

        async def send_with_cookie(message) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": list(message.get("headers", []))}
                MutableHeaders(scope=message).append("set-cookie", _cookie_header(lang))
            await send(message)

        await self.app(scope, receive, send_with_cookie)
