"""A stored knockout tie read back: the event's mini-match policy, the state of a pairing's
tie folded from its stored games (`minimatch.fold`), and the tie as plain data for the
CLI, the API and the standings.

Only events with more than one game per tie have mini-matches; with one game (the default)
a tie is the table's single result, replays and all, as `knockout` has always done.
"""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

from ball.tournament.errors import TournamentError
from ball.tournament.event_rows import EventData
from ball.tournament.minimatch import Policy, TieState, first_colour, fold
from ball.tournament.models import Event, Pairing
from ball.tournament.standings import Standing


def policy_of(ev: Event) -> Policy:
    return Policy(ev.games_per_tie or 1, ev.tie_extra_games or 0, ev.tie_break or "lots")


def has_minimatches(ev: EventData) -> bool:
    return (ev.games_per_tie or 1) > 1


def state(ev: Event, pairing: Pairing) -> TieState:
    """The tie of `pairing` after the games stored for it."""
    games = [g for g in pairing.tie_games if g.kind != "lots"]
    lots = [g for g in pairing.tie_games if g.kind == "lots"]
    return fold(policy_of(ev), [g.outcome for g in games], lots[0].outcome if lots else None)


def side_name(pairing: Pairing, side: str | None) -> str | None:
    if side == "A":
        return pairing.a.name
    if side == "B" and pairing.b is not None:
        return pairing.b.name
    return None


def view(ev: Event, pairing: Pairing) -> dict[str, Any] | None:
    """The tie at a table as data, or None when the event plays one game per tie."""
    if not has_minimatches(ev) or pairing.b_id is None:
        return None
    now = state(ev, pairing)
    out = now.as_dict()
    out["winner"] = side_name(pairing, now.winner)
    out["next_first"] = side_name(pairing, out["next_first"])
    out["games"] = [
        {
            "game": g.game,
            "first": side_name(pairing, first_colour(g.game)),
            "kind": g.kind,
            "outcome": g.outcome,
        }
        for g in pairing.tie_games
        if g.kind != "lots"
    ]
    out["lots"] = next(
        (_lots_view(pairing, g.decision) for g in pairing.tie_games if g.kind == "lots"), None
    )
    return out


def _lots_view(pairing: Pairing, decision: str) -> dict[str, Any]:
    record = json.loads(decision) if decision else {}
    return {"seed": record.get("seed"), "winner": record.get("winner")}


def of_entrant(ev: Event, entrant_id: int) -> list[dict[str, Any]]:
    """Every mini-match tie an entrant played, in round order (for the standings)."""
    out: list[dict[str, Any]] = []
    for rnd in ev.rounds_:
        for p in rnd.pairings:
            if p.b_id is None or entrant_id not in (p.a_id, p.b_id):
                continue
            now = state(ev, p)
            mine, theirs = ("A", "B") if p.a_id == entrant_id else ("B", "A")
            out.append(
                {
                    "round": rnd.number,
                    "table": p.table,
                    "opponent": side_name(p, theirs),
                    "points": now.points[mine],
                    "opponent_points": now.points[theirs],
                    "extra_points": now.extra_points[mine],
                    "opponent_extra_points": now.extra_points[theirs],
                    "decided": now.decided,
                    "won": now.winner == mine if now.decided else None,
                    "how": now.how,
                }
            )
    return out


def check_policy(system: str, games: int, extra_games: int, tie_break: str) -> Policy:
    """The tie policy of a new event; only a knockout has ties to play as mini-matches."""
    policy = Policy(games, extra_games, tie_break)
    if system != "knockout" and policy != Policy():
        raise TournamentError(
            f"games per tie, extra games and a tie's tie-break are for a knockout, not a {system}"
        )
    if policy.games == 1 and policy != Policy():
        # One game per tie keeps the replays of a drawn match (E-06): nothing to extend.
        raise TournamentError(
            "extra games and a tie's tie-break need a mini-match: --games-per-tie 2 or more"
        )
    return policy


def policy_summary(ev: Event) -> dict[str, Any]:
    """The tie policy for an event's summary (nothing when one game decides a tie)."""
    return {"ties": policy_of(ev).as_dict()} if has_minimatches(ev) else {}


def with_ties(ev: EventData, table: list[Standing]) -> list[Standing]:
    """The standings rows with each entrant's ties (mini-match events only)."""
    if not has_minimatches(ev):
        return table
    # A mini-match event ranks from the ORM event (`event_rows.plain_ranks`): its ties are
    # each pairing's stored games, which plain rows do not hold.
    assert isinstance(ev, Event)
    return [replace(row, ties=of_entrant(ev, row.entrant_id)) for row in table]
