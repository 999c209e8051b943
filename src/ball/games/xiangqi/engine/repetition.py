"""Repetition rulings (seed §23–§28): find the cycle, classify each move in it, give the
verdict with its article and reason.

When the position after the last move (same board, same side to move) has come about
`occurrences` times (seed 24: three), every move from the first of those occurrences to now
is classified for the side that made it (seed §28):

* check (28.1): the move attacks the opposing king;
* kill (28.2): not a check, but with the mover to move again it could mate, at once or
  through checks within the rule set's `kill_moves`, which it could not before the move
  (X-31 in docs/rules-decisions.md);
* chase (28.3): not a check or kill, but it makes a new attack on an opposing piece that the
  mover could then capture with gain: the piece has no root (28.16: no legal recapture, so a
  "false root" counts as none), or it is worth more than its attacker (25.3: a rook attacked
  by a horse or cannon even if protected). Kings and uncrossed pawns are never chased
  (25.3); a chase by the king's or a pawn's own attack counts as idle (27.1, 27.2); the
  chased pieces are named;
* idle (28.9): anything else, including exchanges, offers, blocks and follows; an attack on
  a piece that can take the attacker first and is its equal (28.5: an offer to exchange) is
  never a chase, rooted or not.

A side whose every move in the cycle is an attack of a forbidden kind (25.2: perpetual check,
kill, chase and their mixtures, per the rule set) plays forbidden moves; one idle move makes
them allowed. Then (26.1–26.4, 24.1–24.3): one-sided perpetual check loses; mutual perpetual
check, both forbidden or both allowed is a draw; forbidden against allowed means the
forbidden side must change, and loses if the cycle comes round again. The verdict is advice
to the arbiter, who confirms or overrides it (ending.arbiter_loss, agreement).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from .attacks import attackers_of
from .board import (
    BLACK_BIT,
    COLORS,
    KIND_OF_CODE,
    KING,
    NAMES,
    PIECE_OF_CODE,
    Color,
    Kind,
    Piece,
    own_half,
)
from .ending import Ending, EndReason, draw, loss
from .fen import write_fen
from .move import Move
from .position import Position
from .repetition_rules import RepetitionRules
from .rules import XiangqiRules


class Category(StrEnum):
    CHECK = "check"
    KILL = "kill"
    CHASE = "chase"
    IDLE = "idle"


_ORDER = (Category.CHECK, Category.KILL, Category.CHASE, Category.IDLE)


@dataclass(frozen=True, slots=True)
class Chased:
    """One piece a chasing move threatens: where it stands, and the attacker's square."""

    piece: Piece
    square: int
    by: int
    ident: int  # the piece's square at the start of the cycle (follows it as it moves)

    def as_dict(self) -> dict[str, str]:
        return {
            "piece": str(self.piece.kind),
            "color": str(self.piece.color),
            "square": NAMES[self.square],
            "by": NAMES[self.by],
        }


@dataclass(frozen=True, slots=True)
class ClassifiedMove:
    ply: int  # 1-based index of the move in the game
    color: Color
    move: Move
    category: Category
    chased: tuple[Chased, ...] = ()
    note: str = ""

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "ply": self.ply,
            "side": str(self.color),
            "move": self.move.iccs(),
            "category": str(self.category),
        }
        if self.chased:
            out["chased"] = [c.as_dict() for c in self.chased]
        if self.note:
            out["note"] = self.note
        return out


@dataclass(frozen=True, slots=True)
class SideVerdict:
    color: Color
    forbidden: bool
    label: str  # "perpetual check", "one check one chase", "idle", ...
    article: str

    def as_dict(self) -> dict[str, Any]:
        return {"forbidden": self.forbidden, "label": self.label, "article": self.article}


