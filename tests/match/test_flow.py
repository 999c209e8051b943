"""Match flow: halves, Final Drive (D-20), turn limit (D-21), release protocol, sanctions
(D-19), forfeits (R-forfeit) — all on an injected clock, so nothing waits."""

from __future__ import annotations

import dataclasses

import pytest
from match_play import release_line, touchdown_line

from ball.games.ball.engine import Game, IllegalAction
from ball.games.ball.match.flow import Match, MatchError
from ball.games.ball.match.timing import ManualClock, load_timing

TIMING = load_timing()
HALF = TIMING.half_seconds
NO_OVERRUN = dataclasses.replace(TIMING, overrun_sanctions=False)


def timed(timing=TIMING, **kwargs) -> tuple[Match, ManualClock]:
    clock = ManualClock()
    return Match(clock=clock, timing=timing, **kwargs), clock


def first_move(game: Game) -> str:
    return next(a for a in game.legal_actions() if a not in ("end", "pe"))


def play_turn(match: Match) -> None:
    """The coach to move plays one move, then ends the turn (and releases, if any)."""
    turn = match.game.turn
    match.play(first_move(match.game))
    while not match.half_over and match.game.turn == turn:
        legal = match.game.legal_actions()
        match.play("end" if "end" in legal else legal[0])


def test_timing_parameters_come_from_data():
    assert TIMING.half_seconds == 20 * 60
    assert TIMING.turn_seconds == 60
    assert (TIMING.release_seconds, TIMING.release_opponent_seconds) == (30, 30)


def test_coach_a_is_atk_and_plays_s_in_half_1_then_b_in_half_2():
    m = Match()
    assert (m.half.atk_first, m.half.coach_of("S"), m.game.attack) == ("A", "A", "S")
    assert m.coach_to_move() == "B"  # DEF makes the first turn
    m.expire_half_timer()
    while not m.half_over:
        play_turn(m)
    m.next_half()
    assert (m.half.number, m.half.atk_first, m.half.coach_of("S")) == (2, "B", "B")


def test_pairing_may_make_b_atk_first():
    m = Match(atk_first="B")
    assert m.half.coach_of("S") == "B" and m.coach_to_move() == "A"


def test_half_2_cannot_start_early_and_a_match_has_two_halves():
    m = Match()
    with pytest.raises(MatchError, match="still being played"):
        m.next_half()
    m.expire_half_timer()
    while not m.half_over:
        play_turn(m)
    m.next_half()
    m.expire_half_timer()
    while not m.half_over:
        play_turn(m)
    assert m.is_over
    with pytest.raises(MatchError, match="two halves"):
        m.next_half()
    with pytest.raises(MatchError, match="over"):
        m.play("end")


# ---------------------------------------------------------------------------- touchdown


def test_a_touchdown_ends_the_half_at_once():
    m = Match()
    for _, action in touchdown_line():
        m.play(action)
    assert m.half_over and m.half.end == "touchdown"
    with pytest.raises(MatchError, match="half 1 is over"):
        m.play("end")
    assert m.sheet()["halves"][0]["td"] == "A"


# ---------------------------------------------------------------------------- Final Drive


def test_final_drive_turn_in_progress_is_def_so_atk_gets_one_more_turn():
    m, clock = timed(NO_OVERRUN)
    m.play(first_move(m.game))  # B (N, DEF) is in turn 1
    clock.advance(HALF)
    m.tick()
    assert m.in_final_drive
    drive = m.half.entries[-1]
    assert (drive.kind, drive.turn, drive.time) == ("final-drive", 1, int(HALF))
    m.play("end")  # B's turn is finished ...
    assert not m.half_over and m.game.to_move == "S" and m.game.turn == 2
    play_turn(m)  # ... A (ATK) gets exactly one more turn ...
    assert m.half_over and m.half.end == "time"  # ... then the half ends
    assert m.game.turn == 3
    with pytest.raises(MatchError, match="half 1 is over"):
        m.play(first_move(m.game))


