"""Printed edition of BALL: the tournament regulation and its forms from one source.

`render_html` gives the document (screen and print CSS), `render_pdf` the PDF made from the
same HTML; `forms` holds the view models that print blank or pre-filled.
"""

from ball.printing.forms import FormSet, blank_forms
from ball.printing.render import (
    LANGUAGES,
    PAPERS,
    Controls,
    Edition,
    PrintingError,
    render_html,
    render_pdf,
)

__all__ = [
    "LANGUAGES",
    "PAPERS",
    "Controls",
    "Edition",
    "FormSet",
    "PrintingError",
    "blank_forms",
    "render_html",
    "render_pdf",
]