@dataclass(frozen=True, slots=True)
class Ruling:
    """The ruling after the last move: result, reason, and (for a repetition) the cycle."""

    result: str  # "1-0", "0-1", "1/2-1/2", or "*" while no rule ends the game
    reason: str
    article: str = ""
    rules: str = "chinese"
    verdict: str = "none"  # none | board | draw | loss | must-change
    must_change: Color | None = None
    occurrences: int = 1
    cycle: tuple[ClassifiedMove, ...] = ()
    sides: tuple[SideVerdict, ...] = ()
    ending: Ending | None = None

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "result": self.result,
            "reason": self.reason,
            "article": self.article,
            "rules": self.rules,
            "verdict": self.verdict,
        }
        if self.verdict in ("draw", "loss", "must-change"):
            out["must_change"] = None if self.must_change is None else str(self.must_change)
            out["occurrences"] = self.occurrences
            out["sides"] = {str(s.color): s.as_dict() for s in self.sides}
            out["cycle"] = [m.as_dict() for m in self.cycle]
        return out


def board_ruling(ending: Ending, rules: XiangqiRules) -> Ruling:
    """A Ruling carrying an ending the board decided (checkmate, no move, move limit)."""
    return Ruling(
        ending.result,
        ending.detail or str(ending.reason),
        ending.article,
        rules.name,
        "board",
        ending=ending,
    )


# --- classifying one move ---------------------------------------------------------------


def _pass(position: Position) -> Position:
    # The same board with the other side to move: "if it were the mover's turn again".
    side = 0 if position.turn is Color.BLACK else 1
    fen = write_fen(position.board, side, position.halfmove_clock, position.fullmove)
    return Position.from_fen(fen)


def _forces_mate(position: Position, moves: int) -> bool:
    """Can the side to move mate within `moves` of its own moves, every one but the last a
    check (28.2: "the next move or consecutive checks")? Only checks are tried before the
    last move, so the search stays small."""
    for code in position.legal_codes():
        after = position.push_code(code)
        if not after.in_check():
            continue
        replies = after.legal_codes()
        if not replies:
            return True
        if moves > 1 and all(_forces_mate(after.push_code(r), moves - 1) for r in replies):
            return True
    return False


def _rooted(passed: Position, code: int) -> bool:
    # Seed 28.16: rooted means fully protected: after the capture the owner can legally
    # take back on that point (a pinned or otherwise unable protector is a false root).
    to = code & 127
    return any(c & 127 == to for c in passed.push_code(code).legal_codes())


def _old_attacks(before: Position, move: Move) -> set[tuple[int, int]]:
    # (attacker, target) pairs that existed before the move, written with the squares the
    # pieces stand on after it (only the mover changed square). Pins and checks are ignored
    # here on purpose: an attack that existed before never becomes a new chase.
    side = before.turn.side
    enemy_bit = 0 if side else BLACK_BIT
    board = before.board
    pairs = set()
    for t, code in enumerate(board):
        if code and code & BLACK_BIT == enemy_bit:
            for a in attackers_of(board, t, side):
                pairs.add((move.to_sq if a == move.from_sq else a, t))
    return pairs


def _chases(
    before: Position,
    move: Move,
    after: Position,
    passed: Position,
    ids: dict[int, int],
    rules: RepetitionRules,
) -> tuple[list[Chased], str]:
    """The pieces the move newly threatens to win, and a note when a chase is idle."""
    board = passed.board
    # The opponent's legal captures now: a target that can take its attacker first is
    # offered an exchange (28.5), whatever protects either piece.
    replies = set(after.legal_codes())
    old = _old_attacks(before, move)
    mover_kind = KIND_OF_CODE[board[move.to_sq] & 7]
    enemy = before.turn.other.side
    chased: list[Chased] = []
    note = ""
    for code in passed.legal_codes():
        a, t = code >> 7, code & 127
        if not board[t] or (a, t) in old or board[t] & 7 == KING:
            continue
        target, attacker = PIECE_OF_CODE[board[t]], PIECE_OF_CODE[board[a]]
        assert target is not None and attacker is not None
        if target.kind is Kind.PAWN and own_half(t, enemy):
            continue  # 25.3: an uncrossed pawn is not a "piece" that can be chased
        # The king has no value: it never wins material by being worth less than its prey.
        gain = rules.values[target.kind] > rules.values.get(attacker.kind, 1000)
        # 28.5's "equal strength" by 25.3's values. With the seed's values only two pieces
        # of the same kind can attack each other (a horse never stands on a cannon's line),
        # so this is also AXF's (and Fairy-Stockfish's) same-kind reading.
        if (t << 7 | a) in replies and rules.values[target.kind] == rules.values.get(
            attacker.kind, 0
        ):
            note = f"an offer to exchange {attacker.kind} for {target.kind} is idle (28.5)"
            continue
        if not gain and _rooted(passed, code):
            continue  # an exchange or a follow (28.5, 28.8), not a chase
        if attacker.kind in rules.idle_attackers:
            note = f"a {attacker.kind}'s chase counts as idle (27.1, 27.2)"
            continue
        if mover_kind in rules.idle_movers:
            note = f"a chase made by moving the {mover_kind} counts as idle"
            continue
        chased.append(Chased(target, t, a, ids.get(t, t)))
    return chased, note


