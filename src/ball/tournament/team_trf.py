"""A team event's TRF-16 records, out and in: TRF-16's `013` (each team's name and its
players' start numbers) and BALL's `XXB` (boards and ranking); an imported file's teams
and each round's team matches as its boards show them.
"""

from __future__ import annotations

from sqlalchemy.orm import Session

from ball.tournament import trf
from ball.tournament.errors import TournamentError
from ball.tournament.models import Event, Pairing, Round, Team, TeamMatch, TeamMember
from ball.tournament.names import check_name
from ball.tournament.team_service import event_teams, mark_team_event, team_event, team_order


def trf_records(s: Session, ev: Event) -> trf.Extras | None:
    """A team event's TRF records: TRF-16's `013` (the team name, then the start
    numbers of all its players in registration order, E-24) and BALL's `XXB` (boards
    and ranking); None for an individual event."""
    info = team_event(s, ev)
    if info is None:
        return None
    by_id = {e.id: e for e in ev.entrants}
    listed = [(t.name, [by_id[m.entrant_id].number for m in t.members]) for t in event_teams(s, ev)]
    return trf.Extras(boards=info.boards, ranking=info.ranking, teams=listed)


def import_teams(s: Session, ev: Event, extras: trf.Extras) -> None:
    """The teams of an imported TRF (013, XXB): the team event, its teams with their
    players in the file's order, and each round's team matches as the boards show them
    (the team of coach A on the match's first table is named first; a team none of whose
    players was paired sat the round out)."""
    if extras.boards is None and not extras.teams:
        return
    if extras.boards is None or not extras.teams:
        raise TournamentError("TRF: a team event needs both its 013 team records and XXB")
    mark_team_event(s, ev, extras.boards, extras.ranking)
    by_number = {e.number: e for e in ev.entrants}
    team_of: dict[int, Team] = {}
    for registered, (name, numbers) in enumerate(extras.teams, start=1):
        team = Team(event_id=ev.id, name=check_name(name, "team name"), registered=registered)
        s.add(team)
        s.flush()
        for position, number in enumerate(numbers, start=1):
            entrant = by_number[number]
            s.add(TeamMember(team_id=team.id, entrant_id=entrant.id, position=position))
            team_of[entrant.id] = team
    s.flush()
    all_teams = event_teams(s, ev)
    by_id = {e.id: e for e in ev.entrants}
    board_of = {e.id: i for t in all_teams for i, e in enumerate(team_order(t, by_id))}
    for rnd in ev.rounds_:
        _import_team_round(s, ev, rnd, team_of, board_of, all_teams)
    s.flush()


def _import_team_round(
    s: Session,
    ev: Event,
    rnd: Round,
    team_of: dict[int, Team],
    board_of: dict[int, int],
    all_teams: list[Team],
) -> None:
    """One imported round's team matches, and its tables renumbered match by match in
    board order (the team's board order, 12.1), as a paired team round has them."""
    matches: dict[frozenset[int], list[Pairing]] = {}
    for p in sorted(rnd.pairings, key=lambda p: p.table):
        if p.b_id is None:
            continue  # a player the team did not field (written as not paired)
        first, second = team_of.get(p.a_id), team_of.get(p.b_id)
        if first is None or second is None or first is second:
            raise TournamentError(
                f"TRF: round {rnd.number}: a game that is not between two teams' players"
            )
        matches.setdefault(frozenset((first.id, second.id)), []).append(p)
    ordered: list[Pairing] = []
    meetings: list[tuple[Team, Team | None]] = []
    for games in matches.values():
        games.sort(key=lambda p: min(board_of[p.a_id], board_of[p.b_id or 0]))
        top = games[0]  # board 1: the first-named team's player has the first colour
        meetings.append((team_of[top.a_id], team_of[top.b_id or 0]))
        ordered += games
    met = {t.id for pair in meetings for t in pair if t is not None}
    meetings += [(t, None) for t in all_teams if t.id not in met]
    rest = [p for p in sorted(rnd.pairings, key=lambda p: p.table) if p.b_id is None]
    for p in rnd.pairings:
        p.table = -p.table  # free the numbers first (one table number per round)
    s.flush()
    for table, p in enumerate([*ordered, *rest], start=1):
        p.table = table
    for match, (x, y) in enumerate(meetings, start=1):
        s.add(TeamMatch(event_id=ev.id, round_number=rnd.number, match=match,
                        first_id=x.id, second_id=y.id if y is not None else None))  # fmt: skip
    s.flush()
