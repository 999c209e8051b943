"""Records of played matches: write, read and replay give back the same match, action for
action; corrupt or illegal records are refused with line, column and reason."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from match_play import random_action, random_match, release_line, touchdown_line

from ball.games.ball.match.flow import Match, MatchError
from ball.games.ball.match.record import RecordError, parse, write
from ball.games.ball.match.replay import replay, replay_text
from ball.games.ball.match.timing import ManualClock


def assert_same_match(a: Match, b: Match) -> None:
    assert len(a.halves) == len(b.halves)
    for x, y in zip(a.halves, b.halves, strict=True):
        assert x.entries == y.entries  # action for action, events included
        assert x.game.to_json() == y.game.to_json()
        assert (x.atk_first, x.end) == (y.atk_first, y.end)
    assert a.forfeited == b.forfeited
    assert a.sanctions == b.sanctions
    assert a.decision() == b.decision()


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10**9))
def test_random_matches_round_trip_through_bgn(seed):
    played = random_match(seed)
    text = write(played.record({"Event": "property", "Round": str(seed % 7)}))
    replayed = replay(parse(text)).match
    assert_same_match(played, replayed)
    assert write(replayed.record({"Event": "property", "Round": str(seed % 7)})) == text


def timed_random_match(seed: int) -> Match:
    """Coaches who sometimes think too long: overruns, release timeouts, Final Drives."""
    rng = random.Random(seed)
    clock = ManualClock()
    m = Match(clock=clock, names={"A": "Kim", "B": "Petrova"})
    while not m.is_over:
        if m.half_over:
            m.next_half()
            continue
        clock.advance(rng.choice([3, 10, 25, 45, 70]) * rng.random())
        m.tick()
        if not m.half_over and not m.is_over:
            by = "opponent" if m.release_stage == "opponent" else None
            m.play(random_action(m.game, rng), by=by)
    return m


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10**9))
# Seeds whose coach stole the ball and thought on past the turn limit: the overrun once came
# out after the steal decision, stamped earlier than it ("[%time] goes backwards").
@example(35)
@example(175)
@example(263)
@example(372)
@example(562)
@example(589)
def test_timed_matches_round_trip_with_their_clock_annotations(seed):
    m = timed_random_match(seed)
    text = write(m.record())
    assert "[%time " in text and '[CoachA "Kim"]' in text
    assert_same_match(m, replay_text(text).match)


def test_timed_match_shows_every_time_protocol():
    texts = [write(timed_random_match(seed).record()) for seed in range(6)]
    joined = "\n".join(texts)
    for needle in ("final-drive", "[%by opponent]", "[%by referee]", "sanction "):
        assert needle in joined


def _record(match: Match) -> str:
    return write(match.record({"Event": "test"}))


def _touchdown_match() -> Match:
    m = Match()
    for _, action in touchdown_line():
        m.play(action)
    m.next_half()
    m.expire_half_timer()
    while not m.half_over:
        legal = m.game.legal_actions()
        m.play("end" if "end" in legal else legal[0])
    return m


def _where(text: str, needle: str) -> tuple[int, int]:
    for number, line in enumerate(text.splitlines(), start=1):
        if needle in line:
            return number, line.index(needle) + 1
    raise AssertionError(needle)


def test_replay_checks_the_result_tags():
    m = _touchdown_match()
    text = _record(m)
    assert replay_text(text).match.decision().winner == "A"
    forged = text.replace('[Result "1-0"]', '[Result "0-1"]')
    with pytest.raises(RecordError) as info:
        replay_text(forged)
    assert (info.value.line, info.value.column) == _where(forged, '[Result "0-1"]')
    assert "Result" in info.value.reason and "'1-0'" in info.value.reason
    forged = text.replace('[Half1PB "', '[Half1PB "1')
    with pytest.raises(RecordError, match="Half1PB"):
        replay_text(forged)


def test_illegal_action_is_refused_with_line_column_and_engine_reason():
    text = _record(_touchdown_match())
    first_turn_2 = next(line for line in text.splitlines() if line.startswith("2. "))
    bad_line = first_turn_2.replace(first_turn_2.split()[1].rstrip(","), "G7-G9", 1)
    corrupt = text.replace(first_turn_2, bad_line)
    with pytest.raises(RecordError) as info:
        replay_text(corrupt)
    assert (info.value.line, info.value.column) == _where(corrupt, "G7-G9")
    assert info.value.reason.startswith("illegal action 'G7-G9': ")
    assert len(info.value.reason) > len("illegal action 'G7-G9': ")


def test_entry_in_the_wrong_turn_is_refused():
    text = _record(_touchdown_match())
    last = text.splitlines()[-1]
    number = int(last.split(".")[0])
    corrupt = text.replace(last, f"{number + 5}." + last.split(".", 1)[1])
    with pytest.raises(RecordError) as info:
        replay_text(corrupt)
    assert info.value.reason == f"entry is numbered turn {number + 5}, the game is at turn {number}"
    column = len(f"{number + 5}. ") + 1  # the first entry of that turn
    assert (info.value.line, info.value.column) == (len(text.splitlines()), column)


def test_record_that_stops_before_the_match_ends_is_refused():
    m = _touchdown_match()
    text = _record(m)
    half_1_only = text[: text.index("\nhalf 2")] + "\n"
    with pytest.raises(RecordError, match="ends before the match does"):
        replay_text(half_1_only)
    truncated = "\n".join(text.splitlines()[:-1]) + "\n"
    with pytest.raises(RecordError, match="half 2 is not over"):
        replay_text(truncated)


def test_half_1_must_be_over_before_half_2():
    text = _record(_touchdown_match())
    lines = text.splitlines()
    cut = [i for i, line in enumerate(lines) if line.startswith("6. ")][0]
    corrupt = "\n".join(lines[:cut] + lines[lines.index("half 2") - 1 :]) + "\n"
    with pytest.raises(RecordError, match="half 1 is not over"):
        replay_text(corrupt)
    with pytest.raises(RecordError, match="half 2 cannot begin"):
        replay_text(corrupt, require_complete=False)


def test_entries_after_a_forfeit_are_refused():
    m = Match()
    m.play("end")
    m.forfeit("A", "gone")
    text = _record(m).rstrip("\n") + ", end\n"
    with pytest.raises(RecordError, match="already over"):
        replay_text(text)


def test_replay_stops_at_the_start_of_a_turn():
    line = touchdown_line()
    m = Match()
    expected = None
    for turn, action in line:
        if turn == 3 and expected is None:
            expected = m.game.to_json()
        m.play(action)
    m.next_half()
    m.forfeit("B", "unwell")
    text = _record(m)
    assert replay_text(text, stop=(1, 3)).position == expected
    assert replay_text(text, stop=(1, None)).position == m.halves[0].game.to_json()
    with pytest.raises(RecordError, match="no turn 40"):
        replay_text(text, stop=(1, 40))


def test_unknown_ruleset_tag_is_refused_at_the_tag():
    text = '[Ruleset "no-such-rules"]\n\nhalf 1\n1. end\n'
    with pytest.raises(RecordError) as info:
        replay_text(text)
    assert (info.value.line, info.value.column) == (1, 1)
    assert "no-such-rules" in info.value.reason


def _sample_lines() -> list[str]:
    sample = Path(__file__).resolve().parents[2] / "examples" / "sample-match.bgn"
    return sample.read_text().splitlines()


def _first(lines: list[str], needle: str) -> int:
    return next(i for i, line in enumerate(lines) if needle in line)


def test_referee_entries_must_be_the_engines_resolution():
    m = Match()
    for action in release_line(1):
        m.play(action)
    plan = m.game.copy().referee_release()
    other = next(o for o in m.game.legal_actions() if o != plan[0])
    with pytest.raises(MatchError, match="referee's resolution is"):
        m.play(other, by="referee")
    m.play(plan[0], by="referee")
    assert m.half.entries[-1].by == "referee"
    assert any("[%by referee]" in line for line in _sample_lines())


def test_by_annotation_outside_a_release_phase_is_refused():
    lines = _sample_lines()
    i = _first(lines, "1. ")
    lines[i] = lines[i].replace("}", " [%by opponent]}", 1)
    with pytest.raises(RecordError, match="only release tasks are chosen by the opponent"):
        replay_text("\n".join(lines) + "\n")


def test_time_going_backwards_is_refused():
    lines = _sample_lines()
    i = _first(lines, "2. ")
    lines[i] = lines[i].replace("[%time 0:01:03]", "[%time 0:00:03]")
    with pytest.raises(RecordError, match="goes backwards") as info:
        replay_text("\n".join(lines) + "\n")
    assert info.value.line == i + 1


def test_a_game_from_a_given_position_carries_it_in_the_position_tag():
    opening = Match()
    for _, action in touchdown_line()[:4]:
        opening.play(action)
    start = opening.game.copy()
    m = Match(start=start)
    m.play(m.game.legal_actions()[0])
    m.forfeit("B", "lesson over")
    text = write(m.record())
    assert parse(text).tags["Position"].startswith('{"format":"ball-position/1"')
    again = replay_text(text).match
    assert again.game.to_json() == m.game.to_json()
    broken = text.replace("ball-position/1", "chess")  # inside the escaped tag value
    with pytest.raises(RecordError) as info:
        replay_text(broken)
    assert info.value.line == _where(broken, "[Position")[0]
    assert "Position" in info.value.reason and "chess" in info.value.reason


def test_a_record_of_half_2_alone_needs_a_half_2_position():
    with pytest.raises(RecordError, match="begins with half 2 but the game with half 1"):
        replay_text("half 2\n1. end\n", require_complete=False)
