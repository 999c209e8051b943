"""The print pages mounted on a bare FastAPI app: HTML with a print button that print CSS
hides, PDF downloads from the same source, and clear 400s for bad parameters."""

from __future__ import annotations

import re

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from ball.printing.render import labels
from ball.web.print.pages import router

from .conftest import needs_poppler, pdfinfo, pdftotext, squash


@pytest.fixture(scope="module")
def client() -> TestClient:
    app = FastAPI()
    app.include_router(router)
    return TestClient(app)


@pytest.mark.parametrize("lang", ["en", "ko", "bg"])
def test_regulation_page_has_print_button_and_downloads(client, lang):
    response = client.get("/print/regulation", params={"lang": lang})
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/html")
    html = response.text
    t = labels(lang)
    assert f'<html lang="{lang}">' in html
    assert t["controls"]["print"] in html and "window.print()" in html
    assert '<a class="home" href="/">' in html
    assert f'href="/print/regulation.pdf?lang={lang}&amp;paper=a4"' in html
    # the toolbar is the only thing hidden in print, by the print stylesheet itself
    assert 'class="controls" role="toolbar"' in html
    assert re.search(r"@media print\s*{[^}]*\.controls[^}]*display:\s*none", html)
    # the whole regulation and every form are in the one page that the button prints
    assert t["forms"]["score_sheet"]["title"] in html
    assert t["forms"]["release_log"]["title"] in html


def test_language_and_paper_switches_keep_the_other_choice(client):
    html = client.get("/print/regulation", params={"lang": "bg", "paper": "letter"}).text
    assert 'href="/print/regulation?lang=ko&amp;paper=letter"' in html
    assert 'href="/print/regulation?lang=bg&amp;paper=a4"' in html
    assert "@page { size: letter; }" in html


@needs_poppler
def test_regulation_pdf_download(client, tmp_path):
    response = client.get("/print/regulation.pdf", params={"lang": "ko", "paper": "letter"})
    assert response.status_code == 200
    assert response.headers["content-type"] == "application/pdf"
    assert "ball-regulation-ko.pdf" in response.headers["content-disposition"]
    pdf = tmp_path / "r.pdf"
    pdf.write_bytes(response.content)
    assert "(letter)" in pdfinfo(pdf)["Page size"]
    text = squash(pdftotext(pdf))
    assert "볼 클록" in text and labels("ko")["controls"]["print"] not in text


@needs_poppler
def test_blank_forms_pdf_download(client, tmp_path):
    response = client.get("/print/forms.pdf", params={"lang": "bg", "event": "Пловдив 2026"})
    assert response.status_code == 200
    pdf = tmp_path / "f.pdf"
    pdf.write_bytes(response.content)
    text = squash(pdftotext(pdf))
    assert "Пловдив 2026" in text
    assert labels("bg")["forms"]["score_sheet"]["title"] in text


@pytest.mark.parametrize(
    ("url", "params", "needle"),
    [
        ("/print/regulation", {"lang": "fr"}, "unknown language 'fr'"),
        ("/print/regulation.pdf", {"paper": "a5"}, "unknown paper size 'a5'"),
        ("/print/forms", {"lang": "xx"}, "unknown language 'xx'"),
    ],
)
def test_bad_parameters_are_400_with_a_reason(client, url, params, needle):
    response = client.get(url, params=params)
    assert response.status_code == 400
    assert needle in response.json()["detail"]
