"""Differential test of the Chinese reader against cchess (an LGPL test oracle in the dev
extra, never imported by src/ball), which writes the traditional convention — 前/後 for any
two rooks, horses, cannons or pawns on a file, 前/中/後 and 前/二/三/後 for pawns, simplified
characters. Every text it writes for a legal move of random positions must read back, through
`notation.read` with the notation detected, to that move; where both name the piece by its
file, the rest of the two texts must agree. Positions where pawns stand tandem
on two files are left out: cchess names those pawns ambiguously (its own TODO)."""

from __future__ import annotations

import random

import pytest

from ball.games.xiangqi.engine.notation import CHINESE_PIECE_READ, _multi_tandem, read, write

from .positions import random_position

cchess = pytest.importorskip("cchess")
# cchess writes 进 and full-width digits for Black; ours are 進 and ASCII digits.
SAME = str.maketrans({"进": "進", **{chr(0xFF11 + i): str(i + 1) for i in range(9)}})


def test_chinese_texts_written_by_cchess_read_back_to_the_move() -> None:
    rng = random.Random(404)
    checked = plain = 0
    for _ in range(25):
        position = random_position(rng)
        fen = position.fen()
        for move in position.legal_moves():
            if _multi_tandem(position.board, position.board[move.from_sq]):
                continue
            theirs = cchess.ChessBoard(fen).move_iccs(move.iccs())
            assert theirs is not None, (fen, move.iccs())
            text = theirs.to_text()
            assert read(position, text) == move, (fen, move.iccs(), text)
            ours = write(position, move, "chinese")
            if text[0] in CHINESE_PIECE_READ and ours[0] in CHINESE_PIECE_READ:
                # Both name the piece by kind and file: the rest of the text must agree.
                assert ours[1:] == text[1:].translate(SAME), (fen, move.iccs(), text, ours)
                plain += 1
            checked += 1
    assert checked > 300 and plain > 250
