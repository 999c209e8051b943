"""Why an action is not legal: turns a refused action into a sentence a player understands.

Legality itself is decided only by `generate.legal`; this module runs after a refusal and
looks for the most specific reason, falling back to a plain "not legal here".
"""

from __future__ import annotations

from .actions import (
    CARD,
    CONTINUE,
    DODGE,
    END,
    HANDOFF,
    LONG,
    MOVE,
    PE,
    RECOVER,
    RESET,
    SHORT,
    SPLIT,
    TDODGE,
    UP,
    Action,
    to_text,
)  # fmt: skip
from .board import NAMES, distance
from .state import (
    ACTION,
    ACTIVE,
    DOWN,
    OVER,
    PHASE_NAMES,
    RELEASE,
    SIDE_NAMES,
    STATE_NAMES,
    STEAL,
    TOP,
    State,
)  # fmt: skip
from .state import (
    RECOVER as RECOVER_PHASE,
)

_PHASE_OF = {
    MOVE: ACTION, DODGE: ACTION, TDODGE: ACTION, HANDOFF: ACTION, SHORT: ACTION, LONG: ACTION,
    PE: ACTION, END: ACTION, CARD: ACTION, UP: RELEASE, SPLIT: RELEASE, CONTINUE: STEAL,
    RESET: STEAL, RECOVER: RECOVER_PHASE,
}  # fmt: skip
_BALL_KINDS = {HANDOFF: "hand off", SHORT: "pass", LONG: "pass"}


def why_illegal(s: State, a: Action) -> str:
    text = to_text(a)
    if s.phase == OVER:
        return f"{text}: the half is over (a touchdown ended it)"
    wanted = _PHASE_OF[a[0]]
    if wanted != s.phase:
        return f"{text}: wrong phase — this is the {PHASE_NAMES[s.phase]} phase" + _phase_hint(s)
    reason = _specific(s, a)
    return f"{text}: {reason}" if reason else f"{text}: not a legal action in this position"


def _phase_hint(s: State) -> str:
    if s.phase == STEAL:
        return f" ({SIDE_NAMES[s.steal_by]} must answer the steal: continue or reset)"
    if s.phase == RELEASE:
        return " (only release tasks: up FROM-TO, split AT TOP_TO BOTTOM_TO)"
    if s.phase == RECOVER_PHASE:
        return " (take back a used card with recover NAME, or decline with recover -)"
    return ""


def _specific(s: State, a: Action) -> str | None:
    kind = a[0]
    side = s.to_move
    if kind == PE:
        if not s.rs.uses_pe:
            return f"PE mode is off in ruleset {s.rs.name!r}"
        return "no PA left" if s.pa < 1 else None
    if kind == CARD:
        return _card_reason(s, a)
    if kind == RECOVER:
        return f"{a[1]} is not in {SIDE_NAMES[side]}'s discard pile"
    if kind in (UP, SPLIT):
        return _release_reason(s, a)
    if kind not in (MOVE, DODGE, TDODGE, HANDOFF, SHORT, LONG):
        return None
    origin = a[1]
    i = s.occ[origin]
    if i < 0:
        return f"no piece on {NAMES[origin]}"
    if s.side_of(i) != side:
        return f"{NAMES[origin]} holds {s.piece_label(i)}, but {SIDE_NAMES[side]} is to move"
    if s.st[i] != ACTIVE:
        return f"{s.piece_label(i)} is {_state_words(s, i)} and cannot act"
    if s.restricted >> i & 1:
        return f"{s.piece_label(i)} took the ball this turn and may not start another action (§9)"
    if kind in _BALL_KINDS and i != s.carrier:
        return f"only the ball carrier may {_BALL_KINDS[kind]}"
    if s.pa < 1 and not (kind in _BALL_KINDS and s.audible):
        return "no PA left"
    return _geometry_reason(s, a, i)


def _state_words(s: State, i: int) -> str:
    return {DOWN: "knocked down", TOP: "on top of a stack"}.get(s.st[i], STATE_NAMES[s.st[i]])


def _geometry_reason(s: State, a: Action, i: int) -> str | None:
    kind = a[0]
    if kind == SHORT:
        r = s.occ[a[2]]
        if r < 0 or s.side_of(r) != s.side_of(i) or s.st[r] != ACTIVE:
            return f"no active allied receiver on {NAMES[a[2]]}"
        if distance(a[1], a[2]) > s.short_range:
            far = distance(a[1], a[2])
            return f"receiver is {far} squares away (short pass reach {s.short_range})"
        if distance(a[2], a[3]) != 1:
            return f"the ball must go on a square next to the receiver, not {NAMES[a[3]]}"
        return f"{NAMES[a[3]]} is not empty"
    if kind == LONG:
        return (
            f"{NAMES[a[2]]} must be empty and at distance >= {s.rs.long_min_distance} "
            "from every allied piece"
        )
    if kind == HANDOFF:
        return f"{NAMES[a[2]]} is not an active ally connected to the carrier"
    if kind == DODGE:
        return f"{NAMES[a[1]]}-{NAMES[a[2]]} is not a dodge with exit {NAMES[a[3]]}"
    if kind == TDODGE:
        return (
            "not a tactical dodge: needs a straight 2-square diagonal over one active "
            "opponent, an empty landing and a free push square"
        )
    to = a[2]
    o = s.occ[to]
    d = distance(a[1], to)
    if o >= 0 and d == 2 and s.side_of(o) != s.side_of(i) and s.st[o] == ACTIVE:
        return "a 2-square move onto an opponent is a dodge: add the exit, FROM-TO/EXIT"
    if o >= 0 and s.under[to] >= 0:
        return f"{NAMES[to]} is a stack; nothing enters a stack square"
    return (
        f"{s.piece_label(i)} (kind {s.piece_id(i)[0]}) cannot move {NAMES[a[1]]}-{NAMES[to]} here"
    )


def _release_reason(s: State, a: Action) -> str | None:
    at = a[1]
    i = s.occ[at]
    if i < 0:
        return f"no piece on {NAMES[at]}"
    if s.side_of(i) != s.to_move:
        mover = SIDE_NAMES[s.to_move]
        return f"{NAMES[at]} holds {s.piece_label(i)}; only {mover}'s release tasks now"
    if a[0] == UP:
        if s.st[i] != DOWN:
            return f"{s.piece_label(i)} is not knocked down"
        return f"{NAMES[a[2]]} is not an empty square next to {NAMES[at]} without the ball"
    if s.st[i] != TOP:
        return f"no stack with {SIDE_NAMES[s.to_move]}'s piece on top on {NAMES[at]}"
    if s.since[i] >= s.turn:
        return "a stack made this turn cannot be split"
    if (a[4] != 0) != (i == s.carrier):
        return (
            "say which piece keeps the ball (:top or :bottom)"
            if i == s.carrier
            else "the stack does not hold the ball; drop :top/:bottom"
        )
    return "both pieces need two different empty adjacent squares without the ball"


def _card_reason(s: State, a: Action) -> str | None:
    if not s.rs.card_mode:
        return f"card mode is off in ruleset {s.rs.name!r}"
    card = s.rs.deck.card(a[1])
    if card is None:
        return f"no card named {a[1]!r} in the deck"
    if a[1] not in s.hands[s.to_move]:
        return f"{a[1]} is not in {SIDE_NAMES[s.to_move]}'s hand"
    if s.pe[s.to_move] < card.pe:
        return f"{a[1]} costs {card.pe} PE; {SIDE_NAMES[s.to_move]} has {s.pe[s.to_move]}"
    return None
