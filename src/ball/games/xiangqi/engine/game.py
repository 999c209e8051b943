"""A Xiangqi game: start position, moves, every position reached (the history a repetition
ruling reads), the board-decided ending, and the game document (JSON-ready dict).
"""

from __future__ import annotations

from typing import Any

from .ending import BLACK_WINS, DRAW, RED_WINS, Ending, EndReason, draw, loss
from .errors import XiangqiError
from .move import Move
from .position import Position, PositionKey
from .repetition import Ruling, board_ruling, judge
from .rules import XiangqiRules

DOCUMENT_FORMAT = "ball-xiangqi-game/1"


def board_outcome(position: Position, rules: XiangqiRules | None = None) -> Ending | None:
    """The ending the position itself decides, or None while play goes on.

    No legal move loses for the side to move whether or not it is in check (seed 3.2,
    4.1.1, 4.1.3); the natural-move limit (4.2.4) counts plies since the last capture and is
    only read when the side to move has a move (a mate on the limit's last move stands).
    """
    rules = rules or XiangqiRules()
    mover = position.turn
    if not position.legal_codes():
        if position.in_check():
            return loss(mover, EndReason.CHECKMATE, "4.1.1", f"{mover} is checkmated")
        return loss(mover, EndReason.NO_LEGAL_MOVE, "4.1.3", f"{mover} has no legal move")
    plies = rules.natural_move_plies
    if plies and position.halfmove_clock >= plies:
        return draw(
            EndReason.NATURAL_MOVE_LIMIT,
            "4.2.4",
            f"{rules.natural_move_limit} moves by each side without a capture",
        )
    return None


class Game:
    def __init__(self, start: Position | None = None) -> None:
        self.start: Position = start if start is not None else Position.start()
        self.moves: list[Move] = []
        self.positions: list[Position] = [self.start]
        # An ending a person declared (agreement, resignation, time, arbiter, a repetition
        # ruling): it ends the game whatever the board says.
        self.declared: Ending | None = None

    @classmethod
    def from_fen(cls, text: str) -> Game:
        return cls(Position.from_fen(text))

    @property
    def start_fen(self) -> str:
        return self.start.fen()

    @property
    def position(self) -> Position:
        """The current position."""
        return self.positions[-1]

    def push(self, move: Move) -> Position:
        """Play `move` (XiangqiError if illegal or the game was declared over; the game is
        then unchanged)."""
        if self.declared is not None:
            raise XiangqiError(f"{move.iccs()}: the game is over ({self.declared.reason})")
        after = self.position.push(move)
        self.moves.append(move)
        self.positions.append(after)
        return after

    def keys(self) -> list[PositionKey]:
        """`Position.key()` of every position from the start to now."""
        return [p.key() for p in self.positions]

    def declare(self, ending: Ending) -> None:
        """Record an ending declared off the board (see `ball.games.xiangqi.engine.ending`)."""
        if self.declared is not None:
            raise XiangqiError(f"the game already ended ({self.declared.reason})")
        self.declared = ending

    def outcome(self, rules: XiangqiRules | None = None) -> Ending | None:
        """The ending after the last move: a declared one, else the board's, else a
        repetition ruling's (seed §24, §26) when it ends the game (a "must change" ruling
        does not yet)."""
        return self.declared or self.ruling(rules).ending

    def ruling(self, rules: XiangqiRules | None = None) -> Ruling:
        """The ruling after the last move, with its reason and any classified cycle."""
        rules = rules or XiangqiRules()
        ending = board_outcome(self.position, rules)
        if ending is not None:
            return board_ruling(ending, rules)
        return judge(self.positions, self.moves, rules)

    # --- the game document ------------------------------------------------------------

    def to_document(self) -> dict[str, Any]:
        doc: dict[str, Any] = {
            "format": DOCUMENT_FORMAT,
            "start": self.start_fen,
            "moves": [m.iccs() for m in self.moves],
            "fen": self.position.fen(),
        }
        if self.declared is not None:
            e = self.declared
            doc["ending"] = {
                "result": e.result,
                "reason": str(e.reason),
                "article": e.article,
                "detail": e.detail,
            }
        return doc

    @classmethod
    def from_document(cls, doc: object) -> Game:
        """Rebuild a game, replaying every move; XiangqiError names the first fault."""
        if not isinstance(doc, dict):
            raise XiangqiError("game document must be an object")
        if doc.get("format") != DOCUMENT_FORMAT:
            raise XiangqiError(f"game document format must be {DOCUMENT_FORMAT!r}")
        start, moves = doc.get("start"), doc.get("moves")
        if not isinstance(start, str):
            raise XiangqiError("game document: 'start' must be a FEN string")
        if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
            raise XiangqiError("game document: 'moves' must be a list of ICCS strings")
        game = cls.from_fen(start)
        for i, text in enumerate(moves, 1):
            try:
                game.push(Move.from_iccs(text))
            except XiangqiError as exc:
                raise XiangqiError(f"game document move {i}: {exc}") from None
        fen = doc.get("fen")
        if fen is not None and fen != game.position.fen():
            raise XiangqiError("game document: 'fen' does not match the position after the moves")
        if doc.get("ending") is not None:
            game.declared = _read_ending(doc["ending"])
        return game


def _read_ending(data: object) -> Ending:
    if not isinstance(data, dict):
        raise XiangqiError("game document: 'ending' must be an object")
    result, reason = data.get("result"), data.get("reason")
    if result not in (RED_WINS, BLACK_WINS, DRAW):
        raise XiangqiError("game document: ending 'result' must be 1-0, 0-1 or 1/2-1/2")
    if reason not in set(EndReason):
        raise XiangqiError(f"game document: ending 'reason' {reason!r} is not a known reason")
    article, detail = data.get("article", ""), data.get("detail", "")
    if not isinstance(article, str) or not isinstance(detail, str):
        raise XiangqiError("game document: ending 'article' and 'detail' must be strings")
    return Ending(result, EndReason(reason), article, detail)
