"""The mutable state of one half of BALL, laid out for speed.

Pieces are numbered 0..2n-1: side S first (0..n-1), then N, each in roster order. The board
keeps the top (or only) piece of each square in `occ` and the bottom of a stack in `under`.
Everything is plain lists and ints so that `copy()` is a handful of C-level list copies.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING

from .board import ADJACENT, DIAGONAL2, ORTHOGONAL2, SIZE, end_zone
from .ruleset import Ruleset

if TYPE_CHECKING:
    from .actions import Action


class Side(StrEnum):
    """A side's name at the API edge; inside the engine a side is the int S or N (speed)."""

    S = "S"
    N = "N"


S, N = 0, 1
SIDE_NAMES = tuple(side.value for side in Side)  # indexed by the ints S, N

# piece states
ACTIVE, DOWN, TOP, BOTTOM = 0, 1, 2, 3
STATE_NAMES = ("active", "down", "top", "bottom")


class Phase(StrEnum):
    """A phase's name at the API edge (positions, `Game.phase`); the move generator keeps
    the plain ints below, which index PHASE_NAMES in the same order."""

    ACTION = "action"
    RELEASE = "release"
    STEAL = "steal"
    RECOVER = "recover"
    OVER = "over"


# phases, as the engine's hot paths hold them
ACTION, RELEASE, STEAL, RECOVER, OVER = 0, 1, 2, 3, 4
PHASE_NAMES = tuple(phase.value for phase in Phase)


@dataclass(frozen=True)
class Tables:
    """Per-ruleset lookup tables: each piece's move shapes on each square, end zones."""

    n: int  # pieces per side
    step1: tuple[tuple[tuple[int, ...], ...], ...]  # [piece][sq] -> diagonal 1-step landings
    step2: tuple[tuple[tuple[tuple[int, int], ...], ...], ...]  # [piece][sq] -> (mid|-1, land)
    diag2: tuple[bool, ...]  # [piece] can make a straight 2-square diagonal move
    zone: tuple[frozenset[int], frozenset[int]]  # scoring end zone of S and of N
    uses_pe: bool  # Ruleset.uses_pe, read on every ordinary action (a property call is dearer)
    # Ruleset.nothing_is_free, read whenever PA run out (a cached property of a class compiled
    # by mypyc is computed again on every read)
    nothing_is_free: bool


_TABLES: dict[int, tuple[Ruleset, Tables]] = {}


def tables_for(rs: Ruleset) -> Tables:
    cached = _TABLES.get(id(rs))
    if cached is not None and cached[0] is rs:
        return cached[1]
    n = len(rs.roster)
    step1, step2, diag2 = [], [], []
    for i in range(2 * n):
        shapes = rs.kinds[rs.roster[i % n][0]]
        step1.append(ADJACENT if "diag1" in shapes else tuple(() for _ in range(SIZE)))
        per_square = []
        for sq in range(SIZE):
            routes: list[tuple[int, int]] = []
            if "diag2" in shapes:
                routes.extend(DIAGONAL2[sq])
            if "orth2" in shapes:
                routes.extend((-1, to) for to in ORTHOGONAL2[sq])
            per_square.append(tuple(routes))
        step2.append(tuple(per_square))
        diag2.append("diag2" in shapes)
    tables = Tables(
        n=n,
        step1=tuple(step1),
        step2=tuple(step2),
        diag2=tuple(diag2),
        zone=(end_zone("S", rs.end_zone_depth), end_zone("N", rs.end_zone_depth)),
        uses_pe=rs.uses_pe,
        nothing_is_free=rs.nothing_is_free,
    )
    _TABLES[id(rs)] = (rs, tables)
    return tables


