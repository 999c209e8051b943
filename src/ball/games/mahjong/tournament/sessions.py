"""The Mahjong use cases of issue 18, `TournamentService.sessions` (`SessionUseCases`):
an event of tables of four played in sessions (a session is a `Round`), seating each
session (`ball.games.mahjong.engine.seating`: random, an imported template, by ranking or balanced,
checked and reported every session), entering and correcting a table's session sheet
(`ball.games.mahjong.engine.sheet`), standings by table points then score, and team standings.

Each use case is one transaction of the store (`store.Store`), which also finds the event,
its rounds and names and keeps the log. Players are numbered 1..N in registration order
when the first session is seated (the seating functions speak numbers); a player's team is
the entrant's club, else the federation (M-20).

`ball.games.mahjong.engine` is imported inside the Mahjong use cases, not at the top: every
`TournamentService` has these use cases, and `ball standings` or `ball result enter` on a
two-player event should not load Mahjong's rules (issue 15, target 1;
`tests/tournament/test_cold_imports.py`).
"""

from __future__ import annotations

import json
import time
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from sqlalchemy import select

from ball.games.mahjong.engine.winds import WINDS
from ball.games.mahjong.tournament.seat_links import settle_seat_entry
from ball.tournament.errors import TournamentError
from ball.tournament.models import (
    Entrant,
    Event,
    ResultCorrection,
    Round,
    Seat,
    SessionRules,
    SessionSheet,
)
from ball.tournament.session_refusals import is_sessions
from ball.tournament.store import Store
from ball.tournament.systems import PairingSystem

if TYPE_CHECKING:
    from sqlalchemy.orm import Session

    from ball.games.mahjong.engine import seating
    from ball.games.mahjong.engine.sheet import ScoredSheet

GAME = "mahjong"
SYSTEM = PairingSystem.SESSIONS.value
METHODS = ("ranking", "balanced")


def _team(e: Entrant) -> str:
    return e.club or e.federation


def _fraction_text(f: Fraction) -> str:
    return str(f)


