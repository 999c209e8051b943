"""The public Mahjong pages (seating, tables, standings) in the page cache (issue 15,
target 2): every kind of Mahjong write renews the event's token, so the next view is what a
fresh server renders, with a new ETag; an unchanged event is answered from the cache.

As in tests/desk/test_public_cache.py, each write goes through a second service on the
same file (the CLI's way in), and each test first checks the write changes the page, so
it can fail. The sheets are seed 003's (tests/mahjong/public_event.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

from ball.tournament.models import Event
from ball.tournament.service import TournamentService
from ball.web.app import create_app
from mahjong.public_event import hands_for, make_event


def fresh(db: str, url: str) -> str:
    with TestClient(create_app(db)) as client:
        return client.get(url).text


def sheet_of(svc: TournamentService, table: int, hands: dict[str, Any]) -> dict[str, Any]:
    seats = next(
        t for t in svc.sessions.session_tables(1)["tables"] if t["table"] == table
    )["seats"]
    return {"table": table, "seats": seats, **hands}


def enter_last_sheet(svc: TournamentService, event_id: int) -> None:
    svc.sessions.enter_session_sheet(sheet_of(svc, 4, hands_for(4)), event=event_id)


def correct_sheet(svc: TournamentService, event_id: int) -> None:
    redo = {"hands": [{"winner": "N", "discarder": "E", "fan": 9}, {"draw": True}]}
    svc.sessions.correct_session_sheet(sheet_of(svc, 1, redo), reason="misread", event=event_id)


def close_at_the_desk(svc: TournamentService, event_id: int) -> None:
    """The desk's way: a hand entered on table 4's draft, then the table closed."""
    version = svc.mahjong_desk.mahjong_table(event_id, 1, 4)["version"]
    hand = {"winner": "E", "discarder": "W", "fan": 8}
    version = svc.mahjong_desk.edit_mahjong_table(
        event_id, 1, 4, "hand", hand, expected_version=version
    )
    svc.mahjong_desk.close_mahjong_table(event_id, 1, 4, expected_version=version)


def rename(svc: TournamentService, event_id: int) -> None:
    # No use case edits an event yet; any that does writes its row as this does.
    with svc.store.sessions.begin() as s:
        s.scalars(select(Event).where(Event.id == event_id)).one().name = "MJ Open 2026"


def seat_and_undo(svc: TournamentService, event_id: int) -> None:
    svc.sessions.seat_session(event=event_id)  # session 2 (all of session 1 entered first)


# (write, the page that shows it, whether session 1's four sheets are entered first)
WRITES: dict[str, tuple[Callable[[TournamentService, int], Any], str, bool]] = {
    "sheet": (enter_last_sheet, "tables", False),
    "sheet on standings": (enter_last_sheet, "standings", False),
    "correction": (correct_sheet, "tables", True),
    "desk close": (close_at_the_desk, "tables", False),
    "seating": (seat_and_undo, "seating", True),
    "unseat": (lambda svc, e: svc.rounds.unpair_round(event=e), "seating", False),
    "withdrawal": (lambda svc, e: svc.entrants.withdraw("Player 16", event=e), "standings", True),
    "event edit": (rename, "seating", True),
}


def build(db: str, entered: bool) -> int:
    """The seed-003 event; without `entered`, tables 1-3 of session 1 have their sheets
    and table 4 has none (so session 1 can be undone only when no sheet is in: `unseat`
    enters none)."""
    svc, event_id = make_event(db, enter=entered)
    svc.engine.dispose()
    return event_id


def build_for(db: str, kind: str) -> int:
    _, _, entered = WRITES[kind]
    event_id = build(db, entered)
    if not entered and kind != "unseat":
        svc = TournamentService(db)
        for table in (1, 2, 3):
            svc.sessions.enter_session_sheet(sheet_of(svc, table, hands_for(table)), event=event_id)
        svc.engine.dispose()
    return event_id


@pytest.mark.parametrize("kind", list(WRITES))
def test_every_kind_of_mahjong_write_invalidates_the_cached_page(tmp_path, kind):
    write, page, _ = WRITES[kind]
    db = str(tmp_path / "mj.sqlite")
    event_id = build_for(db, kind)
    url = f"/public/{event_id}/{page}"
    with TestClient(create_app(db)) as client:
        before = client.get(url)
        assert before.status_code == 200
        cache = client.app.state.page_cache
        renders = cache.renders
        assert client.get(url).text == before.text  # a second view: from the cache
        assert cache.renders == renders
        assert client.get(url, headers={"If-None-Match": before.headers["etag"]}).status_code == 304

        other = TournamentService(db)  # another writer on the file (the CLI's way)
        write(other, event_id)
        other.engine.dispose()

        after = client.get(url, headers={"If-None-Match": before.headers["etag"]})
        assert after.status_code == 200
        if kind != "withdrawal":  # shows in the seating that follows, not by itself
            assert after.text != before.text, f"the {kind} does not show on the {page} page"
        assert after.text == fresh(db, url)
        assert after.headers["etag"] != before.headers["etag"]
        assert cache.renders == renders + 1


def test_searches_and_sessions_are_their_own_entries_and_404s_are_not_kept(tmp_path):
    db = str(tmp_path / "mj.sqlite")
    event_id = build(db, True)
    with TestClient(create_app(db)) as client:
        seating = client.get(f"/public/{event_id}/seating")
        cache = client.app.state.page_cache
        found = client.get(f"/public/{event_id}/seating", params={"find": "zoe"})
        assert "Zoë Ångström" in found.text and found.text != seating.text
        assert found.headers["etag"] != seating.headers["etag"]
        assert client.get(f"/public/{event_id}/seating?session=2").status_code == 404
        assert client.get(f"/public/{event_id}/tables?session=2").status_code == 404
        assert len(cache) == 2
        # a Mahjong page of an event that is not one is a 404, never kept
        other = TournamentService(db).events.create_event(name="Swiss", system="swiss")["id"]
        assert client.get(f"/public/{other}/seating").status_code == 404
        assert len(cache) == 2