def classify(
    before: Position, move: Move, after: Position, ids: dict[int, int], rules: RepetitionRules
) -> tuple[Category, list[Chased], str]:
    """One move's kind (27.4: the heaviest of check > kill > chase > idle names it) and
    the pieces it chases (kept for a kill too: a rule set that allows kills still forbids
    the chase the same move makes, X-34)."""
    if after.in_check():
        return Category.CHECK, [], ""
    passed = _pass(after)
    chased, note = _chases(before, move, after, passed, ids, rules)
    # A kill is a new threat: a mate the mover could already force before the move is not
    # made by it (as with chases, an old attack never counts).
    depth = rules.kill_moves
    if _forces_mate(passed, depth) and not _forces_mate(before, depth):
        return Category.KILL, chased, ""
    if chased:
        return Category.CHASE, chased, ""
    return Category.IDLE, [], note


def classify_cycle(
    positions: Sequence[Position], moves: Sequence[Move], start: int, rules: RepetitionRules
) -> list[ClassifiedMove]:
    """Classify moves[start:] (positions[i] is the position before moves[i])."""
    ids = {sq: sq for sq, code in enumerate(positions[start].board) if code}
    seen: dict[tuple[object, int], tuple[Category, list[Chased], str]] = {}
    out = []
    for i in range(start, len(moves)):
        before, move = positions[i], moves[i]
        ids_now = dict(ids)
        ids_now[move.to_sq] = ids_now.pop(move.from_sq, move.from_sq)
        # The cycle repeats: a move from the same position is classified once (the chased
        # pieces' identities are taken afresh from where each piece came from).
        memo = (before.key(), move.code)
        if memo not in seen:
            seen[memo] = classify(before, move, positions[i + 1], ids_now, rules)
        category, chased, note = seen[memo]
        chased = [Chased(c.piece, c.square, c.by, ids_now.get(c.square, c.square)) for c in chased]
        out.append(ClassifiedMove(i + 1, before.turn, move, category, tuple(chased), note))
        ids = ids_now
    return out


# --- the verdict ------------------------------------------------------------------------


def _label(categories: list[Category]) -> str:
    kinds = [c for c in _ORDER if c in categories]
    if len(kinds) == 1:
        return "idle" if kinds[0] is Category.IDLE else f"perpetual {kinds[0]}"
    if len(kinds) == 2:
        return f"one {kinds[0]} one {kinds[1]}"
    return ", ".join(kinds[:-1]) + f" and {kinds[-1]}"


def _forbidden_attack(move: ClassifiedMove, rules: RepetitionRules) -> bool:
    # A kill that also chases is judged by the forbidden one of its two natures where the
    # rule set allows kills (AXF: "the one that may be judged forbidden is selected").
    if str(move.category) in rules.forbidden:
        return True
    return move.category is Category.KILL and bool(move.chased) and "chase" in rules.forbidden


def _common_chase(moves: list[ClassifiedMove]) -> bool:
    chasing = [m for m in moves if m.chased]
    if not chasing:
        return True
    common = set.intersection(*({c.ident for c in m.chased} for m in chasing))
    return bool(common)


