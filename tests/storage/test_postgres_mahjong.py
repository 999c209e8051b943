"""A Mahjong event (issue 18) on PostgreSQL: `tournament_0004_mj`'s tables take seats and
session sheets there as on SQLite, and a refused sheet leaves nothing behind."""

from __future__ import annotations

import pytest

from ball.tournament import TournamentService
from ball.tournament.errors import TournamentError

pytestmark = pytest.mark.postgres

TEMPLATE = "session,table,E,S,W,N\n1,1,1,2,3,4\n1,2,5,6,7,8\n"


def test_mahjong_session_on_postgres(fresh_postgres_url):
    svc = TournamentService(fresh_postgres_url)
    svc.sessions.create_mahjong_event(name="MJ", sessions=2, seed=5)
    for i in range(1, 9):
        svc.entrants.add_player(f"P{i}", club=f"T{i % 2}")
    seated = svc.sessions.seat_session(template=TEMPLATE)
    assert seated["tables"][0]["seats"] == {"E": "P1", "S": "P2", "W": "P3", "N": "P4"}
    sheet = {
        "table": 1,
        "seats": seated["tables"][0]["seats"],
        "hands": [{"winner": "S", "discarder": "E", "fan": 12}],  # S +36, E -20, W -8, N -8
        "penalties": [{"hand": 1, "seat": "W", "kind": "false-win", "at": "9:30"}],
    }
    with pytest.raises(TournamentError, match="seats.E"):
        svc.sessions.enter_session_sheet(
            dict(sheet, seats={"E": "P5", "S": "P2", "W": "P3", "N": "P4"})
        )
    entered = svc.sessions.enter_session_sheet(sheet)
    # the false win moves 30 from W, 10 to each other: S 46, E -10, W -38, N 2
    assert entered["scores"] == {"E": -10, "S": 46, "W": -38, "N": 2}
    assert entered["table_points"] == {"E": "1", "S": "4", "W": "0", "N": "2"}
    with pytest.raises(TournamentError, match="already has a sheet"):
        svc.sessions.enter_session_sheet(sheet)
    rows = {r["name"]: r for r in svc.sessions.session_standings()["standings"]}
    assert rows["P2"]["table_points"] == 4 and rows["P2"]["score"] == 46
    assert rows["P5"]["sessions"] == 0
    with pytest.raises(TournamentError, match="without a sheet: 2"):
        svc.sessions.seat_session()
