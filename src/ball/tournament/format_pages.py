"""What the pages and the printed forms show of a knockout and of a team event (issue 17):
the bracket (each round's drawing of lots, its ties with their game scores, the bye holder)
and a team event's teams, line-ups, team match cards (board by board) and team standings.

Read use cases, `TournamentService.formats` (`FormatPages`, given the knockout's and the
teams' use cases), one transaction each,
returning frozen dataclasses (no ORM row leaves): the desk's routes, the public pages and
`ball.printing` render them. The rules stay where they live: a tie's state is
`ties.state` (`minimatch.fold`), colours by board are `teams.first_colour_team`, a match's
points `teams.team_match`, the team ranking `team_service.team_standings`.
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ball.tournament import knockout, teams, ties
from ball.tournament.errors import NotFound, TournamentError
from ball.tournament.knockout_draws import drawn_knockout
from ball.tournament.lots import parse_card
from ball.tournament.minimatch import first_colour
from ball.tournament.models import Event, Pairing, Round
from ball.tournament.store import Store
from ball.tournament.team_service import TeamUseCases, event_teams, team_event, team_order
from ball.tournament.tie_service import KnockoutUseCases
from ball.tournament.views import EventView, event_view

if TYPE_CHECKING:
    from sqlalchemy.orm import Session


@dataclass(frozen=True)
class Formats:
    """Which of issue 17's shapes an event has (the desk links its pages from these)."""

    knockout: bool
    drawn: bool  # its rounds are paired by a drawing of lots
    minimatch: bool  # its ties are mini-matches of several games
    team_boards: int | None  # boards per team match, for a team event
    policy: dict[str, Any] = field(default_factory=dict)  # a knockout's ties (`ties.Policy`)


@dataclass(frozen=True)
class DrawView:
    """One round's drawing of lots: the seed (None when drawn at the venue) and who drew
    which card, in the order of the cards (red 1.., black 1.., K)."""

    seed: int | None
    cards: list[tuple[str, str]]
    bye: str | None


@dataclass(frozen=True)
class TieGameView:
    game: int
    first: str  # who had the first colour in this game
    second: str
    outcome: str  # from the tie's sides: A, B, D, N
    winner: str | None  # the game's winner (None for a draw or a double forfeit)
    extra: bool  # an extra game (scored on its own) or the Armageddon game


@dataclass(frozen=True)
class TieView:
    """A knockout tie: side A (the red card, first colour in game 1) and side B."""

    table: int
    a: str
    b: str | None
    bye: str | None
    games: list[TieGameView]
    points: tuple[float, float]
    extra_points: tuple[float, float]
    phase: str  # games | extra | armageddon | lots | decided
    next_game: int | None
    next_first: str | None  # who has the first colour in the next game
    winner: str | None
    how: str | None  # games | extra games | lots | armageddon | double forfeit | game
    lots_seed: int | None

    @property
    def decided(self) -> bool:
        return self.phase == "decided"


@dataclass(frozen=True)
class BracketRound:
    number: int
    method: str
    draw: DrawView | None
    ties: list[TieView]
    bye: str | None  # who has the bye this round
    published: bool = True  # False: kept back from the players by a failed pairing check


@dataclass(frozen=True)
class RoundToCome:
    """A knockout round not drawn yet (issue 36 item 14: the bracket showed round 1 only).
    Its ties are drawn later, so only their number is known; the round right after the
    latest also knows who goes into it: a name, or the table whose winner it awaits."""

    number: int
    ties: int
    bye: bool
    field: list[tuple[str | None, int | None]]  # (name, None) or (None, table): "Winner of T3"


@dataclass(frozen=True)
class Bracket:
    event: EventView
    minimatch: bool
    policy: dict[str, Any]
    rounds: list[BracketRound]
    can_draw: bool  # the next round can be drawn now
    next_round: int
    field: list[str]  # who draws for the next round, in pairing-number order
    champion: str | None
    to_come: list[RoundToCome] = dataclasses.field(default_factory=list)  # `field` is taken


@dataclass(frozen=True)
class BoardView:
    board: int
    table: int
    first_player: str  # the first-named team's player
    second_player: str
    first_has_first_colour: bool  # 13.2/13.3: odd boards
    result: str  # from the first-named team's side: "1-0", "½-½", "0-1", "" while pending
    kind: str  # the result's kind (outcome, forfeit, double-forfeit), "" while pending


