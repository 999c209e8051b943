"""A Mahjong seat's QR code read back from the printed session forms (issue 35 §1): the PDF
the print page renders (WeasyPrint), rasterised by poppler's pdftoppm, each code read by
zxing-cpp; the codes are the seats' links, and one opens its seat's page."""

from __future__ import annotations

import re
import subprocess

import pytest

from ball.web.core.deps import service_for

from .conftest import desk_event
from .test_mahjong_desk import seat_mahjong

LINK = re.compile(r"^http://testserver/t/(\d+-1-(\d+)([eswn])-[A-Za-z0-9_-]{22})$")


@pytest.fixture
def seated(request, client):
    return desk_event(request, client, seat_mahjong)


def test_the_session_pdf_prints_each_seats_own_link(client, seated, tmp_path):
    import zxingcpp
    from PIL import Image

    pdf = client.get(f"/print/forms.pdf?round=1&event={seated}")
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")
    (tmp_path / "session.pdf").write_bytes(pdf.content)
    subprocess.run(
        ["pdftoppm", "-r", "150", "-gray", "-png", str(tmp_path / "session.pdf"),
         str(tmp_path / "page")],
        check=True,
    )  # fmt: skip
    found: dict[tuple[int, str], str] = {}
    for image in sorted(tmp_path.glob("page-*.png")):
        for code in zxingcpp.read_barcodes(Image.open(image)):
            match = LINK.match(code.text)
            assert match, f"a code on {image.name} is no seat's link: {code.text!r}"
            found[int(match.group(2)), match.group(3).upper()] = match.group(1)
    tokens = service_for(client.app).seat_links.seat_link_tokens(seated, 1)
    assert found == {(t, w): token for t, winds in tokens.items() for w, token in winds.items()}
    seats = service_for(client.app).mahjong_desk.mahjong_session(seated, 1)["tables"][1]["seats"]
    page = client.get(f"/t/{found[2, 'W']}")
    assert page.status_code == 200
    assert f"This link is {seats['W']}&#39;s (seat W)." in page.text
