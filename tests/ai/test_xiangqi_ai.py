"""The Xiangqi computer opponent (`ball.games.xiangqi.ai.search`): mates, material, legality,
levels.

Mates are checked independently of the search: a brute-force look at every reply with the
engine's own legal moves (a side with no legal move has lost, seed 3.2, 4.1.1, 4.1.3).
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ball.games.xiangqi.ai.search import LEVELS, MATE, choose_move, evaluate, search
from ball.games.xiangqi.engine import Move, Position

# Named positions (Red to move).
MATE_IN_1 = "4k4/R8/9/9/9/9/9/9/9/1R1K5 w"  # two rooks: b0b9 mates (and a8f8 leaves no move)
MATE_IN_2 = "4k4/9/9/9/2P6/9/9/3C1K3/R8/9 w"  # rook, cannon, pawn against the lone king
HANGING_ROOK = "4k4/9/9/9/9/r8/9/9/9/R2K5 w"  # Black's rook on a4 stands unguarded
HANGING_FOR_BLACK = "5k3/9/9/9/4R4/9/9/9/4r4/3K5 b"  # Red's rook on e5 hangs to e1's rook
# Mates in three (five plies) past medium's horizon: found by searching random endings for
# a forced mate that medium's move lets go (issue 36 item 15, the hard level).
MATES_IN_3 = {
    "9/4k4/P8/9/2R6/9/9/8p/9/3K5 w": "c5c2",  # rook and pawn: medium checks from behind
    "3R5/2P1k4/3a1a3/9/9/9/9/9/5K3/9 w": "d9f9",  # rook and pawn against the advisors
}


def mates_in_one(pos: Position) -> set[int]:
    return {c for c in pos.legal_codes() if not pos.push_code(c).legal_codes()}


def forces_mate_next(pos: Position, code: int) -> bool:
    after = pos.push_code(code)
    replies = after.legal_codes()
    return bool(replies) and all(mates_in_one(after.push_code(r)) for r in replies)


def test_the_named_positions_are_what_their_names_say() -> None:
    assert mates_in_one(Position.from_fen(MATE_IN_1))
    two = Position.from_fen(MATE_IN_2)
    assert not mates_in_one(two)
    assert any(forces_mate_next(two, c) for c in two.legal_codes())


@pytest.mark.parametrize("level", sorted(LEVELS))
def test_finds_mate_in_one(level: str) -> None:
    pos = Position.from_fen(MATE_IN_1)
    move = choose_move(pos, level)
    assert move is not None and move.code in mates_in_one(pos)
    assert pos.push(move).is_checkmate() or pos.push(move).is_stalemate()


def test_finds_mate_in_two() -> None:
    pos = Position.from_fen(MATE_IN_2)
    result = search(pos, depth=3, nodes=200_000, seconds=60)
    assert result.move is not None and forces_mate_next(pos, result.move.code)
    assert result.score == MATE - 3  # mate on the third ply from here


def forces_mate_in_three(pos: Position, code: int) -> bool:
    after = pos.push_code(code)
    replies = after.legal_codes()
    return bool(replies) and all(
        any(forces_mate_next(after.push_code(r), c) for c in after.push_code(r).legal_codes())
        for r in replies
    )


def at_level(pos: Position, name: str) -> Move | None:
    """The level's move by its depth and node budget alone: its time limit is a safety for
    a slow machine, and a test run on a busy one must not decide what the level sees."""
    lv = LEVELS[name]
    return search(pos, lv.depth, lv.nodes, seconds=120, margin=lv.margin, table=lv.table).move


@pytest.mark.parametrize("fen", sorted(MATES_IN_3))
def test_the_table_finds_the_same_mate_on_fewer_nodes(fen: str) -> None:
    pos = Position.from_fen(fen)
    plain = search(pos, depth=5, nodes=1_000_000, seconds=120)
    remembered = search(pos, depth=5, nodes=1_000_000, seconds=120, table=True)
    assert plain.score == remembered.score == MATE - 5
    assert remembered.move is not None and forces_mate_in_three(pos, remembered.move.code)
    assert remembered.nodes < plain.nodes


@pytest.mark.parametrize(("fen", "medium_move"), sorted(MATES_IN_3.items()))
def test_hard_finds_a_mate_in_three_that_medium_misses(fen: str, medium_move: str) -> None:
    pos = Position.from_fen(fen)
    assert not mates_in_one(pos)
    assert not any(forces_mate_next(pos, c) for c in pos.legal_codes())
    medium = at_level(pos, "medium")
    assert medium == Move.from_iccs(medium_move)
    assert not forces_mate_in_three(pos, medium.code)
    hard = at_level(pos, "hard")
    assert hard is not None and hard != medium
    assert forces_mate_in_three(pos, hard.code)


def test_medium_level_finds_mate_in_two() -> None:
    pos = Position.from_fen(MATE_IN_2)
    move = choose_move(pos, "medium")
    assert move is not None and forces_mate_next(pos, move.code)


@pytest.mark.parametrize("level", sorted(LEVELS))
@pytest.mark.parametrize(("fen", "capture"), [(HANGING_ROOK, "a0a4"), (HANGING_FOR_BLACK, "e1e5")])
def test_wins_material_when_offered(level: str, fen: str, capture: str) -> None:
    assert choose_move(Position.from_fen(fen), level, seed=3) == Move.from_iccs(capture)


def test_no_legal_move_gives_none() -> None:
    # Black's king is mated: Red's rooks on b9 and a8 (the mate of MATE_IN_1 played).
    pos = Position.from_fen(MATE_IN_1).push(Move.from_iccs("b0b9"))
    assert choose_move(pos, "easy") is None


def test_same_seed_same_move_and_unknown_level_refused() -> None:
    pos = Position.start()
    assert choose_move(pos, "easy", seed=7) == choose_move(pos, "easy", seed=7)
    with pytest.raises(ValueError, match="level must be one of easy, medium"):
        choose_move(pos, "grandmaster")


def test_evaluation_is_symmetric_and_counts_material() -> None:
    start = Position.start()
    assert evaluate(start.board, 0) == 0 == evaluate(start.board, 1)
    up = Position.from_fen(HANGING_ROOK).push(Move.from_iccs("a0a4"))
    assert evaluate(up.board, 0) > 800 and evaluate(up.board, 1) == -evaluate(up.board, 0)


@pytest.mark.hypothesis
@settings(max_examples=15, deadline=None)
@given(st.lists(st.integers(0, 10_000), min_size=0, max_size=12), st.integers(0, 99))
def test_never_returns_an_illegal_move(path: list[int], seed: int) -> None:
    pos = Position.start()
    for pick in path:  # a random game prefix
        codes = pos.legal_codes()
        if not codes:
            break
        pos = pos.push_code(codes[pick % len(codes)])
    move = search(pos, depth=2, nodes=400, seconds=5, margin=50, seed=seed).move
    if pos.legal_codes():
        assert move is not None and pos.is_legal(move)
    else:
        assert move is None
