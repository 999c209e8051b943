"""Plain, read-only snapshots of a Mahjong event for the public pages and the printed forms
(issue 18): every seated session with its tables (seats with winds, and once the table's
sheet is in: the hands, session scores, table points and the log of rulings), the player
standings with each session's figures, and the team standings.

`mahjong_board` reads only through the service's read use cases (`event_page`,
`session_tables`, `session_standings`), so a page or a form renders frozen data after the
transaction closed. Finding a player by name ignores case and accents (`name_key`).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Protocol

from ball.games.mahjong.engine.winds import WINDS
from ball.tournament.names import search_key as name_key


class _Pages(Protocol):
    def event_page(self, event_id: int) -> Any: ...


class _Sessions(Protocol):
    def session_tables(self, round_number: int | None = None, *, event: Any = None) -> Any: ...
    def session_standings(self, *, event: Any = None) -> Any: ...


class _Reader(Protocol):
    """The read use cases of `TournamentService` this module uses."""

    @property
    def desk(self) -> _Pages: ...
    @property
    def sessions(self) -> _Sessions: ...


@dataclass(frozen=True)
class SeatView:
    """One seat of a table: the wind at the start of the session and its player; the
    figures once the table's sheet is entered (None before)."""

    wind: str
    name: str
    team: str
    score: int | None = None
    hand_points: int | None = None
    penalty_points: int | None = None
    table_points: str | None = None  # exact fraction text, e.g. "3/2"


@dataclass(frozen=True)
class HandView:
    """One hand of a sheet: winner and discarder as winds ("" for a draw; discarder ""
    when self-drawn), the fan, each seat's points and the running totals after it."""

    number: int
    winner: str
    discarder: str
    fan: int | None
    points: tuple[int, ...]
    running: tuple[int, ...]

    @property
    def draw(self) -> bool:
        return not self.winner

    @property
    def self_drawn(self) -> bool:
        return bool(self.winner) and not self.discarder


@dataclass(frozen=True)
class RulingView:
    """One entry of a table's log: hand, time (seconds of the table's clock), seat (wind),
    article of seed 003, the ruling's key, points per seat, and whether it was waived."""

    hand: int
    at: float
    wind: str
    article: str
    ruling: str
    points: tuple[int, ...]
    penalty_tiles: int
    note: str
    waived: bool


@dataclass(frozen=True)
class TableView:
    session: int
    table: int
    seats: tuple[SeatView, ...]
    hands: tuple[HandView, ...] = ()
    rulings: tuple[RulingView, ...] = ()
    entered: bool = False

    def seat_of(self, name: str) -> SeatView | None:
        return next((s for s in self.seats if s.name == name), None)


@dataclass(frozen=True)
class SessionView:
    number: int
    method: str
    tables: tuple[TableView, ...]

    @property
    def entered(self) -> int:
        return sum(1 for t in self.tables if t.entered)


@dataclass(frozen=True)
class SessionFigures:
    """A player's session: table, wind, score and table points (None before the sheet)."""

    session: int
    table: int
    wind: str
    score: int | None
    table_points: str | None


@dataclass(frozen=True)
class StandingView:
    rank: int
    number: int
    name: str
    team: str
    table_points: str  # exact fraction text
    score: int
    sessions: tuple[SessionFigures, ...]


@dataclass(frozen=True)
class TeamView:
    rank: int
    team: str
    table_points: str
    score: int
    members: tuple[str, ...]


@dataclass(frozen=True)
class FoundSeat:
    """A "find my table" answer: a player and their seat in each session seated."""

    name: str
    seats: tuple[SessionFigures, ...]


@dataclass(frozen=True)
class MahjongBoard:
    """Everything the public pages and the forms show of a Mahjong event."""

    event_id: int
    name: str
    place: str
    date_start: str
    arbiter: str
    planned: int | None
    sessions: tuple[SessionView, ...]
    standings: tuple[StandingView, ...]
    teams: tuple[TeamView, ...]
    sessions_done: int
    hands_per_session: int = 16

    def session(self, number: int | None) -> SessionView | None:
        """Session `number` (default: the latest seated), None when not seated."""
        if not self.sessions:
            return None
        if number is None:
            return self.sessions[-1]
        return next((s for s in self.sessions if s.number == number), None)

    def find(self, query: str) -> tuple[FoundSeat, ...]:
        """Players whose name contains `query`, ignoring case and accents."""
        key = name_key(query)
        if not key:
            return ()
        by_name = {s.name: s for s in self.standings}
        found = [
            FoundSeat(s.name, by_name[s.name].sessions)
            for s in sorted(self.standings, key=lambda s: name_key(s.name))
            if key in name_key(s.name)
        ]
        return tuple(found)


