"""Actions as small tuples, and their canonical text (spec §18.1).

The first element is the action kind; the rest are square indices or names. The engine
generates and applies tuples; text is made only at the API edge, so that perft and
self-play never build strings.
"""

from __future__ import annotations

import re

from .board import NAMES, SquareError, parse_square

MOVE, DODGE, TDODGE, HANDOFF, SHORT, LONG, PE, END = range(8)
UP, SPLIT, CONTINUE, RESET, CARD, RECOVER = range(8, 14)

KEEP_NONE, KEEP_TOP, KEEP_BOTTOM = 0, 1, 2

Action = tuple


class NotationError(ValueError):
    """Text that is not an action of spec §18.1."""


def to_text(a: Action) -> str:
    kind = a[0]
    if kind == MOVE:
        return f"{NAMES[a[1]]}-{NAMES[a[2]]}"
    if kind == DODGE:
        return f"{NAMES[a[1]]}-{NAMES[a[2]]}/{NAMES[a[3]]}"
    if kind == TDODGE:
        return f"{NAMES[a[1]]}x{NAMES[a[2]]}>{NAMES[a[3]]}"
    if kind == HANDOFF:
        return f"{NAMES[a[1]]}={NAMES[a[2]]}"
    if kind == SHORT:
        return f"{NAMES[a[1]]}~{NAMES[a[2]]}@{NAMES[a[3]]}"
    if kind == LONG:
        return f"{NAMES[a[1]]}@{NAMES[a[2]]}"
    if kind == PE:
        return "pe"
    if kind == END:
        return "end"
    if kind == UP:
        return f"up {NAMES[a[1]]}-{NAMES[a[2]]}"
    if kind == SPLIT:
        keep = ("", ":top", ":bottom")[a[4]]
        return f"split {NAMES[a[1]]} {NAMES[a[2]]} {NAMES[a[3]]}{keep}"
    if kind == CONTINUE:
        return "continue"
    if kind == RESET:
        return "reset"
    if kind == CARD:
        return " ".join(("card", a[1], *card_args_text(a[2])))
    if kind == RECOVER:
        return f"recover {a[1] or '-'}"
    raise ValueError(f"unknown action kind {kind}")


def card_args_text(args: tuple) -> list[str]:
    if not args:
        return []
    if len(args) == 1:
        return [NAMES[args[0]]]
    return [f"{NAMES[args[0]]}-{NAMES[args[1]]}"]


_SQ = r"([A-Ma-m](?:1[0-7]|[1-9]))"
_PATTERNS: list[tuple[re.Pattern[str], int]] = [
    (re.compile(rf"^{_SQ}-{_SQ}/{_SQ}$"), DODGE),
    (re.compile(rf"^{_SQ}-{_SQ}$"), MOVE),
    (re.compile(rf"^{_SQ}[xX]{_SQ}>{_SQ}$"), TDODGE),
    (re.compile(rf"^{_SQ}={_SQ}$"), HANDOFF),
    (re.compile(rf"^{_SQ}~{_SQ}@{_SQ}$"), SHORT),
    (re.compile(rf"^{_SQ}@{_SQ}$"), LONG),
    (re.compile(rf"^up\s+{_SQ}-{_SQ}$", re.I), UP),
]
_SPLIT = re.compile(rf"^split\s+{_SQ}\s+{_SQ}\s+{_SQ}(?::(top|bottom))?$", re.I)
_CARD = re.compile(r"^card\s+([A-Za-z0-9-]+)((?:\s+\S+)*)$", re.I)
_RECOVER = re.compile(r"^recover\s+(-|[A-Za-z0-9-]+)$", re.I)
_WORDS = {"pe": (PE,), "end": (END,), "continue": (CONTINUE,), "reset": (RESET,)}


def _squares(groups: tuple[str, ...], text: str) -> tuple[int, ...]:
    try:
        return tuple(parse_square(g) for g in groups)
    except SquareError as exc:
        raise NotationError(f"'{text}': {exc}") from None


def parse(text: str) -> Action:
    """Canonical or any-case text → action tuple; raises NotationError saying what is wrong."""
    if not isinstance(text, str):
        raise NotationError(f"an action must be text, got {type(text).__name__}")
    t = " ".join(text.split())
    if not t:
        raise NotationError("empty action")
    word = _WORDS.get(t.lower())
    if word:
        return word
    for pattern, kind in _PATTERNS:
        m = pattern.match(t)
        if m:
            return (kind, *_squares(m.groups(), text))
    m = _SPLIT.match(t)
    if m:
        at, top_to, bottom_to = _squares(m.groups()[:3], text)
        keep = {None: KEEP_NONE, "top": KEEP_TOP, "bottom": KEEP_BOTTOM}[
            m.group(4).lower() if m.group(4) else None
        ]
        return (SPLIT, at, top_to, bottom_to, keep)
    m = _CARD.match(t)
    if m:
        return (CARD, m.group(1).lower(), _card_args(m.group(2).split(), text))
    m = _RECOVER.match(t)
    if m:
        name = m.group(1).lower()
        return (RECOVER, None if name == "-" else name)
    raise NotationError(
        f"'{text}' is not an action (expected e.g. G7-H8, F10-F8/E7, G7xI9>G9, G7=F6, "
        "G7~H10@I11, G7@K13, pe, end, up F8-E9, split D8 C9 E9:top, continue, reset, "
        "card NAME, recover NAME)"
    )


def _card_args(words: list[str], text: str) -> tuple[int, ...]:
    if not words:
        return ()
    if len(words) == 1 and "-" in words[0]:
        return _squares(tuple(words[0].split("-", 1)), text)
    if len(words) == 1:
        return _squares((words[0],), text)
    raise NotationError(f"'{text}': a card takes at most one square or one FROM-TO")
