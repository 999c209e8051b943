"""Actions as small tuples, and their canonical text (spec §18.1).

The first element is the action kind; the rest are square indices or names. The engine
generates and applies tuples; text is made only at the API edge, so that perft and
self-play never build strings. The text itself is defined once, in
`ball.games.ball.engine.notation`; this module only maps each form's fields to and from tuple
values.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from . import notation
from .board import NAMES, SquareError, parse_square
from .notation import NotationError

MOVE, DODGE, TDODGE, HANDOFF, SHORT, LONG, PE, END = range(8)
UP, SPLIT, CONTINUE, RESET, CARD, RECOVER = range(8, 14)

KEEP_NONE, KEEP_TOP, KEEP_BOTTOM = 0, 1, 2

# An action is a small tuple: its kind, then squares or names (see the module docstring).
Action = tuple[Any, ...]


# Each kind's form in the notation (ball.games.ball.engine.notation holds the grammar itself).
FORM_OF_KIND: dict[int, str] = {
    MOVE: "move",
    DODGE: "dodge",
    TDODGE: "tdodge",
    HANDOFF: "handoff",
    SHORT: "short",
    LONG: "long",
    PE: "pe",
    END: "end",
    UP: "up",
    SPLIT: "split",
    CONTINUE: "continue",
    RESET: "reset",
    CARD: "card",
    RECOVER: "recover",
}
KIND_OF_FORM: dict[str, int] = {name: kind for kind, name in FORM_OF_KIND.items()}
if set(KIND_OF_FORM) != set(notation.FORM):  # the grammar and the kinds cannot drift apart
    raise ImportError("the engine's notation and actions disagree on the forms")

_KEEP_WORDS = (None, "top", "bottom")  # indexed by KEEP_NONE, KEEP_TOP, KEEP_BOTTOM


def _square_in(text: str | None) -> int | None:
    return None if text is None else parse_square(text)


def _keep_in(text: str | None) -> int:
    return KEEP_NONE if text is None else _KEEP_WORDS.index(text.lower())


# Field type -> (field text -> tuple value, tuple value -> canonical field text).
_CODECS: dict[str, tuple[Callable[[Any], Any], Callable[[Any], Any]]] = {
    "sq": (_square_in, lambda sq: None if sq is None else NAMES[sq]),
    "keep": (_keep_in, _KEEP_WORDS.__getitem__),
    "card": (str.lower, str),
    "recovered": (lambda t: None if t == "-" else t.lower(), lambda name: name or "-"),
}


def _values(a: Action) -> tuple[Any, ...]:
    """The tuple's values in the order of its form's fields (a card's squares flattened)."""
    if a[0] == CARD:
        args = tuple(a[2])
        return (a[1], *args, *(None,) * (2 - len(args)))
    return a[1:]


def _action(kind: int, values: list[Any]) -> Action:
    if kind == CARD:
        return (CARD, values[0], tuple(v for v in values[1:] if v is not None))
    return (kind, *values)


def _writer(kind: int) -> Callable[[Action], str]:
    """The text function of one kind, specialised once: `legal_actions` writes every legal
    action, so the common forms (squares only, or no field) take the short way."""
    form = notation.FORM[FORM_OF_KIND[kind]]
    if not form.fields:
        text = form.write(())
        return lambda a: text
    if form.fmt is not None and set(form.fields) == {"sq"} and len(form.fields) in (2, 3):
        # the literal text around the squares, e.g. ("", "-", "/", "") for a dodge
        # (templates hold no braces in their literal text, so "{}" splits it exactly)
        n = NAMES
        if len(form.fields) == 2:
            p0, p1, p2 = form.fmt.split("{}")
            return lambda a: f"{p0}{n[a[1]]}{p1}{n[a[2]]}{p2}"
        q0, q1, q2, q3 = form.fmt.split("{}")
        return lambda a: f"{q0}{n[a[1]]}{q1}{n[a[2]]}{q2}{n[a[3]]}{q3}"
    encoders = [_CODECS[t][1] for t in form.fields]
    return lambda a: form.write([enc(v) for enc, v in zip(encoders, _values(a), strict=True)])


_WRITERS = {kind: _writer(kind) for kind in FORM_OF_KIND}


def to_text(a: Action) -> str:
    """The canonical text of an action tuple."""
    writer = _WRITERS.get(a[0])
    if writer is None:
        raise ValueError(f"unknown action kind {a[0]}")
    return writer(a)


def parse(text: object) -> Action:
    """Canonical or any-case text → action tuple; raises NotationError saying what is wrong.

    `text` is typed `object`, here and at the other API-edge entry points: the compiled
    build checks declared argument types on entry, and a caller's wrong type must meet this
    check (NotationError), not the compiled build's TypeError."""
    if not isinstance(text, str):
        raise NotationError(f"an action must be text, got {type(text).__name__}")
    t = notation.normalise(text)
    if not t:
        raise NotationError("empty action")
    found = notation.read(t)
    if found is None:
        raise notation.not_an_action(text)
    form, texts = found
    try:
        values = [_CODECS[ftype][0](v) for ftype, v in zip(form.fields, texts, strict=True)]
    except SquareError as exc:
        raise NotationError(f"'{text}': {exc}") from None
    return _action(KIND_OF_FORM[form.name], values)