def side_verdict(color: Color, moves: list[ClassifiedMove], rules: RepetitionRules) -> SideVerdict:
    """Forbidden or allowed for one side's moves in the cycle (25.2, 28.10–28.12)."""
    categories = [m.category for m in moves]
    label = _label(categories)
    if all(c is Category.CHECK for c in categories):
        return SideVerdict(color, True, label, "28.10")
    if not all(_forbidden_attack(m, rules) for m in moves):
        return SideVerdict(color, False, label, "25.2")
    if rules.chase_same_piece and not _common_chase(moves):
        return SideVerdict(color, False, f"{label} of different pieces in turn", "28.12")
    return SideVerdict(color, True, label, "25.2")


def _describe(side: SideVerdict) -> str:
    return f"{side.color}: {side.label} ({'forbidden' if side.forbidden else 'allowed'})"


def verdict(
    red: SideVerdict, black: SideVerdict, occurrences: int, rules: RepetitionRules
) -> tuple[str, str, str, Color | None, Ending | None]:
    """(verdict, article, reason, side that must change, ending) per 24.1–24.3, 26.1–26.4."""
    both = f"{_describe(red)}; {_describe(black)}"
    checkers = [s for s in (red, black) if s.label == "perpetual check"]
    if len(checkers) == 1:
        who = checkers[0].color
        reason = f"{both}: one-sided perpetual check is never allowed; {who} loses"
        return "loss", "26.1", reason, None, loss(who, EndReason.REPETITION, "26.1", reason)
    if red.forbidden == black.forbidden:
        article = "26.3" if red.forbidden else "26.2"
        what = (
            "mutual perpetual check"
            if checkers
            else ("both sides forbidden" if red.forbidden else "both sides allowed")
        )
        reason = f"{both}: {what}, drawn if neither changes"
        return "draw", article, reason, None, draw(EndReason.REPETITION, article, reason)
    bad = red if red.forbidden else black
    if occurrences >= rules.occurrences + rules.change_chances:
        reason = f"{both}: {bad.color} was to change and repeated the cycle; {bad.color} loses"
        return (
            "loss",
            "24.3",
            reason,
            bad.color,
            loss(bad.color, EndReason.REPETITION, "24.3", reason),
        )
    reason = f"{both}: {bad.color} must change its moves, and loses if the cycle comes round again"
    return "must-change", "26.4", reason, bad.color, None


def judge(
    positions: Sequence[Position], moves: Sequence[Move], rules: XiangqiRules | None = None
) -> Ruling:
    """The repetition ruling after the last move (`*` unless the position has repeated).

    `positions[i]` is the position before `moves[i]`; positions has one more entry.
    """
    rules = rules or XiangqiRules()
    rep = rules.repetition
    key = positions[-1].key()
    seen = [i for i, p in enumerate(positions) if p.key() == key]
    if len(seen) < rep.occurrences:
        reason = (
            f"the position after the last move has come about {_times(len(seen))}; "
            f"a repetition is ruled on at {_times(rep.occurrences)} (seed 24)"
        )
        return Ruling("*", reason, "", rules.name, occurrences=len(seen))
    cycle = classify_cycle(positions, moves, seen[-rep.occurrences], rep)
    red, black = (side_verdict(c, [m for m in cycle if m.color is c], rep) for c in COLORS)
    kind, article, reason, change, ending = verdict(red, black, len(seen), rep)
    result = "*" if ending is None else ending.result
    return Ruling(
        result,
        reason,
        article,
        rules.name,
        kind,
        change,
        len(seen),
        tuple(cycle),
        (red, black),
        ending,
    )


def _times(n: int) -> str:
    return {1: "once", 2: "twice", 3: "three times"}.get(n, f"{n} times")


__all__ = [
    "Category",
    "Chased",
    "ClassifiedMove",
    "Ruling",
    "SideVerdict",
    "board_ruling",
    "classify",
    "classify_cycle",
    "judge",
    "side_verdict",
    "verdict",
]
