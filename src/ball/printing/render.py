"""One source, two outputs: the regulation (Markdown + Jinja) and the forms (Jinja templates)
become one HTML document, which the browser shows and prints and WeasyPrint turns into PDF.

The PDF is made from exactly the HTML the web page serves (controls included): the print
stylesheet is what keeps navigation and buttons off paper, in the browser and in the PDF alike.
One exception keeps a big round fast: score sheets alike but for their table, coaches and
referee are laid out once and stamped per table (`ball.printing.stamp`), rendered again from
the same template context; the tests hold that PDF to the full layout pixel for pixel.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any, Literal

import jinja2
from markdown_it import MarkdownIt

from ball.games import GAMES, load
from ball.printing.forms import APPENDICES, FormSet, blank_forms
from ball.printing.labels import translated_labels

LANGUAGES: tuple[str, ...] = ("en", "ko", "bg")
# paper key -> (CSS page size, name shown)
PAPERS: dict[str, tuple[str, str]] = {"a4": ("A4", "A4"), "letter": ("letter", "Letter")}
Kind = Literal["regulation", "forms"]


class PrintingError(ValueError):
    """Bad request to the printing service (unknown language, paper, …); says what was wrong."""


@dataclass(frozen=True)
class TocEntry:
    anchor: str
    text: str
    level: int | str


@dataclass(frozen=True)
class Controls:
    """Screen-only controls of the web page: they are in the HTML, never on paper."""

    pdf_url: str
    languages: list[tuple[str, str, str]] = field(default_factory=list)  # code, name, url
    papers: list[tuple[str, str, str]] = field(default_factory=list)
    home_url: str | None = None  # back to the web toolbox


@dataclass(frozen=True)
class Edition:
    html: str
    toc: list[TocEntry]
    lang: str
    paper: str
    title: str
    # what the template was given: the PDF may lay the score sheets out once and stamp each
    # table's fields (ball.printing.stamp), which renders the same context again
    context: dict[str, Any] | None = field(default=None, repr=False, compare=False)


def _package_file(*parts: str) -> str:
    return resources.files("ball.printing").joinpath(*parts).read_text(encoding="utf-8")


@cache
def parameters() -> dict[str, Any]:
    """The figures the regulation quotes and the blank forms' sizes (regulation.toml), with
    the figures taken from the rules of the game the regulation is of (its match times and
    signal gap), so the paper never states a figure the game does not play by."""
    params = tomllib.loads(_package_file("regulation.toml"))
    params.update({name: _whole(value) for name, value in _rules_figures().items()})
    return params


def _rules_figures() -> dict[str, float]:
    """The figures the regulation quotes from its game's rules: the registry's game whose
    `Paper.regulation` names them (the regulation is BALL's)."""
    for entry in GAMES.values():
        if entry.paper is not None and entry.paper.regulation is not None:
            figures: dict[str, float] = load(entry.paper.regulation)()
            return figures
    return {}


def _whole(value: float) -> int | float:
    return int(value) if float(value).is_integer() else value


def labels(lang: str) -> dict[str, Any]:
    """The printed labels in `lang`, read from the one catalogue (`ball.printing.labels`)."""
    return translated_labels(check_language(lang))


def check_language(lang: str) -> str:
    if lang not in LANGUAGES:
        raise PrintingError(f"unknown language {lang!r}; choose one of {', '.join(LANGUAGES)}")
    return lang


def check_paper(paper: str) -> str:
    key = paper.lower()
    if key not in PAPERS:
        raise PrintingError(f"unknown paper size {paper!r}; choose one of {', '.join(PAPERS)}")
    return key


@cache
def _html_env(folders: tuple[str, ...] = ()) -> jinja2.Environment:
    """The templates of the edition: the printing's own, then a game's own `folders` (its
    forms, `GameForms.folder`)."""
    return jinja2.Environment(
        loader=jinja2.ChoiceLoader(
            [jinja2.PackageLoader("ball.printing", "templates"), jinja2.FileSystemLoader(folders)]
        ),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )


@cache
def _markdown() -> MarkdownIt:
    return MarkdownIt("commonmark", {"typographer": True}).enable(["table", "replacements"])


def regulation_html(lang: str, params: dict[str, Any] | None = None) -> tuple[str, list[TocEntry]]:
    """Render the regulation of one language: Jinja fills in the figures, then Markdown.

    Headings of level 2 and 3 get stable anchors (`reg-1`, …) and make the table of contents.
    """
    check_language(lang)
    source = jinja2.Environment(undefined=jinja2.StrictUndefined, keep_trailing_newline=True)
    text = source.from_string(_package_file("content", lang, "regulation.md")).render(
        p=params or parameters()
    )
    md = _markdown()
    tokens = md.parse(text)
    toc: list[TocEntry] = []
    for i, token in enumerate(tokens):
        if token.type == "blockquote_open":
            # the source writes each project decision (D-nn) as a block quote: it prints
            # marked as a decision, set apart from the regulation's own text
            token.attrSet("class", "decision")
        if token.type == "heading_open" and token.tag in ("h2", "h3"):
            anchor = f"reg-{len(toc) + 1}"
            token.attrSet("id", anchor)
            inline = tokens[i + 1]
            words = "".join(c.content for c in inline.children or [] if c.type == "text")
            toc.append(TocEntry(anchor, words, int(token.tag[1])))
    return md.renderer.render(tokens, md.options, {}), toc


# Forms printed under another form's appendix letter: (letter, anchor, labels key, title key)
_SECOND_FORMS = (
    ("B", "appendix-b-cards", "pairings", "cards_title"),
    ("E", "appendix-e-forfeit", "forfeit", "title"),
)


def _appendix_toc(t: dict[str, Any]) -> list[TocEntry]:
    """One line per appendix letter, then its second form (if any) indented under it, so
    every form is listed and no letter twice."""
    word = t["doc"]["appendix"]
    entries = []
    for letter, key in APPENDICES:
        title = t["forms"][key]["title"]
        anchor = f"appendix-{letter.lower()}"
        entries.append(TocEntry(anchor, f"{word} {letter} — {title}", "appendix"))
        for of, sub_anchor, labels_key, title_key in _SECOND_FORMS:
            if of == letter:
                text = t["forms"][labels_key][title_key]
                entries.append(TocEntry(sub_anchor, text, "appendix-form"))
    return entries


def _formats_toc(t: dict[str, Any], forms: FormSet) -> list[TocEntry]:
    """Issue 17's forms when the round has them: draw sheet (K), bracket (L), team cards (M)."""
    f, word, k = forms.formats, t["doc"]["appendix"], t["forms"]["formats"]
    if f is None:
        return []
    present = (
        ("K", k["draw_title"], f.draw_sheet is not None),
        ("L", k["bracket_title"], bool(f.bracket)),
        ("M", k["team_card_title"], bool(f.team_cards)),
    )
    return [
        TocEntry(f"appendix-{letter.lower()}", f"{word} {letter} — {title}", "appendix")
        for letter, title, shown in present
        if shown
    ]


def render_html(
    kind: Kind = "regulation",
    lang: str = "en",
    paper: str = "a4",
    forms: FormSet | None = None,
    event: str = "",
    controls: Controls | None = None,
    params: dict[str, Any] | None = None,
) -> Edition:
    """The whole printed edition as one HTML document.

    `regulation`: the regulation followed by every form as appendices (blank unless `forms`
    is given). `forms`: only the forms, e.g. pre-filled for one round.
    """
    if kind not in ("regulation", "forms"):
        raise PrintingError(f"unknown edition {kind!r}; choose regulation or forms")
    check_language(lang)
    paper = check_paper(paper)
    p = params or parameters()
    t = labels(lang)
    forms = forms or blank_forms(event)
    event = event or next((s.header.event for s in forms.score_sheets if s.header.event), "")
    own = forms.game
    if own is not None:
        if kind == "regulation":
            raise PrintingError(f"the regulation is BALL's; a {own.label} event prints its forms")
        event = event or own.event_name()
    reg_html, toc = regulation_html(lang, p) if kind == "regulation" else ("", [])
    doc = t["doc"]
    title = doc["regulation_title"] if kind == "regulation" else doc["forms_title"]
    if own is None:
        toc = toc + _appendix_toc(t) + _formats_toc(t, forms)
    else:
        toc = own.contents(t, _formats_toc(t, forms))
        title = own.title(t)
    subtitle = doc["regulation_subtitle"] if kind == "regulation" else doc["forms_subtitle"]
    if not forms.score_sheets:
        forms.score_sheets.append(blank_forms(event).score_sheets[0])
    if not forms.forfeits:
        forms.forfeits.append(blank_forms(event).forfeits[0])
    context = dict(
        kind=kind,
        lang=lang,
        paper=paper,
        paper_css=PAPERS[paper][0],
        paper_name=PAPERS[paper][1],
        t=t,
        title=title,
        subtitle=subtitle,
        running_head=event or doc["default_header"],
        css=_package_file("static", "edition.css"),
        toc=toc,
        regulation_html=reg_html,
        forms=forms,
        params=p,
        blank=p["blank"],
        default_tiebreaks=p["standings"]["tiebreaks"],
        controls=controls,
    )
    html = edition_html(context)
    return Edition(html=html, toc=toc, lang=lang, paper=paper, title=title, context=context)


def edition_html(
    context: dict[str, Any], stamp_plan: Any = None, template: str = "edition.html.j2"
) -> str:
    """The edition's HTML from its template context; `stamp_plan` (ball.printing.stamp) asks
    for the score sheets stamped rather than in the flow (the PDF of a round)."""
    forms = context.get("forms")
    own = forms.game if forms is not None else None
    folders = (str(own.folder),) if own is not None else ()
    return _html_env(folders).get_template(template).render(**context, stamp_plan=stamp_plan)


def render_pdf(edition: Edition) -> bytes:
    """WeasyPrint (print media). Fonts are embedded as subsets; with libharfbuzz-subset0
    installed WeasyPrint subsets through HarfBuzz, which is much faster than fontTools."""
    from weasyprint import HTML  # imported late: loading Pango costs time the CLI may not need

    if edition.context is not None:
        from ball.printing.stamp import stamped_pdf  # a round: alike score sheets laid out once

        stamped = stamped_pdf(edition)
        if stamped is not None:
            return stamped
    return HTML(string=edition.html, base_url=".").write_pdf()
