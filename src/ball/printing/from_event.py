"""Fill the forms of one round from the tournament database (the printing side's only reader
of it): the shared pairing list and standings with their crosstable, a knockout's or a team
round's forms, and the game's own forms as its `Paper` says (BALL's score sheets and desk
forms, Xiangqi's: `Paper.tables`; Mahjong's sessions: `Paper.round`).

Everything is read through `ball.tournament` (the service, and the signal and sanction logs
of the arbiter's desk); the result is plain view models (`ball.printing.forms`, a game's
own), so the same templates print it as they print blank forms.

Fields are public or desk-only (issue 30; docs/security.md "Printed forms"): what the public
pages show anyway (pairings, results and their figures, forfeits, signals, standings, a
Mahjong table's hands and rulings) prints for anyone; what only the desk shows (sanctions
with their reasons and times, the arbiter's notes on Mahjong rulings) prints only when the
caller says the reader is the event's desk (`desk`). The command line is the operator's.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from ball.games import Paper, load
from ball.printing import event_formats
from ball.printing.forms import (
    FormSet,
    GameForms,
    Header,
    PairingRow,
    Pairings,
    StandingRow,
    Standings,
)

if TYPE_CHECKING:
    from sqlalchemy.orm import sessionmaker

    from ball.tournament.check_service import RoundCheck
    from ball.tournament.outcomes import EventInfo, TableOutcome


class EventDataError(ValueError):
    """The database cannot give what was asked (no event, round not paired, …)."""


# Whether the reader of an event's forms is its desk, by event id: True (the CLI, the
# operator's own file), or the web's check of the request's desk session.
DeskCheck = Callable[[int], bool] | bool


def _is_desk(desk: DeskCheck, event_id: int) -> bool:
    return desk if isinstance(desk, bool) else bool(desk(event_id))


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
    codes = _codes(service, info.id, round_number, link_base)
    own: GameForms | None = None
    if paper.tables is not None:  # the game's own forms of the tables (BALL's, Xiangqi's)
        with sessions() as session:
            made = load(paper.tables)(session, info, tables, header, desk=_is_desk(desk, info.id))
        for x in made.tables:  # the forms that carry a table's links
            _with_codes(x, codes.get(int(x.table)))
        own = made
    # a table's result on the pairing list: as the game's score sheet scores it, or in points
    result_text: Callable[[TableOutcome], str] = (
        load(paper.results) if paper.results is not None else _points_text
    )
    return FormSet(
        pairings=Pairings(
            header,
            [_with_codes(_pairing_row(t, result_text), codes.get(t.table)) for t in tables],
            _checked_by(checked),
        ),
        standings=_standings(service, info, round_number),
        game=own,
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


def _pairing_row(table: TableOutcome, result_text: Callable[[TableOutcome], str]) -> PairingRow:
    """A table's row of the pairing list, its result written by `result_text`."""
    if not table.b:
        # the kind of bye is printed in the form's language (labels forms.pairings.bye)
        return PairingRow(str(table.table), table.a, bye=table.bye or "pab")
    return PairingRow(str(table.table), table.a, table.b, result_text(table))


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