def test_final_drive_atk_already_moved_ends_after_the_turn_in_progress():
    m, clock = timed(NO_OVERRUN)
    play_turn(m)  # B's turn 1
    m.play(first_move(m.game))  # A (ATK) is moving in turn 2
    clock.advance(HALF)
    m.tick()
    assert m.in_final_drive and m.half.entries[-1].turn == 2
    while not m.half_over:
        legal = m.game.legal_actions()
        m.play("end" if "end" in legal else legal[0])
    assert m.half.end == "time" and m.game.turn == 3  # B gets no turn after expiry


def test_final_drive_is_a_match_event_the_clock_or_the_arbiter_starts_once():
    m, clock = timed(NO_OVERRUN)
    clock.advance(HALF - 1)
    m.tick()
    assert not m.in_final_drive
    clock.advance(1)
    m.play(first_move(m.game))  # the clock is read before the action
    assert m.in_final_drive and m.half.entries[0].kind == "final-drive"
    with pytest.raises(MatchError, match="already expired"):
        m.expire_half_timer()


def test_touchdown_during_final_drive_ends_the_half_and_counts():
    line = touchdown_line()
    scoring_turn = line[-1][0]
    m, clock = timed(NO_OVERRUN)
    for turn, action in line:
        if turn == scoring_turn - 1 and not m.in_final_drive:
            clock.advance(HALF)  # expires during B's turn just before A's last turn
        m.play(action)
    assert m.half.end == "touchdown"
    kinds = [e.kind for e in m.half.entries]
    assert "final-drive" in kinds
    assert m.sheet()["halves"][0]["td"] == "A"


# ---------------------------------------------------------------------------- release phase


def to_release(min_tasks: int) -> tuple[Match, ManualClock, list[str]]:
    m, clock = timed()
    for action in release_line(min_tasks):
        m.play(action)
    assert m.game.phase == "release" and m.release_stage == "coach"
    return m, clock, m.game.copy().referee_release()


def test_release_phase_coach_then_opponent_then_referee():
    m, clock, referee_plan = to_release(min_tasks=2)
    coach_side = m.game.to_move
    clock.advance(TIMING.release_seconds - 1)
    m.tick()
    assert m.release_stage == "coach"  # still the coach's extra time
    clock.advance(1)
    m.tick()
    assert m.release_stage == "opponent"
    task = m.game.legal_actions()[-1]
    with pytest.raises(MatchError, match="opponent chooses"):
        m.play(task)  # the coach may no longer choose
    m.play(task, by="opponent")
    assert m.half.entries[-1].by == "opponent"
    assert m.game.phase == "release"  # one task left
    remaining = m.game.copy().referee_release()
    clock.advance(TIMING.release_opponent_seconds)
    m.tick()
    # the referee resolved the rest at once, with the engine's deterministic resolution
    referee = [e for e in m.half.entries if e.by == "referee"]
    assert [e.action for e in referee] == remaining
    assert all(e.time == TIMING.release_seconds + TIMING.release_opponent_seconds for e in referee)
    assert m.game.phase != "release" and m.game.to_move != coach_side
    assert len(referee_plan) >= 2


def test_release_referee_resolution_when_nobody_chooses():
    m, clock, plan = to_release(min_tasks=1)
    turn = m.game.turn
    clock.advance(TIMING.release_seconds + TIMING.release_opponent_seconds)
    m.tick()
    assert [e.action for e in m.half.entries if e.by == "referee"] == plan
    assert m.game.turn == turn + 1 and m.release_stage is None


def test_opponent_cannot_choose_while_the_coach_still_has_time():
    m, clock, _ = to_release(min_tasks=1)
    with pytest.raises(MatchError, match="only after"):
        m.play(m.game.legal_actions()[0], by="opponent")
    m.play(m.game.legal_actions()[0])  # the coach resolves in time
    assert m.half.entries[-1].by is None


# ---------------------------------------------------------------------------- turn limit


