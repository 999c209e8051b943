"""Typed results of the event use cases (issue 12): frozen dataclasses read by attribute,
whose `as_dict()` is the JSON the CLI prints (keys, order and types locked here from the
contract, not from the code's output), and which still read like the dicts they replaced."""

from __future__ import annotations

import dataclasses
import json

import pytest
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

from ball.cli import app
from ball.tournament import TournamentService
from ball.tournament.kinds import ByeKind, Coach, EntrantStatus, InitialColour, Outcome, ResultKind
from ball.tournament.outcomes import (
    Correction,
    EntrantSummary,
    EventInfo,
    EventSummary,
    LogLine,
    ResultSummary,
    StandingsTable,
    TableOutcome,
)
from ball.tournament.systems import PairingSystem

from .test_knockout import draw_sheet

EVENT_KEYS = [
    "id", "name", "system", "rounds", "game", "ruleset", "date_start", "date_end", "place",
    "arbiter", "scoring", "tiebreaks", "tiebreak_rules", "draw_lots_seed", "initial_colour",
]  # fmt: skip
ENTRANT_KEYS = [
    "number", "name", "club", "federation", "rating", "status", "first_round", "withdrawn_after"
]  # fmt: skip
RESULT_KEYS = ["kind", "forfeit_by", "outcome", "sheet"]


def scripted(tmp_path) -> TournamentService:
    """A Swiss of five (one bye) with a sheet, a forfeit corrected to a double forfeit, a
    withdrawal and a note in the log."""
    svc = TournamentService(tmp_path / "e.db")
    svc.events.create_event(
        name="Open", system="swiss", rounds=3, date_start="2026-11-28", place="Sofia"
    )
    for i, name in enumerate(["Ann", "Bora", "Cvet", "Dae", "Eli"]):
        svc.entrants.add_player(name, rating=2100 - 100 * i, club="C", federation="bul")
    svc.rounds.pair_next_round()
    svc.results.enter_result(1, 1, sheet=draw_sheet())
    svc.results.enter_result(1, 2, forfeit="A")
    svc.results.correct_result(1, 2, reason="both absent", double_forfeit=True)
    svc.entrants.withdraw("Eli", reason="ill")
    svc.arbiter.record("note", "hello", name="Ann", round_number=1, table=1)
    return svc


def test_every_use_case_returns_its_frozen_record(tmp_path):
    svc = scripted(tmp_path)
    info = svc.events.event_info()
    assert isinstance(info, EventInfo) and isinstance(svc.events.list_events()[0], EventSummary)
    assert info.system is PairingSystem.SWISS and info.initial_colour in set(InitialColour)
    assert [e.status for e in info.entrants] == [EntrantStatus.ACTIVE] * 4 + ["withdrawn"]
    assert all(isinstance(e, EntrantSummary) for e in info.entrants)
    sheet_table, forfeited, bye = svc.rounds.pairings(1)
    assert isinstance(sheet_table, TableOutcome) and isinstance(sheet_table.result, ResultSummary)
    assert (
        sheet_table.result.kind is ResultKind.SHEET and sheet_table.result.outcome is Outcome.DRAW
    )
    assert forfeited.result is not None and forfeited.result.kind is ResultKind.DOUBLE_FORFEIT
    assert (forfeited.result.outcome, forfeited.result.forfeit_by) == (Outcome.NOBODY, None)
    assert (bye.b, bye.bye, bye.result) == (None, ByeKind.PAB, None)
    (correction,) = svc.results.corrections()
    assert isinstance(correction, Correction)
    assert correction.before["kind"] == "forfeit" and correction.before["forfeit_by"] == "A"
    assert correction.after["kind"] == "double-forfeit" and correction.reason == "both absent"
    log = svc.arbiter.log()
    assert all(isinstance(x, LogLine) for x in log)
    assert [(x.kind, x.name) for x in log] == [("withdrawal", "Eli"), ("note", "Ann")]
    table = svc.ranking.standings()
    assert isinstance(table, StandingsTable) and table.rounds == 1
    assert [s.name for s in table.standings][:1] == ["Eli"]  # the bye's point leads
    with pytest.raises(dataclasses.FrozenInstanceError):
        info.name = "Other"  # type: ignore[misc]


