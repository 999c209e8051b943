"""The public standings' "what I need" (issue 35 §3): beside a player that "find my name"
found, while a round is being played, the rank each result of their own table would give
them (`TournamentService.what_i_need`, which writes nothing), e.g. "win → rank 1 · draw →
rank 3 · loss → rank 5". Exact when their table is the last one of the round without a
result; otherwise a range of ranks, as points alone allow it.

Asked only for the players found (at most `MAX_PLAYERS`), not for the whole table: each
costs up to three rankings of the event.
"""

from __future__ import annotations

from typing import Any

from ball.tournament.errors import TournamentError
from ball.tournament.service import TournamentService
from ball.web.core.templating import N_

MAX_PLAYERS = 5
# The player's own result, as the line says it (message ids, translated in the template).
OWN = {"win": N_("win"), "draw": N_("draw"), "loss": N_("loss")}


def needs_of(svc: TournamentService, event_id: int, names: list[str]) -> dict[str, dict[str, Any]]:
    """Name -> what the template shows of their need; players without one are left out
    (a bye, a result already in, no round being played, an event that does not rank by
    results of two-player tables)."""
    try:
        found = svc.what_if.what_i_need(names[:MAX_PLAYERS], event=event_id)
    except TournamentError:  # the event is gone meanwhile: the page says nothing more
        return {}
    return {
        n.name: {
            "round": n.round,
            "table": n.table,
            "opponent": n.opponent,
            "exact": n.exact,
            "ranks": [(OWN[own], best, worst) for own, best, worst in n.ranks],
        }
        for n in found
    }
