"""Issue 30 item 9: public PDFs are rendered once per key (kind, event revision, round,
language, paper, audience), one at a time, off the event loop, and renders are rate-limited
per address. The renderer is counted (and, for the concurrency check, held) by wrapping
`render_pdf`; the first test checks a real WeasyPrint PDF is what the cache keeps."""

from __future__ import annotations

import threading
import warnings

import pytest

from ball.tournament import TournamentService
from ball.web.app import create_app
from ball.web.core.limits import Limits
from ball.web.print import pages as print_pages

with warnings.catch_warnings():
    warnings.simplefilter("ignore", DeprecationWarning)
    from fastapi.testclient import TestClient


@pytest.fixture
def counted(monkeypatch):
    """Every PDF render, counted (the real renderer still runs unless a test swaps it)."""
    calls: list[str] = []
    real = print_pages.render_pdf

    def render(edition):
        calls.append(edition.lang)
        return real(edition)

    monkeypatch.setattr(print_pages, "render_pdf", render)
    return calls


def _event_app(tmp_path, **limits):
    db = str(tmp_path / "event.sqlite")
    svc = TournamentService(db)
    svc.events.create_event(name="Varna Cup", system="round-robin")
    for name in ("Ann", "Boris", "Chae", "Dima"):
        svc.entrants.add_player(name)
    svc.rounds.pair_next_round()
    app = create_app(db)
    app.state.limits = Limits(**limits)
    return app, svc


def test_a_pdf_is_rendered_once_per_key_and_again_after_a_write(tmp_path, counted):
    app, svc = _event_app(tmp_path)
    client = TestClient(app)
    first = client.get("/print/forms.pdf", params={"round": 1, "lang": "en"})
    assert first.status_code == 200 and first.content.startswith(b"%PDF")
    again = client.get("/print/forms.pdf", params={"round": 1, "lang": "en"})
    assert again.content == first.content and len(counted) == 1
    client.get("/print/forms.pdf", params={"round": 1, "lang": "bg"})
    assert counted == ["en", "bg"]  # another language is another PDF
    table = svc.rounds.pairings(1)[0]["table"]
    svc.results.enter_result(1, table, forfeit="B")  # a write to the event: its revision changes
    client.get("/print/forms.pdf", params={"round": 1, "lang": "en"})
    assert counted == ["en", "bg", "en"]
    client.get("/print/forms.pdf", params={"round": 1, "lang": "en"})
    assert len(counted) == 3


def test_a_desk_session_never_gets_the_public_pdf_nor_the_public_a_desk_one(
    tmp_path, counted, monkeypatch
):
    monkeypatch.setattr(print_pages, "render_pdf", lambda e: counted.append(e.lang) or b"%PDF")
    app, _ = _event_app(tmp_path)
    public, desk = TestClient(app), TestClient(app, cookies={"ball_desk_1": "secret"})
    public.get("/print/forms.pdf", params={"round": 1})
    desk.get("/print/forms.pdf", params={"round": 1})
    forged = TestClient(app, cookies={"ball_desk_1": "guess"})
    forged.get("/print/forms.pdf", params={"round": 1})
    assert len(counted) == 3  # three audiences, three renders
    public.get("/print/forms.pdf", params={"round": 1})
    desk.get("/print/forms.pdf", params={"round": 1})
    assert len(counted) == 3


def test_concurrent_requests_of_one_key_render_once(tmp_path, monkeypatch):
    started, release = threading.Event(), threading.Event()
    calls: list[str] = []

    def slow(edition):
        calls.append(edition.lang)
        started.set()
        release.wait(30)
        return b"%PDF-slow"

    monkeypatch.setattr(print_pages, "render_pdf", slow)
    app = create_app(str(tmp_path / "empty.sqlite"))
    answers: list[bytes] = []

    def fetch() -> None:
        answers.append(TestClient(app).get("/print/regulation.pdf").content)

    threads = [threading.Thread(target=fetch) for _ in range(3)]
    threads[0].start()
    assert started.wait(30)
    for t in threads[1:]:
        t.start()
    # the other two join the render under way: none starts its own
    while app.state.pdf_cache.renders < 1:
        pass
    release.set()
    for t in threads:
        t.join(30)
    assert answers == [b"%PDF-slow"] * 3 and calls == ["en"]


def test_pdf_renders_are_rate_limited_per_address(tmp_path, monkeypatch):
    monkeypatch.setattr(print_pages, "render_pdf", lambda e: b"%PDF")
    app = create_app(str(tmp_path / "empty.sqlite"))
    app.state.limits = Limits(pdf_renders=2)
    client = TestClient(app, client=("10.0.0.7", 4000))
    codes = [
        client.get("/print/regulation.pdf", params={"lang": lang}).status_code
        for lang in ("en", "bg", "ko")
    ]
    assert codes == [200, 200, 429]
    refused = client.get("/print/regulation.pdf", params={"lang": "ko"})
    assert "PDF renders" in refused.json()["detail"] and "Retry-After" in refused.headers
    # a kept PDF costs nothing; another address still gets its render
    assert client.get("/print/regulation.pdf", params={"lang": "en"}).status_code == 200
    other = TestClient(app, client=("10.0.0.8", 4000))
    assert other.get("/print/regulation.pdf", params={"lang": "ko"}).status_code == 200
