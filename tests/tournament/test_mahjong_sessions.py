"""Mahjong sessions through the service (issue 18): undo, the two-player paths refused,
the balanced seating keeps team-mates apart, a correction is logged."""

from __future__ import annotations

import pytest

from ball.tournament import TournamentService
from ball.tournament.errors import TournamentError


@pytest.fixture
def svc(tmp_path):
    service = TournamentService(str(tmp_path / "mj.db"))
    service.sessions.create_mahjong_event(name="MJ", sessions=3, seed=3)
    for i in range(1, 17):
        service.entrants.add_player(f"P{i}", club=f"T{i % 4}")
    return service


def sheet_for(table: dict) -> dict:
    return {"table": table["table"], "seats": table["seats"],
            "hands": [{"winner": "S", "discarder": "N", "fan": 9}]}  # fmt: skip


def test_undo_only_without_sheets_and_two_player_paths_refused(svc):
    first = svc.sessions.seat_session()
    assert svc.rounds.unpair_round() == 1  # no sheet yet: undone, and seated again the same way
    again = svc.sessions.seat_session()
    assert again["tables"] == first["tables"]
    svc.sessions.enter_session_sheet(sheet_for(again["tables"][0]))
    with pytest.raises(TournamentError, match="has sheets"):
        svc.rounds.unpair_round()
    assert len(svc.sessions.session_tables()["tables"]) == 4
    with pytest.raises(TournamentError, match="Mahjong"):
        svc.rounds.set_pairing(2, [("P1", "P2")])
    with pytest.raises(TournamentError, match="session sheet"):
        svc.results.enter_result(1, 1, forfeit="A")


def test_balanced_sessions_keep_teams_apart_and_a_correction_is_logged(svc):
    for number in (1, 2, 3):
        seated = svc.sessions.seat_session()
        assert seated["session"] == number
        for table in seated["tables"]:
            svc.sessions.enter_session_sheet(sheet_for(table))
    report = seated["report"]
    # sessions 2 and 3 balanced (the default): four teams of four, no team-mates together
    # (M-07); only the random first session may seat them together
    assert {clash[0] for clash in report["team_clashes"]} <= {1}
    assert len(report["repeats_per_session"]) == 3
    table = seated["tables"][0]
    fixed = dict(sheet_for(table), hands=[{"draw": True}])
    out = svc.sessions.correct_session_sheet(fixed, reason="no win after all", table=1)
    assert out["scores"] == {"E": 0, "S": 0, "W": 0, "N": 0}
    assert out["table_points"] == {w: "7/4" for w in "ESWN"}
    assert svc.results.corrections()[-1]["reason"] == "no win after all"
    with pytest.raises(TournamentError, match="a correction needs a reason"):
        svc.sessions.correct_session_sheet(fixed, reason=" ", table=1)


def test_event_info_describes_a_mahjong_event(svc):
    """Every event reads back through `event_info`, a Mahjong one included (its system,
    seated sessions, is not a pairing system a bare choice offers)."""
    from ball.tournament.systems import SYSTEMS

    info = svc.events.event_info()
    assert (info.name, str(info.system), len(info.entrants)) == ("MJ", "sessions", 16)
    assert info.as_dict()["system"] == "sessions"
    assert "sessions" not in SYSTEMS


def test_a_later_sessions_table_is_edited_and_closed_with_that_sessions_seats(svc):
    first = svc.sessions.seat_session()
    for table in first["tables"]:
        svc.sessions.enter_session_sheet(sheet_for(table))
    second = svc.sessions.seat_session()
    # Balanced seating moves the players: table 3's seats differ from one session to the next.
    seats = second["tables"][2]["seats"]
    assert seats != first["tables"][2]["seats"]
    hand = {"winner": "S", "discarder": "N", "fan": 9}
    assert svc.mahjong_desk.edit_mahjong_table("MJ", 2, 3, "hand", hand, expected_version=0) == 1
    assert svc.mahjong_desk.mahjong_table("MJ", 2, 3)["doc"]["seats"] == seats
    closed = svc.mahjong_desk.close_mahjong_table("MJ", 2, 3, expected_version=1)
    stored = svc.sessions.session_tables(2)["tables"][2]
    assert stored["seats"] == seats
    assert list(stored["table_points"].values()) == closed["table_points"]
    assert list(stored["scores"].values()) == list(closed["scores"])
    # A sheet is checked against its own session's seats, not another session's.
    with pytest.raises(TournamentError, match=r"^session sheet: seats\.E: .* is not seated there"):
        svc.sessions.enter_session_sheet(sheet_for(first["tables"][2]), round_number=2)
    with pytest.raises(TournamentError, match="^session 2 has no table 5$"):
        svc.mahjong_desk.edit_mahjong_table("MJ", 2, 5, "hand", hand, expected_version=0)
