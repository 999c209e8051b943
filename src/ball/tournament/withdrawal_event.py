"""Article 20 applied to a stored event: which ruling of `withdrawal.classify` holds for each
withdrawn entrant, read from the event itself (system, the round they left after, the games
they played), so the crosstable, the standings and the TRF all apply the same ruling.

Nothing is stored besides the entrant's status and `withdrawn_after`: the ruling is derived
each time, so a result corrected later (a game turned into a forfeit) moves it with it.
* Played games: the entrant's games with an opponent in rounds 1..withdrawn_after that were
  not forfeited (a forfeit is not a game played, E-20).
* Scheduled games: every game of the entrant's Berger table, (field - 1) per cycle.

A groups event (seed 004, 11.3) rules a withdrawal during the group stage as a round
robin's over the entrant's group ((group size - 1) per cycle; E-27), and one after it, in
the final, as a Swiss or a knockout (results stand, 20.4 / E-10).
"""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy.orm import object_session

from ball.tournament import withdrawal
from ball.tournament.event_rows import EntrantData, EventData
from ball.tournament.models import GroupStage

ROUND_ROBINS = ("round-robin", "double-round-robin")


def _field_size(ev: EventData) -> int:
    # Who withdrew before the start is not in the table (crosstable.in_field, 20.2).
    return sum(1 for e in ev.entrants if not (e.status == "withdrawn" and not e.withdrawn_after))


def games_played(ev: EventData, entrant: EntrantData) -> int:
    """Games with an opponent, not forfeited, in the rounds paired before the withdrawal."""
    last = entrant.withdrawn_after or 0
    played = 0
    for rnd in ev.rounds_:
        if rnd.number > last:
            continue
        for p in rnd.pairings:
            if p.b_id is None or entrant.id not in (p.a_id, p.b_id):
                continue
            if p.result is None or p.result.kind not in ("forfeit", "double-forfeit"):
                played += 1
    return played


def _in_group_stage(ev: EventData, entrant: EntrantData) -> int | None:
    """For an entrant of a groups event who left during the group stage: the games their
    group's round robin gave them; None otherwise."""
    session = object_session(ev)
    stage = session.get(GroupStage, ev.id) if session is not None else None
    if stage is None or not stage.seating or stage.group_rounds is None:
        return None
    if (entrant.withdrawn_after or 0) >= stage.group_rounds:
        return None
    for members in json.loads(stage.seating):
        if entrant.id in members:
            return (len(members) - 1) * stage.cycles
    return None


def ruling(ev: EventData, entrant: EntrantData) -> withdrawal.Ruling | None:
    """The article-20 ruling for a withdrawn entrant (None for an active one)."""
    if entrant.status != "withdrawn":
        return None
    system = ev.system if ev.system in withdrawal.SYSTEMS else "swiss"
    if not entrant.withdrawn_after:
        return withdrawal.classify(system, started=False, remaining=_field_size(ev))
    cycles = 2 if ev.system == "double-round-robin" else 1
    scheduled = (_field_size(ev) - 1) * cycles if ev.system in ROUND_ROBINS else 0
    if ev.system == "groups" and (in_group := _in_group_stage(ev, entrant)) is not None:
        system, scheduled = "round-robin", in_group
    played = games_played(ev, entrant)
    return withdrawal.classify(
        system, started=True, played=played, scheduled=max(scheduled, played)
    )


def cancelled(ev: EventData, entrant: EntrantData) -> bool:
    """Whether all the entrant's results are cancelled (20.3, fewer than half played)."""
    found = ruling(ev, entrant)
    return found is not None and found.action == "cancel-results"


def cancelled_ids(ev: EventData) -> set[int]:
    if ev.system not in (*ROUND_ROBINS, "groups"):
        return set()
    return {e.id for e in ev.entrants if cancelled(ev, e)}


def as_dict(ev: EventData, entrant: EntrantData) -> dict[str, Any] | None:
    """The ruling as the standings and the CLI show it."""
    found = ruling(ev, entrant)
    if found is None:
        return None
    return {
        "after_round": entrant.withdrawn_after or 0,
        "played": games_played(ev, entrant),
        "action": found.action,
        "forfeit_remaining": found.forfeit_remaining,
        "article": found.article,
        "reason": found.reason,
    }


def summary(ev: EventData) -> list[dict[str, Any]]:
    """Every withdrawn entrant with the ruling that applies, in withdrawal order."""
    out = []
    for e in sorted(ev.entrants, key=lambda x: (x.withdrawn_after or 0, x.registered)):
        found = as_dict(ev, e)
        if found is not None:
            out.append({"name": e.name, **found})
    return out