class SessionUseCases:
    """The Mahjong sessions."""

    def __init__(self, store: Store) -> None:
        self.store = store

    # ------------------------------------------------------------------ the event

    def create_mahjong_event(
        self,
        *,
        name: str,
        sessions: int,
        hands_per_session: int = 16,
        method: str = "balanced",
        seed: int | None = None,
        date_start: str = "",
        place: str = "",
        arbiter: str = "",
    ) -> dict[str, Any]:
        """A Mahjong event of `sessions` sessions (tables of four, WMC rules)."""
        from ball.games.mahjong.engine import seating
        from ball.tournament.names import check_name

        name = check_name(name, "event name")
        if not name:
            raise TournamentError("the event needs a name")
        if not 1 <= sessions <= seating.MAX_SESSIONS:
            raise TournamentError(f"--sessions must be from 1 to {seating.MAX_SESSIONS}")
        if not 1 <= hands_per_session <= 64:
            raise TournamentError("--hands-per-session must be from 1 to 64")
        if method not in METHODS:
            raise TournamentError(f"--method is one of {', '.join(METHODS)}, not {method!r}")
        if seed is not None and not 0 <= seed <= 2**31 - 1:
            raise TournamentError(f"--draw-lots seed {seed} is out of range")
        with self.store.tx() as s:
            self.store.refuse_taken_name(s, name)
            ev = Event(
                name=name,
                system=SYSTEM,
                rounds=sessions,
                game=GAME,
                ruleset="wmc",
                date_start=date_start or time.strftime("%Y-%m-%d"),
                place=check_name(place, "place"),
                arbiter=check_name(arbiter, "arbiter"),
                scoring="{}",
                tiebreaks="[]",
                draw_lots_seed=seed,
                created_at=time.time(),
            )
            s.add(ev)
            s.flush()
            s.add(SessionRules(event_id=ev.id, hands_per_session=hands_per_session, method=method))
            return {
                "id": ev.id,
                "name": ev.name,
                "system": SYSTEM,
                "game": GAME,
                "sessions": sessions,
                "hands_per_session": hands_per_session,
                "method": method,
            }

    # ------------------------------------------------------------------ seating

    def event_and_rules(self, s: Session, event: Any) -> tuple[Event, SessionRules]:
        """The Mahjong event and its rules. Its sessions are rounds without pairings (seats
        and sheets instead), so the two-player event's eager load of every table's rows
        would find none: the entrants and sessions load when first read."""
        ev = self.store.event(s, event, full=False)
        rules = s.get(SessionRules, ev.id)
        if not is_sessions(ev) or rules is None:
            raise TournamentError(f"{ev.name!r} is not a Mahjong event")
        return ev, rules

    def history(self, s: Session, ev: Event) -> list[seating.Session]:
        """The sessions seated so far, as player numbers, E S W N."""
        number = {e.id: e.number for e in ev.entrants}
        return [_seated(s, rnd, number) for rnd in ev.rounds_]

    def seated_session(self, s: Session, ev: Event, number: int) -> seating.Session:
        """`_history(s, ev)[number - 1]` (`number` a seated session's) reading that
        session's seats only: a table's sheet needs its own session, not every one."""
        numbers = {e.id: e.number for e in ev.entrants}
        return _seated(s, ev.rounds_[number - 1], numbers)

    def _refuse_open_session(self, s: Session, ev: Event) -> None:
        if not ev.rounds_:
            return
        last = ev.rounds_[-1]
        tables = {t for (t,) in s.execute(select(Seat.table).where(Seat.round_id == last.id))}
        done = {
            t
            for (t,) in s.execute(
                select(SessionSheet.table).where(SessionSheet.round_id == last.id)
            )
        }
        if tables - done:
            missing = ", ".join(map(str, sorted(tables - done)))
            raise TournamentError(
                f"session {last.number} still has tables without a sheet: {missing}"
            )

    def seat_session(
        self, *, method: str | None = None, template: str | None = None, event: Any = None
    ) -> dict[str, Any]:
        """Seat the next session: the first at random (the event's seed) or from `template`
        (seating CSV `session,table,E,S,W,N`, its rows for this session); later ones by
        `method` (ranking | balanced; default the event's). Returns the tables and the
        seating report of every session so far."""
        from ball.games.mahjong.engine import seating

        if method is not None and method not in METHODS:
            raise TournamentError(f"--method is one of {', '.join(METHODS)}, not {method!r}")
        with self.store.tx() as s:
            ev, rules = self.event_and_rules(s, event)
            self._refuse_open_session(s, ev)
            number = len(ev.rounds_) + 1
            if ev.rounds is not None and number > ev.rounds:
                raise TournamentError(f"all {ev.rounds} sessions are seated")
            active = [e for e in ev.entrants if e.status == "active"]
            if len(active) != len(ev.entrants):
                raise TournamentError("a withdrawn player's seat needs a substitute first")
            if number == 1:
                for e in ev.entrants:
                    e.number = e.registered
            players = len(ev.entrants)
            try:
                seating.check_size(players, ev.rounds or number)
                history = self.history(s, ev)
                session, how = self._new_session(s, ev, rules, number, history, method, template)
                seating.check_session(session, players, f"session {number}")
                teams = self.team_names(ev)
                checked = seating.report((*history, session), teams or None)
            except seating.SeatingError as exc:
                raise TournamentError(f"seating: {exc}") from None
            rnd = Round(event_id=ev.id, number=number, method=how, paired_at=time.time())
            ev.rounds_.append(rnd)
            s.flush()
            by_number = {e.number: e for e in ev.entrants}
            for t, table in enumerate(session, 1):
                for wind, p in zip(WINDS, table, strict=True):
                    s.add(Seat(round_id=rnd.id, table=t, seat=wind, entrant_id=by_number[p].id))
            self.store.log(s, ev, "seating", how, round_number=number)
            return {
                "session": number,
                "method": how,
                "tables": _tables_json(session, by_number),
                "report": checked.to_json(),
            }

    def _new_session(
        self,
        s: Session,
        ev: Event,
        rules: SessionRules,
        number: int,
        history: list[seating.Session],
        method: str | None,
        template: str | None,
    ) -> tuple[seating.Session, str]:
        from ball.games.mahjong.engine import seating

        players, seed = len(ev.entrants), ev.draw_lots_seed or 0
        teams = self.team_names(ev) or None
        if template is not None:
            if method is not None:
                raise TournamentError("give --seating FILE or --method, not both")
            imported = seating.from_csv(template)
            if len(imported) < number:
                raise TournamentError(f"the seating file has no session {number}")
            if teams and sum(len(t) for t in imported[0]) == players:
                imported = seating.separate_teams(imported, teams, seed)  # M-07
            return imported[number - 1], "template (imported)"
        if number == 1:
            if method is not None:
                raise TournamentError("the first session is seated at random or from --seating")
            if rules.method == "balanced" and ev.rounds:
                # the seeded plan's first session: drawn from the seed like any random
                # session, and the one the balanced sessions after it continue (M-26)
                return seating.balanced(players, ev.rounds, teams, seed)[0], (
                    f"random (seed {seed})"
                )
            return seating.random_session(players, seed, teams), f"random (seed {seed})"
        method = method or rules.method
        if method == "ranking":
            ranking = [r["number"] for r in self.standing_rows(s, ev)]
            return seating.by_ranking(ranking, tuple(history), teams), "by ranking"
        return _balanced_session(players, ev.rounds or number, teams, seed, history), (
            f"balanced (seed {seed})"
        )

    @staticmethod
    def team_names(ev: Event) -> dict[int, str]:
        return {e.number: _team(e) for e in ev.entrants if _team(e)}

    def session_tables(
        self, round_number: int | None = None, *, event: Any = None
    ) -> dict[str, Any]:
        """A session's tables (default: the latest) with each table's sheet figures."""
        with self.store.tx(write=False) as s:
            ev, rules = self.event_and_rules(s, event)
            rnd = self.store.round(ev, round_number or len(ev.rounds_))
            history = self.history(s, ev)
            by_number = {e.number: e for e in ev.entrants}
            tables = _tables_json(history[rnd.number - 1], by_number)
            for sheet in s.scalars(select(SessionSheet).where(SessionSheet.round_id == rnd.id)):
                row = tables[sheet.table - 1]
                row["scores"] = dict(zip(WINDS, json.loads(sheet.scores), strict=True))
                row["table_points"] = dict(zip(WINDS, json.loads(sheet.table_points), strict=True))
                row.update(_sheet_detail(sheet, rules.hands_per_session))
            return {
                "session": rnd.number,
                "method": rnd.method,
                "hands_per_session": rules.hands_per_session,
                "tables": tables,
            }

    def export_seating(self, round_number: int | None = None, *, event: Any = None) -> str:
        """The seating (player numbers) as CSV `session,table,E,S,W,N`: one session, or all."""
        from ball.games.mahjong.engine import seating

        with self.store.tx(write=False) as s:
            ev, _ = self.event_and_rules(s, event)
            history = self.history(s, ev)
            if not history:
                raise TournamentError("no session is seated")
            if round_number is None:
                return seating.to_csv(tuple(history))
            self.store.round(ev, round_number)
            lines = seating.to_csv((history[round_number - 1],)).splitlines()
            rows = [lines[0]] + [f"{round_number}{line[1:]}" for line in lines[1:]]
            return "\n".join(rows) + "\n"

    # ------------------------------------------------------------------ session sheets

    def enter_session_sheet(
        self,
        sheet: Any,
        *,
        round_number: int | None = None,
        table: int | None = None,
        event: Any = None,
    ) -> dict[str, Any]:
        """Enter a table's session sheet (once; `correct_session_sheet` replaces it)."""
        with self.store.tx() as s:
            ev, rules, rnd, t, scored = self.checked_sheet(s, sheet, round_number, table, event)
            old = s.scalars(
                select(SessionSheet).where(SessionSheet.round_id == rnd.id, SessionSheet.table == t)
            ).first()
            if old is not None:
                raise TournamentError(
                    f"session {rnd.number} table {t} already has a sheet (correct it instead)"
                )
            row = sheet_row(rnd, t, sheet, scored)
            s.add(row)
            settle_seat_entry(s, ev, rnd, t, "desk", time.time())  # the arbiter's sheet wins
            return _sheet_json(rnd.number, t, scored)

    def correct_session_sheet(
        self,
        sheet: Any,
        *,
        reason: str,
        round_number: int | None = None,
        table: int | None = None,
        event: Any = None,
    ) -> dict[str, Any]:
        """Replace a table's sheet; the old one and the reason go to the corrections log."""
        if not (reason or "").strip():
            raise TournamentError("a correction needs a reason")
        with self.store.tx() as s:
            ev, rules, rnd, t, scored = self.checked_sheet(s, sheet, round_number, table, event)
            old = s.scalars(
                select(SessionSheet).where(SessionSheet.round_id == rnd.id, SessionSheet.table == t)
            ).first()
            if old is None:
                raise TournamentError(f"session {rnd.number} table {t} has no sheet to correct")
            new = sheet_row(rnd, t, sheet, scored)
            s.add(
                ResultCorrection(
                    event_id=ev.id,
                    round_number=rnd.number,
                    table=t,
                    before=old.sheet,
                    after=new.sheet,
                    reason=reason.strip(),
                    at=time.time(),
                )
            )
            old.sheet, old.scores, old.table_points = new.sheet, new.scores, new.table_points
            old.entered_at = new.entered_at
            return _sheet_json(rnd.number, t, scored)

    def checked_sheet(
        self, s: Session, sheet: Any, round_number: int | None, table: int | None, event: Any
    ) -> tuple[Event, SessionRules, Round, int, Any]:
        from ball.games.mahjong.engine.sheet import SheetError

        ev, rules = self.event_and_rules(s, event)
        if not ev.rounds_:
            raise TournamentError("no session is seated")
        number = round_number or len(ev.rounds_)
        if not 1 <= number <= len(ev.rounds_):
            raise TournamentError(f"session {number} is not seated")
        rnd = self.store.round(ev, number)
        try:
            scored = read_session_sheet(sheet, rules.hands_per_session)
        except SheetError as exc:
            raise TournamentError(f"session sheet: {exc}") from None
        t = table if table is not None else scored.table
        if t is None:
            raise TournamentError("session sheet: table: which table (or --table T)")
        if scored.table is not None and table is not None and scored.table != table:
            raise TournamentError(
                f"session sheet: table: the sheet says {scored.table}, not {table}"
            )
        session = self.seated_session(s, ev, number)
        if not 1 <= t <= len(session):
            raise TournamentError(f"session {number} has no table {t}")
        names = {e.number: e.name for e in ev.entrants}
        expected = [names[p] for p in session[t - 1]]
        known = {e.name for e in ev.entrants}
        for wind, want, got in zip(WINDS, expected, scored.players, strict=True):
            if got not in known:
                raise TournamentError(f"session sheet: seats.{wind}: {got!r} is not a player")
            if got != want:
                raise TournamentError(
                    f"session sheet: seats.{wind}: {got!r} is not seated there; "
                    f"session {number} table {t} {wind} is {want!r}"
                )
        return ev, rules, rnd, t, scored

    # ------------------------------------------------------------------ standings

    def standing_rows(self, s: Session, ev: Event) -> list[dict[str, Any]]:
        history = self.history(s, ev)
        results = []
        for rnd, session in zip(ev.rounds_, history, strict=True):
            for sheet in s.scalars(select(SessionSheet).where(SessionSheet.round_id == rnd.id)):
                scores = json.loads(sheet.scores)
                results.append(
                    (
                        session[sheet.table - 1],
                        scores,
                        [Fraction(x) for x in json.loads(sheet.table_points)],
                    )
                )
        by_number = {e.number: e for e in ev.entrants}
        rows = _player_rows(results, by_number)
        return rows

    def session_standings(self, *, event: Any = None) -> dict[str, Any]:
        """Players by table points, then total score, then number (M-04); teams by the sums
        of their members' (when players have a team)."""
        from ball.games.mahjong.engine import scoring

        with self.store.tx(write=False) as s:
            ev, _ = self.event_and_rules(s, event)
            rows = self.standing_rows(s, ev)
            done = sum(
                1
                for rnd in ev.rounds_
                if s.scalars(select(SessionSheet.id).where(SessionSheet.round_id == rnd.id)).first()
            )
            players = [
                scoring.Standing(
                    r["number"], Fraction(r["table_points_exact"]), r["score"], r["sessions"]
                )
                for r in rows
            ]
            teams = self.team_names(ev)
            out: dict[str, Any] = {
                "event": ev.name,
                "game": GAME,
                "sessions": done,
                "standings": rows,
            }
            if teams:
                out["teams"] = [
                    {
                        "rank": i,
                        "team": str(t.name),
                        "table_points": _number(t.table_points),
                        "table_points_exact": _fraction_text(t.table_points),
                        "score": t.score,
                        "members": sorted(by for by, name in teams.items() if name == t.name),
                    }
                    for i, t in enumerate(scoring.team_standings(players, teams), 1)
                ]
            return out