def points_text(exact: str | None) -> str:
    """Table points for people: "3/2" -> "1½", "7/3" -> "2⅓", "-" for None."""
    if exact is None:
        return "–"
    f = Fraction(exact)
    whole, rest = divmod(f, 1)
    if rest == 0:
        return str(int(whole))
    glyph = _GLYPHS.get((rest.numerator, rest.denominator), f"{rest.numerator}/{rest.denominator}")
    return f"{int(whole) if whole else ''}{glyph}"


_GLYPHS = {(1, 2): "½", (1, 3): "⅓", (2, 3): "⅔", (1, 4): "¼", (3, 4): "¾"}


def _hands(table: dict[str, Any]) -> tuple[HandView, ...]:
    out, running = [], [0, 0, 0, 0]
    for number, (doc, points) in enumerate(
        zip(table.get("hands", []), table.get("hand_points", []), strict=True), 1
    ):
        running = [a + b for a, b in zip(running, points, strict=True)]
        draw = doc.get("draw") is True
        out.append(
            HandView(
                number,
                "" if draw else str(doc.get("winner", "")),
                "" if draw else str(doc.get("discarder") or ""),
                None if draw else _fan(doc),
                tuple(points),
                tuple(running),
            )
        )
    return tuple(out)


def _fan(doc: dict[str, Any]) -> int | None:
    fan = doc.get("fan")
    return fan if isinstance(fan, int) and not isinstance(fan, bool) else None


def _ruling(entry: dict[str, Any]) -> RulingView:
    return RulingView(
        hand=int(entry.get("hand", 0)),
        at=float(entry.get("at", 0)),
        wind=WINDS[int(entry["seat"])],
        article=str(entry.get("article", "")),
        ruling=str(entry.get("ruling", "")),
        points=tuple(int(p) for p in entry.get("points", (0, 0, 0, 0))),
        penalty_tiles=int(entry.get("penalty_tiles", 0)),
        note=str(entry.get("note", "")),
        waived=bool(entry.get("waived", False)),
    )


def _table(session: int, table: dict[str, Any], teams: dict[str, str]) -> TableView:
    scores = table.get("scores")
    seats = tuple(
        SeatView(
            wind=w,
            name=table["seats"][w],
            team=teams.get(table["seats"][w], ""),
            score=None if scores is None else int(scores[w]),
            hand_points=None if scores is None else sum(p[i] for p in table["hand_points"]),
            penalty_points=None if scores is None else int(table["penalty_points"][w]),
            table_points=None if scores is None else str(table["table_points"][w]),
        )
        for i, w in enumerate(WINDS)
    )
    return TableView(
        session=session,
        table=int(table["table"]),
        seats=seats,
        hands=_hands(table) if scores is not None else (),
        rulings=tuple(_ruling(e) for e in table.get("log", [])),
        entered=scores is not None,
    )


def _player_sessions(sessions: tuple[SessionView, ...]) -> dict[str, list[SessionFigures]]:
    out: dict[str, list[SessionFigures]] = {}
    for session in sessions:
        for table in session.tables:
            for seat in table.seats:
                out.setdefault(seat.name, []).append(
                    SessionFigures(
                        session.number, table.table, seat.wind, seat.score, seat.table_points
                    )
                )
    return out


def mahjong_board(svc: _Reader, event_id: int) -> MahjongBoard:
    """The event's sessions, standings and team standings (`TournamentError` from the
    service when the event is not a Mahjong event)."""
    event = svc.desk.event_page(event_id)
    standings = svc.sessions.session_standings(event=event_id)
    teams = {row["name"]: row["team"] for row in standings["standings"]}
    sessions, hands = [], 16
    for rnd in event.rounds_:
        seated = svc.sessions.session_tables(rnd.number, event=event_id)
        hands = int(seated.get("hands_per_session", hands))
        tables = tuple(_table(rnd.number, t, teams) for t in seated["tables"])
        sessions.append(SessionView(rnd.number, str(seated["method"]), tables))
    seats = _player_sessions(tuple(sessions))
    names = {row["number"]: row["name"] for row in standings["standings"]}
    return MahjongBoard(
        event_id=event.id,
        name=event.name,
        place=event.place,
        date_start=event.date_start,
        arbiter=getattr(event, "arbiter", "") or "",
        planned=event.rounds,
        sessions=tuple(sessions),
        standings=tuple(
            StandingView(
                rank=int(row["rank"]),
                number=int(row["number"]),
                name=row["name"],
                team=row["team"],
                table_points=str(row["table_points_exact"]),
                score=int(row["score"]),
                sessions=tuple(seats.get(row["name"], [])),
            )
            for row in standings["standings"]
        ),
        teams=tuple(
            TeamView(
                rank=int(row["rank"]),
                team=row["team"],
                table_points=str(row["table_points_exact"]),
                score=int(row["score"]),
                members=tuple(names[n] for n in row["members"]),
            )
            for row in standings.get("teams", [])
        ),
        sessions_done=int(standings["sessions"]),
        hands_per_session=hands,
    )
