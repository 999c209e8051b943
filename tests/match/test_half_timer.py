"""BALL match time as plain arithmetic (ball.half_timer), shared by the match and
the table clock; tests/clocks/test_match_time_agrees.py checks that both read the same."""

from ball.half_timer import (
    FinalDrive,
    half_timer_expiry,
    release_window_end,
    turn_limit_edge,
)


def test_half_timer_runs_from_the_signal_without_stopping():
    assert half_timer_expiry(100.0, 1200.0) == 1300.0
    assert half_timer_expiry(100.0, 1200.0, stopped=30.0) == 1330.0  # an organiser's option


def test_turn_limit_gives_a_fresh_window_after_each_overrun():
    assert [turn_limit_edge(60, n, every=60) for n in range(3)] == [60, 120, 180]
    assert [turn_limit_edge(15, n, every=None) for n in range(2)] == [15, None]


def test_release_windows_follow_each_other_then_the_referee():
    assert [release_window_end((30, 20), i) for i in range(3)] == [30, 50, None]


def test_final_drive_expiry_in_the_def_turn_gives_the_atk_one_more_turn():
    drive = FinalDrive("N", expired_at=1200.0)
    assert drive.after_turn("N", attack="S") == "S"
    assert drive.extra_turn_of == "S"
    assert drive.after_turn("S", attack="S") is None  # then the half ends


def test_final_drive_expiry_in_the_atk_turn_ends_the_half_with_it():
    assert FinalDrive("S").after_turn("S", attack="S") is None


def test_final_drive_follows_a_steal_in_the_turn_at_expiry():
    # N was DEF at expiry, stole and continued: N is ATK when its turn ends, so no more turns
    assert FinalDrive("N").after_turn("N", attack="N") is None
