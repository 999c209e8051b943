"""The result's StrEnums: typed members inside, the very same text outside (issue 12)."""

from __future__ import annotations

import copy
import json

from match_sheets import ISSUE_EXAMPLE

from ball.games.ball.engine import Game
from ball.games.ball.engine.state import (
    ACTION,
    OVER,
    PHASE_NAMES,
    RELEASE,
    SIDE_NAMES,
    N,
    Phase,
    S,
    Side,
)
from ball.games.ball.match.result import (
    HALF_ENDS,
    REASONS,
    HalfEnd,
    Outcome,
    Reason,
    _validate,
    decide,
)
from ball.tournament.systems import SYSTEMS, PairingSystem


def test_a_decision_carries_a_reason_member_and_writes_plain_text():
    d = decide(copy.deepcopy(ISSUE_EXAMPLE))
    assert d.reason is Reason.TOUCHDOWNS
    doc = d.as_dict()
    assert type(doc["reason"]) is str  # documents and the database get no enum objects
    assert json.dumps(doc["reason"]) == '"touchdowns"'


def test_enum_members_equal_the_texts_used_on_sheets_and_in_the_api():
    assert REASONS == ("touchdowns", "attack-efficiency", "defensive-superiority", "draw",
                       "forfeit")  # fmt: skip
    assert all(type(r) is str for r in REASONS)
    assert HALF_ENDS == ("touchdown", "time", "forfeit") == tuple(HalfEnd)
    assert [o.value for o in Outcome] == ["A", "B", "D", "N"]
    assert SYSTEMS == ("round-robin", "double-round-robin", "swiss", "knockout")
    assert PairingSystem("double-round-robin").all_play_all
    assert not PairingSystem.SWISS.all_play_all


def test_half_end_read_from_a_sheet_is_a_member():
    sheet = copy.deepcopy(ISSUE_EXAMPLE)
    sheet["halves"][1]["end"] = "time"
    _coaches, halves, _forfeit = _validate(sheet)
    assert halves[0].end is None and halves[1].end is HalfEnd.TIME
    assert halves[1].complete


def test_engine_phase_and_side_names_follow_the_engine_ints():
    assert PHASE_NAMES[ACTION] == Phase.ACTION and PHASE_NAMES[RELEASE] == Phase.RELEASE
    assert PHASE_NAMES[OVER] == Phase.OVER
    assert (SIDE_NAMES[S], SIDE_NAMES[N]) == (Side.S, Side.N)
    assert all(type(name) is str for name in PHASE_NAMES + SIDE_NAMES)
    assert Game.new().phase == Phase.ACTION
