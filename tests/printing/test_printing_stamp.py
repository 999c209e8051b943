"""A round's score sheets laid out once and stamped per table (ball.games.ball.paper.stamp, issue 15
target 4): the fast PDF must be the full layout, pixel for pixel, read the same (names,
tables, outline), and send a sheet whose field does not fit back to the ordinary layout."""

from __future__ import annotations

import dataclasses
import subprocess
from io import BytesIO
from pathlib import Path

import pikepdf
import pytest
from hypothesis import given
from hypothesis import strategies as st

from ball.games.ball.paper.forms import BallForms, HalfSheet, MatchResult, ScoreSheet
from ball.games.ball.paper.stamp import MIN_GROUP, full_stamped_pdf, groups
from ball.printing import render_html, render_pdf
from ball.printing.forms import FormSet, Header, PairingRow, Pairings

from .conftest import needs_poppler, pdftotext, squash

HEADER = Header(event="Stamp Open", round="2", date="2026-11-30", referee="Rhee")


def _round(names: list[tuple[str, str]], **sheet: object) -> FormSet:
    sheets = [
        ScoreSheet(header=HEADER, table=str(i + 1), coach_a=a, coach_b=b, **sheet)  # type: ignore[arg-type]
        for i, (a, b) in enumerate(names)
    ]
    rows = [PairingRow(str(i + 1), a, b) for i, (a, b) in enumerate(names)]
    own = BallForms(score_sheets=sheets)
    return FormSet(pairings=Pairings(HEADER, rows), prefilled=True, game=own)


def _played() -> ScoreSheet:
    first = HalfSheet(1, "A", pb={"A": {"atk": 7, "def": 2}, "B": {"atk": 2, "def": 7}})
    second = HalfSheet(2, "B", pb={"A": {"atk": 3, "def": 5}, "B": {"atk": 5, "def": 3}})
    result = MatchResult(td={"A": 1, "B": 0}, criterion="td", winner="A")
    return ScoreSheet(HEADER, "9", "Ann", "Bo", halves=[first, second], result=result)


# -- which sheets are alike ------------------------------------------------------------------


def test_sheets_alike_but_for_names_and_table_group_a_played_one_stays_alone():
    forms = _round([("Ann", "Bo"), ("Cy", "Di"), ("Ed", "Flo")])
    forms.game.score_sheets.insert(1, _played())
    assert groups(forms.game.score_sheets) == [[0, 2, 3]]
    # a sheet alone is not worth a template: laying it out is the cost either way
    assert groups(forms.game.score_sheets[:2]) == []


def test_a_header_that_differs_keeps_sheets_apart():
    forms = _round([("Ann", "Bo"), ("Cy", "Di")])
    other = dataclasses.replace(HEADER, round="3")
    forms.game.score_sheets[1] = dataclasses.replace(forms.game.score_sheets[1], header=other)
    assert groups(forms.game.score_sheets) == []


_SIDE = st.sampled_from(["", "Ann", "Bo", "이서연"])


@given(st.lists(st.tuples(_SIDE, _SIDE, st.sampled_from(["", "Rhee", "Ivo"]),
                          st.sampled_from([None, "A", "draw"])), max_size=12))  # fmt: skip
def test_groups_partition_the_sheets_that_differ_only_in_stamp_fields(specs):
    sheets = [
        ScoreSheet(
            dataclasses.replace(HEADER, referee=ref), str(i), a, b, result=MatchResult(winner=w)
        )
        for i, (a, b, ref, w) in enumerate(specs)
    ]
    found = groups(sheets)
    flat = [i for group in found for i in group]
    assert len(flat) == len(set(flat))  # no sheet twice
    assert all(len(group) >= MIN_GROUP and group == sorted(group) for group in found)
    for group in found:  # alike: the same winner tick, whatever the names
        assert len({sheets[i].result.winner for i in group}) == 1
    grouped = set(flat)
    for i, sheet in enumerate(sheets):  # a sheet left out has no twin
        twins = [j for j in range(len(sheets)) if sheets[j].result == sheet.result]
        assert (i in grouped) == (len(twins) >= MIN_GROUP)


