"""The request's language: which catalogue (`ball.i18n`) a request reads, and the pure ASGI
middleware that sets it (`request.state.lang` and its cookie).

The language comes, in this order, from `?lang=xx`, the `ball_lang` cookie, the browser's
Accept-Language header, and finally English. Pure ASGI rather than `@app.middleware("http")`
(Starlette's BaseHTTPMiddleware), which wrapped every request in an extra task and stream
and cost about a sixth of a simulator action (issue 15).
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path

from starlette.datastructures import MutableHeaders
from starlette.requests import HTTPConnection
from starlette.responses import Response

# The catalogue itself lives below every layer that shows text (ball.i18n); these names stay
# importable from here for the web's modules and tests.
from ball.games import GAMES
from ball.i18n import DEFAULT_LANGUAGE, LANGUAGES, LOCALES, gettext_for, translations

__all__ = [
    "COOKIE",
    "DEFAULT_LANGUAGE",
    "LANGUAGES",
    "LOCALES",
    "Language",
    "gettext_for",
    "choice_inputs",
    "js_messages",
    "pick_language",
    "translations",
]

COOKIE = "ball_lang"


def parse_accept_language(header: str | None) -> str | None:
    """The best supported language of an Accept-Language header, or None."""
    if not header:
        return None
    ranked: list[tuple[float, int, str]] = []
    for index, part in enumerate(header.split(",")):
        bits = part.strip().split(";")
        tag = bits[0].strip().lower()
        quality = 1.0
        for bit in bits[1:]:
            if bit.strip().startswith("q="):
                try:
                    quality = float(bit.strip()[2:])
                except ValueError:
                    quality = 0.0
        primary = tag.split("-")[0]
        if primary in LANGUAGES and quality > 0:
            ranked.append((-quality, index, primary))
    return min(ranked)[2] if ranked else None


def pick_language(query: str | None, cookie: str | None, accept: str | None) -> str:
    for candidate in (query, cookie):
        if candidate and candidate.lower() in LANGUAGES:
            return candidate.lower()
    return parse_accept_language(accept) or DEFAULT_LANGUAGE


_JS_CALL = re.compile(r"""\b(?:t|N_)\(\s*"((?:[^"\\]|\\.)*)\"""")
STATIC_JS = Path(__file__).parents[1] / "static" / "js"


@cache
def js_message_ids() -> tuple[str, ...]:
    """Message ids the page scripts translate: every `t("…")` / `N_("…")` in static/js,
    the shared folder's and each game's (`Game.static`), the scripts taken by name."""
    folders = [STATIC_JS, *(e.static / "js" for e in GAMES.values() if e.static is not None)]
    scripts = [path for folder in folders for path in folder.glob("*.js")]
    found: dict[str, None] = {}
    for path in sorted(scripts, key=lambda p: p.name):
        for match in _JS_CALL.finditer(path.read_text(encoding="utf-8")):
            found[json.loads(f'"{match.group(1)}"')] = None
    return tuple(found)


def js_messages(lang: str) -> dict[str, str]:
    """The page scripts' strings in `lang` (handed to the page as JSON)."""
    translate = gettext_for(lang)
    return {message: translate(message) for message in js_message_ids()}


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
