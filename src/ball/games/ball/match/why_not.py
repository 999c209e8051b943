"""Why a tap on the board does nothing (issue 36 item 4), in the player's words.

The page lights the pieces that can act and the targets of the selected one; a tap anywhere
else used to do nothing. This module says why, for the squares where that is worth saying,
and is shipped with every state so a tap answers at once (no request):

- `pieces`: each occupied square whose piece cannot start an action now (an opponent's, a
  knocked-down one, a stack, one that took the ball this turn, one with nowhere to go, or
  any piece while a steal or a card recovery is being decided);
- `targets`: for each piece that can act, the squares within its move's reach that are not
  its targets (a stack in the way, an opponent that cannot be jumped, a knocked-down ally).

Legality stays with `ball.games.ball.engine.generate.legal`: a reason is given only for what its
list left out, and follows the same rules as `ball.games.ball.engine.explain.why_illegal` (which
words a refused typed action for the command line). The reasons are `narrate` parts (catalogue ids
with arguments), rendered in the reader's language by `render_reasons`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from ball.games.ball.engine.actions import (
    DODGE,
    HANDOFF,
    LONG,
    MOVE,
    SHORT,
    SPLIT,
    TDODGE,
    UP,
    Action,
)
from ball.games.ball.engine.board import NAMES
from ball.games.ball.engine.state import (
    ACTION,
    ACTIVE,
    DOWN,
    OVER,
    RELEASE,
    SIDE_NAMES,
    STEAL,
    State,
)
from ball.games.ball.match.narrate import Line, Part, Piece, render
from ball.i18n import N_

# action kinds that start from a piece's square and name a first target square
_FROM_SQUARE = (MOVE, DODGE, TDODGE, HANDOFF, SHORT, LONG, UP, SPLIT)

# The reasons by situation; a table, so a newcomer finds every sentence in one place.
OPPONENT = N_("{piece} belongs to the other side: {side} is to move.")
STEAL_FIRST = N_("First decide the steal: continue or reset.")
RECOVER_FIRST = N_("First take back a used card, or none.")
KNOCKED_DOWN = N_("{piece} is knocked down: it stands up in its side's release phase.")
STACK = N_("The stack on {square} ({top} on {bottom}) cannot act: it is split in a release phase.")
STACK_NEW = N_("The stack on {square} was made this turn: it cannot be split yet.")
TOOK_BALL = N_("{piece} took the ball this turn and may not start another action.")
NO_PA = N_("No PA left: end the action phase.")
STUCK = N_("{piece} is blocked: there is nothing it may do from {square} now.")
NO_ROOM = N_("{piece} cannot stand up: no empty square without the ball beside it.")
NO_TASK = N_("{piece} has no task in the release phase (only knocked-down pieces and stacks).")
INTO_STACK = N_("{square} is a stack: nothing enters a stack square.")
STACK_IN_WAY = N_("The stack on {mid} closes the way to {square}.")
DOWN_IN_WAY = N_("{piece} on {mid} is knocked down and cannot be jumped.")
OPPONENT_IN_WAY = N_(
    "{piece} on {mid} is in the way: an opponent is passed only by a tactical dodge"
    " onto an empty square."
)
ALLY_THERE = N_("{piece} stands on {square}: a two-square move cannot end on an ally.")
DOWN_THERE = N_("{piece} on {square} is knocked down: only a standing opponent can be dodged.")
NOT_NOW = N_("{piece} cannot go to {square} now.")


def reasons(s: State, legal: Iterable[Action]) -> dict[str, Any]:
    """{"pieces": {square: part}, "targets": {origin: {square: part}}} for state `s`, whose
    legal actions are `legal`."""
    if s.phase == OVER:
        return {"pieces": {}, "targets": {}}
    firsts: dict[int, set[int]] = {}
    for a in legal:
        if a[0] in _FROM_SQUARE:
            firsts.setdefault(a[1], set()).add(a[2])
    pieces = {}
    for sq, i in enumerate(s.occ):
        if i >= 0 and sq not in firsts:
            pieces[NAMES[sq]] = _idle(s, sq, i)
    targets = {}
    if s.phase == ACTION:
        for sq, reached in firsts.items():
            missed = _missed_targets(s, sq, reached)
            if missed:
                targets[NAMES[sq]] = missed
    return {"pieces": pieces, "targets": targets}


def _of(s: State, i: int) -> Piece:
    """Piece `i` as a `narrate` piece argument ("North X3", or "your X3")."""
    return [SIDE_NAMES[s.side_of(i)], s.piece_id(i)]


def _idle(s: State, sq: int, i: int) -> Part:
    """Why the piece (or stack) on `sq`, top piece `i`, cannot start an action."""
    piece = _of(s, i)
    if s.side_of(i) != s.to_move:
        return OPPONENT, {"piece": piece, "side": SIDE_NAMES[s.to_move]}
    if s.phase == STEAL:
        return STEAL_FIRST, {}
    if s.phase not in (ACTION, RELEASE):
        return RECOVER_FIRST, {}
    if s.under[sq] >= 0:
        if s.phase == RELEASE:
            return STACK_NEW, {"square": NAMES[sq]}
        bottom = _of(s, s.under[sq])
        return STACK, {"square": NAMES[sq], "top": piece, "bottom": bottom}
    if s.phase == RELEASE:
        return (NO_ROOM if s.st[i] == DOWN else NO_TASK), {"piece": piece}
    if s.st[i] == DOWN:
        return KNOCKED_DOWN, {"piece": piece}
    if s.restricted >> i & 1:
        return TOOK_BALL, {"piece": piece}
    if s.pa < 1:
        return NO_PA, {}
    return STUCK, {"piece": piece, "square": NAMES[sq]}


def _missed_targets(s: State, sq: int, reached: set[int]) -> dict[str, Part]:
    """The squares a step of the piece on `sq` reaches that none of its actions targets."""
    i = s.occ[sq]
    out: dict[str, Part] = {}
    for to in s.t.step1[i][sq]:
        if to not in reached:
            out[NAMES[to]] = _blocked(s, i, None, to)
    for mid, to in s.t.step2[i][sq]:
        if to not in reached and NAMES[to] not in out:
            out[NAMES[to]] = _blocked(s, i, mid, to)
    return out


def _blocked(s: State, i: int, mid: int | None, to: int) -> Part:
    """Why piece `i` cannot step to `to`: in one step (`mid` None) or in two, over `mid`
    (-1 when the two-square step passes no square)."""
    square = NAMES[to]
    o = s.occ[to]
    if o >= 0 and s.under[to] >= 0:
        return INTO_STACK, {"square": square}
    if s.pa < 1:
        return NO_PA, {}
    if mid is not None and mid >= 0 and s.occ[mid] >= 0:
        m = s.occ[mid]
        args = {"piece": _of(s, m), "mid": NAMES[mid], "square": square}
        if s.under[mid] >= 0:
            return STACK_IN_WAY, args
        if s.side_of(m) != s.side_of(i):
            return OPPONENT_IN_WAY, args
        if s.st[m] != ACTIVE:
            return DOWN_IN_WAY, args
    if mid is not None and o >= 0:
        args = {"piece": _of(s, o), "square": square}
        if s.side_of(o) == s.side_of(i):
            return ALLY_THERE, args
        if s.st[o] != ACTIVE:
            return DOWN_THERE, args
    return NOT_NOW, {"piece": _of(s, i), "square": square}


def render_reasons(
    why: dict[str, Any], gettext: Callable[[str], str], viewer: str | None = None
) -> dict[str, Any]:
    """`reasons(...)` with each part rendered in one language (pieces of `viewer` are
    "your …")."""

    def one(part: Any) -> str:
        msgid, args = part
        return render(Line(((msgid, args),)), gettext, viewer)

    return {
        "pieces": {sq: one(p) for sq, p in why.get("pieces", {}).items()},
        "targets": {
            origin: {sq: one(p) for sq, p in squares.items()}
            for origin, squares in why.get("targets", {}).items()
        },
    }
