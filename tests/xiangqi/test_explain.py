"""`ball.games.xiangqi.engine.explain.why_not`: one reason per refused tap, each checked in a
position built to break exactly that rule, and never a reason for a legal move."""

from __future__ import annotations

import pytest

from ball.games.xiangqi.engine import Position, XiangqiError
from ball.games.xiangqi.engine.explain import REASONS, why_not

START = Position.start()
CASES = [
    # (fen, from, to, expected code)
    (None, "e5", None, "empty"),
    (None, "b9", None, "not-yours"),
    (None, "b0", "c3", "own-piece"),
    (None, "b0", "b3", "shape"),
    (None, "d0", "d1", "shape"),
    (None, "a3", "a2", "pawn-back"),
    (None, "a3", "b3", "pawn-side"),
    (None, "a0", "a4", "in-the-way"),
    (None, "h2", "h7", "cannon-screen"),  # a capture with no screen
    (None, "h2", "h0", "own-piece"),
    ("1r1k5/9/9/9/9/9/9/9/9/1C2K4 w", "b0", "b9", "cannon-screen"),  # nothing to jump
    ("3k5/9/9/9/9/9/9/9/1n7/RN2K4 w", "b0", "c2", "hobbled"),
    ("3k5/9/9/9/9/9/9/9/3N5/2B1K4 w", "c0", "e2", "eye"),
    ("3k5/9/9/9/9/2B6/9/9/9/4K4 w", "c4", "e6", "river"),
    ("3k5/9/9/9/9/9/9/3A5/9/4K4 w", "d2", "c3", "palace"),
    ("3k5/9/9/9/9/9/9/9/9/5K3 w", "f0", "g0", "palace"),
    ("3k5/9/9/9/9/9/9/9/9/4K4 w", "e0", "d0", "face"),  # steps onto the black king's file
    ("4k4/9/9/9/9/9/9/9/4N4/4K4 w", "e1", "c2", "face"),  # opens the file between them
    ("3k5/9/9/9/9/9/9/4r4/4R4/4K4 w", "e1", "d1", "check"),  # the rook was pinned
    ("3k5/9/9/9/9/9/9/9/3r5/4K4 w", "e0", "d0", "check"),  # steps into the rook's file
]


@pytest.mark.parametrize(("fen", "frm", "to", "code"), CASES)
def test_each_refusal_names_its_rule(fen: str | None, frm: str, to: str | None, code: str) -> None:
    position = START if fen is None else Position.from_fen(fen)
    refusal = why_not(position, frm, to)
    assert refusal is not None, f"{frm}{to or ''} was legal in {position.fen()}"
    assert refusal.code == code
    assert refusal.text == refusal.to_json()["text"] and refusal.text.endswith(".")


def test_every_reason_is_reachable() -> None:
    assert {code for *_, code in CASES} | {"stuck", "pinned"} == set(REASONS)


def test_a_piece_with_no_move_says_why() -> None:
    cornered = Position.from_fen("3k5/9/9/9/9/9/9/9/R8/NR2K4 w")  # both horse legs taken
    refusal = why_not(cornered, "a0")
    assert refusal is not None and refusal.code == "stuck" and "horse" in refusal.text
    pinned = Position.from_fen("3k5/9/9/9/9/9/9/4r4/4R4/4K4 w")
    # the pinned rook may still slide along the file; a pinned horse has no move at all
    assert why_not(pinned, "e1") is None
    horse = Position.from_fen("3k5/9/9/9/9/9/9/4r4/4N4/4K4 w")
    refusal = why_not(horse, "e1")
    assert refusal is not None and refusal.code == "pinned" and refusal.piece == "horse"


def test_legal_moves_have_no_reason() -> None:
    for move in START.legal_moves():
        text = move.iccs()
        assert why_not(START, text[:2], text[2:]) is None
        assert why_not(START, text[:2]) is None


def test_a_bad_square_is_an_error() -> None:
    with pytest.raises(XiangqiError):
        why_not(START, "z9")
