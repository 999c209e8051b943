"""The team-event use cases of issue 17, `TournamentService.teams` (`TeamUseCases`, given
to the rounds' pairing and the standings), seed 004 articles 12-15 (the rules themselves
in the pure `teams` module):

* a team event (`create_event(..., teams=BOARDS)`): teams meet teams, all-play-all as a
  round robin of teams (Berger tables over the teams in registration order);
* `add_team`: a team and its players, seated by rating with the unrated last (12.1);
* `set_lineup`: the line-up a team declares before a round (12.3), any `boards` of its
  players in the team's order (substitutes keep the order, 12.2); without one the team
  fields its first `boards` active players;
* pairing a team round: each team match becomes one table per board, the first-named team's
  player taking the first colour (coach A) on odd boards and the other team's on even
  boards (13.2, 13.3); results are entered per board (`ball result enter`);
* `team_standings`: game points and match points 2/1/0 (14.2), ranked by 15.3 (round
  robin), 15.4 (points pairing) or 15.5 (the sum of the players' individual ranks), with
  each board's scores for board prizes.

The TRF-16 team records (`013`, BALL's `XXB`) are `team_trf`'s.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from sqlalchemy import delete, select

from ball.tournament import berger, knockout, standings, swiss, team_swiss, teams
from ball.tournament.errors import TournamentError
from ball.tournament.models import (
    Entrant,
    Event,
    Pairing,
    Round,
    Team,
    TeamEvent,
    TeamLineup,
    TeamMatch,
    TeamMember,
)
from ball.tournament.names import check_name
from ball.tournament.store import Store

if TYPE_CHECKING:
    from sqlalchemy.orm import Session

MAX_BOARDS = 64
RANKINGS = ("15.3", "15.4", "15.5")
RATED = re.compile(r"^(?P<name>.+?)=(?P<rating>\d{1,4})$")


def mark_team_event(s: Session, ev: Event, boards: int | None, ranking: str | None) -> None:
    """Make a new event a team event of `boards` boards (no-op when `boards` is None)."""
    if boards is None:
        return
    if not 1 <= boards <= MAX_BOARDS:
        raise TournamentError(f"--teams is the boards per match, 1 to {MAX_BOARDS}; got {boards}")
    if ev.system not in ("round-robin", "swiss"):
        raise TournamentError(
            "a team event is an all-play-all of teams or a Swiss of teams: use --system "
            "round-robin or --system swiss"
        )
    if ranking is None:  # 15.3 for a round robin of teams, 15.4 for points pairing
        ranking = "15.4" if ev.system == "swiss" else "15.3"
    if ranking not in RANKINGS:
        raise TournamentError(f"team ranking is one of {', '.join(RANKINGS)}; got {ranking!r}")
    s.add(TeamEvent(event_id=ev.id, boards=boards, ranking=ranking))
    s.flush()


def team_event(s: Session, ev: Event) -> TeamEvent | None:
    return s.get(TeamEvent, ev.id)


def _teams(s: Session, ev: Event) -> list[Team]:
    return list(s.scalars(select(Team).where(Team.event_id == ev.id).order_by(Team.registered)))


def _order(team: Team, by_id: dict[int, Entrant]) -> list[Entrant]:
    """The team's board order (12.1)."""
    members = [by_id[m.entrant_id] for m in team.members]
    ordered = teams.board_order([teams.Player(e.name, e.rating) for e in members])
    by_name = {e.name: e for e in members}
    return [by_name[p.name] for p in ordered]


