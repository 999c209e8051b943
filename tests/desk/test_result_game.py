"""The desk's result check decides through the event's game plug-in (issue 12): an event of
another game previews with that game's rules, and a BALL event's check is exactly
`ball.games.ball.match.result.decide` on the sheet the form makes (spec 13, D-18, R-forfeit)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from starlette.requests import Request

from ball import games
from ball.games.ball.desk_form import sheet_from_form
from ball.games.ball.match.result import SheetError, decide
from ball.tournament import TournamentError
from ball.web.core import security
from ball.web.core.deps import service_for
from ball.web.desk.preview import preview

from .conftest import PIN, post, sheet_form

BALL = games.GAMES["ball"]


class JudgedBall(games.GameBase):
    """A second game for the test: BALL's sheet, but a drawn table goes to coach B (the
    judges' call); its document has no forfeit form (forfeits are recorded without one)."""

    name = "judged"
    seats = 2
    tiebreaks: dict[str, games.GameTieBreak] = {}
    desk_form = BALL.desk_form
    forfeit_marks = False  # BALL's forfeit figures: lost 0-2

    def decide(self, sheet: dict[str, Any]) -> games.Decided:
        if sheet.get("forfeit"):
            raise TournamentError("illegal result: this document has no forfeit field")
        decided = BALL.decide(sheet)
        if decided.outcome != "D":
            return decided
        decision = {**decided.decision, "winner": sheet["coaches"][1], "reason": "judges"}
        return games.Decided("B", decided.figures, decision)

    def forfeit(self, winner: str) -> dict[str, games.Figures]:
        return BALL.forfeit(winner)

    def double_forfeit(self) -> dict[str, games.Figures]:
        return BALL.double_forfeit()


@pytest.fixture
def judged_event(app, client, monkeypatch) -> tuple[int, str, str]:
    """A paired two-entrant event of the judged game, the client logged in at its desk."""
    monkeypatch.setitem(games.GAMES, "judged", JudgedBall())
    svc = service_for(app)
    event_id = svc.events.create_event(
        name="Judged", system="round-robin", game_name="judged"
    )["id"]
    for name in ("Ann", "Bo"):
        svc.entrants.add_player(name, event=event_id)
    svc.rounds.pair_next_round(event=event_id)
    with app.state.sessions.begin() as session:
        security.set_pin(session, event_id, PIN, 0.0)
    login = client.post(f"/desk/{event_id}/login", data={"pin": PIN}, follow_redirects=False)
    assert login.status_code == 303, login.text
    table = svc.rounds.pairings(1, event=event_id)[0]
    return event_id, table["a"], table["b"]


def check(client, event_id: int, form: dict) -> dict:
    return post(client, event_id, "/rounds/1/tables/1/check", form).json()


def test_another_games_event_previews_with_its_own_rules(client, event4, judged_event):
    ball_id, tables = event4
    drawn = sheet_form(pb=(2, 2, 3, 3))  # 0-0 and SD level: a BALL draw (spec 13)
    assert check(client, ball_id, drawn)["winner"] is None
    event_id, a, b = judged_event
    judged = check(client, event_id, drawn)
    assert (judged["ok"], judged["winner"], judged["reason"]) == (True, b, "judges")
    assert judged["text"] == f"{b} wins 0–0 by judges"
    fault = check(client, event_id, sheet_form(td1="A", pb=(0, 1, 1, 1)))
    assert not fault["ok"] and "scored the touchdown but recorded 0 PBATK" in fault["error"]
    # A forfeit is checked as the save records it: the game's forfeit figures, although
    # this game's document has no forfeit form.
    forfeit = check(client, event_id, {"kind": "forfeit-A"})
    assert (forfeit["ok"], forfeit["winner"], forfeit["reason"]) == (True, b, "forfeit")
    assert forfeit["text"] == f"{b} wins by forfeit"
    saved = post(client, event_id, "/rounds/1/tables/1", {"kind": "forfeit-A", "version": 0})
    assert saved.status_code == 303, saved.text
    assert service_for(client.app).rounds.pairings(1, event=event_id)[0]["result"]["outcome"] == "B"


def _request() -> Request:
    return Request({"type": "http", "state": {"lang": "en"}})


counters = st.integers(min_value=0, max_value=9)


@settings(max_examples=150, deadline=None)
@given(
    td1=st.sampled_from(["", "A", "B"]),
    td2=st.sampled_from(["", "A", "B"]),
    pb=st.tuples(counters, counters, counters, counters),
    mismatch=st.integers(min_value=-1, max_value=2),
)
def test_a_ball_check_is_ball_match_result_decide(td1, td2, pb, mismatch):
    """The oracle is `ball.games.ball.match.result.decide` called directly, as the desk did
    before."""
    form = {k: str(v) for k, v in sheet_form(td1=td1, td2=td2, pb=pb).items()}  # as posted
    form["h1_B_def"] = str(pb[0] + max(mismatch, 0))  # sometimes a dual-entry fault
    if mismatch < 0:
        form["h2_A_def"] = ""  # sometimes an empty counter
    got = preview(_request(), form, "Ann", "Bo", BALL)
    try:
        want = decide(sheet_from_form(form, "Ann", "Bo"))
    except (SheetError, TournamentError) as exc:  # the form or the sheet refused
        assert got == {"ok": False, "error": str(exc)}
        return
    assert got["ok"] and got["kind"] == "sheet"
    assert (got["winner"], got["reason"]) == (want.winner, want.reason.value)
    assert (got["td"], got["sd"]) == (want.td, want.sd)
    assert got["pbatk_scoring_half"] == want.pbatk_scoring_half


@pytest.mark.parametrize("loser", ["A", "B"])
def test_a_ball_forfeit_check_is_the_administrative_result(loser):
    """R-forfeit: the forfeiting coach loses 0-2, whichever side."""
    got = preview(_request(), {"kind": f"forfeit-{loser}"}, "Ann", "Bo", BALL)
    want = decide(
        {"coaches": ["Ann", "Bo"], "halves": [], "forfeit": "Ann" if loser == "A" else "Bo"}
    )
    assert (got["winner"], got["reason"], got["td"]) == (want.winner, "forfeit", want.td)
    assert got["text"] == f"{want.winner} wins {want.td['Ann']}–{want.td['Bo']} by forfeit"
