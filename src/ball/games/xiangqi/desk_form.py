"""The desk's Xiangqi result form: its fields (`xq_*`) read into the arbiter's result
document in one step, and filled back from a stored document for a correction. The
document's rules are the game's (`ball.games.xiangqi.game`), not the form's."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ball.games.forms import form_int

FIELDS = ("xq_result", "xq_reason", "xq_fouls_A", "xq_fouls_B", "xq_moves", "xq_article")


def document_from_form(form: Mapping[str, Any], a: str, b: str) -> dict[str, Any]:
    """The result document of the form's fields, player A (Red) first."""
    fouls = {
        name: form_int(form, f"xq_fouls_{side}", default=0, high=99)
        for side, name in (("A", a), ("B", b))
    }
    doc: dict[str, Any] = {
        "players": [a, b],
        "result": (form.get("xq_result") or "").strip(),
        "reason": (form.get("xq_reason") or "").strip(),
        "fouls": fouls,
    }
    moves = form_int(form, "xq_moves", high=99_999)
    if moves is not None:
        doc["moves"] = moves
    article = (form.get("xq_article") or "").strip()
    if article:
        doc["article"] = article
    return doc


def form_values(doc: Mapping[str, Any], a: str, b: str) -> dict[str, str]:
    """The form's fields of a stored result document."""
    values = {"xq_result": str(doc.get("result", "")), "xq_reason": str(doc.get("reason", ""))}
    fouls = doc.get("fouls") or {}
    for side, name in (("A", a), ("B", b)):
        values[f"xq_fouls_{side}"] = str(fouls.get(name, 0))
    if doc.get("moves") is not None:
        values["xq_moves"] = str(doc["moves"])
    values["xq_article"] = str(doc.get("article") or "")
    return values
