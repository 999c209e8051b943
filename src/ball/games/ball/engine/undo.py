"""Make/unmake: applying an action together with a record that takes it back exactly.

`make(s, a)` plays `a` on `s` (through `resolve.play`, the one place the rules act) and
returns an `Undo`; `unmake(s, undo)` restores every field of `s` as it was before (the
slot `legal_next`, where `play` hands its action list over, included). Perft and the
search's one-action look-ahead visit every child of a position this way instead of copying
the state for each child: a copy costs two 221-entry board lists, nine small lists and
thirty attribute writes, while a move touches two to four squares (python-chess's
`push`/`pop` with its move stack is the model).

The record holds the scalars and copies of the per-piece lists as they were (a list copy
is a C-level slice); the per-side lists (PE, PB, score, hands, discards) are not copied,
because `play` replaces them instead of writing into them, so the record keeps the old
list itself. Of the two board lists it holds only the squares the action can touch: which
squares those are is read from the action tuple (`_touched`), since every board write of
`play` is at a square the action names. A reset (§10: back to the standard formation)
rewrites the whole board, so its record keeps the whole board.
`tests/engine/test_undo.py` checks the restoration field by field over random games under
every shipped ruleset; a change to `play` that writes another square fails it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .actions import CARD, DODGE, MOVE, RESET, SPLIT, TDODGE, UP, Action
from .resolve import Event, play
from .state import State

# The board squares an action may change (occ or under), read from its tuple; None: the
# whole board (a reset re-places every piece).
_SquaresOf = Callable[[Action], tuple[int, ...] | None]


def _move(a: Action) -> tuple[int, ...]:
    return (a[1], a[2])  # origin and landing; a stack forms on the landing (§7)


def _dodge(a: Action) -> tuple[int, ...]:
    return (a[1], a[3])  # origin and exit; the knocked-down piece stays on its square (§5)


def _tdodge(a: Action) -> tuple[int, ...]:
    # origin, landing, the crossed square and the push square (§6)
    return (a[1], a[2], (a[1] + a[2]) // 2, a[3])


def _split(a: Action) -> tuple[int, ...]:
    return (a[1], a[2], a[3])  # the stack square and the two squares it splits to (§8)


def _card(a: Action) -> tuple[int, ...]:
    return tuple(a[2])  # a Stand-up card's piece and square; other cards name none or one


def _reset(a: Action) -> None:
    return None


# Per kind; the kinds missing here (ball actions, PE, end, continue, recover) move no piece.
_TOUCHED: dict[int, _SquaresOf] = {
    MOVE: _move,
    DODGE: _dodge,
    TDODGE: _tdodge,
    UP: _move,
    SPLIT: _split,
    CARD: _card,
    RESET: _reset,
}


def _no_square(a: Action) -> tuple[int, ...]:
    return ()


_touched = _TOUCHED.get

# An undo record: the action's board squares with their (occ, under) values (or the whole
# board lists), then the scalars and the copied small lists, in the order `unmake` reads them.
# Typed item by item: the compiled build keeps such a tuple as a C struct of unboxed fields.
Undo = tuple[
    bool, Any,
    int, int, int, int,  # carrier, ball_sq, turn, to_move
    int, int, int, int,  # attack, phase, pa, restricted
    int, bool, bool,  # short_range, screen, audible
    int, int, int,  # recovery_owed, steal_by, steal_pb
    int, list[Action] | None,  # steal_resume, legal_next
    list[int], list[int], list[int], list[int],  # pos, st, was, since
    list[int], list[int], list[int],  # pe, pb, score
    list[tuple[str, ...]], list[tuple[str, ...]],  # hands, discards
]  # fmt: skip


def make(s: State, a: Action, events: list[Event] | None = None) -> Undo:
    """Play the legal action `a` on `s`; return the record that `unmake` takes back."""
    squares = _touched(a[0], _no_square)(a)
    occ, under = s.occ, s.under
    whole = squares is None
    board: Any = (occ[:], under[:]) if squares is None else [(q, occ[q], under[q]) for q in squares]
    undo = (
        whole,
        board,
        s.carrier, s.ball_sq, s.turn, s.to_move, s.attack, s.phase, s.pa, s.restricted,
        s.short_range, s.screen, s.audible, s.recovery_owed, s.steal_by, s.steal_pb,
        s.steal_resume, s.legal_next,
        s.pos[:], s.st[:], s.was[:], s.since[:],
        s.pe, s.pb, s.score, s.hands, s.discards,  # play replaces these, never writes in them
    )  # fmt: skip
    play(s, a, events)
    return undo


def unmake(s: State, undo: Undo) -> None:
    """Take back the action `make` played: `s` is again, field by field, what it was."""
    (
        whole, board,
        s.carrier, s.ball_sq, s.turn, s.to_move, s.attack, s.phase, s.pa, s.restricted,
        s.short_range, s.screen, s.audible, s.recovery_owed, s.steal_by, s.steal_pb,
        s.steal_resume, s.legal_next,
        s.pos, s.st, s.was, s.since, s.pe, s.pb, s.score,
        s.hands, s.discards,
    ) = undo  # fmt: skip
    if whole:
        s.occ, s.under = board
        return
    occ, under = s.occ, s.under
    for q, o, u in board:  # a square named twice (a push onto the origin) saved one value
        occ[q] = o
        under[q] = u
