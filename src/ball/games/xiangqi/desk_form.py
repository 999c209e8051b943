"""The desk's Xiangqi result form: its fields (`xq_*`) read into the arbiter's result
document in one step, and filled back from a stored document for a correction. The
document's rules are the game's (`ball.games.xiangqi.game`), not the form's."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ball.games.forms import form_int
from ball.i18n import N_

FIELDS = ("xq_result", "xq_reason", "xq_fouls_A", "xq_fouls_B", "xq_moves", "xq_article")
# How a game ends (`game.REASONS`, seed 4.1/4.2/21.4), as the form names them.
REASON_LABELS = {
    "checkmate": N_("checkmate"),
    "facing-generals": N_("facing generals"),
    "no-legal-move": N_("no legal move"),
    "time": N_("time"),
    "illegal-move": N_("illegal move"),
    "forbidden-move": N_("forbidden move"),
    "three-fouls": N_("three fouls"),
    "resignation": N_("resignation"),
    "refusal": N_("refusal"),
    "forfeit": N_("forfeit"),
    "insufficient-material": N_("insufficient material"),
    "agreement": N_("agreement"),
    "repetition": N_("repetition"),
    "natural-move-limit": N_("natural move limit"),
    "arbiter": N_("arbiter's ruling"),
}
# The steps of the Xiangqi ladder (`sanctions.toml`), which the form shows as `_(step)`.
LADDER_STEPS = (N_("warning"), N_("disqualification"))


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


def offer(values: Mapping[str, str], recorded: Mapping[str, Any]) -> dict[str, str]:
    """The empty form filled from the game recorded on the table's board: the arbiter still
    checks and saves. A form that holds a result already (a correction) is left as it is."""
    if values.get("xq_result"):
        return dict(values)
    return {
        **values,
        "kind": "sheet",
        "xq_result": recorded["result"],
        "xq_reason": recorded["reason"],
        "xq_moves": str(recorded["moves"]),
        "xq_article": recorded["article"] if recorded["reason"] == "arbiter" else "",
    }
