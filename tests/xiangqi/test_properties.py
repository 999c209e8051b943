"""Invariants of the Xiangqi engine over random legal play (hypothesis).

Each example plays a random legal game from the start (choices drawn by hypothesis, so a
failure shrinks to a short move list; captures are preferred on odd choices so that the
games reach open, sparse positions) and checks at every position:

- every legal move keeps its own king safe, and the kings never face (seed 4.1.2);
- every move starts on a piece of the side to move and ends on the board, off own pieces;
- `is_legal` agrees with `legal_moves`, perft(1) with the list's length;
- `in_check` agrees with `attackers` of the king square;
- the FEN round-trips (also written with `h`/`e` letters);
- the colour-mirrored position (ranks flipped, colours swapped) has the mirrored moves.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ball.games.xiangqi.engine import (
    START_FEN,
    Color,
    Game,
    Kind,
    Move,
    Position,
    XiangqiError,
    perft,
)
from ball.games.xiangqi.engine.attacks import kings_face

choices = st.lists(st.integers(min_value=0, max_value=2**31), min_size=1, max_size=120)
SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def play(picks: list[int]) -> list[Position]:
    pos = Position.start()
    seen = [pos]
    for pick in picks:
        moves = pos.legal_moves()
        if not moves:
            break
        captures = [m for m in moves if pos.is_capture(m)]
        pool = captures if captures and pick % 2 else moves
        pos = pos.push(pool[(pick // 2) % len(pool)])
        seen.append(pos)
    return seen


def mirror_fen(pos: Position) -> str:
    """The same position seen from the other side: ranks reversed, colours swapped."""
    board, side, *rest = pos.fen().split()
    rows = [row.swapcase() for row in reversed(board.split("/"))]
    return " ".join(["/".join(rows), "b" if side == "w" else "w", *rest])


def mirror(move: Move) -> Move:
    def flip(sq: int) -> int:
        return (9 - sq // 9) * 9 + sq % 9

    return Move(flip(move.from_sq), flip(move.to_sq))


def check_position(pos: Position) -> None:
    mover = pos.turn
    moves = pos.legal_moves()
    assert len(set(moves)) == len(moves)
    for m in moves:
        assert 0 <= m.to_sq < 90
        piece = pos.piece_at(m.from_sq)
        assert piece is not None and piece.color is mover
        target = pos.piece_at(m.to_sq)
        assert target is None or (target.color is not mover and target.kind is not Kind.KING)
        after = pos.push(m)
        assert not after.in_check(mover), m
        assert not kings_face(
            after.board, after.king_square(Color.RED), after.king_square(Color.BLACK)
        )
    assert perft(pos, 1) == len(moves)
    assert all(pos.is_legal(m) for m in moves)
    for color in (Color.RED, Color.BLACK):
        assert pos.in_check(color) == bool(pos.attackers(pos.king_square(color), color.other))


@SETTINGS
@given(choices)
def test_legal_play_invariants(picks: list[int]) -> None:
    for pos in play(picks):
        check_position(pos)


@SETTINGS
@given(choices)
def test_fen_round_trip(picks: list[int]) -> None:
    for pos in play(picks):
        fen = pos.fen()
        assert Position.from_fen(fen) == pos
        board, *rest = fen.split()
        he = board.replace("n", "h").replace("N", "H").replace("b", "e").replace("B", "E")
        assert Position.from_fen(" ".join([he, *rest])) == pos


@SETTINGS
@given(choices)
def test_colour_mirror_has_the_mirrored_moves(picks: list[int]) -> None:
    for pos in play(picks):
        other = Position.from_fen(mirror_fen(pos))
        assert {mirror(m) for m in pos.legal_moves()} == set(other.legal_moves())
        assert pos.in_check() == other.in_check()


# --- bad input: any text is either a position or a XiangqiError, never another exception ---

FEN_ALPHABET = "rnbakcphRNBAKCPHeE0123456789/ -wx²\n"
fen_like = st.one_of(
    st.text(max_size=80),
    st.text(alphabet=FEN_ALPHABET, max_size=90),
    # start-position FENs with a few characters changed
    st.builds(
        lambda i, ch: START_FEN[:i] + ch + START_FEN[i + 1 :],
        st.integers(0, len(START_FEN) - 1),
        st.sampled_from(FEN_ALPHABET),
    ),
)


@SETTINGS
@given(fen_like)
def test_any_text_is_a_fen_or_a_named_fault(text: str) -> None:
    try:
        pos = Position.from_fen(text)
    except XiangqiError as exc:
        assert str(exc)
        return
    assert Position.from_fen(pos.fen()) == pos


@SETTINGS
@given(st.text(max_size=8))
def test_any_text_is_a_move_or_a_named_fault(text: str) -> None:
    try:
        move = Move.from_iccs(text)
    except XiangqiError:
        return
    assert Move.from_iccs(move.iccs()) == move


@SETTINGS
@given(
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.text(max_size=10),
        lambda inner: (
            st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4)
        ),
        max_leaves=12,
    )
    | st.fixed_dictionaries(
        {"format": st.just("ball-xiangqi-game/1"), "start": st.just(START_FEN)},
        optional={"moves": st.lists(st.text(max_size=5), max_size=4), "fen": st.text(max_size=5)},
    )
)
def test_any_document_is_a_game_or_a_named_fault(doc: object) -> None:
    try:
        Game.from_document(doc)
    except XiangqiError as exc:
        assert str(exc)
