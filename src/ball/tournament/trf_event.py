"""A stored event to and from TRF: what `ball.tournament.trf` (the format alone) writes for
an event, and the event, entrants, rounds and results an imported file becomes.

The game is the event's: a forfeit's figures on import come from the game the importer
names (`--game`), never from an assumed one.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

from sqlalchemy.orm import Session

from ball.games.protocol import Game
from ball.tournament import crosstable, knockout, standings, trf
from ball.tournament.errors import TournamentError
from ball.tournament.forfeits import forfeit_result
from ball.tournament.models import Entrant, Event, Pairing, Result, Round
from ball.tournament.names import look_alike_key
from ball.tournament.scoring import Scoring

IMPORTED = "imported (TRF)"  # the method of an imported round


# ------------------------------------------------------------------------------ export


def export(
    ev: Event,
    upto: int,
    *,
    absent: list[int] | None = None,
    ranked: bool = True,
    team: trf.Extras | None = None,
) -> str:
    """TRF of rounds 1..upto; `absent` (pairing numbers) become an XXZ record (pairing
    input only: gacrux's checker would apply it to every round). The pairing engine reads
    start numbers, not ranks, so pairing input skips the standings (`ranked=False`) and
    BALL's own records. `team` holds a team event's boards, ranking and 013 teams."""
    lines = crosstable.build(ev, upto)
    ranks = {s.entrant_id: s.rank for s in standings.of_event(ev, upto)} if ranked else {}
    return trf.write(
        name=ev.name,
        place=ev.place,
        date_start=ev.date_start,
        date_end=ev.date_end,
        system=ev.system,
        arbiter=ev.arbiter,
        rounds=declared_rounds(ev, upto),
        initial_colour=ev.initial_colour,
        scoring=Scoring.from_json(ev.scoring),
        lines=sorted(lines.values(), key=lambda x: x.number),
        ranks=ranks,
        absent_next=absent,
        withdrawn=[e.number for e in ev.entrants if e.status == "withdrawn" and e.id in lines],
        extras=extras(ev, upto, lines, team) if ranked else None,
    )


def extras(
    ev: Event, upto: int, lines: dict[int, crosstable.Line], team: trf.Extras | None
) -> trf.Extras:
    """BALL's own records of the event: what TRF-16 cannot say but its standings need."""
    out = team or trf.Extras()
    out.game = ev.game
    out.tiebreak_rules = ev.tiebreak_rules
    out.tiebreaks = list(json.loads(ev.tiebreaks))
    for rnd in ev.rounds_:
        if rnd.number > upto:
            break
        for p in sorted(rnd.pairings, key=lambda p: p.table):
            if p.b_id is None or p.a_id not in lines or p.b_id not in lines:
                continue
            # A forfeit's figures are the game's own for a forfeit: import makes them again.
            if p.result is None or p.result.kind not in ("sheet", "outcome"):
                continue
            figures = crosstable.result_figures(ev, p)
            if figures:
                out.figures.append((rnd.number, lines[p.a_id].number, figures))
            side = knockout.lots_winner(p.result)
            if side is not None:
                out.lots.append((rnd.number, lines[p.a_id].number, side))
    out.figures.sort(key=lambda x: (x[0], x[1]))  # by round and number, not table order
    out.lots.sort()
    if ev.system == "knockout":
        out.knockout_replays = ev.knockout_replays
        out.replay_rounds = [
            r.number
            for r in ev.rounds_
            if r.number <= upto and r.method.startswith(knockout.REPLAY)
        ]
    return out


def complete_rounds(ev: Event) -> int:
    """The last round of the unbroken run of rounds that have all their results (the
    standings' own rule, `standings.complete_rounds`)."""
    return standings.complete_rounds(ev)


def declared_rounds(ev: Event, upto: int) -> int:
    """The TRF's XXR/142: the event's rounds, and never fewer than the columns written. A
    knockout adds replays as it goes: the rounds written plus the stages still to play."""
    if ev.system != "knockout" or ev.rounds is None:
        return max(ev.rounds or 0, upto, 1)
    rounds = [r for r in ev.rounds_ if r.number <= upto]
    stages = sum(1 for r in rounds if not r.method.startswith(knockout.REPLAY))
    return max(upto + ev.rounds - stages, 1)


# ------------------------------------------------------------------------------ import


def new_event(
    parsed: trf.TrfEvent,
    *,
    name: str,
    plugin: Game,
    tiebreak_rules: str | None,
    chain: list[str] | None = None,
) -> Event:
    """The event row of an imported file, playing `plugin`'s game (not yet added), ranked
    by `chain` (default: the system's and game's) under `tiebreak_rules` (default: those
    of the file's start date)."""
    scoring = dict(parsed.scoring or {})
    if parsed.system in ("round-robin", "double-round-robin"):
        scoring.setdefault("pab", 0.0)  # as `create_event` sets it
    extras = parsed.extras
    rounds = parsed.rounds or parsed.played
    if parsed.system == "knockout" and extras.replay_rounds:
        # XXR counts the replays played as rounds too (`declared_rounds`): the stages are fewer.
        rounds = max(1, rounds - len(extras.replay_rounds))
    return Event(
        name=name,
        system=parsed.system,
        rounds=rounds,
        knockout_replays=1 if extras.knockout_replays is None else extras.knockout_replays,
        game=plugin.name,
        date_start=parsed.date_start,
        date_end=parsed.date_end,
        place=parsed.place,
        arbiter=parsed.arbiter,
        scoring=Scoring.from_dict(scoring).to_json(),
        tiebreaks=json.dumps(
            chain if chain is not None else standings.default_chain(parsed.system, plugin)
        ),
        tiebreak_rules=tiebreak_rules or standings.rules_for_date(parsed.date_start),
        initial_colour=parsed.initial_colour,
        created_at=time.time(),
    )


def store(s: Session, ev: Event, parsed: trf.TrfEvent, plugin: Game) -> None:
    """Add the event with the file's entrants, rounds, pairings and results (as outcomes,
    without score sheets); withdrawals (XXW; XXZ, not paired next round, counts as
    withdrawn). Players who disagree about a game are refused."""
    s.add(ev)
    s.flush()
    by_number = _store_entrants(s, ev, parsed)
    cells = {p.number: p.cells for p in parsed.players}

    def cell(number: int, rnd: int) -> tuple[int, str, str]:
        row = cells[number]
        return row[rnd - 1] if rnd <= len(row) else (0, "-", " ")

    for number in range(1, parsed.played + 1):
        _store_round(s, ev, number, parsed, by_number, cell, plugin)
    s.flush()


def _store_entrants(s: Session, ev: Event, parsed: trf.TrfEvent) -> dict[int, Entrant]:
    _refuse_look_alikes(parsed)
    withdrawn = set(parsed.withdrawn) | set(parsed.absent_next)
    by_number: dict[int, Entrant] = {}
    for index, p in enumerate(sorted(parsed.players, key=lambda p: p.number), start=1):
        entrant = Entrant(
            event_id=ev.id,
            registered=index,
            number=p.number,
            name=p.name,
            federation=p.federation,
            rating=p.rating,
            status="withdrawn" if p.number in withdrawn else "active",
            withdrawn_after=parsed.played if p.number in withdrawn else None,
        )
        s.add(entrant)
        by_number[p.number] = entrant
    s.flush()
    return by_number


def _refuse_look_alikes(parsed: trf.TrfEvent) -> None:
    """Two players of the file whose names look alike (`look_alike_key`) are refused, as
    `add_player` refuses them."""
    seen: dict[str, trf.TrfPlayer] = {}
    for p in parsed.players:
        first = seen.setdefault(look_alike_key(p.name), p)
        if first is not p:
            raise TournamentError(
                f"TRF players {first.number} and {p.number}: {p.name!r} looks like "
                f"{first.name!r}; names in an event must be told apart"
            )


def _store_round(
    s: Session,
    ev: Event,
    number: int,
    parsed: trf.TrfEvent,
    by_number: dict[int, Entrant],
    cell: Callable[[int, int], tuple[int, str, str]],
    plugin: Game,
) -> None:
    figures = {(r, n): f for r, n, f in parsed.extras.figures if r == number}
    lots = {(r, n): side for r, n, side in parsed.extras.lots if r == number}
    method = IMPORTED
    if number in parsed.extras.replay_rounds:  # a knockout's replay (XXK)
        method = f"{knockout.REPLAY} {parsed.extras.replay_rounds.index(number) + 1}"
    rnd = Round(event_id=ev.id, number=number, method=method, paired_at=time.time())
    s.add(rnd)
    s.flush()
    table = 0
    for p in sorted(parsed.players, key=lambda p: p.number):
        opp, colour, code = cell(p.number, number)
        me = by_number[p.number]
        if not opp:
            if code == " ":
                continue  # not paired in this round (TRF-16's blank)
            kind = {"U": "pab", "H": "half", "F": "full"}.get(code, "zero")
            table += 1
            s.add(Pairing(round_id=rnd.id, table=table, a_id=me.id, bye=kind))
            continue
        back, back_colour, back_code = cell(opp, number)
        if back != p.number or {colour, back_colour} != {"w", "b"}:
            raise TournamentError(
                f"TRF: round {number}: players {p.number} and {opp} disagree about their game"
            )
        if colour != "w":
            continue
        table += 1
        pairing = Pairing(round_id=rnd.id, table=table, a_id=me.id, b_id=by_number[opp].id)
        key = (number, p.number)
        pairing.result = imported_result(code, back_code, plugin, figures.get(key), lots.get(key))
        s.add(pairing)


def imported_result(
    code: str,
    other: str,
    plugin: Game,
    figures: dict[str, Any] | None = None,
    lots: str | None = None,
) -> Result | None:
    """The result of a TRF result code (coach A's, and B's as `other`); forfeits carry
    the figures `plugin`'s game gives a forfeit, a game the `figures` of its XXF record
    and a drawn game the side its XXL record's lots sent through."""
    now = time.time()
    if code == " ":
        return None
    if code == "-" and other == "-":
        return forfeit_result(plugin, None, now)
    if code in "+-":
        return forfeit_result(plugin, "B" if code == "+" else "A", now)
    outcome = {"1": "A", "0": "B", "=": "D"}.get(code)
    if outcome is None:
        raise TournamentError(f"TRF: result code {code!r} is not a game result")
    stored: dict[str, Any] = {"figures": figures} if figures else {}
    if lots is not None and outcome == "D":
        stored["lots"] = {"winner": lots}
    decision = json.dumps(stored) if stored else ""
    return Result(kind="outcome", outcome=outcome, decision=decision, entered_at=now)
