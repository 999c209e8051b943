"""The groups-then-final use cases (seed 004 article 11.3), `TournamentService.groups`
(`GroupUseCases`, given to the rounds' pairing and the standings); the rules themselves
are in the pure `groups` module.

* `create_event(..., system="groups", groups=...)` stores the setup (`mark_group_event`);
* pairing round 1 seats the field in groups by snake seeding on rating (pairing numbers by
  rating, then registration); every group round pairs each group by the Berger tables;
* the first round after the group stage decides who qualifies (each group's ranking by
  points and the event's tie-break chain, E-14/E-15), logs it (kind `qualification`) and
  pairs the final: a seeded bracket (knockout, with the event's replays) or a round robin
  (with `carry`, group games between qualifiers count and are not replayed);
* `group_section`: the `groups` section of the standings (each group's table, who
  qualified, the final's table).

The game is the event's plug-in: nothing here knows BALL from Xiangqi.
"""

from __future__ import annotations

import json
from dataclasses import replace
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any, cast

from ball.games import game
from ball.tournament import crosstable, groups, knockout, standings
from ball.tournament.crosstable import Line
from ball.tournament.errors import TournamentError
from ball.tournament.models import Entrant, Event, GroupStage, Round
from ball.tournament.scoring import Scoring
from ball.tournament.store import Store

if TYPE_CHECKING:
    from sqlalchemy.orm import Session

GROUP_METHOD = "group stage"
FINAL_METHOD = "final"


def mark_group_event(s: Session, ev: Event, setup: groups.Setup | None) -> None:
    """Store the groups setup of a new `groups` event (refused for any other system)."""
    if setup is None and ev.system != "groups":
        return
    if ev.system != "groups":
        raise TournamentError("--groups, --final, --qualifiers and --carry need --system groups")
    if setup is None:
        raise TournamentError("--system groups needs --groups G (the number of groups)")
    groups.check(setup)
    s.add(
        GroupStage(
            event_id=ev.id,
            groups=setup.groups,
            cycles=setup.cycles,
            final=setup.final,
            qualifiers=setup.qualifiers,
            carry=setup.carry,
            seating="",
            final_seats="",
        )
    )
    s.flush()


def group_stage(s: Session, ev: Event) -> GroupStage | None:
    return s.get(GroupStage, ev.id) if ev.system == "groups" else None


def _setup(stage: GroupStage) -> groups.Setup:
    return groups.Setup(stage.groups, stage.cycles, stage.final, stage.qualifiers, stage.carry)


def _seating(stage: GroupStage) -> list[list[int]]:
    return cast(list[list[int]], json.loads(stage.seating)) if stage.seating else []


def _final_seats(stage: GroupStage) -> list[int | None]:
    return cast(list[int | None], json.loads(stage.final_seats)) if stage.final_seats else []


def _label(index: int) -> str:
    """Group 0 is A, ... Z, then AA, AB, ..."""
    letters = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        letters = chr(ord("A") + rest) + letters
    return letters


