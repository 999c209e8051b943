"""Fill the forms of one round from the tournament database (the printing side's only reader
of it): pairings, score sheets already entered, sanctions, forfeits, the common signals and
the standings with their crosstable.

Everything is read through `ball.tournament` (the service, and the signal and sanction logs
of the arbiter's desk); the result is plain view models (`ball.printing.forms`), so the same
templates print it as they print blank forms.

Fields are public or desk-only (issue 30; docs/security.md "Printed forms"): what the public
pages show anyway (pairings, results and their figures, forfeits, signals, standings, a
Mahjong table's hands and rulings) prints for anyone; what only the desk shows (sanctions
with their reasons and times, the arbiter's notes on Mahjong rulings) prints only when the
caller says the reader is the event's desk (`desk`). The command line is the operator's.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, Protocol

from ball.games import Paper, load
from ball.printing import event_formats
from ball.printing.forms import (
    ControlRow,
    Forfeit,
    FormSet,
    Header,
    Incident,
    PairingRow,
    Pairings,
    ReleaseLog,
    RoundControl,
    SanctionRow,
    ScoreSheet,
    StandingRow,
    Standings,
)

if TYPE_CHECKING:
    from sqlalchemy.orm import sessionmaker

    from ball.tournament.check_service import RoundCheck
    from ball.tournament.outcomes import EventInfo, TableOutcome

# Steps of the default sanction ladder (`ball.sanctions`) -> the score sheet's tick boxes.
_LEVELS = {
    "warning": "warning",
    "loss-of-turn": "turn",
    "loss-of-possession": "possession",
    "loss-of-match": "match",
}


class EventDataError(ValueError):
    """The database cannot give what was asked (no event, round not paired, …)."""


# Whether the reader of an event's forms is its desk, by event id: True (the CLI, the
# operator's own file), or the web's check of the request's desk session.
DeskCheck = Callable[[int], bool] | bool


def _is_desk(desk: DeskCheck, event_id: int) -> bool:
    return desk if isinstance(desk, bool) else bool(desk(event_id))


class ScoreSheets(Protocol):
    """The module of a game's score sheets (`Paper.score_sheets`: BALL's), which decides
    what its sheets and its results on the pairing list say."""

    def score_sheet(
        self, header: Header, table: TableOutcome, sanctions: list[SanctionRow]
    ) -> ScoreSheet:
        """A played table's score sheet, filled from its entered result."""
        ...

    def result_text(self, table: TableOutcome) -> str:
        """A table's result as its score sheet scores it."""
        ...


def forms_for_round(
    db: str | os.PathLike[str], round_number: int, *, event_id: int | str | None = None
) -> FormSet:
    """Every form of round `round_number`, filled in from the event in `db` (path or URL):
    the command line's way in. A server passes its own sessions to `forms_from_sessions`
    instead, as it must never open its live database a second time.

    `event_id` picks the event (id or name); by default the only or latest event.
    """
    from sqlalchemy.exc import DatabaseError

    from ball.storage import open_database

    try:
        engine, sessions = open_database(db)
    except ValueError as exc:
        raise EventDataError(str(exc)) from None
    except DatabaseError as exc:  # e.g. a file that is not an SQLite database at all
        raise EventDataError(f"{db}: not a BALL event database ({exc.orig})") from None
    try:
        return forms_from_sessions(sessions, round_number, event_id=event_id)
    except DatabaseError as exc:
        raise EventDataError(f"{db}: not a BALL event database ({exc.orig})") from None
    finally:
        engine.dispose()


