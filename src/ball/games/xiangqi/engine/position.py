"""A Xiangqi position: board, side to move, clocks; legal moves, check and making moves.

Immutable to callers: `push` returns a new Position. The legal move list is computed once
per position and kept (positions are values, so the cache cannot go stale).
"""

from __future__ import annotations

from collections.abc import Iterator

from .attacks import attackers_of, kings_face
from .board import (
    BLACK_BIT,
    COLORS,
    KING,
    NAMES,
    PIECE_OF_CODE,
    SIZE,
    Color,
    Piece,
)
from .errors import XiangqiError
from .fen import START_FEN, parse_fen, write_fen
from .move import MOVES, Move
from .movegen import king_attacked, legal_moves, pseudo_moves, work_board

PositionKey = tuple[tuple[int, ...], int]


class Position:
    __slots__ = ("_board", "_side", "_halfmove", "_fullmove", "_kings", "_legal")

    _board: tuple[int, ...]
    _side: int
    _halfmove: int
    _fullmove: int
    _kings: tuple[int, int]
    _legal: list[int] | None

    def __init__(self) -> None:
        raise TypeError("use Position.start() or Position.from_fen(text)")

    @classmethod
    def _make(cls, board: tuple[int, ...], side: int, halfmove: int, fullmove: int) -> Position:
        self = object.__new__(cls)
        self._board = board
        self._side = side
        self._halfmove = halfmove
        self._fullmove = fullmove
        self._kings = (board.index(KING), board.index(KING | BLACK_BIT))
        self._legal = None
        return self

    # --- construction and FEN ---------------------------------------------------------

    @classmethod
    def start(cls) -> Position:
        """The standard starting position (seed 1.3), Red to move."""
        return cls.from_fen(START_FEN)

    @classmethod
    def from_fen(cls, text: str) -> Position:
        """Read a FEN (`n`/`b` or `h`/`e` letters); XiangqiError names what is wrong."""
        parsed = parse_fen(text)
        pos = cls._make(parsed.board, parsed.side, parsed.halfmove, parsed.fullmove)
        pos._check_not_capturable()
        return pos

    def _check_not_capturable(self) -> None:
        # The side that has just moved cannot have left its king attacked (4.1.2).
        waiting = 1 - self._side
        k = self._kings[waiting]
        if king_attacked(list(self._board), k, waiting):
            if kings_face(self._board, *self._kings):
                raise XiangqiError("the kings face each other on an open file")
            raise XiangqiError(
                f"{COLORS[waiting]} is in check but it is {COLORS[self._side]} to move"
            )

    def fen(self) -> str:
        """FEN with `n`/`b` for horse and elephant, `w`/`b` for the side to move."""
        return write_fen(self._board, self._side, self._halfmove, self._fullmove)

    def key(self) -> PositionKey:
        """Hashable identity for repetition: the board and the side to move (no clocks)."""
        return (self._board, self._side)

    # --- reading ---------------------------------------------------------------------

    @property
    def turn(self) -> Color:
        return COLORS[self._side]

    @property
    def halfmove_clock(self) -> int:
        """Plies since the last capture (or since the FEN's count)."""
        return self._halfmove

    @property
    def fullmove(self) -> int:
        """Move number: starts at 1, grows after each Black move."""
        return self._fullmove

    @property
    def board(self) -> tuple[int, ...]:
        """The 90 internal piece codes (see `ball.games.xiangqi.engine.board`), for fast readers."""
        return self._board

    def piece_at(self, sq: int) -> Piece | None:
        if not 0 <= sq < SIZE:
            raise XiangqiError(f"square {sq} is off the board (0..{SIZE - 1})")
        return PIECE_OF_CODE[self._board[sq]]

    def pieces(self, color: Color) -> dict[int, Piece]:
        """Square → piece for every piece of `color`, in square order."""
        bit = BLACK_BIT if color is Color.BLACK else 0
        out: dict[int, Piece] = {}
        for sq, code in enumerate(self._board):
            if code and code & BLACK_BIT == bit:
                piece = PIECE_OF_CODE[code]
                assert piece is not None
                out[sq] = piece
        return out

    def king_square(self, color: Color) -> int:
        return self._kings[color.side]

    # --- moves -----------------------------------------------------------------------

    def _codes(self) -> list[int]:
        # The cached list itself: only this class reads it, so callers cannot change it.
        if self._legal is None:
            self._legal = legal_moves(work_board(self._board), self._side, self._kings[self._side])
        return self._legal

    def legal_codes(self) -> list[int]:
        """Legal moves as internal codes `from << 7 | to` (fast path for engines); a copy."""
        return list(self._codes())

    def legal_moves(self) -> list[Move]:
        return [MOVES[c] for c in self._codes()]

    def __iter__(self) -> Iterator[Move]:
        return iter(self.legal_moves())

    def is_legal(self, move: Move) -> bool:
        return move.code in self._codes()

    def is_capture(self, move: Move) -> bool:
        return self._board[move.to_sq] != 0

    def in_check(self, color: Color | None = None) -> bool:
        """Is `color`'s king (default: the side to move) attacked (seed 3.1)?"""
        side = self._side if color is None else color.side
        return king_attacked(list(self._board), self._kings[side], side)

    def attackers(self, sq: int, by_color: Color) -> list[int]:
        """Squares of `by_color`'s pieces that could move to `sq` by their movement rules
        (a piece of either colour may stand on `sq`; pins are not considered)."""
        if not 0 <= sq < SIZE:
            raise XiangqiError(f"square {sq} is off the board (0..{SIZE - 1})")
        return attackers_of(self._board, sq, by_color.side)

    def gives_check(self, move: Move) -> bool:
        """Does the legal `move` put the opponent's king in check (seed 3.1)?"""
        return self.push(move).in_check()

    def is_checkmate(self) -> bool:
        return not self._codes() and self.in_check()

    def is_stalemate(self) -> bool:
        """No legal move without being in check (seed 3.2: this loses too, 4.1.3)."""
        return not self._codes() and not self.in_check()

    def push(self, move: Move) -> Position:
        """The position after `move`; XiangqiError says why an illegal move is refused."""
        if move.code not in self._codes():
            raise XiangqiError(self._illegal_reason(move))
        return self._after(move.code)

    def push_code(self, code: int) -> Position:
        """`push` for an internal code known to be legal (engines); unchecked."""
        return self._after(code)

    def _after(self, code: int) -> Position:
        f, t = code >> 7, code & 127
        board = list(self._board)
        captured = board[t]
        board[t] = board[f]
        board[f] = 0
        side = self._side
        return Position._make(
            tuple(board),
            1 - side,
            0 if captured else self._halfmove + 1,
            self._fullmove + side,
        )

    def _illegal_reason(self, move: Move) -> str:
        name = move.iccs()
        code = self._board[move.from_sq]
        if not code:
            return f"{name}: no piece on {NAMES[move.from_sq]}"
        piece = PIECE_OF_CODE[code]
        assert piece is not None
        if piece.color is not self.turn:
            frm = NAMES[move.from_sq]
            return f"{name}: the piece on {frm} is {piece.color}'s, not {self.turn}'s"
        if move.code not in pseudo_moves(work_board(self._board), self._side):
            frm, to = NAMES[move.from_sq], NAMES[move.to_sq]
            return f"{name}: a {piece.kind} cannot move from {frm} to {to} (seed 2.2)"
        board = list(self._board)
        board[move.to_sq], board[move.from_sq] = code, 0
        kings = list(self._kings)
        if move.from_sq == kings[self._side]:
            kings[self._side] = move.to_sq
        if kings_face(board, kings[0], kings[1]):
            return f"{name}: the kings would face each other on an open file (seed 4.1.2)"
        return f"{name}: it leaves the {self.turn} king in check (seed 4.1.2)"

    # --- value semantics ---------------------------------------------------------------

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Position):
            return NotImplemented
        return (self._board, self._side, self._halfmove, self._fullmove) == (
            other._board,
            other._side,
            other._halfmove,
            other._fullmove,
        )

    def __hash__(self) -> int:
        return hash((self._board, self._side, self._halfmove, self._fullmove))

    def __repr__(self) -> str:
        return f"Position.from_fen({self.fen()!r})"
