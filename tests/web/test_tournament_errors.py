"""The web app's one answer to a tournament error no route caught: a missing event is 404, a
refused use case 400, both as `{"detail": message}` (`ball.web.core.tournament_errors`)."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from ball.tournament.errors import NotFound, TournamentError, Unpairable
from ball.web.app import create_app

WORDS = "round 3: not paired yet"


@pytest.mark.parametrize(
    "path", ["/public/999", "/public/999/standings", "/public/999/crosstable",
             "/public/999/bracket", "/public/999/teams", "/desk/999"],
)  # fmt: skip
def test_a_missing_event_is_404_with_the_services_words(client, path):
    answer = client.get(path, follow_redirects=False)
    assert answer.status_code == 404
    assert answer.json()["detail"] in ("no event 999", "unknown event 999")


@pytest.mark.parametrize(
    ("error", "status"),
    [(TournamentError(WORDS), 400), (Unpairable(WORDS), 400), (NotFound(WORDS), 404)],
)  # fmt: skip
def test_an_uncaught_tournament_error_is_answered_by_its_kind(db_path, error, status):
    app = create_app(db_path)

    def refuse() -> None:
        raise error

    app.add_api_route("/refuse", refuse)
    answer = TestClient(app).get("/refuse")
    assert answer.status_code == status
    assert answer.json() == {"detail": WORDS}