def test_turn_limit_overruns_climb_the_ladder_to_the_loss_of_the_match():
    m, clock = timed()
    limit = TIMING.turn_seconds
    clock.advance(limit)  # B (N) thinks too long in turn 1
    m.tick()
    warning = m.sanctions[-1]
    assert (warning.coach, warning.step, warning.half, warning.turn, warning.time) == (
        "B",
        "warning",
        1,
        1,
        int(limit),
    )
    assert warning.reason == "turn limit exceeded"
    assert m.game.turn == 1  # a warning changes nothing on the board
    clock.advance(limit)  # a fresh window, overrun again
    m.tick()
    assert m.sanctions[-1].step == "loss-of-turn" and m.game.turn == 2
    play_turn(m)  # A answers quickly
    clock.advance(limit)
    m.tick()
    assert m.sanctions[-1].step == "loss-of-possession" and m.game.attack == "S"
    # D-34: B is DEF and holds no ball to lose; A keeps its drive, B's loss waits
    assert m.game.to_move == "N" and m.turn_owner == "N"
    clock.advance(limit)  # B stays on
    m.tick()
    assert m.sanctions[-1].step == "loss-of-match"
    assert m.is_over and m.forfeited == "B" and m.half.research_only
    assert m.decision().reason == "forfeit" and m.decision().winner == "A"


def test_time_events_are_applied_in_the_order_they_fell_due():
    m, clock = timed()
    clock.advance(HALF + 5)  # a very long silence in B's turn 1
    m.tick()
    steps = [s.step for s in m.sanctions]
    # warning at 60 s, loss of turn at 120 s, A's turn then runs over too, and so on: every
    # entry is stamped with the moment it fell due, in order
    times = [e.time for e in m.half.entries]
    assert times == sorted(times)
    assert steps[:2] == ["warning", "loss-of-turn"]
    assert m.is_over  # B reached the loss of the match before the half timer ran out
    assert m.forfeited in ("A", "B")


# ---------------------------------------------------------------------------- sanctions


def test_warning_changes_nothing_on_the_board():
    m = Match()
    before = m.game.to_json()
    s = m.sanction("B", reason="noise")
    assert (s.step, s.half, s.turn, s.time) == ("warning", 1, 1, None)
    assert m.game.to_json() == before and m.level["B"] == "warning"


def test_loss_of_turn_ends_the_turn_now_without_release():
    m = Match()
    for action in release_line(1):
        m.play(action)
    owner = m.turn_owner
    turn = m.game.turn
    m.sanction(m.half.coach_of(owner), "loss-of-turn", "delay")
    assert m.game.turn == turn + 1 and m.game.to_move != owner
    assert m.game.phase == "action" and m.game.pa == 2


def test_loss_of_turn_given_out_of_turn_takes_the_next_turn():
    m = Match()
    m.sanction("A", "loss-of-turn", "argued with the arbiter")  # B (N) is to move
    assert m.game.turn == 1 and m.game.to_move == "N"
    m.play("end")
    # A's turn 2 began and was lost at once: B is to move in turn 3
    assert m.game.turn == 3 and m.game.to_move == "N"


def test_d34_each_loss_of_turn_given_out_of_turn_takes_one_of_the_offenders_turns():
    m = Match()  # B (N) is to move in turn 1
    m.sanction("A", "loss-of-turn", "argued with the arbiter")
    m.sanction("A", "loss-of-turn", "argued again")
    m.play("end")  # A's turn 2 is lost at once, B plays turn 3
    assert (m.game.turn, m.game.to_move) == (3, "N")
    m.play("end")  # and A's turn 4 is lost too: two sanctions, two turns
    assert (m.game.turn, m.game.to_move) == (5, "N")
    m.play("end")
    assert (m.game.turn, m.game.to_move) == (6, "S")  # then A plays again


def test_loss_of_turn_given_between_halves_takes_the_first_turn_of_half_2():
    m = Match()
    m.expire_half_timer()
    while not m.half_over:
        play_turn(m)
    m.sanction("A", "loss-of-turn", "late back from the break")  # A opens half 2 as DEF (N)
    with pytest.raises(MatchError, match="needs a half in play"):
        m.sanction("B", "loss-of-possession", "x")
    m.next_half()
    assert (m.game.turn, m.coach_to_move()) == (2, "B")


def test_no_turn_to_lose_once_the_match_is_over():
    m = Match()
    for _ in range(2):
        if m.half_over:
            m.next_half()
        m.expire_half_timer()
        while not m.half_over:
            play_turn(m)
    assert m.is_over
    with pytest.raises(MatchError, match="no turn left"):
        m.sanction("A", "loss-of-turn", "too late")