@dataclass(frozen=True)
class MatchCard:
    round: int
    match: int
    first: str
    second: str | None  # None: the first-named team sits the round out (E-21)
    boards: list[BoardView]
    game_points: tuple[float, float] | None  # once every board has a result
    match_points: tuple[int, int] | None


@dataclass(frozen=True)
class TeamView:
    name: str
    order: list[tuple[str, int | None]]  # board order (12.1): name, rating
    lineup: list[str]  # declared for the next round, or the default first BOARDS
    declared: bool


@dataclass(frozen=True)
class TeamsPage:
    event: EventView
    boards: int
    ranking: str
    teams: list[TeamView]
    next_round: int
    can_lineup: bool  # the next round is still to be paired
    cards: list[MatchCard]  # every round's match cards, round by round
    standings: list[dict[str, Any]] = field(default_factory=list)
    board_scores: list[dict[str, Any]] = field(default_factory=list)


# ----------------------------------------------------------------------- knockout


def _draw_view(rnd: Round) -> DrawView | None:
    if not rnd.lots:
        return None
    record = json.loads(rnd.lots)
    cards = dict(record.get("cards", {}))
    order = sorted(cards, key=lambda name: _card_key(cards[name]))
    return DrawView(record.get("seed"), [(n, cards[n]) for n in order], record.get("bye"))


def _card_key(text: str) -> tuple[int, int]:
    card = parse_card(text)
    return ({"R": 0, "B": 1, "K": 2}[card.suit], card.number)


def _game_views(p: Pairing) -> list[TieGameView]:
    assert p.b is not None
    names = {"A": p.a.name, "B": p.b.name}
    out = []
    for g in sorted(p.tie_games, key=lambda g: g.game):
        if g.kind == "lots":
            continue
        first = first_colour(g.game)
        second = "B" if first == "A" else "A"
        out.append(
            TieGameView(
                g.game,
                names[first],
                names[second],
                g.outcome,
                names.get(g.outcome),
                False,
            )
        )
    return out


def _tie_view(ev: Event, p: Pairing) -> TieView:
    if p.b is None:
        return TieView(p.table, p.a.name, None, p.bye, [], (0, 0), (0, 0), "decided",
                       None, None, p.a.name, "bye", None)  # fmt: skip
    if not ties.has_minimatches(ev):
        return _single_game(p)
    now = ties.state(ev, p)
    games = _game_views(p)
    policy = ties.policy_of(ev)
    games = [
        TieGameView(g.game, g.first, g.second, g.outcome, g.winner, g.game > policy.games)
        for g in games
    ]
    lots = next((g for g in p.tie_games if g.kind == "lots"), None)
    seed = json.loads(lots.decision).get("seed") if lots is not None and lots.decision else None
    next_first = ties.side_name(p, first_colour(now.next_game)) if now.next_game else None
    return TieView(
        p.table, p.a.name, p.b.name, None, games,
        (now.points["A"], now.points["B"]), (now.extra_points["A"], now.extra_points["B"]),
        now.phase, now.next_game, next_first, ties.side_name(p, now.winner), now.how, seed,
    )  # fmt: skip


def _single_game(p: Pairing) -> TieView:
    """A tie of one game (the bracket knockout's default): the table's result."""
    assert p.b is not None
    r = p.result
    if r is None:
        return TieView(p.table, p.a.name, p.b.name, None, [], (0, 0), (0, 0), "games",
                       1, p.a.name, None, None, None)  # fmt: skip
    points = {"A": (1.0, 0.0), "B": (0.0, 1.0), "D": (0.5, 0.5)}.get(r.outcome, (0.0, 0.0))
    winner = ties.side_name(p, r.outcome)
    phase = "decided" if r.outcome != "D" else "games"
    return TieView(p.table, p.a.name, p.b.name, None, [], points, (0, 0), phase, None,
                   None, winner, "game" if winner else None, None)  # fmt: skip


def _bracket_round(ev: Event, rnd: Round) -> BracketRound:
    tables = sorted(rnd.pairings, key=lambda p: p.table)
    bye = next((p.a.name for p in tables if p.b_id is None), None)
    return BracketRound(
        rnd.number,
        rnd.method,
        _draw_view(rnd),
        [_tie_view(ev, p) for p in tables if p.b_id is not None],
        bye,
        rnd.published is not False,
    )