def forms_from_sessions(
    sessions: sessionmaker,
    round_number: int,
    *,
    event_id: int | str | None = None,
    desk: DeskCheck = True,
    link_base: str | None = None,
) -> FormSet:
    """Every form of round `round_number`, read through `sessions` (the caller's session
    factory of a migrated database: the web app passes its own). `event_id` as above;
    `desk` says whether the desk-only fields print (a bool, or a check of the event id).
    `link_base` (the server's address as phones reach it): a BALL round's score sheets and
    table cards carry each table's links as QR codes (`table_qr`)."""
    from ball.games import game
    from ball.tournament import TournamentError, TournamentService

    service = TournamentService.from_sessions(sessions.kw["bind"], sessions)
    try:
        # How the event's game prints a round (`Game.paper`); None: the shared forms only.
        name = service.events.event_game(event_id)
        paper = game(name).paper or Paper()
        if paper.round is not None:  # the game prints its round itself (Mahjong's sessions)
            base = link_base or ""
            return load(paper.round)(service, event_id, round_number, desk=desk, link_base=base)
        info = service.events.event_info(event_id)
        tables = service.rounds.pairings(round_number, event=info.id)
        checked = service.checks.round_verdict(round_number, event=info.id)
    except TournamentError as exc:
        raise EventDataError(str(exc)) from None
    if not checked.published and not _is_desk(desk, info.id):
        # kept back from the players by a failed pairing check: the desk prints it still
        raise EventDataError(f"round {round_number} is not published")
    if round_number < 1:
        raise EventDataError(f"round {round_number}: rounds are numbered from 1")
    header = Header(
        event=info.name,
        round=str(round_number),
        date=info.date_start or "",
        referee=info.arbiter or "",
    )
    formats = event_formats.from_service(service, info.id, round_number, header)
    desk_fields = _is_desk(desk, info.id)
    if paper.tables is not None:  # the game's own forms of the tables (Xiangqi's)
        with sessions() as session:
            own = load(paper.tables)(session, info, tables, header, desk=desk_fields)
        codes = _codes(service, info.id, round_number, link_base)
        for x in own.tables:
            _with_codes(x, codes.get(int(x.table)))
        return FormSet(
            standings=_standings(service, info, round_number),
            game=own,
            prefilled=True,
            formats=formats,
        )
    with sessions() as session:
        control = _round_control(session, info.id, round_number, header, name)
        # Sanctions are the desk's: a public print leaves the score sheet's lines blank.
        sanctions = _sanctions(session, info.id, round_number) if desk_fields else {}
    played = [t for t in tables if t.b]
    codes = _codes(service, info.id, round_number, link_base)
    # the game's score sheets (BALL's), else none and the results in points
    sheets: ScoreSheets | None = load(paper.score_sheets) if paper.score_sheets else None
    return FormSet(
        score_sheets=[
            _with_codes(
                sheets.score_sheet(header, t, sanctions.get(t.table, [])), codes.get(t.table)
            )
            for t in played
        ]
        if sheets is not None
        else [],
        pairings=Pairings(
            header,
            [_with_codes(_pairing_row(t, sheets), codes.get(t.table)) for t in tables],
            _checked_by(checked),
        ),
        round_control=control,
        standings=_standings(service, info, round_number),
        incident=Incident(header=header),
        forfeits=[_forfeit(header, t) for t in played if _kind(t) == "forfeit"],
        release_log=ReleaseLog(header=header),
        prefilled=True,
        formats=formats,
    )


def _checked_by(checked: RoundCheck) -> str:
    """What proved the round's pairing (`pairing_check.reference`), or "" unless its
    check passed."""
    from ball.tournament.pairing_check import reference

    verdict = checked.check
    return reference(verdict.by) if verdict is not None and verdict.ok is True else ""


def _codes(service, event_id: int, number: int, base: str | None) -> dict[int, dict[str, str]]:
    """The round's table links as QR codes, once the printer knows the server's address."""
    if not base:
        return {}
    from ball.printing import table_qr

    return table_qr.round_codes(service, event_id, number, base)


def _with_codes(form: Any, codes: dict[str, str] | None) -> Any:
    if codes:
        form.qr_a, form.qr_b = codes["A"], codes["B"]
    return form


# ---------------------------------------------------------------------------- one table


def _kind(table: TableOutcome) -> str | None:
    return table.result.kind if table.result else None


