"""Knockout brackets: byes up to the next power of two, seeds kept apart until late rounds."""

from __future__ import annotations

from ball.tournament.models import Pairing, Round


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


def stages_reached(rounds: list[Round], replays_allowed: int) -> dict[int, int]:
    """Entrant id -> stage reached (1 = the first round); the winners of the latest stage
    count one stage further, so the champion is ahead of the runner-up."""
    reach: dict[int, int] = {}
    stage = 0
    latest: list[Pairing] = []
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


def match_winner(first: Pairing, replays: list[Pairing], replays_allowed: int) -> int | None:
    """The entrant id who goes through, or None while the match is undecided (or nobody
    does: a double forfeit). A draw after the last replay allowed: the higher seed."""
    if first.b_id is None:
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
        return first.a_id if first.a.number < first.b.number else first.b_id
    return None