class TeamUseCases:
    """Teams, line-ups, team rounds and team standings (a use case of `TournamentService`)."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def _team_event(self, s: Session, ev: Event) -> TeamEvent:
        found = team_event(s, ev)
        if found is None:
            raise TournamentError(f"{ev.name!r} is not a team event (create it with --teams)")
        return found

    def add_team(self, name: str, players: list[str], *, event: Any = None) -> dict[str, Any]:
        """Register a team with its players (registered entrants, or new ones given as
        `NAME` or `NAME=RATING`); returns the team in its board order (12.1)."""
        name = check_name(name, "team name")
        if not name:
            raise TournamentError("the team needs a name")
        with self.store.tx() as s:
            ev = self.store.event(s, event)
            info = self._team_event(s, ev)
            if ev.rounds_:
                raise TournamentError("teams are registered before round 1 is paired")
            existing = _teams(s, ev)
            if any(t.name == name for t in existing):
                raise TournamentError(f"team {name!r} is already registered")
            if len(players) < info.boards:
                raise TournamentError(
                    f"a team needs at least {info.boards} players (one per board), got "
                    f"{len(players)}"
                )
            entrants = [self._team_player(s, ev, p) for p in players]
            if len({e.name for e in entrants}) != len(entrants):
                raise TournamentError("a player is listed twice in the team")
            team = Team(event_id=ev.id, name=name, registered=len(existing) + 1)
            s.add(team)
            s.flush()
            for position, e in enumerate(entrants, start=1):
                s.add(TeamMember(team_id=team.id, entrant_id=e.id, position=position))
            s.flush()
            s.refresh(team)
            return {"team": name, "order": [e.name for e in _order(team, _by_id(ev))]}

    @staticmethod
    def _team_player(s: Session, ev: Event, given: str) -> Entrant:
        found = RATED.match(given.strip())
        player = check_name(found["name"] if found else given, "player name")
        rating = int(found["rating"]) if found else None
        if not player:
            raise TournamentError("a player needs a name")
        entrant = next((e for e in ev.entrants if e.name == player), None)
        if entrant is not None:
            taken = s.scalars(select(TeamMember).where(TeamMember.entrant_id == entrant.id)).first()
            if taken is not None:
                raise TournamentError(f"{player!r} already plays for another team")
            if rating is not None:
                entrant.rating = rating
            return entrant
        entrant = Entrant(
            event_id=ev.id,
            registered=len(ev.entrants) + 1,
            number=len(ev.entrants) + 1,
            name=player,
            rating=rating,
            first_round=1,
        )
        ev.entrants.append(entrant)
        s.flush()
        return entrant

    def set_lineup(
        self, team_name: str, round_number: int, players: list[str], *, event: Any = None
    ) -> list[str]:
        """Declare the team's line-up for a round not yet paired (12.3): `boards` of its
        players in the team's order (12.2). Returns the line-up, board 1 first."""
        with self.store.tx() as s:
            ev = self.store.event(s, event)
            info = self._team_event(s, ev)
            if not 1 <= round_number <= 10_000:
                raise TournamentError(f"round must be a positive number, got {round_number}")
            if round_number <= len(ev.rounds_):
                raise TournamentError(f"round {round_number} is already paired")
            team = next((t for t in _teams(s, ev) if t.name == team_name), None)
            if team is None:
                raise TournamentError(f"no team {team_name!r} in {ev.name!r}")
            by_id = _by_id(ev)
            order = [e.name for e in _order(team, by_id)]
            fielded = teams.lineup(order, players, info.boards)
            by_name = {e.name: e for e in ev.entrants}
            for name in fielded:
                if by_name[name].status != "active":
                    raise TournamentError(f"{name!r} has withdrawn")
            s.execute(
                delete(TeamLineup).where(
                    TeamLineup.team_id == team.id, TeamLineup.round_number == round_number
                )
            )
            for board, name in enumerate(fielded, start=1):
                s.add(
                    TeamLineup(
                        team_id=team.id,
                        round_number=round_number,
                        board=board,
                        entrant_id=by_name[name].id,
                    )
                )
            return fielded

    # ------------------------------------------------------------------ pairing

    def pair_team_round(
        self, s: Session, ev: Event, info: TeamEvent, number: int
    ) -> tuple[list[knockout.Table], str]:
        """The team matches of round `number` (Berger tables over the teams, or the Dutch
        system on match points in a Swiss of teams, `team_swiss`) as board tables, the
        first-named team's player on coach A on odd boards (13.2, 13.3)."""
        all_teams = _teams(s, ev)
        if len(all_teams) < 2:
            raise TournamentError("at least two teams are needed to pair")
        if ev.system == "swiss":
            meetings, method = self._swiss_meetings(s, ev, info, all_teams, number)
        else:
            meetings, method = _berger_meetings(ev, all_teams, number)
        s.execute(
            delete(TeamMatch).where(TeamMatch.event_id == ev.id, TeamMatch.round_number == number)
        )
        by_id = _by_id(ev)
        out: list[knockout.Table] = []
        for match, (first, second) in enumerate(meetings, start=1):
            s.add(
                TeamMatch(
                    event_id=ev.id,
                    round_number=number,
                    match=match,
                    first_id=first.id,
                    second_id=second.id if second else None,
                )
            )
            if second is None:
                continue  # the team drawn against the dummy of an odd field sits out
            ones = self._fielded(s, first, number, info.boards, by_id)
            twos = self._fielded(s, second, number, info.boards, by_id)
            for board, (x, y) in enumerate(zip(ones, twos, strict=True), start=1):
                if teams.first_colour_team(board) == "first":
                    out.append((x, y, None))
                else:
                    out.append((y, x, None))
        s.flush()
        return out, method

    @staticmethod
    def _swiss_meetings(
        s: Session, ev: Event, info: TeamEvent, all_teams: list[Team], number: int
    ) -> tuple[list[tuple[Team, Team | None]], str]:
        """Round `number` of a Swiss of teams, paired on match points (`team_swiss`)."""
        if number > team_swiss.total_rounds(ev, len(all_teams)):
            raise TournamentError(f"all {ev.rounds} rounds are paired")
        by_id = _by_id(ev)

        def rating(team: Team) -> float:
            top = _order(team, by_id)[: info.boards]
            return sum(e.rating or 0 for e in top) / max(1, len(top))

        seeded = sorted(all_teams, key=lambda t: (-rating(t), t.registered))
        number_of = {t.id: n for n, t in enumerate(seeded, start=1)}
        team_of = {m.entrant_id: t.name for t in all_teams for m in t.members}
        rows = s.scalars(
            select(TeamMatch).where(TeamMatch.event_id == ev.id, TeamMatch.round_number < number)
        )
        meetings = [
            team_swiss.Meeting(
                m.round_number,
                number_of[m.first_id],
                number_of[m.second_id] if m.second_id else None,
                _first_match_points(ev, info, m, team_of, {t.id: t.name for t in all_teams}),
            )
            for m in rows
        ]
        numbers = {number_of[t.id]: (t.name, round(rating(t)) or None) for t in all_teams}
        team_at = {n: t for t in all_teams for n in (number_of[t.id],)}
        pairs = team_swiss.pair(ev, numbers, meetings, number)
        return (
            [(team_at[a], team_at[b] if b else None) for a, b in pairs],
            f"{swiss.engine_name()} over the teams on match points, colours by board (13.3)",
        )

    @staticmethod
    def _fielded(
        s: Session, team: Team, number: int, boards: int, by_id: dict[int, Entrant]
    ) -> list[Entrant]:
        declared = list(
            s.scalars(
                select(TeamLineup)
                .where(TeamLineup.team_id == team.id, TeamLineup.round_number == number)
                .order_by(TeamLineup.board)
            )
        )
        if declared:
            return [by_id[x.entrant_id] for x in declared]
        active = [e for e in _order(team, by_id) if e.status == "active"]
        if len(active) < boards:
            raise TournamentError(
                f"team {team.name!r} has {len(active)} active players for {boards} boards"
            )
        return active[:boards]

    def team_boards(
        self, round_number: int | None = None, *, event: Any = None
    ) -> list[dict[str, Any]]:
        """The team matches of a round (default: the latest) with their boards: for each
        match the first-named and second team and, per board, the table and who plays
        coach A (the first colour) and coach B, with the result's outcome when entered."""
        with self.store.tx(write=False) as s:
            ev = self.store.event(s, event)
            info = self._team_event(s, ev)
            number = round_number or len(ev.rounds_)
            if not 1 <= number <= len(ev.rounds_):
                raise TournamentError(f"round {number} is not paired")
            names = {t.id: t.name for t in _teams(s, ev)}
            tables = {p.table: p for p in _round_pairings(ev, number)}
            rows = s.scalars(
                select(TeamMatch)
                .where(TeamMatch.event_id == ev.id, TeamMatch.round_number == number)
                .order_by(TeamMatch.match)
            )
            out, table = [], 0
            for m in rows:
                entry: dict[str, Any] = {
                    "match": m.match,
                    "first": names[m.first_id],
                    "second": names[m.second_id] if m.second_id else None,
                    "boards": [],
                }
                if m.second_id is not None:
                    for board in range(1, info.boards + 1):
                        table += 1
                        p = tables[table]
                        entry["boards"].append(
                            {
                                "board": board,
                                "table": table,
                                "a": p.a.name,
                                "b": p.b.name if p.b else None,
                                "outcome": p.result.outcome if p.result else None,
                            }
                        )
                out.append(entry)
            return out

    # ------------------------------------------------------------------ standings

    def team_standings(self, s: Session, ev: Event, upto: int | None = None) -> dict[str, Any]:
        """The `teams` section of the standings: each team's matches, match and game
        points, ranked by the event's system (15.3, 15.4 or 15.5), and board scores, after
        the last round with every result in (`standings.after_round`, as every standings)."""
        upto = standings.after_round(ev, upto)
        info = self._team_event(s, ev)
        all_teams = _teams(s, ev)
        team_of = {m.entrant_id: t.name for t in all_teams for m in t.members}
        matches = _matches(s, ev, info, team_of, upto)
        records = {
            t.name: teams.TeamRecord(t.name, tuple(matches.get(t.name, ()))) for t in all_teams
        }
        if info.ranking == "15.5":
            records = _with_individual_ranks(ev, records, team_of, info.boards, upto)
            ranked = teams.rank_by_individual_ranks(list(records.values()))
        elif info.ranking == "15.4":
            ranked = teams.rank_swiss(list(records.values()))
        else:
            ranked = teams.rank_round_robin(list(records.values()))
        rows = []
        for position, name in ranked:
            r = records[name]
            rows.append(
                {
                    "rank": position,
                    "team": name,
                    "match_points": sum(m.match_points for m in r.matches),
                    "game_points": sum(m.game_points for m in r.matches),
                    "matches": [
                        {
                            "opponent": m.opponent,
                            "game_points": [m.game_points, m.opponent_game_points],
                            "match_points": m.match_points,
                        }
                        for m in r.matches
                    ],  # fmt: skip
                    **(
                        {"individual_ranks": list(r.individual_ranks)} if r.individual_ranks else {}
                    ),
                }
            )
        return {
            "ranking": info.ranking,
            "boards": info.boards,
            "standings": rows,
            "board_scores": _board_scores(ev, info, team_of, upto),
        }


