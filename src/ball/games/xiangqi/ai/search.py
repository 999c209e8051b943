"""A computer opponent for Xiangqi at a modest strength: alpha-beta on `ball.games.xiangqi.engine`.

Negamax alpha-beta with iterative deepening, a quiescence search on captures, move ordering
(the previous iteration's best move, MVV-LVA for captures, killer moves and a history table
for quiet ones; at the hard level a transposition table too) and an evaluation of material
plus piece-square bonuses kept as data (`VALUES`, `BONUS`). The search is bounded by a node
budget (so a level plays the same move on every machine: deterministic for a seed) and, as a
safety for slow machines, by time.
It only ever plays a move from `Position.legal_codes()`, so it cannot play an illegal move.

    from ball.games.xiangqi.ai.search import choose_move
    move = choose_move(position, level="easy", seed=0)   # a legal Move, or None if none
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass

from ball.games.xiangqi.engine import Move, Position
from ball.games.xiangqi.engine.board import BLACK_BIT
from ball.games.xiangqi.engine.move import MOVES

# Material in centipawns by internal kind code 1..7 (king, advisor, elephant, horse, rook,
# cannon, pawn): the common engine weights, the king counted by mate scores instead.
VALUES: tuple[int, ...] = (0, 0, 200, 200, 400, 900, 450, 100)

# Piece-square bonuses seen from Red (rank 0 is Red's back rank), by kind code; Black reads
# the table mirrored by rank. Rows are ranks 0..9, nine files each.
_PAWN = [
    [0] * 9,
    [0] * 9,
    [0] * 9,
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 10, 0, 15, 0, 10, 0, 0],
    [60, 80, 90, 100, 110, 100, 90, 80, 60],  # across the river the pawn also moves sideways
    [70, 90, 110, 120, 130, 120, 110, 90, 70],
    [80, 100, 120, 140, 150, 140, 120, 100, 80],
    [60, 80, 100, 120, 130, 120, 100, 80, 60],
    [0, 10, 20, 30, 30, 30, 20, 10, 0],  # the last rank: it can only step sideways
]
_HORSE = [
    [-20, -10, 0, 0, -10, 0, 0, -10, -20],
    [-10, 0, 10, 10, -10, 10, 10, 0, -10],
    [0, 10, 20, 15, 20, 15, 20, 10, 0],
    [0, 15, 20, 25, 20, 25, 20, 15, 0],
    [0, 20, 25, 30, 30, 30, 25, 20, 0],
    [5, 25, 30, 40, 35, 40, 30, 25, 5],
    [10, 30, 40, 45, 40, 45, 40, 30, 10],
    [10, 30, 45, 40, 40, 40, 45, 30, 10],
    [5, 20, 30, 40, 20, 40, 30, 20, 5],
    [0, 5, 10, 20, 10, 20, 10, 5, 0],
]
_CANNON = [
    [0, 0, 5, 10, 10, 10, 5, 0, 0],
    [0, 5, 5, 5, 5, 5, 5, 5, 0],
    [5, 5, 10, 10, 20, 10, 10, 5, 5],
    [0, 0, 0, 0, 5, 0, 0, 0, 0],
    [0, 0, 5, 0, 10, 0, 5, 0, 0],
    [0, 0, 5, 0, 10, 0, 5, 0, 0],
    [5, 5, 5, 10, 15, 10, 5, 5, 5],
    [5, 5, 5, 5, 10, 5, 5, 5, 5],
    [10, 10, 5, 0, 0, 0, 5, 10, 10],
    [20, 15, 5, 0, 0, 0, 5, 15, 20],  # behind the enemy line a cannon pins the back rank
]
_ROOK = [
    [-10, 5, 0, 10, 0, 10, 0, 5, -10],
    [5, 10, 5, 10, 0, 10, 5, 10, 5],
    [0, 5, 5, 10, 10, 10, 5, 5, 0],
    [5, 10, 10, 15, 15, 15, 10, 10, 5],
    [10, 15, 15, 20, 20, 20, 15, 15, 10],
    [10, 20, 20, 25, 25, 25, 20, 20, 10],
    [10, 20, 20, 25, 25, 25, 20, 20, 10],
    [10, 20, 20, 25, 30, 25, 20, 20, 10],
    [15, 25, 25, 30, 30, 30, 25, 25, 15],
    [10, 15, 15, 20, 20, 20, 15, 15, 10],
]
_ZERO = [[0] * 9 for _ in range(10)]


def _flat(rows: list[list[int]]) -> tuple[int, ...]:
    return tuple(v for row in rows for v in row)


# BONUS[kind code] -> 90 bonuses seen from Red (king, advisor, elephant: none; their
# safety is what the search sees).
BONUS: tuple[tuple[int, ...], ...] = tuple(
    _flat(t) for t in (_ZERO, _ZERO, _ZERO, _ZERO, _HORSE, _ROOK, _CANNON, _PAWN)
)
# The same square seen from Black: rank r becomes rank 9 - r.
MIRROR: tuple[int, ...] = tuple((9 - sq // 9) * 9 + sq % 9 for sq in range(90))

MATE = 100_000
# Below this ply a side in check in the quiescence search tries every evasion; deeper, only
# captures (a bound on chains of checks).
QUIESCENCE_CHECK_PLIES = 8
INF = 10 * MATE


@dataclass(frozen=True, slots=True)
class Level:
    """How hard the computer tries: plies searched, a node budget, a time limit (seconds)
    and the margin (centipawns) within which a seeded draw picks among the best root moves."""

    name: str
    depth: int
    nodes: int
    seconds: float
    margin: int
    table: bool = False  # remember searched positions (a transposition table): deeper per node


# The levels an opponent may pick: a club beginner, a casual player, and "hard", which
# searches up to two plies deeper on twice the nodes with a transposition table (positions
# met again by another move order are not searched twice), bounded by ~2.5 s a move on a
# shared 2-core machine: it sees mates in three that medium's horizon hides.
LEVELS: dict[str, Level] = {
    "easy": Level("easy", depth=2, nodes=4_000, seconds=2.0, margin=40),
    "medium": Level("medium", depth=4, nodes=25_000, seconds=5.0, margin=0),
    "hard": Level("hard", depth=6, nodes=50_000, seconds=2.5, margin=0, table=True),
}


def evaluate(board: tuple[int, ...], side: int) -> int:
    """Material and piece-square bonuses for `side` (0 Red, 1 Black) minus the opponent's."""
    score = 0
    for sq, code in enumerate(board):
        if code:
            kind = code & 7
            if code & BLACK_BIT:
                score -= VALUES[kind] + BONUS[kind][MIRROR[sq]]
            else:
                score += VALUES[kind] + BONUS[kind][sq]
    return score if side == 0 else -score


