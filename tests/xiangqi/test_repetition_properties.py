"""Properties of the repetition rulings: the verdict does not depend on which colour plays
which part (mirror the board and swap the colours: the result swaps), and a game in which
no position has come about three times is never ruled on (`*` unless the board ends it)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from ball.games.xiangqi.engine import (
    START_FEN,
    Color,
    Game,
    Move,
    Position,
    board_outcome,
    load_rules,
)

from .test_repetition import CASES

SWAP = {"1-0": "0-1", "0-1": "1-0", "1/2-1/2": "1/2-1/2", "*": "*"}
STARTS = sorted({fen for fen, _ in CASES.values()} | {START_FEN})


def mirror_fen(fen: str) -> str:
    """The same game seen from the other side: ranks reversed, colours and side swapped."""
    board, side, *rest = fen.split()
    rows = [row.swapcase() for row in reversed(board.split("/"))]
    return " ".join(["/".join(rows), "b" if side == "w" else "w", *rest])


def mirror_move(move: Move) -> Move:
    def flip(sq: int) -> int:
        return (9 - sq // 9) * 9 + sq % 9

    return Move(flip(move.from_sq), flip(move.to_sq))


def _walk(position: Position, picks: list[int]) -> list[Move]:
    moves = []
    for pick in picks:
        legal = position.legal_moves()
        if not legal:
            break
        move = legal[pick % len(legal)]
        moves.append(move)
        position = position.push(move)
    return moves


def _cycle(position: Position, a: int, b: int) -> list[Move] | None:
    """Out and back for each side (m1 b1 m1' b1'), or None when a way back is not legal."""
    legal = position.legal_moves()
    if not legal:
        return None
    m1 = legal[a % len(legal)]
    p1 = position.push(m1)
    replies = p1.legal_moves()
    if not replies:
        return None
    b1 = replies[b % len(replies)]
    p2 = p1.push(b1)
    if position.is_capture(m1) or p1.is_capture(b1):
        return None  # a capture cannot be undone, so the position would not come back
    back, back_b = Move(m1.to_sq, m1.from_sq), Move(b1.to_sq, b1.from_sq)
    if not p2.is_legal(back) or not p2.push(back).is_legal(back_b):
        return None
    return [m1, b1, back, back_b]


def _play(fen: str, moves: list[Move]) -> Game:
    game = Game.from_fen(fen)
    for move in moves:
        game.push(move)
    return game


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(
    start=st.sampled_from(STARTS),
    picks=st.lists(st.integers(0, 200), max_size=6),
    a=st.integers(0, 200),
    b=st.integers(0, 200),
    rules=st.sampled_from(["chinese", "axf"]),
)
def test_verdict_is_symmetric_under_colour_mirroring(
    start: str, picks: list[int], a: int, b: int, rules: str
) -> None:
    lead = _walk(Position.from_fen(start), picks)
    middle = _play(start, lead).position
    cycle = _cycle(middle, a, b)
    assume(cycle is not None)
    assert cycle is not None
    moves = lead + cycle * 2
    rule_set = load_rules(rules)
    ruling = _play(start, moves).ruling(rule_set)
    mirrored = _play(mirror_fen(start), [mirror_move(m) for m in moves]).ruling(rule_set)
    assert ruling.verdict in {"draw", "loss", "must-change", "board"}
    assert mirrored.result == SWAP[ruling.result]
    assert (mirrored.verdict, mirrored.article) == (ruling.verdict, ruling.article)
    assert [m.category for m in mirrored.cycle] == [m.category for m in ruling.cycle]
    if ruling.must_change is not None:
        assert mirrored.must_change is ruling.must_change.other


@settings(max_examples=40, deadline=None)
@given(start=st.sampled_from(STARTS), picks=st.lists(st.integers(0, 200), max_size=40))
def test_a_game_without_threefold_repetition_is_not_ruled_on(start: str, picks: list[int]) -> None:
    game = _play(start, _walk(Position.from_fen(start), picks))
    keys = game.keys()
    assume(keys.count(keys[-1]) < 3)
    ruling = game.ruling()
    ending = board_outcome(game.position)
    assert ruling.cycle == ()
    if ending is None:
        assert (ruling.result, ruling.verdict, ruling.ending) == ("*", "none", None)
        assert game.outcome() is None
    else:
        assert (ruling.result, ruling.verdict) == (ending.result, "board")


def test_mirror_helpers_round_trip() -> None:
    fen, cycle = CASES["chase_unprotected"]
    assert mirror_fen(mirror_fen(fen)) == fen
    assert Position.from_fen(mirror_fen(fen)).turn is Color.BLACK
    move = Move.from_iccs(cycle[0])
    assert mirror_move(mirror_move(move)) == move


@pytest.mark.parametrize("rules", ["chinese", "axf"])
@pytest.mark.parametrize("name", sorted(CASES))
def test_every_named_case_mirrors(name: str, rules: str) -> None:
    fen, cycle = CASES[name]
    moves = [Move.from_iccs(m) for m in cycle * 2]
    rule_set = load_rules(rules)
    ruling = _play(fen, moves).ruling(rule_set)
    mirrored = _play(mirror_fen(fen), [mirror_move(m) for m in moves]).ruling(rule_set)
    assert mirrored.result == SWAP[ruling.result]
    assert (mirrored.verdict, mirrored.article) == (ruling.verdict, ruling.article)
    assert [m.as_dict()["category"] for m in mirrored.cycle] == [
        m.as_dict()["category"] for m in ruling.cycle
    ]