def _berger_meetings(
    ev: Event, all_teams: list[Team], number: int
) -> tuple[list[tuple[Team, Team | None]], str]:
    """Round `number` of the round robin of teams: (first-named, second or None)."""
    total = berger.berger_rounds(len(all_teams))
    if ev.rounds is None:
        ev.rounds = total
    if number > total:
        raise TournamentError(f"all {total} rounds are paired")
    meetings = [
        (all_teams[w - 1], all_teams[b - 1] if b else None)
        for w, b in berger.round_robin_round(len(all_teams), number)
    ]
    return meetings, "FIDE Berger tables over the teams, colours by board (13.2)"


def _by_id(ev: Event) -> dict[int, Entrant]:
    return {e.id: e for e in ev.entrants}


def _points_for(pairing: Pairing, entrant_id: int) -> float | None:
    """The game point (14.1) the entrant scored at a board; None while pending."""
    result = pairing.result
    if result is None:
        return None
    side = "A" if pairing.a_id == entrant_id else "B"
    if result.outcome == "D":
        return 0.5
    return 1.0 if result.outcome == side else 0.0


def _first_match_points(
    ev: Event, info: TeamEvent, m: TeamMatch, team_of: dict[int, str], names: dict[int, str]
) -> int | None:
    """The first-named team's match points (14.2) in team match `m`; None while a board
    has no result (or for a bye)."""
    if m.second_id is None:
        return None
    first, second = names[m.first_id], names[m.second_id]
    boards = [
        p
        for p in _round_pairings(ev, m.round_number)
        if p.b_id is not None and {team_of.get(p.a_id), team_of.get(p.b_id)} == {first, second}
    ]
    if len(boards) != info.boards or any(p.result is None for p in boards):
        return None
    mine = theirs = 0.0
    for p in boards:
        ours = p.a_id if team_of[p.a_id] == first else p.b_id or 0
        other = (p.b_id or 0) if ours == p.a_id else p.a_id
        mine += _points_for(p, ours) or 0.0
        theirs += _points_for(p, other) or 0.0
    return teams.Played(second, mine, theirs).match_points


