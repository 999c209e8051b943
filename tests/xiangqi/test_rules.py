"""One scenario per rule of the seed (Chinese Xiangqi competition rules, shared/seeds/004):
§2.2 each piece's movement, §2.3 captures (the cannon's screen), §3.1 check, §4.1.2 the
facing kings, §3.2/§4.1.3 no legal move loses.

Positions keep Black's king off Red's king's file unless the test is about facing kings.
"""

from __future__ import annotations

import pytest

from ball.games.xiangqi.engine import Color, Kind, Piece, Position, XiangqiError, parse_square

from .scenario import legal, move, targets

# --- 2.2.1 king: one point orthogonally, inside the palace -----------------------------------


def test_king_steps_orthogonally_inside_the_palace() -> None:
    # seed 2.2.1: the king moves one point along a line and may not leave the palace.
    # A red pawn on d5 stands between the kings' d-file, so d1 is open to the red king.
    assert targets("3k5/9/9/9/3P5/9/9/9/4K4/9 w", "e1") == ["d1", "e0", "e2", "f1"]
    assert targets("4k4/9/9/9/4P4/9/9/9/9/3K5 w", "d0") == ["d1", "e0"]  # c0 is outside


def test_king_never_leaves_the_palace_corner() -> None:
    assert targets("4k4/9/9/9/4P4/9/9/5K3/9/9 w", "f2") == ["e2", "f1"]


# --- 2.2.2 advisor: one point diagonally, inside the palace -----------------------------------


def test_advisor_steps_diagonally_inside_the_palace() -> None:
    assert targets("3k5/9/9/9/9/9/9/9/4A4/5K3 w", "e1") == ["d0", "d2", "f2"]  # f0 is own king
    assert targets("3k5/9/9/9/9/9/9/9/9/3A1K3 w", "d0") == ["e1"]


# --- 2.2.3 elephant: two points diagonally, eye blocks, never across the river ---------------


def test_elephant_stays_on_its_side_of_the_river() -> None:
    # c4 -> a6 and e6 would cross the river.
    assert targets("3k5/9/9/9/9/2B6/9/9/9/4K4 w", "c4") == ["a2", "e2"]


def test_elephant_is_blocked_by_a_piece_on_its_eye() -> None:
    # A black pawn on d3 (across the river for Black) stands on the eye toward e2.
    assert targets("3k5/9/9/9/9/2B6/3p5/9/9/4K4 w", "c4") == ["a2"]


def test_black_elephant_mirrors_red() -> None:
    assert targets("2b1k4/9/9/9/9/9/9/9/9/3K5 b", "c9") == ["a7", "e7"]
    assert targets("2b1k4/3R5/9/9/9/9/9/9/9/3K5 b", "c9") == ["a7"]  # rook on the eye d8


# --- 2.2.4 horse: one straight then one diagonal; the leg blocks ------------------------------


def test_horse_moves_eight_ways_when_free() -> None:
    assert targets("3k5/9/9/9/9/4N4/9/9/9/4K4 w", "e4") == [
        "c3", "c5", "d2", "d6", "f2", "f6", "g3", "g5",
    ]  # fmt: skip


def test_horse_leg_blocks_both_moves_over_it() -> None:
    # A rook on b1 is the leg toward a2 and c2; c0 is free, so d1 stays.
    assert targets("3k5/9/9/9/9/9/9/9/1R7/1N2K4 w", "b0") == ["d1"]


def test_horse_leg_blocked_by_an_enemy_piece_too() -> None:
    assert targets("3k5/9/9/9/9/9/9/9/1r7/1N2K4 w", "b0") == ["d1"]


# --- 2.2.5 rook and 2.2.6 cannon; 2.3 captures ------------------------------------------------


def test_rook_slides_and_captures_the_first_enemy() -> None:
    t = targets("3k5/9/9/r8/9/9/9/9/9/R3K4 w", "a0")
    assert t == ["a1", "a2", "a3", "a4", "a5", "a6", "b0", "c0", "d0"]


def test_cannon_captures_only_over_exactly_one_screen() -> None:
    # seed 2.3: the cannon moves like a rook but captures by jumping one piece (any colour).
    # Black pawn a3 is the screen (not capturable head-on), the rook on a6 is captured;
    # along rank 0 the red king on e0 is a screen with nothing to capture behind it.
    assert targets("3k5/9/9/r8/9/9/p8/9/9/C3K4 w", "a0") == ["a1", "a2", "a6", "b0", "c0", "d0"]


