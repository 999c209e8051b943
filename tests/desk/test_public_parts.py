"""The results page keeps each round's rendered part by the digest of the round's rows
(`ball.web.public.display._results_round`, issue 15): a result re-renders its own round only, and
a write to any row a round shows (a correction in an earlier round, an entrant's row)
renders that round again. The page is always what a fresh server renders."""

from __future__ import annotations

import random

from fastapi.testclient import TestClient

from ball.tournament.service import TournamentService
from ball.web.app import create_app

from .test_public_cache import NAMES, fresh, sheet


def three_rounds(db: str) -> int:
    """Six entrants, rounds 1 and 2 entered, round 3 paired with table 3 still open."""
    svc = TournamentService(db)
    event_id = svc.events.create_event(name="Parts Open", system="swiss", rounds=4)["id"]
    for i, name in enumerate(NAMES):
        svc.entrants.add_player(name, rating=2000 - i, event=event_id)
    for number in (1, 2, 3):
        svc.rounds.pair_next_round(event=event_id)
        for table in (1, 2, 3):
            if number < 3 or table < 3:
                svc.results.enter_result(
                    number, table, sheet=sheet(random.Random(table)), event=event_id
                )
    svc.engine.dispose()
    return event_id


def parts_rendered(client: TestClient, url: str) -> tuple[str, int]:
    """The page and how many round parts the cache holds afterwards."""
    page = client.get(url)
    assert page.status_code == 200
    return page.text, len(client.app.state.page_cache._parts)


def test_a_result_renders_its_own_round_again_and_reuses_the_others(tmp_path, monkeypatch):
    db = str(tmp_path / "parts.sqlite")
    event_id = three_rounds(db)
    url = f"/public/{event_id}/results"
    import ball.web.public.display as public

    built: list[int] = []
    original = public._results_round

    def counting(request, event, rnd):
        cache = request.app.state.page_cache
        before = len(cache._parts)
        out = original(request, event, rnd)
        if len(cache._parts) > before:
            built.append(rnd.number)
        return out

    monkeypatch.setattr(public, "_results_round", counting)
    with TestClient(create_app(db)) as client:
        first, _ = parts_rendered(client, url)
        assert sorted(built) == [1, 2, 3]
        built.clear()

        TournamentService(db).results.enter_result(3, 3, forfeit="A", event=event_id)
        after, _ = parts_rendered(client, url)
        assert built == [3]  # rounds 1 and 2 came from the cache
        assert after != first and after == fresh(db, url)
        built.clear()

        # a correction in round 1 changes round 1's part only
        TournamentService(db).results.correct_result(
            1, 1, forfeit="B", reason="misread", event=event_id
        )
        corrected, _ = parts_rendered(client, url)
        assert built == [1]
        assert corrected != after and corrected == fresh(db, url)
        built.clear()

        # an entrant's row shows in every round (their name): every round renders again
        TournamentService(db).entrants.add_player("Galin", rating=1500, event=event_id)
        late, _ = parts_rendered(client, url)
        assert sorted(built) == [1, 2, 3]
        assert late == fresh(db, url)


def test_each_language_has_its_own_parts(tmp_path):
    db = str(tmp_path / "parts.sqlite")
    event_id = three_rounds(db)
    url = f"/public/{event_id}/results"
    with TestClient(create_app(db)) as client:
        pages = {lang: client.get(url, params={"lang": lang}).text for lang in ("en", "ko", "bg")}
        assert len(set(pages.values())) == 3
        for lang, text in pages.items():
            assert text == fresh(db, f"{url}?lang={lang}")
        assert len(client.app.state.page_cache._parts) == 9