def _round_pairings(ev: Event, number: int) -> list[Pairing]:
    rnd: Round | None = next((r for r in ev.rounds_ if r.number == number), None)
    return sorted(rnd.pairings, key=lambda p: p.table) if rnd else []


def _matches(
    s: Session, ev: Event, info: TeamEvent, team_of: dict[int, str], upto: int | None
) -> dict[str, list[teams.Played]]:
    """Each team's complete matches (every board with a result), as that team saw them."""
    names = {t.id: t.name for t in _teams(s, ev)}
    out: dict[str, list[teams.Played]] = {}
    rows = s.scalars(
        select(TeamMatch).where(TeamMatch.event_id == ev.id).order_by(TeamMatch.round_number)
    )
    for m in rows:
        if m.second_id is None or (upto is not None and m.round_number > upto):
            continue
        tables = [p for p in _round_pairings(ev, m.round_number) if p.b_id is not None]
        first, second = names[m.first_id], names[m.second_id]
        boards = [p for p in tables if team_of.get(p.a_id) in (first, second)]
        boards = [
            p for p in boards if {team_of.get(p.a_id), team_of.get(p.b_id or 0)} == {first, second}
        ]
        if len(boards) != info.boards or any(p.result is None for p in boards):
            continue
        gp_first = gp_second = 0.0
        for p in boards:
            mine = p.a_id if team_of[p.a_id] == first else p.b_id
            theirs = p.b_id if mine == p.a_id else p.a_id
            gp_first += _points_for(p, mine or 0) or 0.0
            gp_second += _points_for(p, theirs or 0) or 0.0
        out.setdefault(first, []).append(teams.Played(second, gp_first, gp_second))
        out.setdefault(second, []).append(teams.Played(first, gp_second, gp_first))
    return out


