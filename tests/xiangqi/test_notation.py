"""Move notations (issue 16): ICCS, WXF and Chinese, written and read against positions.

Scenarios follow the seed: files counted from each player's right, Red with Chinese numerals
and Black with Arabic ones (1.1); the full and short records of 7.5 (炮二平五 / C2=5, 馬8進7 /
H8+7); tandem pieces (front/rear, three pawns on a file, pawns tandem on two files); advisors
and elephants told apart by direction alone. Properties: every legal move of random positions
reads back from each notation, every notation converts to every other and back, and no two
legal moves share a text."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ball.games.xiangqi.engine import Move, Position, XiangqiError
from ball.games.xiangqi.engine.notation import Notation, convert, detect, read, write

from .positions import random_position

START = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w"
START_BLACK = START[:-1] + "b"  # the start position with Black to move
AFTER_C25 = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b"  # after h2e2
TANDEM_ROOKS = "3k5/9/9/9/9/R8/9/9/9/R3K4 w - - 0 1"  # Red rooks a4, a0
ROOK_AT_EDGE = "R8/3k5/9/9/9/R8/9/9/9/4K4 w - - 0 1"  # Red rooks a9, a4
BLACK_ROOKS = "r3k4/9/9/9/r8/9/9/9/9/3K5 b - - 0 1"  # Black rooks a9, a5
THREE_PAWNS = "3k5/9/9/2P6/2P6/2P6/9/9/9/4K4 w - - 0 1"  # Red pawns c6, c5, c4
TWO_FILES = "3k5/9/9/2P1P4/2P1P4/9/9/9/9/4K4 w - - 0 1"  # Red pawns c6, c5, e6, e5
ADVISORS = "3k5/9/9/9/9/9/9/3A5/9/3AK4 w - - 0 1"  # Red advisors d2, d0
ELEPHANTS = "3k5/9/9/9/9/2B6/9/9/9/2B1K4 w - - 0 1"  # Red elephants c4, c0
FOUR_PAWNS = "3k5/9/2P6/2P6/2P6/2P6/9/9/9/4K4 w - - 0 1"  # Red pawns c7..c4


def texts(fen: str, iccs: str) -> tuple[str, str]:
    position = Position.from_fen(fen)
    move = Move.from_iccs(iccs)
    return write(position, move, "wxf"), write(position, move, "chinese")


@pytest.mark.parametrize(
    ("fen", "iccs", "wxf", "chinese"),
    [
        # Seed 7.5's example: the central cannon and Black's horse reply.
        (START, "h2e2", "C2=5", "炮二平五"),
        (AFTER_C25, "h9g7", "H8+7", "馬8進7"),
        (START, "b0c2", "H8+7", "傌八進七"),
        (START, "i0i2", "R1+2", "俥一進二"),
        (START, "e0e1", "K5+1", "帥五進一"),
        (START_BLACK, "b7b0", "C2+7", "砲2進7"),
        (START_BLACK, "g6g5", "P7+1", "卒7進1"),
        # Two rooks on a file: front and rear (both could make the displacement).
        (TANDEM_ROOKS, "a4a6", "R++2", "前俥進二"),
        (TANDEM_ROOKS, "a0a2", "R-+2", "後俥進二"),
        (TANDEM_ROOKS, "a4b4", "R+=8", "前俥平八"),
        (BLACK_ROOKS, "a5a4", "R++1", "前車進1"),
        (BLACK_ROOKS, "a9a8", "R-+1", "後車進1"),
        # Retreating the front rook: the rear one could not retreat as far.
        (BLACK_ROOKS, "a5a7", "R1-2", "車1退2"),
        # The front rook could not go two further up: the file alone tells them apart.
        (ROOK_AT_EDGE, "a4a6", "R9+2", "俥九進二"),
        # Three pawns on a file: numbered from the front (WXF), 前/中/後 (Chinese).
        (THREE_PAWNS, "c6c7", "17+1", "前兵進一"),
        (THREE_PAWNS, "c5d5", "27=6", "中兵平六"),
        (THREE_PAWNS, "c5b5", "27=8", "中兵平八"),
        # Four pawns on a file: 一兵 … 四兵.
        (FOUR_PAWNS, "c7c8", "17+1", "一兵進一"),
        (FOUR_PAWNS, "c6d6", "27=6", "二兵平六"),
        # Pawns tandem on two files: the file is named too.
        (TWO_FILES, "c6c7", "17+1", "前七進一"),
        (TWO_FILES, "c5b5", "27=8", "後七平八"),
        (TWO_FILES, "e5d5", "25=6", "後五平六"),
        # Advisors and elephants on one file: direction alone tells them apart.
        (ADVISORS, "d0e1", "A6+5", "仕六進五"),
        (ADVISORS, "d2e1", "A6-5", "仕六退五"),
        (ELEPHANTS, "c0e2", "E7+5", "相七進五"),
        (ELEPHANTS, "c4e2", "E7-5", "相七退五"),
        (ELEPHANTS, "c4a2", "E7-9", "相七退九"),
    ],
)
def test_writes_and_reads(fen: str, iccs: str, wxf: str, chinese: str) -> None:
    position = Position.from_fen(fen)
    move = Move.from_iccs(iccs)
    assert texts(fen, iccs) == (wxf, chinese)
    assert write(position, move, "iccs") == iccs
    for text in (iccs, wxf, chinese):
        assert read(position, text) == move


@pytest.mark.parametrize(
    ("fen", "text", "iccs"),
    [
        # Simplified and variant characters, Arabic or full-width digits for either side.
        (TANDEM_ROOKS, "后车进二", "a0a2"),
        (ROOK_AT_EDGE, "車9進2", "a4a6"),
        (START, "马八进七", "b0c2"),
        (START, "炮2平5", "h2e2"),
        (AFTER_C25, "马８进７", "h9g7"),
        (AFTER_C25, "包8平5", "h7e7"),
        (AFTER_C25, "n8+7", "h9g7"),
        # WXF: tandem written before the letter, lower case, and the file form when unique.
        (TANDEM_ROOKS, "-R+2", "a0a2"),
        (TANDEM_ROOKS, "r-+2", "a0a2"),
        (ROOK_AT_EDGE, "R-+2", "a4a6"),
        (ROOK_AT_EDGE, "後俥進二", "a4a6"),
        (THREE_PAWNS, "P7+1", "c6c7"),
        (THREE_PAWNS, "前七進一", "c6c7"),
        (ELEPHANTS, "B7+5", "c0e2"),
        (START, "H2-E2", "h2e2"),
    ],
)
def test_reads_the_common_variants(fen: str, text: str, iccs: str) -> None:
    assert read(Position.from_fen(fen), text) == Move.from_iccs(iccs)


@pytest.mark.parametrize(
    ("fen", "text", "words"),
    [
        (TANDEM_ROOKS, "R9+2", "ambiguous"),  # both rooks on file 9 can go up two
        (TWO_FILES, "前兵進一", "ambiguous"),  # a front pawn on each of two files
        (TANDEM_ROOKS, "C2=5", "no legal move"),
        (TANDEM_ROOKS, "X2=5", "not a WXF piece letter"),
        (TANDEM_ROOKS, "R9*2", "not a WXF move"),
        (TANDEM_ROOKS, "俥十進二", "not a file number"),
        (TANDEM_ROOKS, "俥九跳二", "not 進, 退 or 平"),
        (TANDEM_ROOKS, "俥九進", "four characters"),
        (TANDEM_ROOKS, "a0a2x", "not a WXF move"),
        (TANDEM_ROOKS, "a0b1", "cannot move"),
        (TANDEM_ROOKS, "", "empty"),
        (TANDEM_ROOKS, "R" * 40, "too long"),
    ],
)
def test_bad_text_is_named(fen: str, text: str, words: str) -> None:
    with pytest.raises(XiangqiError) as info:
        read(Position.from_fen(fen), text)
    assert words in str(info.value)


def test_write_refuses_an_illegal_move() -> None:
    with pytest.raises(XiangqiError, match="cannot move"):
        write(Position.start(), Move.from_iccs("h2h8"), "wxf")
    with pytest.raises(XiangqiError, match="unknown notation"):
        write(Position.start(), Move.from_iccs("h2e2"), "san")


def test_detect() -> None:
    assert detect("h2e2") is Notation.ICCS
    assert detect("H2-E2") is Notation.ICCS
    assert detect("C2=5") is Notation.WXF
    assert detect("17+1") is Notation.WXF
    assert detect("炮二平五") is Notation.CHINESE
    assert detect("馬８進７") is Notation.CHINESE


NOTATIONS = list(Notation)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32))
def test_every_legal_move_round_trips_through_every_notation(seed: int) -> None:
    position = random_position(random.Random(seed))
    for fmt in NOTATIONS:
        written = {write(position, m, fmt): m for m in position.legal_moves()}
        # One text per move: a notation that gave two moves the same text could not be read.
        assert len(written) == len(position.legal_moves())
        for text, move in written.items():
            assert read(position, text, fmt) == move
            assert read(position, text) == move  # the notation is detected


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from(NOTATIONS), st.sampled_from(NOTATIONS))
def test_every_notation_converts_to_every_other_and_back(
    seed: int, a: Notation, b: Notation
) -> None:
    position = random_position(random.Random(seed))
    for move in position.legal_moves():
        there = convert(position, write(position, move, a), b)
        assert there == write(position, move, b)
        assert convert(position, there, a) == write(position, move, a)
