"""Lateness on the desk's result form (seed 004 articles 21-22; issue 17): per side "late
(minutes)" or "did not come", read from the form and ruled by the core
(`TournamentService.lateness_ruling`, the pure `lateness.rule`): within the default time the
game is played and its sheet is still needed (21.1, 21.2, 21.3); past it that side loses by
forfeit (21.1, 22.1); both past it, a double forfeit (21.3). The ruling is shown in the
check and recorded and logged by `record_table_result(..., late=)`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ball.games.forms import form_int
from ball.tournament import lateness
from ball.tournament.errors import TournamentError
from ball.tournament.service import TournamentService
from ball.web.core.templating import N_

CHECKED = ("1", "on", "true")
WITHIN = N_("Late within the default time: the game is played; enter its sheet (%(articles)s).")
ONE_OUT = N_("%(name)s past the default time loses by forfeit (%(articles)s).")
BOTH_OUT = N_("Both past the default time: double forfeit (%(articles)s).")


def late_from_form(form: dict[str, Any]) -> dict[str, int | None]:
    """Side -> minutes late (None: did not come) for the sides the form marks late."""
    late: dict[str, int | None] = {}
    for side in lateness.SIDES:
        minutes = form_int(form, f"late_{side}", low=0, high=lateness.MAX_MINUTES)
        absent = form.get(f"absent_{side}") in CHECKED
        if absent and minutes is not None:
            raise TournamentError(f"late_{side}: give minutes late or 'did not come', not both")
        if absent or minutes is not None:
            late[side] = None if absent else minutes
    return late


def _sheet_given(form: dict[str, Any]) -> bool:
    """Whether any field of the score sheet (`h1_...`, `h2_...`) is filled in."""
    return any(
        key[:3] in ("h1_", "h2_") and isinstance(value, str) and value.strip()
        for key, value in form.items()
    )


def ruled_preview(
    svc: TournamentService,
    event_id: int,
    form: dict[str, Any],
    names: dict[str, str],
    gettext: Callable[[str], str],
    played: Callable[[], dict[str, Any]],
) -> tuple[dict[str, Any], dict[str, int | None]]:
    """The check of a result form with its lateness: `played()` (the ordinary preview) when
    nobody was late past the default time, the ruling's forfeit otherwise; and the lateness
    to pass to `record_table_result`."""
    try:
        late = late_from_form(form)
        if not late:
            return played(), late
        ruling = svc.lateness.lateness_ruling(event_id, late)
        if (form.get("kind") or "sheet") != "sheet":
            raise TournamentError("kind: lateness decides the forfeit itself; choose the sheet")
        if ruling.forfeit is not None and _sheet_given(form):
            raise TournamentError(f"{ruling.text}: the game is lost by forfeit, give no sheet")
    except TournamentError as exc:
        return {"ok": False, "error": str(exc)}, {}
    articles = ", ".join(ruling.articles)
    if ruling.forfeit is None:
        checked = played()
        if checked["ok"]:
            checked["late_text"] = gettext(WITHIN) % {"articles": articles}
        return checked, late
    if ruling.forfeit == "both":
        text = gettext(BOTH_OUT) % {"articles": articles}
    else:
        text = gettext(ONE_OUT) % {"name": names[ruling.forfeit], "articles": articles}
    return {"ok": True, "kind": "lateness", "text": text, "late_text": text}, late
