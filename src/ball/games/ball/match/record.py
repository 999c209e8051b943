"""BALL game notation (`.bgn`): reading and writing game records.

A record is PGN-like: tag pairs, then for each half `half N` and the half's entries grouped by
turn (`12. G7-H8, end, up F8-E9`). Entries are spec-18.1 actions or match events (`sanction`,
`forfeit`, `final-drive`); `{…}` after an entry holds a comment and `[%time H:MM:SS]` /
`[%by opponent|referee]` annotations. The grammar is documented in docs/record-format.md.

This module knows the syntax only: an action entry must be text of the engine's one action
grammar (`ball.games.ball.engine.notation`); `ball.games.ball.match.replay` checks every action with
the engine.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ball.games.ball.engine.notation import is_action
from ball.sanctions import LADDER
from ball.tag_lexer import TagLexer, Token

COACHES = ("A", "B")
MAX_HALF = 2
ENTRY_KINDS = ("action", "sanction", "forfeit", "final-drive")
ACTORS = ("opponent", "referee")

# Tags written first, in this order; any other tag follows in the order it was given.
TAG_ORDER = (
    "Event",
    "Site",
    "Date",
    "Round",
    "Table",
    "CoachA",
    "CoachB",
    "Ruleset",
    "Result",
    "Reason",
    "Forfeit",
)
HALF_TAGS = ("ATK", "TD", "PB", "End", "Status")


class RecordError(ValueError):
    """A record that cannot be read or replayed; says where (line, column) and why."""

    def __init__(self, line: int, column: int, reason: str) -> None:
        super().__init__(f"line {line}, column {column}: {reason}")
        self.line = line
        self.column = column
        self.reason = reason


@dataclass(frozen=True)
class Entry:
    """One thing that happened in a half, in order: an action or a match event."""

    turn: int
    kind: str = "action"
    action: str | None = None  # the spec-18.1 text, for kind "action"
    coach: str | None = None  # "A" or "B", for "sanction" and "forfeit"
    step: str | None = None  # the sanction ladder step
    reason: str | None = None
    by: str | None = None  # who chose the action when not the coach to move (R-release)
    time: int | None = None  # seconds since the half began
    comment: str | None = None
    line: int = field(default=0, compare=False)
    column: int = field(default=0, compare=False)


@dataclass
class HalfRecord:
    number: int
    entries: list[Entry] = field(default_factory=list)
    comment: str | None = None
    line: int = field(default=1, compare=False)


@dataclass
class GameRecord:
    tags: dict[str, str] = field(default_factory=dict)
    halves: list[HalfRecord] = field(default_factory=list)
    tag_positions: dict[str, tuple[int, int]] = field(default_factory=dict, compare=False)


# ---------------------------------------------------------------------------- writing


def write(record: GameRecord) -> str:
    """The `.bgn` text of a record (canonical layout: one turn per line)."""
    lines = [f'[{name} "{_escape(value)}"]' for name, value in _ordered_tags(record.tags)]
    numbers = [h.number for h in record.halves]
    if numbers != sorted(set(numbers)) or not set(numbers) <= set(range(1, MAX_HALF + 1)):
        raise ValueError(f"halves must be numbered 1..{MAX_HALF} in order, got {numbers}")
    for half in record.halves:
        lines.append("")
        lines.append(f"half {half.number}" + _braces(half.comment, None, None))
        turn: int | None = None
        parts: list[str] = []
        for entry in half.entries:
            _check_entry(entry)
            if entry.turn != turn:
                if parts:
                    lines.append(", ".join(parts))
                turn, parts = entry.turn, []
                parts.append(f"{entry.turn}. {_entry_text(entry)}")
            else:
                parts.append(_entry_text(entry))
        if parts:
            lines.append(", ".join(parts))
    return "\n".join(lines) + "\n"


def _ordered_tags(tags: dict[str, str]) -> list[tuple[str, str]]:
    half_names = [f"Half{n}{t}" for n in (1, 2) for t in HALF_TAGS]
    first = [*TAG_ORDER, *half_names]
    ordered = [(n, tags[n]) for n in first if n in tags]
    ordered += [(n, v) for n, v in tags.items() if n not in first]
    for name, _ in ordered:
        if not re.fullmatch(r"[A-Za-z0-9_]+", name):
            raise ValueError(f"tag name {name!r}: letters, digits and _ only")
    return ordered


def _entry_text(entry: Entry) -> str:
    if entry.kind == "action":
        text = str(entry.action)
    elif entry.kind == "sanction":
        text = f'sanction {entry.coach} {entry.step} "{_escape(entry.reason or "")}"'
    elif entry.kind == "forfeit":
        text = f'forfeit {entry.coach} "{_escape(entry.reason or "")}"'
    else:
        text = "final-drive"
    return text + _braces(entry.comment, entry.time, entry.by)


def _braces(comment: str | None, time: int | None, by: str | None) -> str:
    inner = []
    if time is not None:
        inner.append(f"[%time {format_time(time)}]")
    if by is not None:
        inner.append(f"[%by {by}]")
    if comment and comment.split():
        inner.append(" ".join(comment.split()))
    return " {" + " ".join(inner) + "}" if inner else ""


def _check_entry(entry: Entry) -> None:
    if entry.kind not in ENTRY_KINDS:
        raise ValueError(f"unknown entry kind {entry.kind!r}")
    if entry.kind == "action" and not is_action(entry.action or ""):
        raise ValueError(f"not an action in spec 18.1 notation: {entry.action!r}")
    if entry.comment and ("}" in entry.comment or "[%" in entry.comment):
        raise ValueError("a comment may not contain '}' or '[%'")
    if entry.turn < 1:
        raise ValueError(f"turn numbers start at 1, got {entry.turn}")


def _escape(value: str) -> str:
    if "\n" in value or "\r" in value:
        raise ValueError(f"a tag value or reason is one line: {value!r}")
    return value.replace("\\", "\\\\").replace('"', '\\"')


def format_time(seconds: int) -> str:
    return f"{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"


def parse_time(text: str) -> int:
    match = re.fullmatch(r"(\d+):([0-5]\d):([0-5]\d)", text)
    if not match:
        raise ValueError(f"time {text!r} is not H:MM:SS")
    h, m, s = (int(g) for g in match.groups())
    return h * 3600 + m * 60 + s


# ---------------------------------------------------------------------------- reading


class _Lexer(TagLexer):
    """The `.bgn` scanner: tag pairs, comments, quoted strings (a record's notes), commas."""

    def __init__(self, text: str) -> None:
        super().__init__(text, RecordError)

    def token(self) -> Token:
        line, column = self.line, self.column
        ch = self.peek()
        if ch == "[":
            return self.tag(line, column)
        if ch == "{":
            return self.comment(line, column)
        if ch == '"':
            return Token("string", self.string(line, column), line, column)
        if ch == ",":
            self.advance()
            return Token("comma", ",", line, column)
        if ch in "}]":
            raise self.error(f"unexpected '{ch}'", line, column)
        return self.word(line, column, ',{}"[]')


def parse(text: str) -> GameRecord:
    """Read a `.bgn` text; raise RecordError with line and column on any syntax fault."""
    tokens = _Lexer(text).tokens()
    record = GameRecord()
    i = 0
    while i < len(tokens) and tokens[i].kind == "tag":
        tok = tokens[i]
        if tok.name in record.tags:
            raise _at(tok, f"tag {tok.name} appears twice")
        record.tags[tok.name] = tok.text
        record.tag_positions[tok.name] = (tok.line, tok.column)
        i += 1
    parser = _MovetextParser(tokens[i:], text)
    record.halves = parser.halves()
    return record


class _MovetextParser:
    def __init__(self, tokens: list[Token], text: str) -> None:
        self.tokens = tokens
        self.i = 0
        lines = text.splitlines() or [""]
        self.end = (len(lines), len(lines[-1]) + 1)

    def _peek(self) -> Token | None:
        return self.tokens[self.i] if self.i < len(self.tokens) else None

    def _next(self, expected: str) -> Token:
        tok = self._peek()
        if tok is None:
            raise RecordError(*self.end, f"record ends where {expected} was expected")
        self.i += 1
        return tok

    def halves(self) -> list[HalfRecord]:
        halves: list[HalfRecord] = []
        while self._peek() is not None:
            halves.append(self._half(halves[-1].number if halves else 0))
        return halves

    def _half(self, previous: int) -> HalfRecord:
        # Halves come in order; a record of one half of a game (the simulator's) may hold
        # half 2 alone.
        expected = " or ".join(f"'half {n}'" for n in range(previous + 1, MAX_HALF + 1))
        tok = self._next(expected or "the end")
        if tok.kind == "tag":
            raise _at(tok, "tag pairs must come before the first half")
        if tok.kind != "word" or tok.text != "half":
            raise _at(tok, f"expected {expected or 'the end'}, found {tok.text!r}")
        num = self._next("the half number")
        plain = num.text.isascii() and num.text.isdigit()  # isdigit() alone takes "²"
        if not plain or not previous < int(num.text) <= MAX_HALF:
            raise _at(num, f"expected {expected or 'the end'}, found 'half {num.text}'")
        half = HalfRecord(number=int(num.text), line=tok.line)
        if (note := self._peek()) is not None and note.kind == "comment":
            self.i += 1
            half.comment, time, by = _annotations(note)
            if time is not None or by is not None:
                raise _at(note, "a half takes no [%time] or [%by]")
        last_turn = 0
        while (ahead := self._peek()) is not None and not _is_half(ahead):
            turn = self._turn_number(last_turn)
            half.entries.extend(self._turn_entries(turn))
            last_turn = turn
        return half

    def _turn_number(self, last: int) -> int:
        tok = self._next("a turn number")
        if tok.kind != "word" or not re.fullmatch(r"\d+\.", tok.text):
            raise _at(tok, f"expected a turn number 'N.', found {tok.text!r}")
        turn = int(tok.text[:-1])
        if turn <= last:
            raise _at(tok, f"turn {turn} follows turn {last}")
        return turn

    def _turn_entries(self, turn: int) -> list[Entry]:
        entries = [self._entry(turn)]
        while (tok := self._peek()) is not None and tok.kind == "comma":
            self.i += 1
            entries.append(self._entry(turn))
        tok = self._peek()
        if tok is not None and not (_is_half(tok) or _is_turn_number(tok)):
            raise _at(tok, f"expected ',' or a new turn, found {tok.text!r}")
        return entries

    def _entry(self, turn: int) -> Entry:
        parts: list[Token] = []
        while (tok := self._peek()) is not None and tok.kind in ("word", "string"):
            if _is_turn_number(tok) or _is_half(tok):
                break
            parts.append(tok)
            self.i += 1
        if not parts:
            tok = self._peek()
            where = (tok.line, tok.column) if tok else self.end
            raise RecordError(*where, "empty entry: an action or match event was expected")
        time = by = None
        comments: list[str] = []
        while (tok := self._peek()) is not None and tok.kind == "comment":
            self.i += 1
            text, t, b = _annotations(tok)
            time = t if t is not None else time
            by = b if b is not None else by
            if text:
                comments.append(text)
        comment = " ".join(comments) or None
        return _make_entry(turn, parts, comment, time, by)


def _make_entry(
    turn: int, parts: list[Token], comment: str | None, time: int | None, by: str | None
) -> Entry:
    first = parts[0]

    def entry(kind: str, **fields: str | None) -> Entry:
        # What every entry of this turn shares: its turn, annotations and place in the text.
        return Entry(
            turn, kind, comment=comment, time=time, by=by, line=first.line,
            column=first.column, **fields,
        )  # fmt: skip

    head = first.text
    if head == "sanction":
        form = 'sanction COACH STEP "reason"'
        coach, step, reason = _event_args(parts, ("word", "word", "string"), form)
        if step not in LADDER.names:
            raise _at(parts[2], f"unknown sanction step {step!r}; steps: {', '.join(LADDER.names)}")
        return entry("sanction", coach=coach, step=step, reason=reason)
    if head == "forfeit":
        coach, reason = _event_args(parts, ("word", "string"), 'forfeit COACH "reason"')
        return entry("forfeit", coach=coach, reason=reason)
    if head == "final-drive":
        if len(parts) != 1:
            raise _at(parts[1], "final-drive takes no arguments")
        return entry("final-drive")
    for tok in parts:
        if tok.kind != "word":
            raise _at(tok, "an action has no quoted strings")
    text = " ".join(tok.text for tok in parts)
    if not is_action(text):  # the engine's grammar; legality is checked on replay
        raise _at(first, f"not an action in spec 18.1 notation: {text!r}")
    return entry("action", action=text)


def _event_args(parts: list[Token], kinds: tuple[str, ...], form: str) -> list[str]:
    args = parts[1:]
    if len(args) != len(kinds) or any(t.kind != k for t, k in zip(args, kinds, strict=True)):
        raise _at(parts[0], f"expected {form}")
    if args[0].text not in COACHES:
        raise _at(args[0], f"coach must be A or B, found {args[0].text!r}")
    return [t.text for t in args]


def _annotations(tok: Token) -> tuple[str | None, int | None, str | None]:
    time = by = None
    for match in re.finditer(r"\[%(\w+)\s+([^\]]*)\]", tok.text):
        name, value = match.group(1), match.group(2).strip()
        if name == "time":
            try:
                time = parse_time(value)
            except ValueError as exc:
                raise _at(tok, str(exc)) from None
        elif name == "by":
            if value not in ACTORS:
                raise _at(tok, f"[%by] must be one of {', '.join(ACTORS)}")
            by = value
        else:
            raise _at(tok, f"unknown annotation [%{name}]")
    text = re.sub(r"\[%(\w+)\s+([^\]]*)\]", "", tok.text).strip()
    if "[%" in text:
        raise _at(tok, "malformed annotation: use [%name value]")
    return (" ".join(text.split()) or None), time, by


def _at(tok: Token, reason: str) -> RecordError:
    return RecordError(tok.line, tok.column, reason)


def _is_half(tok: Token) -> bool:
    return tok.kind == "word" and tok.text == "half"


def _is_turn_number(tok: Token) -> bool:
    return tok.kind == "word" and re.fullmatch(r"\d+\.", tok.text) is not None