_EXACT, _LOWER, _UPPER = 0, 1, 2  # what a remembered score is: exact, at least, at most


class _OutOfBudget(Exception):
    pass


@dataclass
class SearchResult:
    move: Move | None
    score: int
    depth: int  # the deepest iteration that finished
    nodes: int


class Searcher:
    """One search: budgets, counters, killer moves and history, kept between iterations."""

    def __init__(
        self,
        nodes: int,
        seconds: float,
        clock: Callable[[], float] = time.monotonic,
        table: bool = False,
    ) -> None:
        # position -> (depth, score, bound, best move); None: no table (easy, medium)
        self.table: dict[tuple[tuple[int, ...], int], tuple[int, int, int, int]] | None = (
            {} if table else None
        )
        self.max_nodes = nodes
        self.deadline = clock() + seconds
        self.clock = clock
        self.nodes = 0
        self.killers: dict[int, list[int]] = {}
        self.history: dict[int, int] = {}
        self.limited = False  # budgets are checked only once depth 1 has finished

    def _tick(self) -> None:
        self.nodes += 1
        if self.limited and (
            self.nodes > self.max_nodes or (self.nodes & 255 == 0 and self.clock() > self.deadline)
        ):
            raise _OutOfBudget

    def _order(self, pos: Position, codes: list[int], ply: int, first: int = -1) -> list[int]:
        board = pos.board
        killers = self.killers.get(ply, ())
        history = self.history

        def rank(code: int) -> int:
            if code == first:
                return 10_000_000
            victim = board[code & 127]
            if victim:  # MVV-LVA: the most valuable victim, then the least valuable attacker
                return 1_000_000 + 10 * VALUES[victim & 7] - VALUES[board[code >> 7] & 7] // 10
            if code in killers:
                return 500_000
            return history.get(code, 0)

        return sorted(codes, key=rank, reverse=True)

    def quiesce(self, pos: Position, alpha: int, beta: int, ply: int) -> int:
        self._tick()
        codes = pos.legal_codes()
        if not codes:  # no legal move loses, in check or not (seed 3.2, 4.1.1, 4.1.3)
            return -(MATE - ply)
        board = pos.board
        stand = evaluate(board, pos.turn.side)
        if ply < QUIESCENCE_CHECK_PLIES and pos.in_check():
            # In check standing pat is no option: every evasion is searched, so a mate
            # found past the horizon is scored as one.
            moves, best = codes, -INF
        else:
            if stand >= beta:
                return stand
            moves, best = [c for c in codes if board[c & 127]], stand
        alpha = max(alpha, best)
        for code in self._order(pos, moves, ply):
            score = -self.quiesce(pos.push_code(code), -beta, -alpha, ply + 1)
            if score >= beta:
                return score
            best = max(best, score)
            alpha = max(alpha, score)
        return best

    def search(self, pos: Position, depth: int, alpha: int, beta: int, ply: int) -> int:
        if depth <= 0:
            return self.quiesce(pos, alpha, beta, ply)
        self._tick()
        codes = pos.legal_codes()
        if not codes:
            return -(MATE - ply)
        key = (pos.board, pos.turn.side)
        known = self.table.get(key) if self.table is not None else None
        if known is not None and known[0] >= depth and abs(known[1]) < MATE - 1000:
            # a bound found as deep before decides here too; mate scores are kept out, as
            # they count plies from where they were found
            bound, score = known[2], known[1]
            if bound == _EXACT or (bound == _LOWER and score >= beta):
                return score
            if bound == _UPPER and score <= alpha:
                return score
        start_alpha = alpha
        best, best_code = -INF, -1
        for code in self._order(pos, codes, ply, known[3] if known else -1):
            score = -self.search(pos.push_code(code), depth - 1, -beta, -alpha, ply + 1)
            if score > best:
                best, best_code = score, code
            if score > alpha:
                alpha = score
            if alpha >= beta:
                if not pos.board[code & 127]:
                    self._remember(code, depth, ply)
                break
        if self.table is not None:
            bound = _UPPER if best <= start_alpha else _LOWER if best >= beta else _EXACT
            self.table[key] = (depth, best, bound, best_code)
        return best

    def _remember(self, code: int, depth: int, ply: int) -> None:
        killers = self.killers.setdefault(ply, [])
        if code not in killers:
            killers.insert(0, code)
            del killers[2:]
        self.history[code] = self.history.get(code, 0) + depth * depth

    def root(self, pos: Position, depth: int, first: int, margin: int) -> list[tuple[int, int]]:
        """Every root move with its score at `depth`: exact within `margin` of the best so
        far, an upper bound for the others."""
        scored: list[tuple[int, int]] = []
        alpha = -INF
        for code in self._order(pos, pos.legal_codes(), 0, first):
            floor = alpha - margin - 1 if alpha > -INF else -INF
            score = -self.search(pos.push_code(code), depth - 1, -INF, -floor, 1)
            scored.append((score, code))
            alpha = max(alpha, score)
        return scored