def test_as_dict_is_the_json_the_dicts_had(tmp_path):
    svc = scripted(tmp_path)
    info = svc.events.event_info().as_dict()
    assert list(info) == EVENT_KEYS + ["lots", "entrants"]
    assert info["lots"] is None and info["system"] == "swiss" and type(info["system"]) is str
    assert [list(e) for e in info["entrants"]] == [ENTRANT_KEYS] * 5
    assert type(info["entrants"][0]["status"]) is str
    assert list(svc.events.list_events()[0].as_dict()) == EVENT_KEYS
    tables = [t.as_dict() for t in svc.rounds.pairings(1)]
    # `bye` only on a bye, `result` only once entered (a played table before: neither).
    assert [list(t) for t in tables] == [["table", "a", "b", "result"]] * 2 + [
        ["table", "a", "b", "bye"]
    ]
    assert list(tables[0]["result"]) == RESULT_KEYS and tables[0]["result"]["sheet"] == draw_sheet()
    assert tables[1]["result"] == {
        "kind": "double-forfeit", "forfeit_by": None, "outcome": "N", "sheet": None
    }  # fmt: skip
    # Eli withdrew: the standings also say which article-20 ruling applies (issue 17).
    assert list(svc.ranking.standings().as_dict()) == [
        "event", "rules", "tiebreaks", "rounds", "standings", "withdrawals"
    ]  # fmt: skip
    assert list(svc.ranking.standings().as_dict()["standings"][0]) == [
        "rank", "name", "number", "points", "tiebreaks"
    ]  # fmt: skip
    assert [list(x.as_dict()) for x in svc.arbiter.log()] == [
        ["kind", "name", "round", "table", "detail", "at"]
    ] * 2
    assert list(
        svc.results.corrections()[0].as_dict()
    ) == ["round", "table", "before", "after", "reason"]
    # plain data
    json.dumps([svc.events.event_info().as_dict(), [t.as_dict() for t in svc.rounds.pairings(1)]])


def test_cli_json_is_as_dict(tmp_path):
    svc = scripted(tmp_path)
    db = str(tmp_path / "e.db")
    out = CliRunner().invoke(app, ["event", "show", "--json", "--db", db]).output
    assert out == json.dumps(svc.events.event_info().as_dict(), ensure_ascii=False) + "\n"
    out = CliRunner().invoke(app, ["round", "show", "--json", "--db", db]).output
    expected = [{"table": t.table, "a": t.a, "b": t.b} for t in svc.rounds.pairings(1)]
    # a bye adds its kind and whether it was requested (issue 32, item 15)
    expected[2].update(bye="pab", requested=False)
    # and every table the round's pairing check (issue 35 §2)
    check = svc.checks.round_verdict(1).check
    assert check is not None
    for row in expected:
        row["check"] = check.as_dict()
    assert json.loads(out) == expected and expected[2]["b"] is None


def test_records_still_read_like_the_dicts(tmp_path):
    svc = scripted(tmp_path)
    info = svc.events.event_info()
    assert info["name"] == info.name == "Open" and info["entrants"][0]["name"] == "Ann"
    assert info == info.as_dict() and dict(info) == info.as_dict()
    played, _, bye = svc.rounds.pairings(1)
    assert "bye" not in played and "result" in played and "result" not in bye
    assert bye.get("bye") == "pab" and played["result"]["outcome"] == "D"
    with pytest.raises(KeyError):
        played["bye"]


results = st.builds(
    ResultSummary,
    kind=st.sampled_from(ResultKind),
    forfeit_by=st.none() | st.sampled_from(Coach),
    outcome=st.sampled_from(Outcome),
    sheet=st.none() | st.dictionaries(st.text(max_size=3), st.integers(), max_size=3),
)
tables = st.builds(
    TableOutcome,
    table=st.integers(1, 99),
    a=st.text(min_size=1, max_size=5),
    b=st.none() | st.text(min_size=1, max_size=5),
    bye=st.none() | st.sampled_from(ByeKind),
    result=st.none() | results,
)


@given(tables)
def test_a_table_survives_json_and_omits_only_its_empty_optional_fields(table):
    data = json.loads(json.dumps(table.as_dict()))
    assert data == table  # equal by the JSON; StrEnums went out as their text
    assert ("bye" in data) == (table.bye is not None)
    assert ("result" in data) == (table.result is not None)
    assert set(data) - {"bye", "result"} == {"table", "a", "b"}
