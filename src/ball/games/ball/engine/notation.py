"""The action notation of spec §18.1, defined once, as data.

Each form of action text is one row of `_TABLE`: its name, a template and the spec's example.
A template is literal text, typed fields in braces (`{sq}`, `{keep}`, `{card}`,
`{recovered}`) and optional parts in square brackets, e.g. `split {sq} {sq} {sq}[:{keep}]`.
Everything else is derived from the templates:

- the regular expression of each form, written so that Python and JavaScript read it alike
  (the record reader checks record entries with it; the browser gets it through
  `grammar()`, as the generated module `ball/web/static/js/notation_grammar.js`);
- `read`: text → (form, field texts), and `Form.write`: field texts → canonical text.

This module works on text only. `ball.games.ball.engine.actions` maps field texts to and from action
tuples (square indices, card names, the split's keep flag).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any


class NotationError(ValueError):
    """Text that is not an action of spec §18.1."""


# A square name (columns A–M, rows 1–17; playability is the board's business, D-01).
SQUARE = "[A-Ma-m](?:1[0-7]|[1-9])"

# Field types: the regex of the field's text, and how the form is shown in error messages.
# Only ASCII classes, groups and alternatives, so the same source works in JavaScript.
FIELDS: dict[str, tuple[str, str]] = {
    "sq": (SQUARE, "SQ"),
    "keep": ("top|bottom", "top|bottom"),
    "card": ("[A-Za-z0-9-]+", "NAME"),
    "recovered": ("-|[A-Za-z0-9-]+", "NAME|-"),
}

# Spec §18.1's table, in its order (which is also the order of the engine's action kinds).
# Literal text is matched case-insensitively; the canonical text writes it as given here.
_TABLE: tuple[tuple[str, str, str], ...] = (
    ("move", "{sq}-{sq}", "G7-H8"),  # also block, protect and taking a free ball
    ("dodge", "{sq}-{sq}/{sq}", "F10-F8/E7"),
    ("tdodge", "{sq}x{sq}>{sq}", "G7xI9>G9"),
    ("handoff", "{sq}={sq}", "G7=F6"),
    ("short", "{sq}~{sq}@{sq}", "G7~H10@I11"),
    ("long", "{sq}@{sq}", "G7@K13"),
    ("pe", "pe", "pe"),
    ("end", "end", "end"),
    ("up", "up {sq}-{sq}", "up F8-E9"),
    ("split", "split {sq} {sq} {sq}[:{keep}]", "split D8 C9 E9:top"),
    ("continue", "continue", "continue"),
    ("reset", "reset", "reset"),
    ("card", "card {card}[ {sq}[-{sq}]]", "card second-wind G7"),
    ("recover", "recover {recovered}", "recover sprint"),
)

# Python: ASCII-only case folding, as JavaScript's "i" flag without "u" does.
_FLAGS = re.IGNORECASE | re.ASCII
_JS_FLAGS = "i"
_TOKEN = re.compile(r"\{(\w+)\}|\[|\]|[^{}\[\]]+")
_REGEX_SPECIAL = set("\\.^$*+?()[]{}|")

# A parsed template: literal text, a field (its type) or an optional part (its nodes).
_Node = tuple[str, "str | list[_Node]"]


def _parse_template(template: str) -> list[_Node]:
    stack: list[list[_Node]] = [[]]
    for m in _TOKEN.finditer(template):
        if m.group(1):
            if m.group(1) not in FIELDS:
                raise ValueError(f"template {template!r}: unknown field type {m.group(1)!r}")
            stack[-1].append(("field", m.group(1)))
        elif m.group() == "[":
            stack.append([])
        elif m.group() == "]":
            inner = stack.pop()
            stack[-1].append(("opt", inner))
        else:
            stack[-1].append(("lit", m.group()))
    if len(stack) != 1:
        raise ValueError(f"template {template!r}: unbalanced brackets")
    return stack[0]


def _regex(nodes: list[_Node]) -> str:
    out = []
    for what, value in nodes:
        if what == "lit":
            out.append("".join("\\" + c if c in _REGEX_SPECIAL else c for c in str(value)))
        elif what == "field":
            out.append(f"({FIELDS[str(value)][0]})")
        else:
            out.append(f"(?:{_regex(value)})?")  # type: ignore[arg-type]
    return "".join(out)


def _shown(nodes: list[_Node]) -> str:
    out = []
    for what, value in nodes:
        if what == "lit":
            out.append(str(value))
        elif what == "field":
            out.append(FIELDS[str(value)][1])
        else:
            out.append(f"[{_shown(value)}]")  # type: ignore[arg-type]
    return "".join(out)


def _field_types(nodes: list[_Node]) -> list[str]:
    types: list[str] = []
    for what, value in nodes:
        if what == "field":
            types.append(str(value))
        elif what == "opt":
            types += _field_types(value)  # type: ignore[arg-type]
    return types


def _render(nodes: list[_Node], values: Sequence[str | None], i: int) -> tuple[str | None, int]:
    """The text of `nodes` from values[i:], and the next index; None when a field is absent
    (an optional part is written only when all its fields are given)."""
    out: list[str] = []
    missing = False
    for what, value in nodes:
        if what == "lit":
            out.append(str(value))
        elif what == "field":
            if values[i] is None:
                missing = True
            else:
                out.append(str(values[i]))
            i += 1
        else:
            part, i = _render(value, values, i)  # type: ignore[arg-type]
            if part is not None:
                out.append(part)
    return (None if missing else "".join(out)), i


@dataclass(frozen=True)
class Form:
    """One form of action text (a row of spec §18.1's table)."""

    name: str
    template: str
    example: str
    fields: tuple[str, ...] = field(init=False)  # the field types, in order
    pattern: str = field(init=False)  # regex source; matched whole, case-insensitively
    shown: str = field(init=False)  # the form for people, e.g. `split SQ SQ SQ[:top|bottom]`
    fmt: str | None = field(init=False, repr=False, compare=False)  # str.format, if no [...]
    _nodes: list[_Node] = field(init=False, repr=False, compare=False)
    _regex: re.Pattern[str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        nodes = _parse_template(self.template)
        put = object.__setattr__
        put(self, "_nodes", nodes)
        put(self, "fields", tuple(_field_types(nodes)))
        put(self, "pattern", _regex(nodes))
        put(self, "shown", _shown(nodes))
        put(self, "_regex", re.compile(self.pattern, _FLAGS))
        # Forms without optional parts are written with one str.format (the hot path of
        # `legal_actions`); the others walk the template.
        simple = all(what != "opt" for what, _ in nodes)
        fmt = "".join(
            "{}" if what == "field" else str(value).replace("{", "{{").replace("}", "}}")
            for what, value in nodes
        )
        put(self, "fmt", fmt if simple else None)

    def match(self, text: str) -> tuple[str | None, ...] | None:
        """The field texts when `text` is this form exactly (None for an absent optional)."""
        m = self._regex.fullmatch(text)
        return m.groups() if m else None

    def write(self, values: Sequence[str | None]) -> str:
        """The canonical text from field texts (None leaves out an optional part)."""
        if len(values) != len(self.fields):
            raise ValueError(f"{self.name}: {len(self.fields)} fields, got {len(values)}")
        if self.fmt is not None:
            if None in values:
                raise ValueError(f"{self.name}: every field is required, got {values!r}")
            return self.fmt.format(*values)
        text, _ = _render(self._nodes, values, 0)
        if text is None:
            raise ValueError(f"{self.name}: a required field is missing in {values!r}")
        return text


FORMS: tuple[Form, ...] = tuple(Form(name, template, example) for name, template, example in _TABLE)
FORM: dict[str, Form] = {form.name: form for form in FORMS}
_SQUARE_RE = re.compile(SQUARE)


def normalise(text: str) -> str:
    """Runs of white space made single and the ends trimmed: how parsing sees a text."""
    return " ".join(text.split())


def read(text: str) -> tuple[Form, tuple[str | None, ...]] | None:
    """The form and field texts of `text` exactly as written (single spaces between words,
    any case), or None when it is no action at all. Syntax only: squares are not checked
    for playability."""
    for form in FORMS:
        values = form.match(text)
        if values is not None:
            return form, values
    return None


def is_action(text: str) -> bool:
    """Whether `text`, exactly as written, is an action in spec §18.1 notation."""
    return read(text) is not None


def is_square(text: str) -> bool:
    """Whether `text` is a square name (any case), e.g. G7."""
    return _SQUARE_RE.fullmatch(text) is not None


def origin(text: str) -> str | None:
    """The square an action starts from (the acting piece, the stack, a card's first square),
    upper case; None when the action has no square or the text is no action."""
    found = read(normalise(text))
    if found is None:
        return None
    form, values = found
    for kind, value in zip(form.fields, values, strict=True):
        if kind == "sq" and value is not None:
            return value.upper()
    return None


def not_an_action(text: str) -> NotationError:
    """The error for a text that no form matches: the form its first word asks for, if any,
    else examples of every form."""
    words = normalise(text).split(" ")
    for form in FORMS:
        keyword = form.template.split(" ")[0]
        if form.fields and keyword.isalpha() and words[0].lower() == keyword:
            return NotationError(
                f"'{text}' is not an action: {keyword} is written {form.shown}, e.g. {form.example}"
            )
    examples = ", ".join(form.example for form in FORMS)
    return NotationError(f"'{text}' is not an action (expected e.g. {examples})")


def grammar() -> dict[str, Any]:
    """The grammar as JSON-able data for the browser (anchored patterns, JavaScript flags)."""
    return {
        "square": SQUARE,
        "flags": _JS_FLAGS,
        "forms": [
            {
                "name": form.name,
                "template": form.template,
                "example": form.example,
                "fields": list(form.fields),
                "pattern": f"^(?:{form.pattern})$",
            }
            for form in FORMS
        ],
    }
