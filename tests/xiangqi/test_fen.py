"""Xiangqi FEN: both letter sets read, one written (n/b), and every fault named (seed §1)."""

from __future__ import annotations

import pytest

from ball.games.xiangqi.engine import START_FEN, Color, Position, XiangqiError


def test_start_position_round_trips() -> None:
    start = Position.start()
    assert start.fen() == START_FEN
    assert Position.from_fen(start.fen()) == start
    assert start.turn is Color.RED and start.halfmove_clock == 0 and start.fullmove == 1


def test_h_and_e_letters_read_as_horse_and_elephant() -> None:
    he = Position.from_fen("rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR w - - 0 1")
    assert he == Position.start()
    assert he.fen() == START_FEN  # written with n/b


def test_short_fen_and_red_as_r() -> None:
    pos = Position.from_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR r")
    assert pos == Position.start()


def test_clocks_are_read_and_written() -> None:
    fen = "3k5/9/9/9/9/9/9/9/4A4/5K3 b - - 17 42"
    pos = Position.from_fen(fen)
    assert (pos.turn, pos.halfmove_clock, pos.fullmove) == (Color.BLACK, 17, 42)
    assert pos.fen() == fen


@pytest.mark.parametrize(
    ("fen", "fault"),
    [
        ("", "empty FEN"),
        ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/RNBAKABNR w", "9 ranks instead of 10"),
        ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/9/RNBAKABNR w", "11 ranks"),
        ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNRR w", "10 files"),
        ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABN w", "8 files"),
        ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNQ w", "bad character 'Q'"),
        ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/0/RNBAKABNR w", "'0'"),
        ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR", "no side to move"),
        ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR x", "side to move 'x'"),
        ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - x 1", "half-move"),
        ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 0", "move number"),
        ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 x", "7 fields"),
        ("3k5/9/9/9/9/9/9/9/4K4/4K4 w", "2 red kings"),
        ("9/9/9/9/9/9/9/9/9/4K4 w", "no black king"),
        ("3k5/9/9/9/9/9/9/9/9/9 w", "no red king"),
        ("3k5/9/9/9/9/9/9/9/9/2K6 w", "red king on c0 is outside its palace"),
        ("3k5/9/9/9/9/4K4/9/9/9/9 w", "red king on e4 is outside its palace"),
        ("9/9/9/9/9/9/9/3k5/9/4K4 w", "black king on d2 is outside its palace"),
        ("3k5/9/9/9/9/9/9/9/9/4KA3 w", None),  # f0 is an advisor point: accepted
        ("3k5/9/9/9/9/9/9/9/9/4K1A2 w", "red advisor on g0"),
        ("3k5/9/9/9/9/9/9/9/9/3BK4 w", "red elephant on d0"),
        ("3k5/9/9/2B6/9/9/9/9/9/4K4 w", "red elephant on c6"),  # across the river
        ("3k5/9/9/9/9/9/9/P8/9/4K4 w", "red pawn on a2 is behind"),
        # Issue 32.10: not behind (b3 is level with the starting points) but off their files.
        ("3k5/9/9/9/9/9/1P7/9/9/4K4 w", "red pawn on b3 is on its own side of the river off"),
        ("3k5/9/9/5p3/9/9/9/9/9/4K4 w", "black pawn on f6 is on its own side of the river off"),
        ("3k5/9/9/9/3p5/9/9/9/9/4K4 w", "black pawn on d5 is on its own side of the river off"),
        ("3k5/4p4/9/9/9/9/9/9/9/4K4 w", "black pawn on e8 is behind"),
        ("3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1", None),
        ("3k5/9/9/9/9/9/9/9/9/4K4 w - - ² 1", "half-move"),  # not an ASCII digit
        ("3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1234567", "move number"),
        ("3k5/9/9/9/9/9/9/9/9/4K²K4 w", "bad character '²'"),
        ("3k5/9/9/PPPPPP3/9/9/9/9/9/4K4 w", "6 red pawns"),
        ("3k5/9/9/9/9/9/9/9/9/4K1RRR w", "3 red rooks"),
        ("4k4/9/9/9/9/9/9/9/9/4K4 w", "the kings face each other"),
        ("3k5/9/9/9/9/9/9/9/9/3RK4 w", "black is in check but it is red to move"),
    ],
)
def test_fen_faults_are_named(fen: str, fault: str | None) -> None:
    if fault is None:
        Position.from_fen(fen)
        return
    with pytest.raises(XiangqiError) as info:
        Position.from_fen(fen)
    assert fault in str(info.value)


def test_key_ignores_the_clocks() -> None:
    a = Position.from_fen("3k5/9/9/9/9/9/9/9/4A4/5K3 w - - 3 10")
    b = Position.from_fen("3k5/9/9/9/9/9/9/9/4A4/5K3 w - - 0 1")
    c = Position.from_fen("3k5/9/9/9/9/9/9/9/4A4/5K3 b - - 0 1")
    assert a.key() == b.key() != c.key()
    assert a != b
    assert len({a.key(), b.key(), c.key()}) == 2


@pytest.mark.parametrize("text", ["e²e3", "h2e", "h2e22", "j0j1", "", "e0e0"])
def test_bad_iccs_moves_are_refused(text: str) -> None:
    from ball.games.xiangqi.engine import Move

    with pytest.raises(XiangqiError):
        Move.from_iccs(text)