def _pairing_row(table: TableOutcome, sheets: ScoreSheets | None) -> PairingRow:
    """A table's row of the pairing list, its result as the game's score sheets score it
    (`sheets`), else in points."""
    if not table.b:
        # the kind of bye is printed in the form's language (labels forms.pairings.bye)
        return PairingRow(str(table.table), table.a, bye=table.bye or "pab")
    text = sheets.result_text(table) if sheets is not None else _points_text(table)
    return PairingRow(str(table.table), table.a, table.b, text)


# A game without score sheets of its own: the result in points, forfeits as + / - (TRF).
POINTS = {"A": "1-0", "B": "0-1", "D": "½-½"}


def _points_text(table: TableOutcome) -> str:
    result = table.result
    if not result:
        return ""
    if result.kind == "forfeit":
        return "- / +" if result.forfeit_by == "A" else "+ / -"
    if result.kind != "sheet":
        return "- / -"
    return POINTS.get(result.outcome or "", "")


def unfinished_half(data: dict[str, Any]) -> int | None:
    """The half a forfeit interrupted (R-forfeit, D-35): the last half listed, unless it was
    played to its end (a touchdown, or `end: time`); None without a forfeit. The forfeit
    record keeps that half's data, and a game's score sheet marks it research only."""
    halves = [h for h in data.get("halves") or [] if h is not None]
    if not data.get("forfeit") or not halves:
        return None
    last = halves[-1]
    if last.get("td") or last.get("end") == "time":
        return None
    return len(halves)


def _forfeit(header: Header, table: TableOutcome) -> Forfeit:
    assert table.result is not None and table.b is not None  # a played table, forfeited
    by = table.result.forfeit_by
    forfeiting, opponent = (table.a, table.b) if by == "A" else (table.b, table.a)
    record = Forfeit(header, str(table.table), forfeiting, opponent, result="0-2")
    data = table.result.sheet
    if not data:
        return record  # a forfeit entered without a sheet: no half data was stored
    unfinished = unfinished_half(data)
    played = len([h for h in data.get("halves") or [] if h is not None])
    if unfinished is not None:  # stopped during a half: that half's data is kept
        record.half, record.how, record.kept = unfinished, "abandoned", True
    elif played < 2:  # every half listed was played out: the next one was refused
        record.half, record.how, record.kept = played + 1, "refused", False
    return record


# ---------------------------------------------------------------------------- the desk


def _clock(at: float | None) -> str:
    return time.strftime("%H:%M", time.localtime(at)) if at is not None else ""


