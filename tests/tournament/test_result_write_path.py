"""`enter_result` and `correct_result` take the results' one write path
(`ResultUseCases.write_table_result`) as the desk's `record_table_result` does: each write
bumps the table's version (a form loaded before it is a `VersionConflict`), a correction
keeps what it replaced, and a result entered over the players' entry by link settles it.
Their own refusals keep their words."""

from __future__ import annotations

import pytest

from ball.tournament import TournamentService, table_result
from ball.tournament.errors import TournamentError


@pytest.fixture
def svc(tmp_path) -> TournamentService:
    service = TournamentService(str(tmp_path / "write.sqlite"))
    service.events.create_event(name="Write", system="round-robin")
    for name in ("Ann", "Bo", "Cy", "Di"):
        service.entrants.add_player(name)
    service.rounds.pair_next_round()
    return service


def test_entering_and_correcting_bump_the_version_the_desk_checks(svc):
    assert svc.desk.table_page(1, 1, 1).version == 0
    svc.results.enter_result(1, 1, forfeit="A")
    assert svc.desk.table_page(1, 1, 1).version == 1
    with pytest.raises(table_result.VersionConflict, match="version 1, the form has 0"):
        svc.results.record_table_result(1, 1, forfeit="B", reason="misread", expected_version=0)
    svc.results.correct_result(1, 1, forfeit="B", reason="misread")
    assert svc.desk.table_page(1, 1, 1).version == 2
    (kept,) = svc.results.corrections()
    assert (kept.reason, kept.before["outcome"], kept.after["outcome"]) == ("misread", "B", "A")


def test_the_refusals_of_entering_and_correcting_keep_their_words(svc):
    with pytest.raises(TournamentError, match="^round 1 table 1 has no result to correct$"):
        svc.results.correct_result(1, 1, forfeit="B", reason="misread")
    svc.results.enter_result(1, 1, forfeit="A")
    with pytest.raises(TournamentError, match=r"already has a result \(correct it instead\)$"):
        svc.results.enter_result(1, 1, forfeit="A")
    with pytest.raises(TournamentError, match="^a correction needs a reason$"):
        svc.results.correct_result(1, 1, forfeit="B", reason=" ")
    assert svc.desk.table_page(1, 1, 1).version == 1  # nothing refused was written


def _played(svc: TournamentService, table: int) -> dict:
    """A played game's sheet of the table, coach A scoring the only touchdown."""
    t = svc.desk.table(1, 1, table)
    a, b = t.a.name, t.b.name
    return {
        "coaches": [a, b],
        "halves": [
            {"atk_first": a, "td": a, "pb": {a: {"atk": 3, "def": 2}, b: {"atk": 2, "def": 3}}},
            {"atk_first": b, "td": None, "pb": {a: {"atk": 1, "def": 4}, b: {"atk": 4, "def": 1}}},
        ],
    }


def test_a_result_entered_over_the_players_entry_settles_it(svc):
    links = svc.table_links.table_link_tokens(1, 1)[2]
    svc.table_links.enter_by_link(links["A"], _played(svc, 2), {}, 1.0)
    assert svc.table_links.player_entries(1, 1)[2].state == "entered"
    svc.results.enter_result(1, 2, forfeit="A")
    assert svc.table_links.player_entries(1, 1)[2].state == "replaced"
    assert svc.table_links.open_table_link(links["B"]).closed == "result-in"