def _with_individual_ranks(
    ev: Event,
    records: dict[str, teams.TeamRecord],
    team_of: dict[int, str],
    boards: int,
    upto: int | None,
) -> dict[str, teams.TeamRecord]:
    """15.5: each team's `boards` best individual ranks (E-22)."""
    ranks: dict[str, list[int]] = {}
    for row in standings.of_event(ev, upto):
        name = team_of.get(row.entrant_id)
        if name is not None:
            ranks.setdefault(name, []).append(row.rank)
    return {
        n: teams.TeamRecord(n, r.matches, r.fouls, tuple(sorted(ranks.get(n, []))[:boards]))
        for n, r in records.items()
    }


def _board_scores(
    ev: Event, info: TeamEvent, team_of: dict[int, str], upto: int | None
) -> list[dict[str, Any]]:
    """For board prizes: each board's players with their points and games on that board,
    best first (points, then fewer games)."""
    per: dict[tuple[int, int], list[float]] = {}
    for rnd in ev.rounds_:
        if upto is not None and rnd.number > upto:
            continue
        tables = sorted((p for p in rnd.pairings if p.b_id is not None), key=lambda p: p.table)
        for index, p in enumerate(tables):
            board = index % info.boards + 1
            for eid in (p.a_id, p.b_id or 0):
                got = _points_for(p, eid)
                if got is not None:
                    per.setdefault((board, eid), []).append(got)
    names = _by_id(ev)
    out = []
    for board in range(1, info.boards + 1):
        players = [
            {"name": names[eid].name, "team": team_of.get(eid), "points": sum(v), "games": len(v)}
            for (b, eid), v in per.items()
            if b == board
        ]
        players.sort(key=_board_key)
        out.append({"board": board, "players": players})
    return out


def _board_key(row: dict[str, Any]) -> tuple[float, int, str]:
    return (-float(row["points"]), int(row["games"]), str(row["name"]))


# Public names for the pages' reads (`format_pages`): an event's teams, a team's board order.
event_teams = _teams
team_order = _order