def test_cannon_cannot_capture_over_two_screens() -> None:
    assert "a7" not in targets("3k5/9/r8/p8/9/9/p8/9/9/C3K4 w", "a0")


# --- 2.2.7 pawn: forward; sideways after crossing the river; never back -----------------------


def test_pawn_before_the_river_only_advances() -> None:
    assert targets("3k5/9/9/9/9/9/P8/9/9/4K4 w", "a3") == ["a4"]


def test_pawn_after_the_river_also_moves_sideways() -> None:
    assert targets("3k5/9/9/9/P8/9/9/9/9/4K4 w", "a5") == ["a6", "b5"]
    assert targets("3k5/9/9/9/2P6/9/9/9/9/4K4 w", "c5") == ["b5", "c6", "d5"]


def test_pawn_on_the_last_rank_only_moves_sideways() -> None:
    assert targets("P2k5/9/9/9/9/9/9/9/9/4K4 w", "a9") == ["b9"]


def test_black_pawn_moves_down_the_board() -> None:
    assert targets("3k5/9/9/p8/9/9/9/9/9/4K4 b", "a6") == ["a5"]
    assert targets("3k5/9/9/9/9/p8/9/9/9/4K4 b", "a4") == ["a3", "b4"]


# --- 3.1 check, 4.1.2 self-check and the facing kings ----------------------------------------


def test_check_by_rook_horse_cannon_and_pawn() -> None:
    assert Position.from_fen("3k5/9/9/9/9/9/9/9/9/3RK4 b").in_check()  # rook on d0
    assert Position.from_fen("3k5/9/4N4/9/9/9/9/9/9/4K4 b").in_check()  # horse e7 -> d9
    assert Position.from_fen("3k5/9/9/3P5/9/9/9/9/9/3CK4 b").in_check()  # cannon over pawn
    assert Position.from_fen("3k5/3P5/9/9/9/9/9/9/9/4K4 b").in_check()  # pawn d8
    # A horse whose leg is blocked gives no check (2.2.4): leg e8 holds a black advisor.
    assert not Position.from_fen("3k5/4a4/4N4/9/9/9/9/9/9/4K4 b").in_check()


def test_in_check_of_either_colour() -> None:
    pos = Position.from_fen("3k5/9/9/9/9/9/9/9/9/3RK4 b")
    assert pos.in_check(Color.BLACK)
    assert not pos.in_check(Color.RED)


def test_the_kings_may_not_face_on_an_open_file() -> None:
    # seed 4.1.2 (and 2.2.1): a king step onto the other king's open file is illegal.
    pos = Position.from_fen("3k5/9/9/9/9/9/9/9/9/4K4 w")
    assert "e0d0" not in legal(pos.fen())
    with pytest.raises(XiangqiError, match="face each other"):
        pos.push(move("e0d0"))


def test_the_last_piece_between_the_kings_is_pinned_to_the_file() -> None:
    # The only piece between the kings may not leave the file (4.1.2): the advisor on e1 and
    # the horse on e5 have no legal move; a cannon there (no screen, so no check) may still
    # move along the file.
    assert targets("4k4/9/9/9/9/9/9/9/4A4/4K4 w", "e1") == []
    assert targets("4k4/9/9/9/4N4/9/9/9/9/4K4 w", "e5") == []
    assert targets("4k4/9/9/9/4C4/9/9/9/9/4K4 w", "e5") == [
        "e1", "e2", "e3", "e4", "e6", "e7", "e8",
    ]  # fmt: skip


def test_a_piece_pinned_by_a_rook_cannot_move_off_the_line() -> None:
    # The red horse on e3 shields the red king on e0 from the black rook on e6.
    fen = "3k5/9/9/4r4/9/9/4N4/9/9/4K4 w"
    assert targets(fen, "e3") == []
    with pytest.raises(XiangqiError, match="leaves the red king in check"):
        Position.from_fen(fen).push(move("e3d5"))


def test_a_move_that_makes_a_cannon_screen_is_illegal() -> None:
    # Black cannon e6, red king e0, nothing between: a red rook stepping onto e3 would be the
    # screen that lets the cannon give check (2.3).
    fen = "3k5/9/9/4c4/9/9/9/R8/9/4K4 w"
    pos = Position.from_fen(fen)
    assert not pos.in_check()
    assert "a2e2" not in legal(fen)
    assert {"a2d2", "a2f2"} <= legal(fen)
    with pytest.raises(XiangqiError, match="leaves the red king in check"):
        pos.push(move("a2e2"))