# -- the PDF ---------------------------------------------------------------------------------


def _pages_gray(pdf: bytes, folder: Path, name: str) -> list[bytes]:
    path = folder / f"{name}.pdf"
    path.write_bytes(pdf)
    subprocess.run(["pdftoppm", "-r", "50", "-gray", str(path), str(folder / name)], check=True)
    return [p.read_bytes() for p in sorted(folder.glob(f"{name}-*.pgm"))]


def _outline(pdf: bytes) -> list[str]:
    with pikepdf.open(BytesIO(pdf)) as doc, doc.open_outline() as outline:
        return [item.title for item in outline.root]


def _templates(pdf: bytes) -> list[tuple[int, int] | None]:
    """Per page, the shared template drawn under its own content first (the form XObject's
    object number), or None for a page laid out in full."""
    with pikepdf.open(BytesIO(pdf)) as doc:
        found: list[tuple[int, int] | None] = []
        for page in doc.pages:
            first = pikepdf.parse_content_stream(page)[:4]
            name = next((op.operands[0] for op in first if str(op.operator) == "Do"), None)
            found.append(None if name is None else page.resources.XObject[name].objgen)
        return found


@needs_poppler
@pytest.mark.pdf
@pytest.mark.slow
@pytest.mark.parametrize("lang", ["en", "ko"])
def test_stamped_pdf_is_the_full_layout_pixel_for_pixel(tmp_path, lang):
    names = [("Ann Lee", "Bo Kim"), ("김민준", "Дарина Петрова"), ("Ed", "Flo"), ("Gus", "Hal")]
    edition = render_html("forms", lang=lang, forms=_round(names))
    fast, full = render_pdf(edition), full_stamped_pdf(edition)
    templates = [t for t in _templates(fast) if t is not None]
    assert len(templates) == len(names)  # every sheet stamped, all on the one template
    assert len(set(templates)) == 1
    fast_pages = _pages_gray(fast, tmp_path, "fast")
    full_pages = _pages_gray(full, tmp_path, "full")
    assert len(fast_pages) == len(full_pages)
    for number, (a, b) in enumerate(zip(fast_pages, full_pages, strict=True), start=1):
        assert a == b, f"page {number} differs from the full layout"
    assert _outline(fast) == _outline(full)  # each sheet keeps its bookmark
    # each table's sheet reads as its own: event, table number, coaches, the winner line
    sheets = [squash(p) for p in pdftotext(tmp_path / "fast.pdf").split("\f") if "Rhee" in p]
    assert len(sheets) == len(names)
    for table, ((a, b), page) in enumerate(zip(names, sheets, strict=True), start=1):
        assert "Stamp Open" in page and f" {table} " in page
        assert f"{a} " in page and f"{b} " in page
        assert f"A {a}" in page and f"B {b}" in page


@needs_poppler
@pytest.mark.pdf
@pytest.mark.slow
def test_a_name_too_long_for_its_cell_prints_that_sheet_in_the_flow(tmp_path):
    long = "Maximilian Alexander Wolfeschlegelsteinhausen-Bergerdorff"
    names = [("Ann", "Bo"), (long, "Cy"), ("Di", "Ed")]
    edition = render_html("forms", lang="en", forms=_round(names))
    fast = render_pdf(edition)
    stamped = [t is not None for t in _templates(fast)]
    pages = pdftotext(_write(tmp_path / "fast.pdf", fast)).split("\f")
    sheets = [i for i, page in enumerate(pages) if "Rhee" in page]  # the referee: sheets only
    assert len(sheets) == 3
    # the two short ones stamped, the long one laid out as the page prints it (the name wraps
    # inside its cell instead of running over the next one)
    assert [stamped[i] for i in sheets] == [True, False, True]
    assert "Wolfeschlegelsteinhausen" in pages[sheets[1]]


def _write(path: Path, data: bytes) -> Path:
    path.write_bytes(data)
    return path
