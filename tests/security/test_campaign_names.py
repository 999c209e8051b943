"""Issue 30 items 11 and 12, the campaign's names part, against a live `ball serve`: a
stranger on the venue network (connections from 127.0.0.2) tries look-alike and invisible
event and entrant names and very long ones through the desk forms and the JSON API. Each is
refused with one line naming the field (and the limit), and /public lists the real event
alone."""

from __future__ import annotations

import html
import re

import httpx

PIN = "2468"
REAL = "BALL Demo Open"  # the demo event (`ball serve --demo`)
_CSRF = re.compile(r'name="csrf" value="([^"]+)"')
_ERROR = re.compile(r'id="desk-error">([^<]*)<')


def _stranger(url: str) -> httpx.Client:
    transport = httpx.HTTPTransport(local_address="127.0.0.2")
    return httpx.Client(base_url=url, transport=transport, timeout=60)


def _refused(answer: httpx.Response) -> str:
    """The one-line reason of a refused desk form (its page shows it in #desk-error)."""
    assert answer.status_code == 400, (answer.status_code, answer.text[:300])
    found = _ERROR.search(answer.text)
    assert found, answer.text[:300]
    return html.unescape(found.group(1))


def _create(client: httpx.Client, name: str) -> httpx.Response:
    return client.post(
        "/desk/events", data={"name": name, "system": "swiss", "pin": PIN, "pin2": PIN}
    )


def test_look_alike_invisible_and_long_names_are_refused(server_process):
    server = server_process(demo=True)
    with _stranger(server.url) as stranger:
        for twin in ("BALL Demо Open", "ВALL Demo Open", "BALL  demo OPEN"):  # Cyrillic о, В
            assert "already exists" in _refused(_create(stranger, twin))
        for char in ("\u200b", "\u202e", "\u2066"):
            why = _refused(_create(stranger, f"BALL Demo{char} Open"))
            assert "event name" in why and f"U+{ord(char):04X}" in why
        why = _refused(_create(stranger, "L" * 5000))
        assert why == "event name is at most 200 characters, got 5000"
        listed = stranger.get("/public").text
        assert listed.count("Demo") == listed.count(REAL) >= 1
        assert "\u202e" not in listed and "\u200b" not in listed

        made = _create(stranger, "Stranger Cup")
        assert made.status_code == 303, made.text[:300]
        event_id = int(made.headers["location"].rsplit("/", 1)[1])
        page = stranger.get(f"/desk/{event_id}")
        csrf = _CSRF.search(page.text).group(1)

        def add(name: str, **extra: str) -> httpx.Response:
            data = {"csrf": csrf, "name": name, **extra}
            return stranger.post(f"/desk/{event_id}/entrants", data=data)

        assert add("Ivan Petrov").status_code == 303
        assert "looks like 'Ivan Petrov'" in _refused(add("Ivan Pеtrov"))  # Cyrillic е
        why = _refused(add("Ann\u202eevil\u202c"))
        assert "entrant name" in why and "U+202E" in why
        why = _refused(add("N" * 100_000))
        assert why == "entrant name is at most 200 characters, got 100000"
        assert _refused(add("Ann", club="C" * 201)) == "club is at most 200 characters, got 201"
        entrants = stranger.get(f"/desk/{event_id}").text
        assert "NNNN" not in entrants and "evil" not in entrants

        # the JSON API: game titles
        for path in ("/api/games", "/api/xiangqi/games"):
            answer = stranger.post(path, json={"title": "T" * 5000})
            assert answer.status_code in (400, 422), (path, answer.status_code)
            assert "title" in answer.json()["detail"] and "200" in answer.json()["detail"]
            answer = stranger.post(path, json={"title": "Game\u202e1"})
            assert answer.status_code in (400, 422), (path, answer.status_code)