def published_bracket(bracket: Bracket) -> Bracket:
    """The bracket as the players see it: rounds kept back by a failed pairing check are
    left out (and counted among the rounds to come)."""
    kept = [r for r in bracket.rounds if r.published]
    if len(kept) == len(bracket.rounds):
        return bracket
    return dataclasses.replace(bracket, rounds=kept, to_come=rounds_to_come(kept))


def rounds_to_come(rounds: list[BracketRound]) -> list[RoundToCome]:
    """The rounds after the latest drawn one, down to the final: each halves the field (a
    bye when it is odd). The next round's field: each tie's winner, or the tie awaited."""
    if not rounds:
        return []
    latest = rounds[-1]
    going: list[tuple[str | None, int | None]] = [
        (t.winner, None) if t.decided else (None, t.table)
        for t in latest.ties
        if t.winner or not t.decided  # a double forfeit sends nobody on
    ]
    if latest.bye:
        going.append((latest.bye, None))
    out: list[RoundToCome] = []
    size, number = len(going), latest.number + 1
    while size > 1:
        out.append(RoundToCome(number, size // 2, size % 2 == 1, going if not out else []))
        size, number = size // 2 + size % 2, number + 1
    return out


def _latest_complete(ev: Event) -> bool:
    return not ev.rounds_ or all(
        p.result is not None for p in ev.rounds_[-1].pairings if p.b_id is not None
    )


class FormatPages:
    """Reads for the bracket and team pages (a use case of `TournamentService`)."""

    def __init__(self, store: Store, knockout: KnockoutUseCases, teams: TeamUseCases) -> None:
        self.store = store
        self.knockout = knockout
        self.teams = teams

    def event_formats(self, event_id: int) -> Formats:
        # Every desk page asks: the event's own columns, its team setup and (a knockout's)
        # rounds are read, never its tables.
        with self.store.tx(write=False) as s:
            ev = self.store.known(s, event_id, full=False)
            info = team_event(s, ev)
            return Formats(
                ev.system == "knockout",
                drawn_knockout(ev),
                ties.has_minimatches(ev),
                info.boards if info is not None else None,
                ties.policy_of(ev).as_dict() if ev.system == "knockout" else {},
            )

    def bracket(self, event_id: int) -> Bracket:
        """The knockout's rounds as a bracket; NotFound when the event is no knockout."""
        with self.store.tx(write=False) as s:
            ev = self.store.known(s, event_id)
            if ev.system != "knockout":
                raise NotFound(f"{ev.name!r} is a {ev.system}, not a knockout: it has no bracket")
            rounds = [_bracket_round(ev, r) for r in ev.rounds_]
            number = len(ev.rounds_) + 1
            can_draw, entrants = self._who_draws(ev, number)
            champion = None
            if ev.rounds_ and _latest_complete(ev) and not knockout.replays_due(ev):
                winners = [w for w in knockout.stage_winners(ev) if w is not None]
                champion = winners[0].name if len(winners) == 1 else None
            return Bracket(
                event_view(ev),
                ties.has_minimatches(ev),
                ties.policy_of(ev).as_dict(),
                rounds,
                can_draw and champion is None,
                number,
                entrants,
                champion,
                [] if champion else rounds_to_come(rounds),
            )

    def _who_draws(self, ev: Event, number: int) -> tuple[bool, list[str]]:
        if ev.rounds_ and not drawn_knockout(ev):
            return False, []  # a bracket knockout: paired by seeds, not drawn
        if not _latest_complete(ev) or (ev.rounds_ and knockout.replays_due(ev)):
            return False, []
        try:
            entrants = [e.name for e in self.knockout.field(ev, number)]
        except TournamentError:
            return False, []
        return True, entrants

    # ------------------------------------------------------------------ teams

    def teams_page(self, event_id: int) -> TeamsPage:
        """A team event's teams, next line-ups, match cards and standings; NotFound when
        the event is no team event."""
        with self.store.tx(write=False) as s:
            ev = self.store.known(s, event_id)
            info = team_event(s, ev)
            if info is None:
                raise NotFound(f"{ev.name!r} is not a team event")
            number = len(ev.rounds_) + 1
            found = event_teams(s, ev)
            team_views = [self._team_view(s, ev, t, number, info.boards) for t in found]
            cards = [c for r in ev.rounds_ for c in _cards(s, ev, r.number, info.boards)]
            table = self.teams.team_standings(s, ev) if ev.entrants else {}
            return TeamsPage(
                event_view(ev),
                info.boards,
                info.ranking,
                team_views,
                number,
                ev.rounds is None or number <= ev.rounds,
                cards,
                list(table.get("standings", [])),
                list(table.get("board_scores", [])),
            )

    @staticmethod
    def _team_view(s: Session, ev: Event, team: Any, number: int, boards: int) -> TeamView:
        from ball.tournament.models import TeamLineup

        by_id = {e.id: e for e in ev.entrants}
        order = team_order(team, by_id)
        declared = sorted(
            (x for x in s.query(TeamLineup).filter_by(team_id=team.id, round_number=number)),
            key=lambda x: x.board,
        )
        if declared:
            lineup = [by_id[x.entrant_id].name for x in declared]
        else:
            lineup = [e.name for e in order if e.status == "active"][:boards]
        return TeamView(team.name, [(e.name, e.rating) for e in order], lineup, bool(declared))

    def match_card(self, event_id: int, number: int, match: int) -> MatchCard:
        with self.store.tx(write=False) as s:
            ev = self.store.known(s, event_id)
            info = team_event(s, ev)
            if info is None:
                raise NotFound(f"{ev.name!r} is not a team event")
            for card in _cards(s, ev, number, info.boards):
                if card.match == match:
                    return card
        raise NotFound(f"round {number} has no team match {match}")


def _cards(s: Session, ev: Event, number: int, boards: int) -> list[MatchCard]:
    """The team matches of round `number`: board tables in order, match after match."""
    from sqlalchemy import select

    from ball.tournament.models import Team, TeamMatch

    names = {t.id: t.name for t in s.scalars(select(Team).where(Team.event_id == ev.id))}
    rnd = next((r for r in ev.rounds_ if r.number == number), None)
    played = [p for p in rnd.pairings if p.b_id is not None] if rnd else []
    tables = sorted(played, key=lambda p: p.table)
    rows = s.scalars(
        select(TeamMatch)
        .where(TeamMatch.event_id == ev.id, TeamMatch.round_number == number)
        .order_by(TeamMatch.match)
    )
    out, index = [], 0
    for m in rows:
        if m.second_id is None:
            out.append(MatchCard(number, m.match, names[m.first_id], None, [], None, None))
            continue
        mine, index = tables[index : index + boards], index + boards
        out.append(_card(number, m.match, names[m.first_id], names[m.second_id], mine))
    return out


_FROM_A = {"A": "1-0", "B": "0-1", "D": "½-½", "N": "0-0"}
_SWAP = {"1-0": "0-1", "0-1": "1-0", "½-½": "½-½", "0-0": "0-0", "": ""}


def _card(number: int, match: int, first: str, second: str, tables: list[Pairing]) -> MatchCard:
    boards = []
    for board, p in enumerate(tables, start=1):
        assert p.b is not None
        first_a = teams.first_colour_team(board) == "first"  # 13.2, 13.3
        text = _FROM_A.get(p.result.outcome, "") if p.result is not None else ""
        result = text if first_a else _SWAP[text]
        boards.append(
            BoardView(
                board, p.table,
                p.a.name if first_a else p.b.name, p.b.name if first_a else p.a.name,
                first_a, result, p.result.kind if p.result is not None else "",
            )
        )  # fmt: skip
    if not tables or any(b.result == "" for b in boards):
        return MatchCard(number, match, first, second, boards, None, None)
    totals = _game_points(boards)
    mp = teams.Played(second, *totals).match_points  # 14.2: 2/1/0 from the game points
    return MatchCard(number, match, first, second, boards, totals, (mp, 2 - mp))


def _game_points(boards: list[BoardView]) -> tuple[float, float]:
    """Game points of both teams (14.1): a double forfeit scores nothing for either."""
    points = {"1-0": (1.0, 0.0), "0-1": (0.0, 1.0), "½-½": (0.5, 0.5), "0-0": (0.0, 0.0)}
    a = sum(points.get(b.result, (0.0, 0.0))[0] for b in boards)
    b = sum(points.get(x.result, (0.0, 0.0))[1] for x in boards)
    return (a, b)
