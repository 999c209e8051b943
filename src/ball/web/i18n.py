"""Languages of the web toolbox: which catalogue (`ball.i18n`) a request reads.

The request's language comes, in this order, from `?lang=xx`, the `ball_lang` cookie, the
browser's Accept-Language header, and finally English.
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path

# The catalogue itself lives below every layer that shows text (ball.i18n); these names stay
# importable from here for the web's modules and tests.
from ball.i18n import DEFAULT_LANGUAGE, LANGUAGES, LOCALES, gettext_for, translations

__all__ = [
    "COOKIE",
    "DEFAULT_LANGUAGE",
    "LANGUAGES",
    "LOCALES",
    "gettext_for",
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
STATIC_JS = Path(__file__).with_name("static") / "js"


@cache
def js_message_ids() -> tuple[str, ...]:
    """Message ids the page scripts translate: every `t("…")` / `N_("…")` in static/js."""
    found: dict[str, None] = {}
    for path in sorted(STATIC_JS.glob("*.js")):
        for match in _JS_CALL.finditer(path.read_text(encoding="utf-8")):
            found[json.loads(f'"{match.group(1)}"')] = None
    return tuple(found)


def js_messages(lang: str) -> dict[str, str]:
    """The page scripts' strings in `lang` (handed to the page as JSON)."""
    translate = gettext_for(lang)
    return {message: translate(message) for message in js_message_ids()}
