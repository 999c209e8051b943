"""The arbiter desk's share of a groups event (seed 004, 11.3; issue 17): the new-event
form's groups options and default time (21.1), read into the core's `groups.Setup`, and the
group tables the desk's event and round pages show.

The tables are `ball.web.public.display.groups_context`, the very read the public groups page uses,
so the desk and the hall show the same ranks, points, tie-breaks and qualifiers; no rule is
recomputed here. Pairing the final is the desk's ordinary *Pair round N* (`pair_next_round`,
as `ball round pair` does): the core knows when the group stage is over.
"""

from __future__ import annotations

from typing import Any

from ball.games.forms import form_int
from ball.tournament.errors import TournamentError
from ball.tournament.groups import Setup
from ball.tournament.service import TournamentService
from ball.tournament.views import EventView
from ball.web.public.display import groups_context

FINAL_KINDS = ("knockout", "round-robin")


def group_options(form: dict[str, Any]) -> dict[str, Any]:
    """`create_event`'s `groups=` and `default_time=` from the form, when it sets them.
    The core's `groups.check` judges the setup; here only the form's own shape is refused."""
    options: dict[str, Any] = {}
    default_time = form_int(form, "default_time", low=0, high=24 * 60)
    if default_time is not None:
        options["default_time"] = default_time
    count = form_int(form, "groups", low=1, high=1000)
    carry = form.get("carry") in ("1", "on", "true")
    final = form.get("final") or "knockout"
    if final not in FINAL_KINDS:
        raise TournamentError(f"final: is {' or '.join(FINAL_KINDS)}; got {final!r}")
    if count is None:
        if form.get("system") == "groups":
            raise TournamentError("groups: a groups event needs the number of groups")
        return options
    if form.get("system") != "groups":
        raise TournamentError("groups: the number of groups is for the groups system only")
    options["groups"] = Setup(
        groups=count,
        cycles=form_int(form, "group_cycles", default=1, low=1, high=2) or 1,
        final=final,
        qualifiers=form_int(form, "qualifiers", default=2, low=1, high=1000) or 2,
        carry=carry,
    )
    return options


def desk_group_tables(svc: TournamentService, event: EventView) -> dict[str, Any]:
    """The template context of a groups event's tables (empty for any other system)."""
    if event.system != "groups":
        return {}
    try:
        return {"group_tables": groups_context(svc, event)}
    except TournamentError:
        # the standings cannot be read yet (the public page answers 400): the desk page
        # still opens so the arbiter can act, without the tables
        return {}
