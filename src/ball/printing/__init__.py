"""Printed edition: BALL's tournament regulation and every game's forms from one source.

`render_html` gives the document (screen and print CSS), `render_pdf` the PDF made from the
same HTML; `forms` holds the shared view models that print blank or pre-filled, and the
`GameForms` hook through which each game prints its own (its `paper/` folder);
`blank_forms` is the regulation's appendices, blank.
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
