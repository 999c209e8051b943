"""The knockout's drawings of lots that pairing and result entry share with its ties:
whether a knockout is drawn each round, the refusals that follow from it and from
mini-matches, a drawing's seed, and the toss of a bracket round's first colours (13.4),
logged (kind `toss`) with what replays it.
"""

from __future__ import annotations

import json
import secrets

from sqlalchemy.orm import Session

from ball.tournament import knockout, lots, ties
from ball.tournament.errors import TournamentError
from ball.tournament.models import Event
from ball.tournament.store import Store

DRAWN = "drawing of lots"  # the method of a round paired by `draw_round`
SEED_LIMIT = 2**31 - 1


def drawn_knockout(ev: Event) -> bool:
    """Whether the event's knockout rounds are paired by a drawing of lots (round 1 was)."""
    return ev.system == "knockout" and bool(ev.rounds_) and bool(ev.rounds_[0].lots)


def refuse_pairing(ev: Event) -> None:
    """`pair_next_round` on a knockout drawn each round: only a replay may be paired so."""
    if drawn_knockout(ev) and not knockout.replays_due(ev):
        raise TournamentError(
            "this knockout draws lots for each round: use 'ball round draw' (the draw pairs it)"
        )


def refuse_whole_result(ev: Event, round_number: int, table: int) -> None:
    """A table of a mini-match takes its results game by game."""
    if ties.has_minimatches(ev):
        raise TournamentError(
            f"round {round_number} table {table} is a mini-match of {ev.games_per_tie} games: "
            "enter each game with --game K"
        )


def seed_of(seed: int | None) -> int:
    if seed is None:
        return secrets.randbelow(SEED_LIMIT)  # printed and logged, so the draw replays
    if not 0 <= seed <= SEED_LIMIT:
        raise TournamentError(f"--seed must be 0 to {SEED_LIMIT}, got {seed}")
    return seed



# ------------------------------------------------------------------ colours by toss

def toss_colours(
    s: Session, ev: Event, number: int, tables: list[knockout.Table], method: str
) -> list[knockout.Table]:
    """A bracket round's first colours by toss (13.4), not by the upper slot: each
    match's toss from one fresh seed, logged (kind `toss`) with what replays it
    (`lots.colour_toss` over the logged matches). A replay of a drawn match keeps its
    swapped colours, and a round paired by lot cards has the red card's colours."""
    if knockout.REPLAY in method:
        return tables
    matches = [(a, b) for a, b, _ in tables if b is not None]
    if not matches:
        return tables
    seed = seed_of(None)
    upper_first = iter(lots.colour_toss([(a.name, b.name) for a, b in matches], seed))
    out: list[knockout.Table] = []
    tossed = []
    for a, b, kind in tables:
        if b is not None:
            keep = next(upper_first)
            out.append((a, b, kind) if keep else (b, a, kind))
            tossed.append([a.name, b.name, a.name if keep else b.name])
        else:
            out.append((a, b, kind))
    record = {"round": number, "seed": seed, "matches": tossed}
    Store.log(s, ev, "toss", json.dumps(record, ensure_ascii=False), round_number=number)
    return out
