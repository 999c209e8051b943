"""Helpers for Xiangqi scenario tests: the legal targets of one piece, by ICCS names."""

from __future__ import annotations

from ball.games.xiangqi.engine import Move, Position, parse_square, square_name


def targets(fen: str, frm: str) -> list[str]:
    """Sorted ICCS names of the points the piece on `frm` may legally move to."""
    pos = Position.from_fen(fen)
    sq = parse_square(frm)
    return sorted(square_name(m.to_sq) for m in pos.legal_moves() if m.from_sq == sq)


def legal(fen: str) -> set[str]:
    return {m.iccs() for m in Position.from_fen(fen).legal_moves()}


def move(text: str) -> Move:
    return Move.from_iccs(text)