class State:
    __slots__ = (
        "rs", "t", "occ", "under", "pos", "st", "was", "since", "carrier", "ball_sq",
        "half", "turn", "to_move", "attack", "phase", "pa", "pe", "pb", "score",
        "restricted", "short_range", "screen", "audible", "hands", "discards",
        "recovery_owed", "steal_by", "steal_pb", "steal_resume", "legal_next",
    )  # fmt: skip

    def __init__(self, rs: Ruleset, blank: bool = False) -> None:
        # `blank`: for `copy`, which sets every field itself. (It cannot skip `__init__` by
        # `State.__new__`: a class compiled by mypyc has no such constructor.)
        self.rs = rs
        if blank:
            return
        self.t = tables_for(rs)
        n2 = 2 * self.t.n
        self.occ = [-1] * SIZE
        self.under = [-1] * SIZE
        self.pos = [-1] * n2
        self.st = [ACTIVE] * n2
        self.was = [ACTIVE] * n2
        self.since = [0] * n2
        self.carrier = -1
        self.ball_sq = -1
        self.half = 1
        self.turn = 1
        self.to_move = N
        self.attack = S
        self.phase = ACTION
        self.pa = rs.pa
        self.pe = [0, 0]
        self.pb = [0, 0, 0, 0]  # S atk, S def, N atk, N def
        self.score = [0, 0]
        self.restricted = 0  # bit i: piece i took the ball this turn (§9)
        self.short_range = rs.short_range
        self.screen = False
        self.audible = False
        deck = tuple(c.name for c in rs.deck.cards) if rs.card_mode else ()
        self.hands = [deck, deck]
        self.discards: list[tuple[str, ...]] = [(), ()]
        self.recovery_owed = -1
        self.steal_by = -1
        self.steal_pb = 0
        self.steal_resume = ACTION
        # The action list `play` had to build to know whether the action phase ends by
        # itself (it did not: the list was not empty); `Game` reuses it as the next legal
        # list instead of building it again. None when play built none.
        self.legal_next: list[Action] | None = None

    def copy(self) -> State:
        c = State(self.rs, True)
        c.t = self.t
        c.occ = self.occ[:]
        c.under = self.under[:]
        c.pos = self.pos[:]
        c.st = self.st[:]
        c.was = self.was[:]
        c.since = self.since[:]
        c.carrier = self.carrier
        c.ball_sq = self.ball_sq
        c.half = self.half
        c.turn = self.turn
        c.to_move = self.to_move
        c.attack = self.attack
        c.phase = self.phase
        c.pa = self.pa
        c.pe = self.pe[:]
        c.pb = self.pb[:]
        c.score = self.score[:]
        c.restricted = self.restricted
        c.short_range = self.short_range
        c.screen = self.screen
        c.audible = self.audible
        c.hands = self.hands[:]
        c.discards = self.discards[:]
        c.recovery_owed = self.recovery_owed
        c.steal_by = self.steal_by
        c.steal_pb = self.steal_pb
        c.steal_resume = self.steal_resume
        c.legal_next = None
        return c

    # --- small helpers used everywhere -------------------------------------------------
    def side_of(self, piece: int) -> int:
        return piece // self.t.n

    def piece_id(self, piece: int) -> str:
        return self.rs.roster[piece % self.t.n]

    def piece_label(self, piece: int) -> str:
        return f"{SIDE_NAMES[self.side_of(piece)]}:{self.piece_id(piece)}"

    def pieces_of(self, side: int) -> range:
        n = self.t.n
        return range(side * n, side * n + n)


    def place_formation(self) -> None:
        """D-05: every piece on its side's formation square, active; ball to the ATK's X5."""
        rs, n = self.rs, self.t.n
        self.occ = [-1] * SIZE
        self.under = [-1] * SIZE
        for side in (S, N):
            column = rs.formation[SIDE_NAMES[side]]
            for k, pid in enumerate(rs.roster):
                i = side * n + k
                sq = column[pid]
                self.pos[i] = sq
                self.occ[sq] = i
                self.st[i] = ACTIVE
                self.was[i] = ACTIVE
                self.since[i] = 0
        self.carrier = self.attack * n + rs.roster.index(rs.ball_carrier)
        self.ball_sq = -1
        self.restricted = 0
