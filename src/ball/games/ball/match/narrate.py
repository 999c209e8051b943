"""Plain-language narration of one applied action (issue 13): "North X3 dodges past your O2
and knocks it down (+1 PB)".

This module owns only the wording: which sentence fits an action, given the state just
before it, the action tuple and the events the engine reported. Nothing here decides a rule;
the facts come from `ball.games.ball.engine` (the action's kind and squares, the pieces on them, the
events). A `Line` holds message ids marked for the catalogue (`ball.i18n.N_`) and their
arguments, so one line is rendered in any language by `render` with that language's gettext.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ball.games.ball.engine.actions import (
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
)  # fmt: skip
from ball.games.ball.engine.board import NAMES
from ball.games.ball.engine.resolve import Event
from ball.games.ball.engine.state import SIDE_NAMES, State
from ball.i18n import N_

# A piece argument: [side letter, roster id], rendered "North X3" or "your O2"; squares are
# their names. Both are plain JSON, so a line can travel in an API response as it is.
Piece = list[str]
Part = tuple[str, dict[str, Any]]

_SIDE_WORDS = {"S": N_("South"), "N": N_("North")}


@dataclass(frozen=True)
class Line:
    """One action told as sentences: message ids with their arguments (pieces as `Piece`)."""

    parts: tuple[Part, ...]

    @property
    def ids(self) -> tuple[str, ...]:
        return tuple(msgid for msgid, _ in self.parts)


def _piece(s: State, square: int) -> Piece:
    return _of(s, s.occ[square])


def _of(s: State, i: int) -> Piece:
    return [SIDE_NAMES[s.side_of(i)], s.piece_id(i)]


def _side(s: State) -> str:
    return SIDE_NAMES[s.to_move]


def _move(s: State, a: Action) -> Part:
    actor, to = _piece(s, a[1]), a[2]
    if s.occ[to] >= 0:
        other = _piece(s, to)
        if other[0] != actor[0]:
            return N_("{actor} blocks {other} on {to}"), {"actor": actor, "other": other, "to": to}
        return N_("{actor} climbs on {other} to protect it"), {"actor": actor, "other": other}
    if s.carrier < 0 and s.ball_sq == to:  # a free ball on the square it moves to
        return N_("{actor} moves to {to} and picks up the ball"), {"actor": actor, "to": to}
    return N_("{actor} moves from {frm} to {to}"), {"actor": actor, "frm": a[1], "to": to}


def _dodge(s: State, a: Action) -> Part:
    args = {"actor": _piece(s, a[1]), "other": _piece(s, a[2]), "to": a[3]}
    return N_("{actor} dodges past {other} to {to} and knocks it down"), args


def _tdodge(s: State, a: Action) -> Part:
    victim = _piece(s, (a[1] + a[2]) // 2)  # the piece jumped over sits between the squares
    args = {"actor": _piece(s, a[1]), "other": victim, "to": a[2], "push": a[3]}
    return N_("{actor} jumps over {other} to {to} and pushes it down onto {push}"), args


def _handoff(s: State, a: Action) -> Part:
    args = {"actor": _piece(s, a[1]), "other": _piece(s, a[2])}
    return N_("{actor} hands the ball to {other}"), args


def _pass(s: State, a: Action) -> Part:
    to = a[-1]
    if s.occ[to] >= 0:
        args = {"actor": _piece(s, a[1]), "other": _piece(s, to), "to": to}
        return N_("{actor} passes the ball to {other} on {to}"), args
    return N_("{actor} throws the ball to {to}"), {"actor": _piece(s, a[1]), "to": to}


def _pe(s: State, a: Action) -> Part:
    return N_("{side} keeps an unused action as a PE point"), {"side": _side(s)}


def _end(s: State, a: Action) -> Part:
    return N_("{side} ends the action phase"), {"side": _side(s)}


def _up(s: State, a: Action) -> Part:
    return N_("{actor} gets up and steps to {to}"), {"actor": _piece(s, a[1]), "to": a[2]}


def _split(s: State, a: Action) -> Part:
    at = a[1]
    top = _piece(s, at)
    bottom = _of(s, s.under[at])
    args = {"at": at, "top": top, "top_to": a[2], "bottom": bottom, "bottom_to": a[3]}
    return N_("The stack on {at} splits: {top} to {top_to}, {bottom} to {bottom_to}"), args


def _continue(s: State, a: Action) -> Part:
    return N_("{side} keeps the stolen ball and plays on from here"), {"side": _side(s)}


def _reset(s: State, a: Action) -> Part:
    msgid = N_("{side} resets: back to the standard formation with the stolen ball")
    return msgid, {"side": _side(s)}


def _card(s: State, a: Action) -> Part:
    return N_("{side} plays the card {card}"), {"side": _side(s), "card": a[1]}


def _recover(s: State, a: Action) -> Part:
    if a[1] is None:
        return N_("{side} takes back no card"), {"side": _side(s)}
    return N_("{side} takes back the card {card}"), {"side": _side(s), "card": a[1]}


_MAIN: dict[int, Callable[[State, Action], Part]] = {
    MOVE: _move, DODGE: _dodge, TDODGE: _tdodge, HANDOFF: _handoff, SHORT: _pass, LONG: _pass,
    PE: _pe, END: _end, UP: _up, SPLIT: _split, CONTINUE: _continue, RESET: _reset,
    CARD: _card, RECOVER: _recover,
}  # fmt: skip


def _label(text: str) -> Piece:
    side, _, piece = text.partition(":")
    return [side, piece]


_STEALS = N_("{actor} steals the ball!")
_TOUCHDOWN = N_("Touchdown by {actor}!")
_NEW_SENTENCES = frozenset({_STEALS, _TOUCHDOWN})


def consequences(events: Sequence[Event]) -> list[Part]:
    """Sentences for what the action caused: a steal, PB, a touchdown."""
    parts: list[Part] = []
    pb = sum(int(e.detail.get("amount", 1)) for e in events if e.kind == "pb")
    if pb:
        parts.append((N_("(+{n} PB)"), {"n": pb}))
    for e in events:
        if e.kind == "steal":
            # the event names the piece that now holds the ball: the stealer's
            parts.append((_STEALS, {"actor": _label(e.detail["piece"])}))
        elif e.kind == "touchdown":
            parts.append((_TOUCHDOWN, {"actor": _label(e.detail["piece"])}))
    return parts


def describe(before: State, a: Action) -> Part:
    """What action `a` does, read from the state `before` it is applied (not changed)."""
    msgid, args = _MAIN[a[0]](before, a)
    # squares by their names, so the line is plain JSON
    return msgid, {k: NAMES[v] if isinstance(v, int) else v for k, v in args.items()}


def narrate(before: State, a: Action, events: Sequence[Event]) -> Line:
    """The line for action `a` applied to `before`, with the `events` it gave."""
    return Line((describe(before, a), *consequences(events)))


def render(line: Line, gettext: Callable[[str], str], viewer: str | None = None) -> str:
    """The line in one language; pieces of `viewer` (a side letter) are called "your …"."""

    def value(name: str, v: Any) -> str:
        if isinstance(v, list):
            side, piece = v
            if side == viewer:
                return gettext("your {piece}").format(piece=piece)
            return gettext("{side} {piece}").format(side=gettext(_SIDE_WORDS[side]), piece=piece)
        if name == "side":
            return gettext(_SIDE_WORDS[v])
        return str(v)

    text = ""
    for msgid, args in line.parts:
        part = gettext(msgid).format(**{k: value(k, v) for k, v in args.items()})
        # a steal or a touchdown is a sentence of its own: the action's ends with a full stop
        if text and msgid in _NEW_SENTENCES and text[-1] not in ".!?":
            text += "."
        text = f"{text} {part}" if text else part
    return text[:1].upper() + text[1:]  # "your O2 …" starts a sentence too
