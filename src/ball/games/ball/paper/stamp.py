"""BALL's round PDF (`Paper.pdf`): its score sheets laid out once, each table's fields stamped
on (issue 15, target 4).

Owns the PDF of a BALL round whose score sheets (`BallForms.score_sheets`) differ only in
their stamp fields: the table
number, the coaches, the referee and the winner line that names the coaches. Laying out a
score sheet (about 1,000 boxes) is what a round's PDF costs, so WeasyPrint lays out ONE sheet
per group of such sheets (the template: the fields hidden, no running header). Each table's
own pages in the document hold just its fields, placed where the template's layout boxes put
them, under the document's running header and page number; the template's pages are then
drawn under those pages as shared PDF form XObjects (pikepdf), stored once. A 64-table round
costs one sheet's layout plus 64 nearly empty pages.

Nothing is placed by hand, and the result is the full layout: in "stamped" mode a field is
absolutely positioned at its static place in the flow (so no value moves anything else) in
the template and in a full layout alike, and a full layout of any table's sheet in that mode
(`full_stamped_pdf`) is the template with that table's text, which the tests compare pixel
for pixel. A field that would not fit its cell on one line sends its sheet back to the
ordinary flow layout, as the page and the browser print it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from dataclasses import dataclass, field
from io import BytesIO
from typing import Any, Literal

from ball.games.ball.paper.forms import BallForms, ScoreSheet
from ball.printing.render import Edition, edition_html

Mode = Literal["flow", "stamped", "template"]
QR_FIELDS = ("qr_a", "qr_b")  # stamp fields that are images of a fixed size
MIN_GROUP = 2  # a sheet alone costs one layout either way: stamping it saves nothing
_EPS = 0.01  # CSS px: layout rounding
# The stamp fields inherit these from their form; an overlay's field inherits them from the
# same form, so a template whose fields override one of them is not stamped.
_INHERITED = (
    *("font_family", "font_size", "font_weight", "font_style", "font_stretch", "line_height"),
    *("letter_spacing", "word_spacing", "color", "text_transform"),
)


@dataclass(frozen=True)
class Stamp:
    """Where the template's layout put one field: CSS px from the page's content box."""

    name: str
    x: float
    y: float
    room: float  # from x to the right edge of the field's cell (content box)
    line: float  # the height of one line of the field


@dataclass(frozen=True)
class StampPlan:
    """What the score sheet template prints (paper/templates/forms/score_sheet.html.j2): the
    fields' mode, and the sheets printed as overlays (index -> the stamps of each page)."""

    mode: Mode = "flow"
    sheets: dict[int, list[list[Stamp]]] = field(default_factory=dict)


def _skeleton(sheet: ScoreSheet) -> str:
    """The sheet without its stamp fields: sheets with equal skeletons print alike but for
    those fields (the template reads nothing else of a sheet)."""
    header = dataclasses.replace(sheet.header, referee="")
    # the QR codes are stamp fields too: whether a sheet has them is part of its skeleton
    return repr(
        dataclasses.replace(
            sheet,
            header=header,
            table="",
            coach_a="",
            coach_b="",
            qr_a="qr" if sheet.qr_a else "",
            qr_b="qr" if sheet.qr_b else "",
        )
    )


def groups(sheets: list[ScoreSheet]) -> list[list[int]]:
    """Indices of the sheets worth stamping, grouped by skeleton, in document order."""
    by_key: dict[str, list[int]] = {}
    for i, sheet in enumerate(sheets):
        by_key.setdefault(_skeleton(sheet), []).append(i)
    return [group for group in by_key.values() if len(group) >= MIN_GROUP]


def _walk(box: Any, ancestors: tuple[Any, ...] = ()) -> Iterator[tuple[Any, tuple[Any, ...]]]:
    yield box, ancestors
    for child in getattr(box, "children", ()):
        yield from _walk(child, (*ancestors, box))


def _attr(box: Any, name: str) -> str | None:
    element = getattr(box, "element", None)
    return None if element is None else element.get(name)


def _line(style: Any) -> float:
    """One line's height under `style` (the form sets a number; 'normal' is font-dependent,
    so it is given a generous bound and the pixel tests watch it)."""
    value, size = style["line_height"], style["font_size"]
    if value == "normal":
        return 1.5 * size
    return float(value.value if hasattr(value, "unit") else value * size)


def _origin(page: Any) -> tuple[float, float]:
    box = page._page_box
    return box.content_box_x(), box.content_box_y()


def _stamps_on(page: Any) -> tuple[int | None, list[Stamp], bool]:
    """The template sheet on a page (its index), the fields on it, and whether each field
    inherits its font from the form as an overlay's field would."""
    from weasyprint.formatting_structure.boxes import TableCellBox  # type: ignore[import-untyped]

    x0, y0 = _origin(page)
    sheet, stamps, seen, same = None, [], set(), True
    for box, ancestors in _walk(page._page_box):
        if sheet is None and _attr(box, "data-sheet") is not None:
            sheet = int(_attr(box, "data-sheet") or 0)
        name = _attr(box, "data-stamp")
        if name is None or box.element in seen:
            continue  # anonymous boxes (lines) carry their element too
        seen.add(box.element)
        cell = next((a for a in reversed(ancestors) if isinstance(a, TableCellBox)), None)
        form = next(a for a in ancestors if _attr(a, "data-sheet") is not None)
        same &= all(box.style[p] == form.style[p] for p in _INHERITED)
        x, y = box.content_box_x(), box.content_box_y()
        # a field outside any cell has no room to measure: its sheets print in the flow
        room = cell.content_box_x() + cell.width - x if cell is not None else -1.0
        stamps.append(Stamp(name, x - x0, y - y0, room, _line(box.style)))
    return sheet, stamps, same


