"""Knockout brackets: byes up to the next power of two, seeds kept apart until late rounds."""

from __future__ import annotations

import math
from collections.abc import Sequence

from ball.tournament import crosstable, stored_json
from ball.tournament.errors import TournamentError
from ball.tournament.event_rows import EventData, PairingData, ResultData, RoundData
from ball.tournament.models import Entrant, Event, Pairing

# One table of a round to store: (coach A, coach B or None, the bye's kind or None).
Table = tuple[Entrant, Entrant | None, str | None]


def bracket_size(n: int) -> int:
    size = 1
    while size < n:
        size *= 2
    return size


def seed_positions(size: int) -> list[int]:
    """Seeds in bracket order: seed 1 and 2 can meet only in the final, 1-4 in the semis..."""
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [s for seed in order for s in (seed, total - seed)]
    return order


def first_round(seeds: list[int]) -> list[tuple[int | None, int | None]]:
    """Slot pairs of round 1 for entrants given in seed order; None is an empty slot (bye)."""
    size = bracket_size(len(seeds))
    slots = [seeds[s - 1] if s <= len(seeds) else None for s in seed_positions(size)]
    return [(slots[i], slots[i + 1]) for i in range(0, size, 2)]


# ------------------------------------------------------------------------------ ranking
#
# A knockout ranks by the stage reached: the winner, the runner-up, then the losers of the
# semi-finals, of the quarter-finals, and so on. Entrants out in the same stage share a rank
# (they lost to different opponents; points or tie-breaks would compare games of different
# halves of the bracket). Replays of a drawn match belong to the match's stage.

REPLAY = "knockout replay"  # how a replay round's method starts


def stages_reached(rounds: Sequence[RoundData], replays_allowed: int) -> dict[int, int]:
    """Entrant id -> stage reached (1 = the first round); the winners of the latest stage
    count one stage further, so the champion is ahead of the runner-up."""
    reach: dict[int, int] = {}
    stage = 0
    latest: list[PairingData] = []
    for rnd in rounds:
        if rnd.method.startswith(REPLAY):
            continue
        stage += 1
        latest = list(rnd.pairings)
        for p in latest:
            for entrant_id in (p.a_id, p.b_id):
                if entrant_id is not None:
                    reach[entrant_id] = stage
    replays = [p for r in rounds if r.method.startswith(REPLAY) for p in r.pairings]
    for p in latest:
        winner = match_winner(p, replays, replays_allowed)
        if winner is not None:
            reach[winner] = stage + 1
    return reach


def match_winner(
    first: PairingData, replays: Sequence[PairingData], replays_allowed: int
) -> int | None:
    """The entrant id who goes through, or None while the match is undecided (or nobody
    does: a double forfeit). A draw after the last replay allowed (the extra games of
    article 6) goes to the drawing of lots the arbiter enters (`lots_winner`); until then
    the match is undecided."""
    if first.b_id is None or first.b is None:
        return first.a_id
    pair = {first.a_id, first.b_id}
    games = [first] + [q for q in replays if {q.a_id, q.b_id} == pair]
    last = games[-1]
    outcome = last.result.outcome if last.result is not None else None
    if outcome == "A":
        return last.a_id
    if outcome == "B":
        return last.b_id
    if outcome == "D" and len(games) - 1 >= replays_allowed:
        side = lots_winner(last.result)
        return {"A": last.a_id, "B": last.b_id}.get(side or "")
    return None


def lots_winner(result: ResultData | None) -> str | None:
    """The side ("A" or "B" of that table) a drawing of lots after a drawn last game sent
    through (article 6), as the arbiter entered it into the result; None when none was."""
    if result is None or not result.decision:
        return None
    found = stored_json.loads(result.decision).get("lots")
    winner = found.get("winner") if isinstance(found, dict) else None
    return winner if winner in ("A", "B") else None


def lots_due(ev: Event) -> list[Pairing]:
    """The latest stage's matches drawn after their last replay and not yet decided by
    lots: each as its last game's table."""
    stage: list[Pairing] = []
    for r in ev.rounds_:
        if not r.method.startswith(REPLAY):
            stage = list(r.pairings)
    replays = [p for r in ev.rounds_ if r.method.startswith(REPLAY) for p in r.pairings]
    out = []
    for p in stage:
        if p.b_id is None:
            continue
        games = [p] + [q for q in replays if {q.a_id, q.b_id} == {p.a_id, p.b_id}]
        last = games[-1]
        drawn = last.result is not None and last.result.outcome == "D"
        if drawn and len(games) - 1 >= ev.knockout_replays and lots_winner(last.result) is None:
            out.append(last)
    return out


