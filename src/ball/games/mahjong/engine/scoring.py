"""Scores: one hand, a session, table points, event and team standings (MCR as the WMC plays).

A hand is won on a discard (the discarder pays 8 + fan, the two others 8 each), self-drawn
(each of the three pays 8 + fan) or drawn (nobody pays); the base of 8 and the minimum fan
are the event's (`rules/wmc.toml`). Every hand's scores sum to zero. A session's scores are
its hands' scores plus the table's penalty points; table points 4/2/1/0 go by session score,
tied players sharing the points of the places they span (two tied first: 3 each), so a
table always gives out 7. Standings order players by table points, then total score; a team
sums its members' table points and scores. Seats are 0..3, the table's order at the start
of the session (east, south, west, north).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

SEATS = 4
BASE = 8
PLACE_POINTS = (4, 2, 1, 0)
OUTCOMES = ("discard", "self_drawn", "draw")

Scores = tuple[int, int, int, int]


class ScoringError(ValueError):
    """An entry that cannot be scored; the message names what is wrong."""


@dataclass(frozen=True)
class HandResult:
    """One hand: how it ended, who won, who discarded the winning tile, the fan."""

    outcome: str  # one of OUTCOMES
    winner: int | None = None
    discarder: int | None = None
    fan: int = 0


def _seat(value: object, field: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < SEATS:
        raise ScoringError(f"{field}: a seat is 0, 1, 2 or 3")
    return value


def check_hand(hand: HandResult, minimum: int = 8) -> None:
    """Refuse an entry that is not a valid hand: `ScoringError` says why."""
    if hand.outcome not in OUTCOMES:
        raise ScoringError(f"outcome: {hand.outcome!r} is not one of {', '.join(OUTCOMES)}")
    if hand.outcome == "draw":
        if hand.winner is not None or hand.discarder is not None or hand.fan:
            raise ScoringError("a draw hand has no winner, discarder or fan")
        return
    _seat(hand.winner, "winner")
    if hand.outcome == "discard":
        if _seat(hand.discarder, "discarder") == hand.winner:
            raise ScoringError("discarder: the winner cannot win on their own discard")
    elif hand.discarder is not None:
        raise ScoringError("discarder: a self-drawn hand has no discarder")
    if hand.fan < minimum:
        raise ScoringError(f"fan: {hand.fan} is under the minimum of {minimum}; not a win")


def parse_entry(doc: object, minimum: int = 8) -> HandResult:
    """A hand as the desk enters it: `{"outcome": "discard"|"self_drawn"|"draw", "winner":
    seat, "discarder": seat, "fan": n}`, or `"hand": {winning-hand document}` instead of
    `"fan"`, whose fans are then computed (and must reach the minimum without flowers)."""
    if not isinstance(doc, dict):
        raise ScoringError("a hand entry must be a JSON object")
    unknown = sorted(set(doc) - {"outcome", "winner", "discarder", "fan", "hand"})
    if unknown:
        raise ScoringError(f"{unknown[0]}: unknown field")
    outcome = doc.get("outcome")
    if "fan" in doc and "hand" in doc:
        raise ScoringError("give the fan or the hand, not both")
    fan = doc.get("fan", 0)
    if "hand" in doc:
        fan = _fan_of(doc["hand"], outcome, minimum)
    if isinstance(fan, bool) or not isinstance(fan, int) or fan < 0:
        raise ScoringError("fan: must be a whole number")
    hand = HandResult(str(outcome), doc.get("winner"), doc.get("discarder"), fan)
    check_hand(hand, minimum)
    return hand


def _fan_of(doc: object, outcome: object, minimum: int) -> int:
    from ball.games.mahjong.engine.fan import NotAWin, score
    from ball.games.mahjong.engine.hand import HandError, parse_hand

    try:
        hand = parse_hand(doc)
        result = score(hand, minimum)
    except (HandError, NotAWin) as exc:
        raise ScoringError(f"hand: {exc}") from None
    if hand.self_drawn != (outcome == "self_drawn"):
        raise ScoringError("hand: self_drawn does not match the outcome")
    if not result.valid:
        raise ScoringError(
            f"hand: {result.counted} fan without flowers is under the minimum of {minimum}"
        )
    return result.total


def hand_scores(hand: HandResult, minimum: int = 8, base: int = BASE) -> Scores:
    """What each seat wins (+) or pays (-) for `hand`; always sums to zero."""
    check_hand(hand, minimum)
    scores = [0, 0, 0, 0]
    if hand.outcome == "draw" or hand.winner is None:
        return (0, 0, 0, 0)
    for seat in range(SEATS):
        if seat == hand.winner:
            continue
        pays = base + hand.fan if hand.outcome == "self_drawn" or seat == hand.discarder else base
        scores[seat] -= pays
        scores[hand.winner] += pays
    return (scores[0], scores[1], scores[2], scores[3])


def add(*rows: Sequence[int]) -> Scores:
    """Seat-by-seat sums (hand scores, penalty points)."""
    total = [sum(row[i] for row in rows) for i in range(SEATS)]
    return (total[0], total[1], total[2], total[3])


def table_points(
    scores: Sequence[int], places: Sequence[int] = PLACE_POINTS
) -> tuple[Fraction, ...]:
    """4/2/1/0 by score; tied players share the points of the places they span."""
    if len(scores) != len(places):
        raise ScoringError(f"a table has {len(places)} scores, not {len(scores)}")
    order = sorted(range(len(scores)), key=lambda i: -scores[i])
    points: list[Fraction] = [Fraction(0)] * len(scores)
    i = 0
    while i < len(order):
        j = i
        while j < len(order) and scores[order[j]] == scores[order[i]]:
            j += 1
        share = Fraction(sum(places[i:j]), j - i)
        for k in order[i:j]:
            points[k] = share
        i = j
    return tuple(points)


@dataclass(frozen=True)
class SessionResult:
    """One table's session: its players (seat order) and their session scores."""

    players: tuple[int, int, int, int]
    scores: Scores

    @property
    def table_points(self) -> tuple[Fraction, ...]:
        return table_points(self.scores)