def _layout_templates(edition: Edition, plan: list[list[int]]) -> tuple[Any, dict[int, Any]]:
    """Lay out one sheet per group; per group, its template pages' indices and stamps."""
    from weasyprint import HTML

    assert edition.context is not None
    context = dict(edition.context)
    forms = context["forms"]
    sheets = forms.game.score_sheets
    own = dataclasses.replace(forms.game, score_sheets=[sheets[group[0]] for group in plan])
    context["forms"] = dataclasses.replace(forms, game=own)
    html = edition_html(context, StampPlan("template"), "stamp_template.html.j2")
    document = HTML(string=html, base_url=".").render()
    pages: dict[int, list[tuple[int, list[Stamp], bool]]] = {}
    for i, page in enumerate(document.pages):
        sheet, stamps, same = _stamps_on(page)
        if sheet is not None:
            pages.setdefault(sheet, []).append((i, stamps, same))
    return document, pages


def _fits(box: Any, stamp: Stamp, origin: tuple[float, float]) -> bool:
    """The overlay's field stands where the template put it, fits its cell, one line high
    (a QR code: its size is the stylesheet's, the same on every sheet)."""
    fixed = stamp.name in QR_FIELDS
    return (
        (fixed or (box.width <= stamp.room + _EPS and box.height <= stamp.line + _EPS))
        and abs(box.content_box_x() - origin[0] - stamp.x) <= _EPS
        and abs(box.content_box_y() - origin[1] - stamp.y) <= _EPS
    )


def _overlay_key(box: Any) -> tuple[int, int]:
    return int(_attr(box, "data-stamp-sheet") or 0), int(_attr(box, "data-stamp-page") or 0)


def _placed(document: Any, plan: StampPlan) -> tuple[dict[tuple[int, int], int], set[int]]:
    """Where each overlay page landed in the document, and the sheets whose fields do not sit
    where the template put them (too wide for the cell, taller than a line, elsewhere)."""
    where: dict[tuple[int, int], int] = {}
    misfit: set[int] = set()
    for i, page in enumerate(document.pages):
        origin, seen = _origin(page), set()
        for box, ancestors in _walk(page._page_box):
            if box.element in seen:
                continue  # anonymous boxes (lines) carry their element too
            if _attr(box, "data-stamp-page") is not None:
                seen.add(box.element)
                where[_overlay_key(box)] = i
            elif (name := _attr(box, "data-stamp")) is not None:
                seen.add(box.element)
                holder = next(a for a in reversed(ancestors) if _attr(a, "data-stamp-page"))
                sheet, p = _overlay_key(holder)
                stamp = next(s for s in plan.sheets[sheet][p] if s.name == name)
                misfit |= set() if _fits(box, stamp, origin) else {sheet}
    lost = {s for s, pages in plan.sheets.items() for p in range(len(pages)) if (s, p) not in where}
    return where, misfit | lost


def _underlay(main: bytes, template: bytes, pairs: list[tuple[int, int]]) -> bytes:
    """Draw template page t under document page m for each (m, t): one form XObject per
    template page, shared by every page that shows it."""
    import pikepdf

    with pikepdf.open(BytesIO(main)) as out, pikepdf.open(BytesIO(template)) as tpl:
        forms: dict[int, Any] = {}
        for m, t in pairs:
            if t not in forms:
                forms[t] = out.copy_foreign(tpl.pages[t].as_form_xobject())
            out.pages[m].add_underlay(forms[t], None)  # None: the page's own box
        buffer = BytesIO()
        out.save(buffer)
        return buffer.getvalue()


def _stampable(edition: Edition) -> list[list[int]]:
    context = edition.context
    if context is None:
        return []
    own = context["forms"].game
    if not isinstance(own, BallForms):
        return []  # not BALL's forms: no score sheets to stamp
    return groups(own.score_sheets)


def stamped_pdf(edition: Edition) -> bytes | None:
    """The edition's PDF with its alike score sheets laid out once; None when no two sheets
    are alike (the caller renders the document as it is)."""
    from weasyprint import HTML

    plan = _stampable(edition)
    if not plan:
        return None
    templates, pages = _layout_templates(edition, plan)
    overlays: dict[int, list[list[Stamp]]] = {}
    template_pages: dict[int, list[int]] = {}
    for g, group in enumerate(plan):
        if g in pages and all(same for _, _, same in pages[g]):
            for sheet in group:
                overlays[sheet] = [stamps for _, stamps, _ in pages[g]]
                template_pages[sheet] = [i for i, _, _ in pages[g]]
    while True:
        stamp_plan = StampPlan("flow", overlays)
        html = edition_html(edition.context or {}, stamp_plan)
        document = HTML(string=html, base_url=".").render()
        where, misfit = _placed(document, stamp_plan)
        if not misfit:
            break
        # the misfits print in the flow; the others did fit and still do
        overlays = {i: stamps for i, stamps in overlays.items() if i not in misfit}
    if not overlays:
        return document.write_pdf()
    pairs = [
        (where[sheet, p], t) for sheet in overlays for p, t in enumerate(template_pages[sheet])
    ]
    return _underlay(document.write_pdf(), templates.write_pdf(), pairs)


def full_stamped_pdf(edition: Edition) -> bytes:
    """Every score sheet laid out in full with its fields stamped in place: what
    `stamped_pdf` must equal, pixel for pixel (the tests' oracle; slow, as before)."""
    from weasyprint import HTML

    html = edition_html(edition.context or {}, StampPlan("stamped"))
    return HTML(string=html, base_url=".").write_pdf()