def _balanced_session(
    players: int,
    sessions: int,
    teams: dict[int, str] | None,
    seed: int,
    history: list[seating.Session],
) -> seating.Session:
    """The next balanced session. While every session so far is the event's seeded plan
    (`seating.balanced` of the whole event, the same as `ball mahjong seat` with the
    event's seed), the plan's next one, so the event is as good as the standalone seating
    (repeats, team-mates apart, exact winds); after a session seated otherwise, the best
    continuation of what was played (M-26)."""
    from ball.games.mahjong.engine import seating

    plan = seating.balanced(players, sessions, teams, seed)
    if tuple(history) == plan[: len(history)]:
        return plan[len(history)]
    return seating.balanced(players, sessions, teams, seed, tuple(history))[len(history)]


def _seated(s: Session, rnd: Round, number: dict[int, int]) -> seating.Session:
    """A session's tables as player numbers (`number`: entrant id -> number), E S W N."""
    tables: dict[int, list[int]] = {}
    for seat in s.scalars(select(Seat).where(Seat.round_id == rnd.id)):
        tables.setdefault(seat.table, [0] * 4)[WINDS.index(seat.seat)] = number[seat.entrant_id]
    return tuple(_four(tables[t]) for t in sorted(tables))


def _four(seats: list[int]) -> seating.Table:
    return (seats[0], seats[1], seats[2], seats[3])


