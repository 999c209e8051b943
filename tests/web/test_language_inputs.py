"""Issue 15: the language middleware reads `?lang=`, the cookie and Accept-Language without
building Starlette's structures when it can (`ball.web.core.language.choice_inputs`); what it
reads is exactly what `HTTPConnection` reads (the oracle), whatever the request."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from starlette.requests import HTTPConnection

from ball.web.core.language import COOKIE, choice_inputs

QUERY_PARTS = ["lang=ko", "lang=BG", "LANG=ko", "%6Cang=bg", "l%61ng=ko", "since=3", "lang=",
               "x=lang", "lang=ko&lang=bg", "la+ng=ko", "a=%20", ""]  # fmt: skip
HEADERS = [
    (b"cookie", b"ball_lang=ko"),
    (b"cookie", b"other=1; ball_lang=bg"),
    (b"cookie", b"other=2"),
    (b"accept-language", b"ko-KR,ko;q=0.9"),
    (b"accept-language", b"bg;q=0.5, en"),
    (b"accept-language", b"\xe9"),
    (b"content-type", b"application/json"),
    (b"host", b"127.0.0.1"),
]


def oracle(scope) -> tuple[str | None, str | None, str | None]:
    conn = HTTPConnection(scope)
    return (
        conn.query_params.get("lang"),
        conn.cookies.get(COOKIE),
        conn.headers.get("accept-language"),
    )


@pytest.mark.hypothesis
@given(
    st.lists(st.sampled_from(QUERY_PARTS), max_size=4),
    st.lists(st.sampled_from(HEADERS), max_size=5),
)
def test_the_inputs_are_what_httpconnection_reads(parts, headers):
    scope = {"type": "http", "query_string": "&".join(parts).encode(), "headers": headers}
    assert choice_inputs(scope) == oracle(scope)


def test_a_plain_request_builds_no_connection(monkeypatch):
    """No cookie and no `lang` in the query: the middleware scans the headers only."""
    import ball.web.core.language as language

    monkeypatch.setattr(language, "HTTPConnection", None)  # would fail if built
    scope = {"type": "http", "query_string": b"since=4", "headers": HEADERS[3:4]}
    assert choice_inputs(scope) == (None, None, "ko-KR,ko;q=0.9")