class GroupUseCases:
    """Groups and the final stage (a use case of `TournamentService`)."""

    def __init__(self, store: Store) -> None:
        self.store = store

    # ------------------------------------------------------------------ pairing

    def pair_group_event(
        self, s: Session, ev: Event, stage: GroupStage, number: int
    ) -> tuple[list[knockout.Table], str]:
        """Round `number` of a groups event: a group round, or a round of the final."""
        if number == 1:
            _seat_groups(ev, stage)
        if stage.group_rounds is None:
            raise TournamentError(
                "no groups: they are drawn when 'round pair' pairs round 1, and round 1 was "
                "set by hand (undo it with 'round undo' while it has no result, then pair it)"
            )
        by_id = {e.id: e for e in ev.entrants}
        if number <= stage.group_rounds:
            return _group_tables(stage, number, by_id), f"{GROUP_METHOD}: round {number}"
        if number == stage.group_rounds + 1:  # again after an undo: the groups may differ
            self._start_final(s, ev, stage, number)
        if stage.final == "knockout":
            return _knockout_tables(ev, stage, number, by_id)
        return _round_robin_tables(ev, stage, number, by_id)

    def _start_final(self, s: Session, ev: Event, stage: GroupStage, number: int) -> None:
        """Decide who qualifies from each group (11.3) and seat the final; logged. An
        entrant who has withdrawn does not qualify: the next in the group's ranking does."""
        tables = _group_tables_ranked(ev, stage, stage.group_rounds)
        active = {e.id for e in ev.entrants if e.status == "active"}
        chosen: list[list[int]] = []
        notes = []
        for index, ranked in enumerate(tables):
            still = [(r.rank, r.entrant_id) for r in ranked if r.entrant_id in active]
            got, tied = groups.qualified(still, stage.qualifiers)
            chosen.append(got)
            if tied:
                names = {e.id: e.name for e in ev.entrants}
                notes.append(
                    f"group {_label(index)}: {', '.join(names[t] for t in tied)} tied at the "
                    "cut after the whole chain; the higher seed goes through (E-15)"
                )
        if stage.final == "knockout":
            seats = groups.bracket(chosen)
        else:
            seats = list(groups.final_seats(chosen))
        stage.final_seats = json.dumps(seats)
        stage.final_start = number
        names = {e.id: e.name for e in ev.entrants}
        detail = "11.3: " + "; ".join(
            f"group {_label(i)}: {', '.join(names[x] for x in got)}" for i, got in enumerate(chosen)
        )
        self.store.log(s, ev, "qualification", detail, round_number=number)
        for note in notes:
            self.store.log(s, ev, "qualification", note, round_number=number)
        ev.rounds = number - 1 + _final_length(stage, seats)
        s.flush()

    # ------------------------------------------------------------------ standings

    def group_section(self, s: Session, ev: Event, upto: int | None) -> dict[str, Any] | None:
        """The `groups` section of the standings (None before the groups are seated)."""
        stage = group_stage(s, ev)
        if stage is None or not stage.seating:
            return None
        assert stage.group_rounds is not None
        paired = len(ev.rounds_) if upto is None else min(upto, len(ev.rounds_))
        # the stage is the one being played; the figures are after the last complete round
        last = standings.after_round(ev, upto)
        seats = [x for x in _final_seats(stage) if x is not None]
        out: dict[str, Any] = {
            "stage": "final" if stage.final_start and paired >= stage.final_start else "groups",
            "setup": {
                "groups": stage.groups,
                "cycles": stage.cycles,
                "final": stage.final,
                "qualifiers": stage.qualifiers,
                "carry": stage.carry,
            },
            "group_rounds": stage.group_rounds,
            "groups": [
                {
                    "group": _label(i),
                    "standings": [
                        {**row.as_dict(), "qualified": row.entrant_id in seats} for row in ranked
                    ],
                }
                for i, ranked in enumerate(
                    _group_tables_ranked(ev, stage, min(last, stage.group_rounds))
                )
            ],
            "final": None,
        }
        if stage.final_start is not None and paired >= stage.final_start:
            out["final"] = {
                "system": stage.final,
                "carry": stage.carry,
                "start_round": stage.final_start,
                "standings": [r.as_dict() for r in _final_ranked(ev, stage, last)],
            }
        return out


# ---------------------------------------------------------------------- group stage


def _seat_groups(ev: Event, stage: GroupStage) -> None:
    """Snake-seed the field (pairing numbers are by rating) into the groups."""
    field_ = sorted(
        (e for e in ev.entrants if crosstable.in_field(ev, e) and e.status == "active"),
        key=lambda e: e.number,
    )
    setup = groups.check(_setup(stage), len(field_))
    seated = groups.snake([e.id for e in field_], setup.groups)
    stage.seating = json.dumps(seated)
    stage.group_rounds = groups.group_rounds([len(g) for g in seated], setup.cycles)
    ev.rounds = stage.group_rounds + groups.planned_final_rounds(setup)  # shown until the final


def _group_tables(
    stage: GroupStage, number: int, by_id: dict[int, Entrant]
) -> list[knockout.Table]:
    seating = _seating(stage)
    largest = max(len(g) for g in seating)
    out: list[knockout.Table] = []
    for members in seating:
        for a, b in groups.group_round(len(members), largest, number, stage.cycles):
            first = by_id[members[a]]
            out.append((first, by_id[members[b]], None) if b is not None else (first, None, "pab"))
    return out


def _lines(ev: Event, upto: int) -> dict[int, Line]:
    return crosstable.build(ev, upto)


def _rank(ev: Event, lines: list[Line], reach: dict[int, int] | None = None) -> list[Any]:
    return standings.compute(
        sorted(lines, key=lambda x: x.number),
        Scoring.from_json(ev.scoring),
        json.loads(ev.tiebreaks),
        game(ev.game),
        round_robin=True,
        rules=ev.tiebreak_rules,
        reach=reach,
    )


def _group_tables_ranked(ev: Event, stage: GroupStage, upto: int | None) -> list[list[Any]]:
    """Each group's ranking after the group rounds up to `upto` (E-14)."""
    assert stage.group_rounds is not None
    upto = stage.group_rounds if upto is None else min(upto, stage.group_rounds)
    lines = _lines(ev, upto)
    out = []
    for members in _seating(stage):
        mine = [lines[i] for i in members if i in lines]
        out.append(_rank(ev, mine))
    return out


# ---------------------------------------------------------------------- the final


