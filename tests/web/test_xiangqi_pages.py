"""The Xiangqi pages as HTML: reachable from the navigation, in en/ko/bg, no inline script
(the app's CSP allows scripts from this server only), ids checked."""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient

SCRIPT = re.compile(r"<script\b([^>]*)>(.*?)</script>", re.S)


@pytest.mark.parametrize("path", ["/xiangqi", "/xiangqi/replay"])
def test_pages_have_no_inline_script_under_the_csp(client: TestClient, path: str) -> None:
    r = client.get(path)
    assert r.status_code == 200
    csp = r.headers["content-security-policy"]
    assert (
        "script-src 'self'" in csp
        and "'unsafe-inline'" not in csp.split("script-src")[1].split(";")[0]
    )
    scripts = SCRIPT.findall(r.text)
    assert any('src="/static/js/xiangqi.js"' in attrs for attrs, _ in scripts)
    for attrs, body in scripts:
        # a script either comes from /static or is a JSON data block, never run
        assert 'src="/static/' in attrs or 'type="application/json"' in attrs, attrs
        assert not body.strip() or 'type="application/json"' in attrs
    assert not re.search(r"\son[a-z]+=", r.text)  # no inline event handlers either


@pytest.mark.parametrize(
    ("lang", "title", "button"),
    [
        ("en", "Xiangqi", "Flip board"),
        ("ko", "샹치", "보드 뒤집기"),
        ("bg", "Сянци", "Ход на компютъра"),
    ],
)
def test_board_page_in_every_language(
    client: TestClient, lang: str, title: str, button: str
) -> None:
    html = client.get("/xiangqi", params={"lang": lang}).text
    assert f"<h1>{title}</h1>" in html
    assert button in html
    assert 'href="/xiangqi"' in client.get("/", params={"lang": lang}).text  # in the nav


def test_game_ids_in_page_paths_are_checked(client: TestClient) -> None:
    g = client.post("/api/xiangqi/games", json={}).json()
    page = client.get(f"/xiangqi/{g['id']}")
    assert page.status_code == 200 and f'data-game="{g["id"]}"' in page.text
    for bad in ("abc", "0", str(2**40), "1%20or%201"):
        assert client.get(f"/xiangqi/{bad}").status_code == 404
        assert client.get("/xiangqi/replay", params={"game": bad}).status_code == 404