def search(
    position: Position,
    depth: int = 3,
    nodes: int = 25_000,
    seconds: float = 5.0,
    margin: int = 0,
    seed: int = 0,
    table: bool = False,
) -> SearchResult:
    """Search `position` by iterative deepening to `depth` plies within the budgets; the
    best move of the deepest finished iteration (a seeded pick among the moves within
    `margin` of the best). No legal move: `move` is None."""
    codes = position.legal_codes()
    if not codes:
        return SearchResult(None, -MATE, 0, 0)
    searcher = Searcher(nodes, seconds, table=table)
    best: list[tuple[int, int]] = [(0, codes[0])]
    finished = 0
    for d in range(1, max(1, depth) + 1):
        try:
            scored = searcher.root(position, d, best[0][1], margin)
        except _OutOfBudget:
            break
        searcher.limited = True
        best = sorted(scored, key=lambda sc: -sc[0])
        finished = d
        if best[0][0] >= MATE - 100:  # a forced mate found: deeper search cannot improve it
            break
    top = best[0][0]
    # Only scores above (top - margin) are exact enough to compare; a near-mate is never
    # traded for a merely good move.
    pool = [code for score, code in best if score >= top - margin] if top < MATE - 100 else []
    chosen = random.Random(seed).choice(pool) if len(pool) > 1 else best[0][1]
    return SearchResult(MOVES[chosen], top, finished, searcher.nodes)


def choose_move(position: Position, level: str = "easy", seed: int = 0) -> Move | None:
    """The computer's move at `level` (see LEVELS); None when there is no legal move."""
    try:
        lv = LEVELS[level]
    except KeyError:
        raise ValueError(f"level must be one of {', '.join(LEVELS)}, not {level!r}") from None
    return search(position, lv.depth, lv.nodes, lv.seconds, lv.margin, seed, lv.table).move


def move_text(fen: str, level: str, seed: int) -> str | None:
    """The computer's move (ICCS) in the position `fen`, None without a legal move: the job
    the search pool (`ball.play.searches`) runs in a worker process, on plain values."""
    move = choose_move(Position.from_fen(fen), level, seed=seed)
    return None if move is None else move.iccs()