def test_loss_of_possession_resets_with_the_opponent_as_atk_and_no_pb():
    m = Match()
    line = touchdown_line()
    for _, action in line[:-1]:
        m.play(action)
    pb_before = m.game.pb
    assert m.game.attack == "S"
    m.sanction("A", "loss-of-possession", "repeated delay")
    g = m.game
    assert g.attack == "N" and g.pb == pb_before
    fresh = Game.new()
    assert sorted((p["side"], p["id"], p["at"]) for p in g.to_json()["pieces"]) == sorted(
        (p["side"], p["id"], p["at"]) for p in fresh.to_json()["pieces"]
    )
    assert g.to_json()["ball"] == {"carrier": "N:X5"}


def _board(game: Game) -> tuple:
    doc = game.to_json()
    return sorted((p["side"], p["id"], p["at"], p["state"]) for p in doc["pieces"]), doc["ball"]


def _state(game: Game) -> tuple:
    """What a loss of possession that does not bite yet must leave alone: the board, who is
    to move in which turn, and the pass and PB counters."""
    return _board(game), game.to_move, game.turn, game.pa, game.pb


def _loss_of_possession_mid_turn(offender: str, reason: str, *opening: str) -> tuple[Match, tuple]:
    """D-34's set-up: a new match (A attacks as S, B as N moves first) after `opening`, the
    coach to move plays one move, then `offender` is sanctioned with a loss of possession.
    Returns the match and its `_state` just before the sanction."""
    m = Match()
    for action in opening:
        m.play(action)
    m.play(first_move(m.game))
    before = _state(m.game)
    m.sanction(offender, "loss-of-possession", reason)
    return m, before


def test_d34_loss_of_possession_against_the_def_coach_takes_nothing_from_the_atk():
    # B (N, DEF) passes turn 1; A (S, ATK) moves in turn 2 and B is sanctioned.
    m, before = _loss_of_possession_mid_turn("B", "abuse of the arbiter", "end")
    g = m.game
    assert _state(g) == before  # A keeps its drive and turn
    assert g.attack == "S" and m.sanctions[-1].step == "loss-of-possession"


def test_d34_loss_of_possession_given_in_the_opponents_turn_waits_for_the_offenders_turn():
    # B (N) moves in turn 1 and A, the ATK coach, is sanctioned during it.
    m, before = _loss_of_possession_mid_turn("A", "coaching from the audience")
    g = m.game
    assert _state(g) == before and g.attack == "S"
    while m.game.turn == 1:  # B finishes its turn undisturbed
        m.play("end" if "end" in m.game.legal_actions() else m.game.legal_actions()[0])
    # A's turn 2 began in possession: D-19 applies then and ends A's turn (D-25)
    assert (g.attack, g.to_move, g.turn) == ("N", "N", 3)
    assert _board(g)[1] == {"carrier": "N:X5"}
    assert g.pb == {"S": {"atk": 0, "def": 0}, "N": {"atk": 0, "def": 0}}