def _final_length(stage: GroupStage, seats: list[int | None]) -> int:
    if stage.final == "knockout":
        return int(len(seats)).bit_length() - 1
    return len(groups.final_rounds(len(seats), _carried(stage, seats)))


def _carried(stage: GroupStage, seats: list[int | None]) -> set[frozenset[int]]:
    """0-based seat pairs of the final whose group game is carried (same group)."""
    if not stage.carry:
        return set()
    group_of = {x: g for g, members in enumerate(_seating(stage)) for x in members}
    return {
        frozenset((i, j))
        for i, x in enumerate(seats)
        for j, y in enumerate(seats)
        if i < j and x is not None and y is not None and group_of[x] == group_of[y]
    }


def _final_rounds(ev: Event, stage: GroupStage, upto: int | None = None) -> list[Round]:
    assert stage.final_start is not None
    return [
        r
        for r in ev.rounds_
        if r.number >= stage.final_start and (upto is None or r.number <= upto)
    ]


def _knockout_rounds(rounds: list[Round]) -> list[Round]:
    """The final's rounds as a knockout's own: their methods without the final's prefix,
    so that `knockout` sees a replay as a replay (and stops at `--replays`)."""
    prefix = f"{FINAL_METHOD}: "
    return [
        cast(
            Round,
            SimpleNamespace(
                number=r.number, method=r.method.removeprefix(prefix), pairings=r.pairings
            ),
        )
        for r in rounds
    ]


def final_knockout(s: Session, ev: Event) -> Event | None:
    """A groups event's knockout final as a knockout of its own (`knockout`'s functions
    read it as they read a bracket knockout); None before the final or for another event."""
    stage = group_stage(s, ev)
    if stage is None or stage.final != "knockout" or stage.final_start is None:
        return None
    return _final_view(ev, stage)


def _final_view(ev: Event, stage: GroupStage) -> Event:
    """The final as a knockout of its own (its rounds only), for `knockout`'s functions,
    which read nothing else of an event."""
    view = SimpleNamespace(
        rounds_=_knockout_rounds(_final_rounds(ev, stage)),
        entrants=ev.entrants,
        knockout_replays=ev.knockout_replays,
        system="knockout",
    )
    return cast(Event, view)


def _knockout_tables(
    ev: Event, stage: GroupStage, number: int, by_id: dict[int, Entrant]
) -> tuple[list[knockout.Table], str]:
    if number == stage.final_start:
        slots = [by_id[x] if x is not None else None for x in _final_seats(stage)]
        return knockout.pair_in_order(slots), f"{FINAL_METHOD}: knockout (seeded from groups)"
    view = _final_view(ev, stage)
    replays = knockout.replays_due(view)
    if replays:
        ev.rounds = (ev.rounds or number) + 1
        return replays, f"{FINAL_METHOD}: {knockout.REPLAY}"
    knockout.refuse_lots_due(view)
    winners = knockout.stage_winners(view)
    if sum(1 for w in winners if w is not None) <= 1:
        raise TournamentError("the final is complete")
    return knockout.pair_in_order(winners), f"{FINAL_METHOD}: knockout"


def _round_robin_tables(
    ev: Event, stage: GroupStage, number: int, by_id: dict[int, Entrant]
) -> tuple[list[knockout.Table], str]:
    assert stage.final_start is not None
    seats = _final_seats(stage)
    carried = _carried(stage, seats)
    plan = groups.final_rounds(len(seats), carried)
    index = number - stage.final_start
    if index >= len(plan):
        raise TournamentError("the final is complete")
    out: list[knockout.Table] = []
    for a, b in groups.final_round(len(seats), plan[index], carried):
        first = by_id[cast(int, seats[a])]
        second = by_id[cast(int, seats[b])] if b is not None else None
        out.append((first, second, None if second else "pab"))
    return out, f"{FINAL_METHOD}: round robin, Berger round {plan[index]}"


def _final_ranked(ev: Event, stage: GroupStage, upto: int) -> list[Any]:
    """The final's ranking: a knockout by the stage reached, a round robin by points and
    the chain over the final's games (and, carried, the group games among qualifiers)."""
    assert stage.final_start is not None
    seats = {x for x in _final_seats(stage) if x is not None}
    lines = _lines(ev, upto)
    numbers = {lines[i].number for i in seats if i in lines}
    mine = []
    for i in sorted(seats):
        if i not in lines:
            continue
        line = lines[i]
        cells = [
            c
            for c in line.cells
            if (c.round >= stage.final_start and c.code != " ")
            or (stage.carry and c.round < stage.final_start and c.opponent in numbers)
        ]
        mine.append(replace(line, cells=cells))
    reach = None
    if stage.final == "knockout":
        rounds = _knockout_rounds(_final_rounds(ev, stage, upto))
        reach = knockout.stages_reached(rounds, ev.knockout_replays)
    return _rank(ev, mine, reach)