def _round_control(
    session, event_id: int, number: int, header: Header, game_name: str
) -> RoundControl:
    from ball.tournament import signals

    gap = signals.gap_seconds(game_name)  # the rest the event's game sets (R-signal)
    state = signals.round_control(session, event_id, number, time.time(), gap)
    return RoundControl(
        header=header,
        signal_1=_clock(state.signal1),
        gap_minutes=int(gap // 60),
        rows=[
            # every table starts its second half on the common signal 2 (spec 15)
            ControlRow(
                str(t.table), _clock(t.first_half_end), second_half_start=_clock(state.signal2)
            )
            for t in state.tables
        ],
    )


def _sanctions(session, event_id: int, number: int) -> dict[int, list[SanctionRow]]:
    """Sanctions given in this round, by table, with the coach as A or B of that table."""
    from ball.tournament import sanction_log
    from ball.tournament.models import Round

    rnd = session.query(Round).filter_by(event_id=event_id, number=number).one_or_none()
    sides = {}
    tables = {}  # entrant -> their table this round, for entries logged without a table
    for p in rnd.pairings if rnd else []:
        sides[(p.table, p.a_id)] = "A"
        sides[(p.table, p.b_id)] = "B"
        tables[p.a_id] = p.table
        if p.b_id is not None:
            tables[p.b_id] = p.table
    by_table: dict[int, list[SanctionRow]] = {}
    for entry in sanction_log.event_log(session, event_id):
        table = entry.table if entry.table is not None else tables.get(entry.entrant_id)
        if entry.round_number != number or table is None:
            continue
        by_table.setdefault(table, []).append(
            SanctionRow(
                coach=sides.get((table, entry.entrant_id)),  # type: ignore[arg-type]
                level=_LEVELS.get(entry.step),  # type: ignore[arg-type]
                # a step of an organiser's own ladder keeps its name in the reason column
                reason=entry.reason if entry.step in _LEVELS else f"{entry.step}: {entry.reason}",
                time=_clock(entry.at),
            )
        )
    return by_table


# ---------------------------------------------------------------------------- standings


def _number(value: float | int | None) -> str:
    """Figures as an arbiter writes them: 3, 2½, 1.75; nothing for no value."""
    if value is None:
        return ""
    value = round(float(value), 2)
    whole = int(value)
    if value == whole:
        return str(whole)
    if value - whole == 0.5:
        return f"{whole or ''}½"
    return f"{value:g}"


def _standings(service, info: EventInfo, number: int) -> Standings:
    """Standings as they stand when the round's forms are printed: after this round once
    every table has a result, else after the last complete round before it (the one rule
    of every view, `standings.after_round`, applied by the service)."""
    chain = list(info.tiebreaks or [])
    header = Header(event=info.name, round=str(number), date=info.date_start or "")
    table = service.ranking.standings(event=info.id, upto=number)
    upto = table.rounds
    if upto < 1:
        names = [e.name for e in info.entrants if e.status == "active"]
        rows = [StandingRow(name=n, points="0") for n in names]
        grid = [["" for _ in names] for _ in names]
        return Standings(header, "0", chain, rows, grid)
    ranking = table.standings
    games = _games(service, info.id, upto)
    rows = []
    for s in ranking:
        tally = games.tally(s.name)
        rows.append(
            StandingRow(
                rank=str(s.rank),
                name=s.name,
                played=tally["played"],
                wins=tally["wins"],
                draws=tally["draws"],
                losses=tally["losses"],
                points=_number(s.points),
                tiebreaks=[_number(s.tiebreaks.get(tb)) for tb in chain],
            )
        )
    names = [s.name for s in ranking]
    grid = [[games.cell(x, y, info.scoring) for y in names] for x in names]
    return Standings(header, str(upto), chain, rows, grid)


class _Games:
    """Every decided game up to a round, by pair of names: outcome as the first name sees it."""

    def __init__(self) -> None:
        self.by_pair: dict[tuple[str, str], list[str]] = {}

    def add(self, a: str, b: str, outcome: str, forfeit: bool) -> None:
        mine = {"A": "W", "B": "L", "D": "D", "N": "L"}[outcome]
        theirs = {"W": "L", "L": "W", "D": "D"}[mine] if outcome != "N" else "L"
        suffix = "F" if forfeit else ""
        self.by_pair.setdefault((a, b), []).append(mine + suffix)
        self.by_pair.setdefault((b, a), []).append(theirs + suffix)

    def tally(self, name: str) -> dict[str, int]:
        codes = [c for (x, _), cs in self.by_pair.items() if x == name for c in cs]
        return {
            "played": len(codes),
            "wins": sum(c.startswith("W") for c in codes),
            "draws": sum(c.startswith("D") for c in codes),
            "losses": sum(c.startswith("L") for c in codes),
        }

    def cell(self, x: str, y: str, scoring: dict[str, float]) -> str:
        points = {
            "W": scoring.get("win", 1.0),
            "D": scoring.get("draw", 0.5),
            "L": scoring.get("loss", 0.0),
            "WF": scoring.get("forfeit_win", 1.0),
            "LF": scoring.get("forfeit_loss", 0.0),
        }
        codes: Iterable[str] = self.by_pair.get((x, y), [])
        return " ".join(
            ("+" if c == "WF" else "−") if c.endswith("F") else _number(points[c]) for c in codes
        )


def _games(service, event_id: int, upto: int) -> _Games:
    games = _Games()
    for number in range(1, upto + 1):
        for t in service.rounds.pairings(number, event=event_id):
            if not t.b or not t.result:
                continue
            games.add(t.a, t.b, t.result.outcome, t.result.kind != "sheet")
    return games