def _scenario():
    """The engine tests' position builder (tests/engine/scenario.py), loaded by path."""
    import importlib.util
    from pathlib import Path

    path = Path(__file__).parents[1] / "engine" / "scenario.py"
    spec = importlib.util.spec_from_file_location("engine_scenario", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_d34_pending_loss_of_possession_bites_when_the_def_coach_steals():
    position = _scenario().position
    # A plays S and is DEF here (N attacks); A is to move and can steal by a forced fumble.
    start = position({"S:X1": "G9", "N:X5": "I11"}, ball="N:X5", attack="N", to_move="S", turn=5)
    m = Match(start=start)
    m.sanction("A", "loss-of-possession", "repeated delay")
    assert (m.game.attack, m.game.to_move, m.game.turn) == ("N", "S", 5)  # nothing yet
    m.play("G9-I11/J12")
    assert m.game.phase == "steal" and m.game.attack == "N"  # the decision is awaited
    m.play("continue")  # A takes the ATK role in its own turn: the sanction bites now
    g = m.game
    assert (g.attack, g.to_move, g.turn) == ("N", "N", 6)
    assert _board(g)[1] == {"carrier": "N:X5"}


def test_loss_of_the_match_is_an_administrative_forfeit():
    m = Match()
    play_turn(m)
    m.sanction("A", "loss-of-match", "abuse")
    assert m.is_over and m.forfeited == "A" and m.half.end == "forfeit"
    d = m.decision()
    assert (d.winner, d.reason, d.td) == ("B", "forfeit", {"A": 0, "B": 2})
    with pytest.raises(MatchError, match="forfeited"):
        m.sanction("B")


def test_ladder_climbs_per_coach_and_a_serious_step_may_skip():
    m = Match()
    assert [m.sanction("B").step for _ in range(2)] == ["warning", "loss-of-turn"]
    assert m.sanction("A").step == "warning"  # each coach has their own ladder
    m.sanction("A", "loss-of-possession", "serious")
    m.sanction("A", "warning", "minor")  # a lighter step never lowers the level
    assert m.level == {"A": "loss-of-possession", "B": "loss-of-turn"}
    assert m.sanction("A").step == "loss-of-match"
    with pytest.raises(MatchError):
        Match().sanction("A", "detention")


def test_sanctions_are_recorded_with_time_half_turn_and_reason():
    m, clock = timed(NO_OVERRUN)
    play_turn(m)
    clock.advance(95)
    m.sanction("A", reason="coaching from the audience")
    entry = m.half.entries[-1]
    assert (entry.kind, entry.coach, entry.step, entry.turn, entry.time) == (
        "sanction",
        "A",
        "warning",
        2,
        95,
    )
    assert entry.reason == "coaching from the audience"


# ---------------------------------------------------------------------------- forfeit


def test_forfeit_mid_half_2_keeps_the_half_as_research_only():
    m = Match()
    for _, action in touchdown_line():
        m.play(action)
    m.next_half()
    play_turn(m)
    m.forfeit("A", "left the venue")
    assert m.is_over and m.halves[1].research_only and not m.halves[0].research_only
    tags = m.result_tags()
    assert tags["Half2Status"] == "research-only" and "Half1Status" not in tags
    assert tags["Result"] == "0-1" and tags["Reason"] == "forfeit" and tags["Forfeit"] == "A"
    sheet = m.sheet()
    assert len(sheet["halves"]) == 2 and sheet["forfeit"] == "A"
    d = m.decision()
    assert d.td == {"A": 0, "B": 2} and d.sd == {"A": 0, "B": 0}  # A's touchdown is void


def test_d35_no_forfeit_and_no_loss_of_the_match_after_the_last_half():
    m = Match()
    for _ in range(2):
        if m.half_over:
            m.next_half()
        m.expire_half_timer()
        while not m.half_over:
            play_turn(m)
    result = m.decision()
    with pytest.raises(MatchError, match="nothing to forfeit"):
        m.forfeit("A", "walked off after the final whistle")
    with pytest.raises(MatchError, match="nothing to forfeit"):
        m.sanction("A", "loss-of-match", "insulted the arbiter")
    assert m.forfeited is None and m.decision() == result
    assert [h["end"] for h in m.sheet()["halves"]] == ["time", "time"]


def test_forfeit_between_halves():
    m = Match()
    m.expire_half_timer()
    while not m.half_over:
        play_turn(m)
    m.forfeit("B", "refused the second half")
    assert m.is_over and len(m.halves) == 1 and m.half.end == "time"
    assert m.decision().winner == "A"
    with pytest.raises(MatchError, match="forfeited"):
        m.next_half()


def test_illegal_actions_come_from_the_engine_and_leave_no_entry():
    m = Match()
    with pytest.raises(IllegalAction):
        m.play("G7-G9")
    assert m.half.entries == []


def test_sheet_pb_comes_from_the_engine_dual_entry_counters():
    m = Match()
    for _, action in touchdown_line():
        m.play(action)
    g = m.game
    half = m.sheet()["halves"][0]
    assert half["pb"]["A"] == g.pb["S"] and half["pb"]["B"] == g.pb["N"]
    assert half["pb"]["A"]["atk"] == half["pb"]["B"]["def"] > 0
