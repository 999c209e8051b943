"""Rendered editions shared by the printing tests (one render per language per worker) and
helpers that read PDFs back with poppler's command-line tools, as a reader would."""

from __future__ import annotations

import fcntl
import os
import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

from ball.printing import Controls, Edition, render_html, render_pdf

POPPLER = all(shutil.which(tool) for tool in ("pdftotext", "pdffonts", "pdfinfo"))
# Outside CI a developer without poppler-utils skips these; CI ran the set-up, so there a
# missing poppler is a broken install and the tests run (and fail loudly).
needs_poppler = pytest.mark.skipif(
    not POPPLER and not os.environ.get("CI"), reason="poppler-utils is not installed"
)

# Controls as the web page has them: present in the HTML, never in print.
CONTROLS = Controls(
    pdf_url="/print/regulation.pdf?lang=en",
    languages=[("en", "English", "?lang=en"), ("ko", "한국어", "?lang=ko")],
    papers=[("a4", "A4", "?paper=a4"), ("letter", "Letter", "?paper=letter")],
)


@dataclass
class Rendered:
    edition: Edition
    pdf: Path

    @property
    def text(self) -> str:
        return pdftotext(self.pdf)

    @property
    def pages(self) -> list[str]:
        return self.text.split("\f")


def pdftotext(pdf: Path) -> str:
    out = subprocess.run(
        ["pdftotext", "-enc", "UTF-8", str(pdf), "-"], check=True, capture_output=True
    )
    return out.stdout.decode("utf-8")


def pdffonts(pdf: Path) -> list[dict[str, str]]:
    out = subprocess.run(["pdffonts", str(pdf)], check=True, capture_output=True, text=True)
    lines = out.stdout.splitlines()[2:]
    fonts = []
    for line in lines:
        # name, then type words, encoding, then emb sub uni, object id, generation
        cols = line.split()
        fonts.append({"name": cols[0], "emb": cols[-5], "sub": cols[-4], "uni": cols[-3]})
    return fonts


def pdfinfo(pdf: Path) -> dict[str, str]:
    out = subprocess.run(["pdfinfo", str(pdf)], check=True, capture_output=True, text=True)
    return dict(
        (key.strip(), value.strip())
        for key, _, value in (line.partition(":") for line in out.stdout.splitlines())
    )


def squash(text: str) -> str:
    """Whitespace-insensitive form: PDF text extraction wraps lines wherever the layout does."""
    return re.sub(r"\s+", " ", text).strip()


def render_to(tmp: Path, name: str, **kwargs) -> Rendered:
    edition = render_html(**kwargs)
    pdf = tmp / f"{name}.pdf"
    pdf.write_bytes(render_pdf(edition))
    return Rendered(edition, pdf)


EVENT = {"en": "Sofia Open 2026", "ko": "서울 오픈 2026", "bg": "Открит турнир Пловдив"}


@pytest.fixture(scope="session")
def regulation_pdfs(tmp_path_factory, worker_id) -> dict[str, Rendered]:
    """The full regulation edition in every language, rendered from the web page's HTML
    (controls included) so that any control leaking into print would show.

    PDFs are rendered once per test run and shared between xdist workers: each worker takes
    the languages it can lock and waits for the others (rendering is the slow part)."""
    base = tmp_path_factory.getbasetemp()
    shared = (base.parent if worker_id != "master" else base) / "printing-editions"
    shared.mkdir(exist_ok=True)
    editions = {
        lang: render_html("regulation", lang=lang, controls=CONTROLS, event=EVENT[lang])
        for lang in EVENT
    }
    pending = list(EVENT)
    while pending:
        for lang in list(pending):
            pdf = shared / f"regulation-{lang}.pdf"
            with open(shared / f"{lang}.lock", "w") as lock:
                try:
                    fcntl.flock(lock, fcntl.LOCK_EX | (fcntl.LOCK_NB if len(pending) > 1 else 0))
                except BlockingIOError:
                    continue  # another worker renders it; come back later
                if not pdf.exists():
                    partial = pdf.with_suffix(".part")
                    partial.write_bytes(render_pdf(editions[lang]))
                    partial.rename(pdf)
                pending.remove(lang)
    return {lang: Rendered(editions[lang], shared / f"regulation-{lang}.pdf") for lang in EVENT}
