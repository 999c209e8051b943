"""One source, two outputs: the regulation (Markdown + Jinja) and the forms (Jinja templates)
become one HTML document, which the browser shows and prints and WeasyPrint turns into PDF.

The forms are a game's own (`FormSet.game`, from its `paper/` folder: BALL's appendices
A-F, Xiangqi's, Mahjong's) beside the shared ones; the regulation is a game's
(`Paper.regulation`: BALL's text and figures, in its `paper/` folder), printed only with that
game's forms. The printing keeps what every edition shares: languages, paper sizes, the
shared forms' blank sizes, the edition's template and stylesheet.

The PDF is made from exactly the HTML the web page serves (controls included): the print
stylesheet is what keeps navigation and buttons off paper, in the browser and in the PDF alike.
A game may make its round's PDF its own way from the same template context (`Paper.pdf`:
BALL lays its alike score sheets out once and stamps each table's fields on,
`ball.games.ball.paper.stamp`); the tests hold that PDF to the full layout pixel for pixel.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any, Literal

import jinja2
from markdown_it import MarkdownIt

from ball.games import GAMES, Regulation, load
from ball.printing.forms import FormSet, GameForms, blank_forms, regulation_paper
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
    # what the template was given: a game's PDF may render the same context again
    # (`Paper.pdf`: BALL's score sheets laid out once and stamped per table)
    context: dict[str, Any] | None = field(default=None, repr=False, compare=False)


def _package_file(*parts: str) -> str:
    return resources.files("ball.printing").joinpath(*parts).read_text(encoding="utf-8")


# The shared forms' blank sizes (the pairing list's and the standings' rows) and a blank
# standings' tie-break columns, where the regulation's parameters do not give them.
SHARED_BLANK: dict[str, int] = {"pairing_rows": 16, "standings_rows": 10}
SHARED_TIEBREAKS: list[str] = []


def regulation() -> Regulation | None:
    """The printed regulation: the registry's game's whose `Paper.regulation` names one
    (BALL's), or None."""
    paper = regulation_paper()
    if paper is None or paper.regulation is None:
        return None
    found: Regulation = load(paper.regulation)
    return found


@cache
def parameters() -> dict[str, Any]:
    """What the edition's text and forms read: the regulation's parameters (the figures it
    quotes, its game's forms' sizes `blank`, a blank standings' tie-breaks
    `standings.tiebreaks`: `Regulation.parameters`) over the shared forms' defaults."""
    own = regulation()
    params = own.parameters() if own is not None else {}
    standings = {"tiebreaks": SHARED_TIEBREAKS, **params.get("standings", {})}
    return {**params, "blank": {**SHARED_BLANK, **params.get("blank", {})}, "standings": standings}


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
    own = regulation()
    if own is None:
        raise PrintingError("no game of the registry prints a regulation")
    source = jinja2.Environment(undefined=jinja2.StrictUndefined, keep_trailing_newline=True)
    text = source.from_string(own.text(lang)).render(p=params or parameters())
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
    own = forms.game
    if kind == "regulation" and not _prints_regulation(own):
        whose = f"a {own.label} event" if own is not None else "this event"
        raise PrintingError(f"the regulation is BALL's; {whose} prints its forms")
    event = event or (own.event_name() if own is not None else "")
    reg_html, toc = regulation_html(lang, p) if kind == "regulation" else ("", [])
    doc = t["doc"]
    formats = _formats_toc(t, forms)
    toc = toc + (own.contents(t, formats) if own is not None else formats)
    if kind == "regulation":
        title = doc["regulation_title"]
    else:
        title = own.title(t) if own is not None else doc["forms_title"]
    subtitle = doc["regulation_subtitle"] if kind == "regulation" else doc["forms_subtitle"]
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
        event=event,  # the event's name ("" for none), on a game's blank copy of a form
        params=p,
        blank=p["blank"],
        default_tiebreaks=p["standings"]["tiebreaks"],
        controls=controls,
    )
    html = edition_html(context)
    return Edition(html=html, toc=toc, lang=lang, paper=paper, title=title, context=context)


def _paper_of(own: GameForms | None) -> Any:
    """The `Paper` of the game whose own forms `own` are, or None."""
    entry = GAMES.get(own.game_name) if own is not None else None
    return entry.paper if entry is not None else None


def _prints_regulation(own: GameForms | None) -> bool:
    """Whether the regulation prints with these forms: its own game's (`Paper.regulation`)."""
    paper = _paper_of(own)
    return paper is not None and paper.regulation is not None


def edition_html(
    context: dict[str, Any], stamp_plan: Any = None, template: str = "edition.html.j2"
) -> str:
    """The edition's HTML from its template context (`template` from the printing's or the
    game's own folder); `stamp_plan` (`ball.games.ball.paper.stamp`) asks for BALL's score
    sheets stamped rather than in the flow (the PDF of a round)."""
    forms = context.get("forms")
    own = forms.game if forms is not None else None
    folders = (str(own.folder),) if own is not None else ()
    return _html_env(folders).get_template(template).render(**context, stamp_plan=stamp_plan)


def render_pdf(edition: Edition) -> bytes:
    """WeasyPrint (print media). Fonts are embedded as subsets; with libharfbuzz-subset0
    installed WeasyPrint subsets through HarfBuzz, which is much faster than fontTools."""
    from weasyprint import HTML  # imported late: loading Pango costs time the CLI may not need

    paper = _paper_of(edition.context["forms"].game) if edition.context is not None else None
    if paper is not None and paper.pdf is not None:  # the game's own way (BALL's stamping)
        made: bytes | None = load(paper.pdf)(edition)
        if made is not None:
            return made
    return HTML(string=edition.html, base_url=".").write_pdf()