def session_result(
    players: Sequence[int],
    hands: Iterable[HandResult],
    penalties: Iterable[Sequence[int]] = (),
    minimum: int = 8,
    base: int = BASE,
) -> SessionResult:
    """A table's session from its hands and the penalty points of its log."""
    if len(players) != SEATS or len(set(players)) != SEATS:
        raise ScoringError("players: a table seats four different players")
    rows = [hand_scores(h, minimum, base) for h in hands]
    total = add((0, 0, 0, 0), *rows, *penalties)
    return SessionResult((players[0], players[1], players[2], players[3]), total)


@dataclass(frozen=True)
class Standing:
    name: str | int  # a player id or a team name
    table_points: Fraction
    score: int
    sessions: int


def _ranked(rows: Iterable[Standing]) -> list[Standing]:
    return sorted(rows, key=lambda r: (-r.table_points, -r.score, str(r.name)))


def standings(results: Iterable[SessionResult]) -> list[Standing]:
    """Players by table points, then total score (then id, for a stable order)."""
    points: dict[int, list[Fraction | int]] = {}
    for result in results:
        for player, score, tp in zip(result.players, result.scores, result.table_points,
                                     strict=True):
            row = points.setdefault(player, [Fraction(0), 0, 0])
            row[0] += tp
            row[1] += score
            row[2] += 1
    return _ranked(
        Standing(p, Fraction(row[0]), int(row[1]), int(row[2])) for p, row in points.items()
    )


def team_standings(players: Iterable[Standing], teams: Mapping[int, str]) -> list[Standing]:
    """Teams by the sums of their members' table points, then scores; `sessions` counts the
    members' sessions. Players without a team are left out."""
    sums: dict[str, list[Fraction | int]] = {}
    for row in players:
        if isinstance(row.name, int) and row.name in teams:
            acc = sums.setdefault(teams[row.name], [Fraction(0), 0, 0])
            acc[0] += row.table_points
            acc[1] += row.score
            acc[2] += row.sessions
    return _ranked(
        Standing(t, Fraction(acc[0]), int(acc[1]), int(acc[2])) for t, acc in sums.items()
    )


def session_over(hands_played: int, time_up: bool, hands: int = 16) -> bool:
    """A session ends after the event's number of hands (16 by default) or at its time
    limit, whichever comes first."""
    return time_up or hands_played >= hands