def test_check_must_be_answered() -> None:
    # The black rook on e5 checks the red king on e0 (3.1). Replies: step off the file to f0
    # (d0 would face the black king on d9, e1 stays in check), block on e2 with the rook or
    # on e1 with the horse, or capture the rook with the horse (f3-e5).
    fen = "3k5/9/9/9/4r4/9/5N3/R8/9/4K4 w"
    pos = Position.from_fen(fen)
    assert pos.in_check()
    assert legal(fen) == {"e0f0", "a2e2", "f3e1", "f3e5"}
    for m in pos.legal_moves():
        assert not pos.push(m).in_check(Color.RED)


def test_attackers_lists_every_piece_that_reaches_a_point() -> None:
    pos = Position.from_fen("3k5/9/9/9/4r4/9/9/2N6/9/R3K4 w")
    # e1: the king steps there, the horse on c2 jumps there (leg d2 free); the rook on a0
    # does not reach it.
    assert pos.attackers(parse_square("e1"), Color.RED) == sorted(
        parse_square(n) for n in ("e0", "c2")
    )
    assert pos.attackers(parse_square("e0"), Color.BLACK) == [parse_square("e5")]
    # A cannon attacks over one screen: the black cannon on b9 reaches b0 over the b-pawn.
    cannon = Position.from_fen("1c1k5/9/9/9/9/9/1p7/9/9/1R2K4 w")
    assert cannon.attackers(parse_square("b0"), Color.BLACK) == [parse_square("b9")]


# --- 3.2, 4.1.1, 4.1.3: checkmate and no legal move ------------------------------------------


def test_checkmate() -> None:
    pos = Position.from_fen("R2k5/R8/9/9/9/9/9/9/9/4K4 b")
    assert pos.in_check()
    assert pos.legal_moves() == []
    assert pos.is_checkmate() and not pos.is_stalemate()


def test_no_legal_move_without_check() -> None:
    # seed 3.2: the side to move that cannot move is "trapped" even if not in check.
    pos = Position.from_fen("3k5/4R4/9/9/9/9/9/9/9/5K3 b")
    assert not pos.in_check()
    assert pos.legal_moves() == []
    assert pos.is_stalemate() and not pos.is_checkmate()


# --- reading the board ------------------------------------------------------------------------


def test_piece_at_and_pieces() -> None:
    start = Position.start()
    assert start.piece_at(parse_square("e0")) == Piece(Color.RED, Kind.KING)
    assert start.piece_at(parse_square("b9")) == Piece(Color.BLACK, Kind.HORSE)
    assert start.piece_at(parse_square("e4")) is None
    red = start.pieces(Color.RED)
    assert len(red) == 16
    assert sum(p.kind is Kind.PAWN for p in red.values()) == 5
    with pytest.raises(XiangqiError):
        start.piece_at(90)


def test_push_names_why_a_move_is_refused() -> None:
    start = Position.start()
    with pytest.raises(XiangqiError, match="no piece on e4"):
        start.push(move("e4e5"))
    with pytest.raises(XiangqiError, match="black's"):
        start.push(move("e6e5"))
    with pytest.raises(XiangqiError, match="horse cannot move"):
        start.push(move("b0b2"))


def test_push_returns_a_new_position_and_counts_plies() -> None:
    start = Position.start()
    after = start.push(move("h2e2"))
    assert start == Position.start()  # unchanged
    assert after.turn is Color.BLACK and after.fullmove == 1 and after.halfmove_clock == 1
    after2 = after.push(move("h9g7"))
    assert after2.turn is Color.RED and after2.fullmove == 2
    capture = after2.push(move("e2e6"))  # cannon takes the pawn on e6 over the one on e3
    assert capture.halfmove_clock == 0
    assert after2.is_capture(move("e2e6")) and not after2.is_capture(move("a3a4"))


def test_gives_check() -> None:
    pos = Position.from_fen("3k5/9/9/9/9/9/9/9/9/R3K4 w")
    assert pos.gives_check(move("a0d0"))
    assert not pos.gives_check(move("a0b0"))


def test_returned_move_lists_are_copies() -> None:
    pos = Position.start()
    pos.legal_codes().clear()
    pos.legal_moves().clear()
    assert len(pos.legal_moves()) == 44 and pos.is_legal(move("h2e2"))
