"""The interactive rulebook: one Markdown source per rule family and language.

Sources live in `rulebook/<lang>/NN-slug.md` (the same slugs in every language; the first
line is `# Title`). Two block forms extend Markdown:

    ::: diagram NAME          a live diagram from rulebook/diagrams.toml; the body is the
    caption                   caption in this language
    :::

    ::: decision D-07         a note on a decision of the rules contract (spec D-nn)
    text
    :::

Diagram positions are language-independent data (`diagrams.toml`): a few pieces, the ball
and who moves, expanded to a full spec-18.2 position document, plus the suggested action.
"""

from __future__ import annotations

import html
import json
import re
import tomllib
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from markdown_it import MarkdownIt

from ball.web.core.language import DEFAULT_LANGUAGE, LANGUAGES

SOURCES = Path(__file__).parents[1] / "rulebook"
_BLOCK = re.compile(
    r"^:::[ \t]*(diagram|decision)[ \t]+([A-Za-z0-9_-]+)[ \t]*\n(.*?)^:::[ \t]*$",
    re.MULTILINE | re.DOTALL,
)
_md = MarkdownIt("commonmark", {"html": False, "typographer": False}).enable("table")


@dataclass
class Section:
    slug: str
    number: int
    title: str
    html: str
    diagrams: list[str] = field(default_factory=list)
    decisions: list[str] = field(default_factory=list)
    anchors: list[tuple[str, str]] = field(default_factory=list)  # (id, heading) of h2s


# -- diagrams ---------------------------------------------------------------------------
_PIECE = re.compile(r"^(S|N)\s+([XOQ][1-7])\s+([A-M](?:1[0-7]|[1-9]))(?:\s+(\S+))?$")


def _piece(spec: str) -> dict[str, Any]:
    match = _PIECE.match(spec.strip())
    if not match:
        raise ValueError(f"diagram piece {spec!r}: expected 'SIDE ID SQUARE [STATE]'")
    side, pid, square, state = match.groups()
    piece: dict[str, Any] = {"side": side, "id": pid, "kind": pid[0], "at": square}
    state = state or "active"
    if state.startswith("top:"):  # top:TURN = stack made in that turn
        piece.update(state="top", since_turn=int(state[4:]))
    elif state.startswith("bottom:"):  # bottom:WAS = state before the stack formed
        piece.update(state="bottom", was=state[7:])
    else:
        piece["state"] = state
    return piece


STANDARD = (
    "S X1 D8", "S O2 F8", "S X3 F6", "S Q4 H6", "S X5 G7", "S O6 H8", "S X7 J8",
    "N X1 D10", "N O2 F10", "N X3 F12", "N Q4 H12", "N X5 G11", "N O6 H10", "N X7 J10",
)  # fmt: skip


def diagram_position(spec: dict[str, Any]) -> dict[str, Any]:
    """The spec-18.2 document of a diagram entry: the standard formation (D-05) with the
    pieces listed in `pieces` moved (and their state set)."""
    placed = {(p["side"], p["id"]): p for p in map(_piece, STANDARD)}
    for item in spec.get("pieces", []):
        piece = _piece(item)
        placed[(piece["side"], piece["id"])] = piece
    ball = spec.get("ball", "S:X5")
    return {
        "format": "ball-position/1",
        "ruleset": "standard",
        "half": spec.get("half", 1),
        "turn": spec.get("turn", 3),
        "to_move": spec.get("to_move", "S"),
        "phase": spec.get("phase", "action"),
        "attack": spec.get("attack", "S"),
        "pa": spec.get("pa", 2),
        "pe": {"S": 0, "N": 0},
        "pieces": list(placed.values()),
        "ball": {"carrier": ball} if ":" in ball else {"at": ball},
        "restricted": spec.get("restricted", []),
        "pb": {"S": {"atk": 0, "def": 0}, "N": {"atk": 0, "def": 0}},
        "score": {"S": 0, "N": 0},
    }


@cache
def diagrams() -> dict[str, dict[str, Any]]:
    """name -> {"position": document, "suggest": action}."""
    data = tomllib.loads((SOURCES / "diagrams.toml").read_text(encoding="utf-8"))
    return {
        name: {"position": diagram_position(spec), "suggest": spec.get("suggest", "")}
        for name, spec in data.items()
    }


def _diagram_html(name: str, caption: str) -> str:
    entry = diagrams().get(name)
    if entry is None:
        raise ValueError(f"rulebook: unknown diagram {name!r}")
    safe = html.escape(name)
    return (
        f'<figure class="diagram" id="diagram-{safe}" data-diagram="{safe}"'
        f" data-position='{html.escape(json.dumps(entry['position']), quote=True)}'"
        f' data-suggest="{html.escape(entry["suggest"])}">'
        '<div class="diagram-board"></div>'
        f"<figcaption>{_md.renderInline(caption.strip())}</figcaption></figure>"
    )


def _decision_html(label: str, body: str) -> str:
    return (
        f'<aside class="note decision" data-decision="{html.escape(label)}">'
        f'<span class="decision-label">{html.escape(label)}</span>{_md.render(body)}</aside>'
    )


# -- sections ---------------------------------------------------------------------------
def _render(source: str, section: Section) -> str:
    out: list[str] = []
    cursor = 0
    for match in _BLOCK.finditer(source):
        out.append(_md.render(source[cursor : match.start()]))
        kind, name, body = match.groups()
        if kind == "diagram":
            section.diagrams.append(name)
            out.append(_diagram_html(name, body))
        else:
            section.decisions.append(name)
            out.append(_decision_html(name, body))
        cursor = match.end()
    out.append(_md.render(source[cursor:]))
    text = "".join(out)

    def anchor(match: re.Match[str]) -> str:
        # `## Title {#id}` gives the anchor explicitly, so every language shares it and the
        # language switch lands on the same place.
        inner = match.group(1)
        explicit = re.search(r"\s*\{#([a-z0-9-]+)\}\s*$", inner)
        if explicit:
            ident, inner = explicit.group(1), inner[: explicit.start()]
        else:
            ident = f"{section.slug}--{len(section.anchors) + 1}"
        title = re.sub(r"<[^>]+>", "", inner)
        section.anchors.append((ident, html.unescape(title)))
        return f'<h2 id="{ident}" data-anchor>{inner}</h2>'

    return re.sub(r"<h2>(.*?)</h2>", anchor, text)


@cache
def sections(lang: str) -> tuple[Section, ...]:
    folder = SOURCES / (lang if lang in LANGUAGES else DEFAULT_LANGUAGE)
    result = []
    for path in sorted(folder.glob("[0-9][0-9]-*.md")):
        number = int(path.name[:2])
        slug = path.stem[3:]
        source = path.read_text(encoding="utf-8")
        first, _, rest = source.partition("\n")
        if not first.startswith("# "):
            raise ValueError(f"{path}: the first line must be '# Title'")
        section = Section(slug=slug, number=number, title=first[2:].strip(), html="")
        section.html = _render(rest, section)
        result.append(section)
    return tuple(result)


def section(lang: str, slug: str) -> Section | None:
    return next((s for s in sections(lang) if s.slug == slug), None)