def refuse_lots_due(ev: Event) -> None:
    """No next stage while a match waits for its drawing of lots (article 6)."""
    due = lots_due(ev)
    if due:
        p = due[0]
        raise TournamentError(
            f"round {p.round.number} table {p.table} was drawn after its last replay: decide "
            f"it by lots first (on the desk's page of round {p.round.number}, or 'ball result lots "
            f"--round {p.round.number} --table {p.table}')"
        )


def reach(ev: EventData, upto: int | None) -> dict[int, int] | None:
    """A knockout's ranking key (stage reached) after round `upto`; None for the other
    systems, which rank by points."""
    if ev.system != "knockout":
        return None
    rounds = [r for r in ev.rounds_ if upto is None or r.number <= upto]
    return stages_reached(rounds, ev.knockout_replays)


# ------------------------------------------------------------------------------ pairing
#
# The next round of a knockout: round 1 is the seeded (or drawn) bracket; after it, a
# drawn match is replayed (colours swapped) while replays are left, and otherwise the
# winners of the latest stage meet in bracket order.


def pair_round(ev: Event, number: int) -> tuple[list[Table], str]:
    """The tables of round `number` and the pairing method to record."""
    if number == 1:
        return _first_round(ev)
    replays = replays_due(ev)
    if replays:
        done = sum(1 for r in ev.rounds_ if r.method.startswith(REPLAY))
        return replays, f"{REPLAY} {done + 1}"
    refuse_lots_due(ev)
    stage = stage_winners(ev)
    if sum(1 for w in stage if w is not None) <= 1:
        raise TournamentError("the knockout is complete")
    return pair_in_order(stage), "knockout"


def _first_round(ev: Event) -> tuple[list[Table], str]:
    seeds = sorted((e for e in ev.entrants if crosstable.in_field(ev, e)), key=lambda e: e.number)
    if ev.rounds is None:
        ev.rounds = int(math.log2(bracket_size(len(seeds))))
    by_number = {e.number: e for e in seeds}
    slots = [
        (by_number[a] if a is not None else None, by_number[b] if b is not None else None)
        for a, b in first_round([e.number for e in seeds])
    ]
    return pair_in_order([x for slot in slots for x in slot]), (
        "knockout (seeded)" if ev.draw_lots_seed is None else "knockout (drawn)"
    )


def pair_in_order(stage: list[Entrant | None]) -> list[Table]:
    """Neighbours in bracket order meet; one alone has a bye; two empty slots, nothing."""
    out: list[Table] = []
    for i in range(0, len(stage), 2):
        a, b = stage[i], stage[i + 1] if i + 1 < len(stage) else None
        if a is not None and b is not None:
            out.append((a, b, None))
        elif a is not None:
            out.append((a, None, "pab"))
        elif b is not None:
            out.append((b, None, "pab"))
    return out


def replays_due(ev: Event) -> list[Table]:
    """The drawn matches of the latest round that still have a replay, colours swapped."""
    out: list[Table] = []
    for p in ev.rounds_[-1].pairings:
        drawn = p.b is not None and p.result is not None and p.result.outcome == "D"
        if drawn and p.b is not None and replays_of(ev, p) < ev.knockout_replays:
            out.append((p.b, p.a, None))
    return out


def replays_of(ev: Event, pairing: Pairing) -> int:
    """How many replays the match of `pairing` has had."""
    pair = frozenset((pairing.a_id, pairing.b_id))
    return sum(
        1
        for r in ev.rounds_
        if r.method.startswith(REPLAY)
        for p in r.pairings
        if p.b_id is not None and frozenset((p.a_id, p.b_id)) == pair
    )


def stage_winners(ev: Event) -> list[Entrant | None]:
    """Winners of the latest stage in bracket order, replays resolved."""
    stage: list[Pairing] = []
    for r in ev.rounds_:
        if not r.method.startswith(REPLAY):
            stage = list(r.pairings)
    replays = [p for r in ev.rounds_ if r.method.startswith(REPLAY) for p in r.pairings]
    by_id = {e.id: e for e in ev.entrants}
    winners = (match_winner(p, replays, ev.knockout_replays) for p in stage)
    return [by_id[w] if w is not None else None for w in winners]
