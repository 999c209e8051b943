"""Seatings and teams in CSV: `session,table,E,S,W,N` out and in, and `player,team` lines."""

from __future__ import annotations

from ball.games.mahjong.engine.seating.tables import Seating, SeatingError, Table, check_session

CSV_HEADER = "session,table,E,S,W,N"


def to_csv(seating: Seating) -> str:
    """`session,table,E,S,W,N`, one line per table, sessions and tables numbered from 1."""
    lines = [CSV_HEADER]
    for s, session in enumerate(seating, 1):
        for t, table in enumerate(session, 1):
            lines.append(",".join(str(x) for x in (s, t, *table)))
    return "\n".join(lines) + "\n"


def _csv_row(line: str, number: int) -> tuple[int, int, Table]:
    cells = [c.strip() for c in line.split(",")]
    if len(cells) != 6:
        raise SeatingError(f"line {number}: expected 6 fields (session,table,E,S,W,N)")
    try:
        s, t, e, so, w, n = (int(c) for c in cells)
    except ValueError:
        raise SeatingError(f"line {number}: every field must be a whole number") from None
    if s < 1 or t < 1:
        raise SeatingError(f"line {number}: sessions and tables are numbered from 1")
    return s, t, (e, so, w, n)


def from_csv(text: str) -> Seating:
    """Read `to_csv`'s format (the header line is optional; blank lines are skipped). Tables
    must be numbered 1.. in each session and sessions 1.. in order; the result is checked
    (every player exactly once per session)."""
    rows: dict[int, dict[int, Table]] = {}
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip() or (number == 1 and line.replace(" ", "") == CSV_HEADER):
            continue
        s, t, table = _csv_row(line, number)
        if t in rows.setdefault(s, {}):
            raise SeatingError(f"line {number}: session {s} table {t} is listed twice")
        rows[s][t] = table
    if not rows:
        raise SeatingError("the seating file lists no tables")
    if sorted(rows) != list(range(1, len(rows) + 1)):
        raise SeatingError("sessions must be numbered 1, 2, 3, ... without gaps")
    seating = []
    for s in sorted(rows):
        if sorted(rows[s]) != list(range(1, len(rows[s]) + 1)):
            raise SeatingError(f"session {s}: tables must be numbered 1, 2, 3, ... without gaps")
        seating.append(tuple(rows[s][t] for t in sorted(rows[s])))
    result = tuple(seating)
    players = sum(len(t) for t in result[0])
    for i, session in enumerate(result, 1):
        check_session(session, players, f"session {i}")
    return result


def teams_from_csv(text: str, players: int) -> dict[int, str]:
    """`player,team` lines (a `player,team` header is allowed): the team (or country) of
    each listed player; players not listed have no team."""
    teams: dict[int, str] = {}
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip() or (number == 1 and line.replace(" ", "").lower() == "player,team"):
            continue
        cells = [c.strip() for c in line.split(",")]
        if len(cells) != 2 or not cells[1]:
            raise SeatingError(f"line {number}: expected player,team")
        try:
            p = int(cells[0])
        except ValueError:
            raise SeatingError(f"line {number}: player {cells[0]!r} is not a number") from None
        if not 1 <= p <= players:
            raise SeatingError(f"line {number}: player {p} is not one of 1..{players}")
        if p in teams:
            raise SeatingError(f"line {number}: player {p} is listed twice")
        teams[p] = cells[1]
    return teams