def _number(f: Fraction) -> float:
    return round(float(f), 4)


def _player_rows(
    results: list[tuple[seating.Table, list[int], list[Fraction]]], by_number: dict[int, Entrant]
) -> list[dict[str, Any]]:
    acc: dict[int, list[Any]] = {p: [Fraction(0), 0, 0] for p in by_number}
    for table, scores, points in results:
        for p, score, tp in zip(table, scores, points, strict=True):
            acc[p][0] += tp
            acc[p][1] += score
            acc[p][2] += 1
    order = sorted(acc, key=lambda p: (-acc[p][0], -acc[p][1], p))
    return [
        {
            "rank": i,
            "number": p,
            "name": by_number[p].name,
            "team": _team(by_number[p]),
            "table_points": _number(acc[p][0]),
            "table_points_exact": _fraction_text(acc[p][0]),
            "score": acc[p][1],
            "sessions": acc[p][2],
        }
        for i, p in enumerate(order, 1)
    ]


def _tables_json(session: seating.Session, by_number: dict[int, Entrant]) -> list[dict[str, Any]]:
    return [
        {"table": t, "seats": {w: by_number[p].name for w, p in zip(WINDS, table, strict=True)}}
        for t, table in enumerate(session, 1)
    ]


def _sheet_detail(row: SessionSheet, hands_per_session: int) -> dict[str, Any]:
    """A stored sheet read again for pages and print: its hands as entered, each hand's
    points, the penalty points and the log of rulings (the public per-table results)."""
    doc = json.loads(row.sheet)
    scored = read_session_sheet(doc, hands_per_session)
    return {
        "hands": doc.get("hands", []),
        "hand_points": [list(r) for r in scored.hand_rows],
        "penalty_points": dict(zip(WINDS, scored.penalty_points, strict=True)),
        "log": list(scored.log),
    }


