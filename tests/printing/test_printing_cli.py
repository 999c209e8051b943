"""`ball pdf …`: files written in the asked format; bad input is exit 2 with one line."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from ball.cli.pdf import app

from .conftest import needs_poppler, pdfinfo, pdftotext, squash

runner = CliRunner()


@needs_poppler
def test_regulation_korean_pdf(tmp_path):
    out = tmp_path / "reg.pdf"
    result = runner.invoke(app, ["regulation", "--lang", "ko", "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert out.read_bytes().startswith(b"%PDF")
    text = squash(pdftotext(out))
    assert "BALL 대회 규정" in text and "부록 F" in text


def test_regulation_html_output(tmp_path):
    out = tmp_path / "reg.html"
    result = runner.invoke(app, ["regulation", "--lang", "bg", "--paper", "letter", "-o", str(out)])
    assert result.exit_code == 0, result.output
    html = out.read_text(encoding="utf-8")
    assert "Турнирен регламент на BALL" in html and "size: letter" in html


@needs_poppler
def test_blank_forms_with_event_name(tmp_path):
    out = tmp_path / "forms.pdf"
    result = runner.invoke(app, ["forms", "--event", "Seoul Cup", "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert int(pdfinfo(out)["Pages"]) >= 8
    assert "Seoul Cup" in pdftotext(out)


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["regulation", "--lang", "de"], "unknown language 'de'"),
        (["regulation", "--paper", "a3"], "unknown paper size 'a3'"),
        (["regulation", "--output-format-is-wrong"], None),
        (["forms", "--round", "2"], "--db and --round go together"),
        (["forms", "--db", "nowhere.sqlite", "--round", "1"], "nowhere.sqlite: no such database"),
    ],
)
def test_bad_input_is_one_line_exit_2(tmp_path, args, needle):
    out = tmp_path / "x.pdf"
    result = runner.invoke(app, [*args, "-o", str(out)])
    assert result.exit_code == 2
    if needle is not None:
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1 and needle in lines[0]
    assert not out.exists()


def test_a_file_that_is_no_database_is_a_clear_error(tmp_path):
    junk = tmp_path / "notes.sqlite"
    junk.write_text("these are my notes, not a database\n" * 50)
    before = junk.read_bytes()
    out = tmp_path / "x.pdf"
    result = runner.invoke(app, ["forms", "--db", str(junk), "--round", "1", "-o", str(out)])
    assert result.exit_code == 2
    assert "not a BALL event database" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert junk.read_bytes() == before and not out.exists()


def test_output_suffix_and_directory_are_checked(tmp_path):
    result = runner.invoke(app, ["regulation", "-o", str(tmp_path / "reg.docx")])
    assert result.exit_code == 2 and "must end in .pdf or .html" in result.stderr
    result = runner.invoke(app, ["regulation", "-o", str(tmp_path / "missing" / "reg.pdf")])
    assert result.exit_code == 2 and "no such directory" in result.stderr