def read_session_sheet(doc: Any, hands_per_session: int, *, in_play: bool = False) -> ScoredSheet:
    """A session sheet read and scored under the event rules (`ball.games.mahjong.engine.sheet`; its
    `SheetError` for a bad one)."""
    from ball.games.mahjong.engine.penalties import event_rules
    from ball.games.mahjong.engine.sheet import read_sheet

    return read_sheet(doc, event_rules(), hands_per_session, in_play=in_play)


def sheet_row(rnd: Round, table: int, sheet: Any, scored: Any) -> SessionSheet:
    return SessionSheet(
        round_id=rnd.id,
        table=table,
        sheet=json.dumps(sheet, ensure_ascii=False),
        scores=json.dumps(list(scored.scores)),
        table_points=json.dumps([_fraction_text(p) for p in scored.table_points]),
        entered_at=time.time(),
    )


def _sheet_json(number: int, table: int, scored: Any) -> dict[str, Any]:
    return {
        "session": number,
        "table": table,
        "seats": dict(zip(WINDS, scored.players, strict=True)),
        "scores": dict(zip(WINDS, scored.scores, strict=True)),
        "penalty_points": dict(zip(WINDS, scored.penalty_points, strict=True)),
        "table_points": {
            w: _fraction_text(p) for w, p in zip(WINDS, scored.table_points, strict=True)
        },
        "log": list(scored.log),
    }
