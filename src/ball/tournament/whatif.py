"""What-if standings: the stored results plus hypothetical ones, ranked, nothing written.

An appeal ("what if table 3 of round 4 had been a draw?") and a player's "what do I need"
are the same question: the ranking of the event's rows (`event_rows.EventRows`, plain
frozen dataclasses) in which some tables carry another result. `apply` answers it with a
copy of the rows; `standings.of_event` ranks the copy by the very rules of the real
standings. No ORM object is touched and nothing reaches the database: the service reads
the rows in a read-only transaction (`whatif_service`) and hands them here.

A hypothetical result is written as `ball result enter` takes one: a short result
(`1-0`, `0-1`, `1/2`; `+-`, `-+` a forfeit, `--` a double forfeit) or a score sheet.
A short result carries no game figures (as a TRF import's result), so a game's own
tie-breaks (BALL's touchdown difference, SD) count the table as a game without figures.

"What I need" (`needs`) gives each player of the round being played the rank that each
result of their own table (win, draw, loss) would give them: exact, tie-breaks included,
when every other table of the round has its result; otherwise the range of ranks their
points allow whatever the other tables' results (the tie-breaks of the rounds to come are
unknown, so only points separate).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from ball.games.protocol import Game
from ball.tournament import crosstable, standings
from ball.tournament.errors import TournamentError
from ball.tournament.event_rows import EventRows, PairingRow, ResultRow
from ball.tournament.scoring import Scoring

_SPEC = re.compile(r"\s*([0-9]{1,9})\s*:\s*([0-9]{1,9})\s*=\s*(\S.*?)\s*\Z")

# The short results: (kind, forfeit_by, outcome), outcome as the stored rows write it.
SHORT: dict[str, tuple[str, str | None, str]] = {
    "1-0": ("outcome", None, "A"),
    "0-1": ("outcome", None, "B"),
    "1/2": ("outcome", None, "D"),
    "1/2-1/2": ("outcome", None, "D"),
    "½-½": ("outcome", None, "D"),
    "=": ("outcome", None, "D"),
    "+-": ("forfeit", "B", "A"),
    "-+": ("forfeit", "A", "B"),
    "--": ("double-forfeit", None, "N"),
}
SHORT_HELP = "1-0, 0-1, 1/2, +-, -+, --"

# What "what I need" tries for the player's own table, as the player sees it.
OWN_RESULTS = ("win", "draw", "loss")


@dataclass(frozen=True)
class Hypothesis:
    """Table `table` of round `round` as if its result were `short` (a key of `SHORT`)
    or, when `short` is None, the score sheet `sheet`."""

    round: int
    table: int
    short: str | None = None
    sheet: dict[str, Any] | None = None


@dataclass(frozen=True)
class Assumed:
    """A hypothesis placed at its table: who plays there and what it says happened."""

    round: int
    table: int
    a: str
    b: str
    outcome: str  # A, B, D (draw) or N (nobody: a double forfeit)
    kind: str  # outcome (a short result), sheet, forfeit or double-forfeit

    def as_dict(self) -> dict[str, Any]:
        return {
            "round": self.round,
            "table": self.table,
            "a": self.a,
            "b": self.b,
            "outcome": self.outcome,
            "kind": self.kind,
        }

    def describe(self) -> str:
        """One line, as `ball result enter` describes a result it stored."""
        if self.kind == "double-forfeit":
            what = "double forfeit"
        elif self.kind == "forfeit":
            what = f"forfeit by {self.b if self.outcome == 'A' else self.a}"
        else:
            what = {"A": f"{self.a} wins", "B": f"{self.b} wins", "D": "draw"}[self.outcome]
        return f"round {self.round} table {self.table}: {self.a} - {self.b}: {what}"


def split_spec(text: str) -> tuple[int, int, str]:
    """`ROUND:TABLE=RESULT` as (round, table, result text); anything else is refused."""
    found = _SPEC.match(text)
    if found is None:
        raise TournamentError(
            f"what-if {text!r}: write ROUND:TABLE=RESULT, e.g. 5:3=1-0 (RESULT: {SHORT_HELP} "
            "or a sheet file)"
        )
    rnd, table = int(found.group(1)), int(found.group(2))
    if rnd < 1 or table < 1:
        raise TournamentError(f"what-if {text!r}: rounds and tables are numbered from 1")
    return rnd, table, found.group(3)


def is_short(text: str) -> bool:
    return text.strip() in SHORT


# Where each table of the event sits: (round, table) -> (coach A's id, coach B's id or None).
Seats = Mapping[tuple[int, int], tuple[int, int | None]]


def apply(
    rows: EventRows, hypotheses: Sequence[Hypothesis], seats: Seats, plugin: Game
) -> tuple[EventRows, list[Assumed]]:
    """`rows` with each hypothesis's result at its table (a stored result is replaced, as
    an appeal would), and the hypotheses as placed. A table that is no table, a bye, a
    table given twice or an illegal sheet is refused, naming the hypothesis."""
    chosen: dict[tuple[int, int], ResultRow] = {}
    placed: list[Assumed] = []
    names = {e.id: e.name for e in rows.entrants}
    rounds = {r.number for r in rows.rounds_}
    for h in hypotheses:
        where = f"what-if {h.round}:{h.table}"
        if (h.round, h.table) in chosen:
            raise TournamentError(f"{where}: round {h.round} table {h.table} is given twice")
        if h.round not in rounds:
            raise TournamentError(f"{where}: round {h.round} is not paired")
        seat = seats.get((h.round, h.table))
        if seat is None:
            raise TournamentError(f"{where}: round {h.round} has no table {h.table}")
        a_id, b_id = seat
        if b_id is None:
            raise TournamentError(f"{where}: round {h.round} table {h.table} is a bye")
        a, b = names.get(a_id, "?"), names.get(b_id, "?")
        try:
            result = _result(h, plugin, a, b)
        except TournamentError as exc:
            raise TournamentError(f"{where}: {exc}") from None
        chosen[(h.round, h.table)] = result
        placed.append(Assumed(h.round, h.table, a, b, result.outcome, result.kind))
    by_a = {(r, seats[(r, t)][0]): res for (r, t), res in chosen.items()}
    return _with_results(rows, by_a), placed


def _with_results(rows: EventRows, by_a: Mapping[tuple[int, int], ResultRow]) -> EventRows:
    """A copy of `rows` whose table (round, coach A's id) carries the result given."""
    if not by_a:
        return rows

    def table(number: int, p: PairingRow) -> PairingRow:
        result = by_a.get((number, p.a_id))
        return p if result is None else replace(p, result=result)

    return replace(
        rows,
        rounds_=[
            replace(r, pairings=[table(r.number, p) for p in r.pairings]) for r in rows.rounds_
        ],
    )


def _result(h: Hypothesis, plugin: Game, a: str, b: str) -> ResultRow:
    if h.short is not None:
        text = h.short.strip()
        if text not in SHORT:
            raise TournamentError(f"result {text!r}: give {SHORT_HELP} or a sheet file")
        kind, forfeit_by, outcome = SHORT[text]
        figures: dict[str, Any] = {}
        if kind == "forfeit":
            figures = plugin.forfeit(outcome)
        elif kind == "double-forfeit":
            figures = plugin.double_forfeit()
        # a short result has no figures: the stored rows' empty decision says so
        decision = json.dumps({"figures": figures}) if figures else ""
        return ResultRow(kind, forfeit_by, outcome, decision)
    return sheet_result(plugin, h.sheet, a, b)


def sheet_result(plugin: Game, sheet: Any, a: str, b: str) -> ResultRow:
    """The result a score sheet decides, as `table_result.make_result` stores it
    (its kind, who forfeited, the outcome and the decision with the game's figures)."""
    if not isinstance(sheet, dict):
        raise TournamentError("illegal sheet: the score sheet must be a JSON object")
    decided = plugin.decide(sheet)  # a table of four's game refuses a two-player sheet
    plugin.check_players(sheet, a, b)
    forfeited = decided.decision.get("reason") == "forfeit"
    return ResultRow(
        "forfeit" if forfeited else "sheet",
        ("B" if decided.outcome == "A" else "A") if forfeited else None,
        decided.outcome,
        json.dumps({"decision": decided.decision, "figures": decided.figures}),
    )


# ------------------------------------------------------------------ what I need


@dataclass(frozen=True)
class Need:
    """What each result of their own table in round `round` would make of a player's rank:
    (own result, best rank, worst rank) in `OWN_RESULTS` order; `exact` when every other
    table of the round has its result (best == worst then, tie-breaks included)."""

    name: str
    round: int
    table: int
    opponent: str
    ranks: tuple[tuple[str, int, int], ...]
    exact: bool

    def as_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "round": self.round,
            "table": self.table,
            "opponent": self.opponent,
            "exact": self.exact,
            "ranks": {own: {"best": best, "worst": worst} for own, best, worst in self.ranks},
        }


Ranker = Callable[[EventRows, int], list[standings.Standing]]


def needs(rows: EventRows, names: Sequence[str], seats: Seats, rank: Ranker) -> list[Need]:
    """The `Need` of each player named in `names` who sits at a table without a result in
    the round being played (`standings.in_progress`), in the order of `names`; nobody else
    (a bye, a table already decided, no round being played, a knockout) has one. `rank`
    ranks rows after a round (`standings.of_event`, with the sanction log it reads)."""
    playing = standings.in_progress(rows)
    if playing is None or rows.system not in ("swiss", "round-robin", "double-round-robin"):
        return []
    rnd = next(r for r in rows.rounds_ if r.number == playing)
    scoring = Scoring.from_json(rows.scoring)
    pending = [p for p in rnd.pairings if p.b is not None and p.result is None]
    table_of = {a: t for (r, t), (a, _b) in seats.items() if r == playing}
    by_name = {p.a.name: p for p in rnd.pairings}
    by_name.update({p.b.name: p for p in rnd.pairings if p.b is not None})
    exact = len(pending) == 1  # a player's own table is then the only one left
    # each entrant's points so far, for the bounds: summed once for every player asked
    # about (`Line.points` adds its cells up at every read)
    points = {} if exact else {e: x.points for e, x in crosstable.build(rows, playing).items()}
    ranked: dict[str, dict[int, int]] = {}  # exact: the one open table's rankings
    out: list[Need] = []
    for name in names:
        p = by_name.get(name)
        if p is None or p.b is None or p.result is not None:
            continue
        side = "A" if p.a.name == name else "B"
        opponent = p.b.name if side == "A" else p.a.name
        ranks = tuple(
            (own, *(_exact(rows, playing, p, side, own, rank, ranked) if exact
                    else _bounds(points, pending, p, side, own, scoring)))
            for own in OWN_RESULTS
        )  # fmt: skip
        out.append(Need(name, playing, table_of[p.a_id], opponent, ranks, exact))
    return out


def _outcome(side: str, own: str) -> str:
    """The table's outcome (A, B, D) when the player on `side` has result `own`."""
    if own == "draw":
        return "D"
    return side if own == "win" else ("B" if side == "A" else "A")


def _exact(
    rows: EventRows,
    playing: int,
    p: PairingRow,
    side: str,
    own: str,
    rank: Ranker,
    ranked: dict[str, dict[int, int]],
) -> tuple[int, int]:
    """The player's rank, tie-breaks included, with their table decided `own`. `ranked`
    keeps each outcome's ranks (entrant id -> rank): the table's two players read the same
    three rankings, each a whole ranking of the event."""
    outcome = _outcome(side, own)
    if outcome not in ranked:
        result = ResultRow("outcome", None, outcome, "")
        table = rank(_with_results(rows, {(playing, p.a_id): result}), playing)
        ranked[outcome] = {s.entrant_id: s.rank for s in table}
    player = p.a_id if side == "A" else p.b_id
    assert player is not None  # `needs` asks only for tables with two players
    return ranked[outcome][player], ranked[outcome][player]


def _bounds(
    points: Mapping[int, float],
    pending: Sequence[PairingRow],
    p: PairingRow,
    side: str,
    own: str,
    scoring: Scoring,
) -> tuple[int, int]:
    """The best and worst rank points allow the player with their table decided `own`,
    whatever the round's other open tables give. The two players of a table score
    together (a win and a loss, two draws, a forfeit, a double forfeit), so for each table
    the fewest and the most of its two that can end above the player are counted."""
    assert p.b_id is not None  # `needs` asks only for tables with two players
    player, opponent = (p.a_id, p.b_id) if side == "A" else (p.b_id, p.a_id)
    gain = {"win": scoring.win, "draw": scoring.draw, "loss": scoring.loss}
    other = {"win": "loss", "draw": "draw", "loss": "win"}[own]
    mine = points[player] + gain[own]
    theirs = points[opponent] + gain[other]
    best, worst = 1 + (theirs > mine), 1 + (theirs >= mine)
    endings = [
        (scoring.win, scoring.loss),
        (scoring.draw, scoring.draw),
        (scoring.loss, scoring.win),
        (scoring.forfeit_win, scoring.forfeit_loss),
        (scoring.forfeit_loss, scoring.forfeit_win),
        (scoring.forfeit_loss, scoring.forfeit_loss),
    ]
    seated = {player, opponent}
    for q in pending:
        if q is p or q.b_id is None:
            continue
        seated |= {q.a_id, q.b_id}
        a, b = points.get(q.a_id), points.get(q.b_id)
        if a is None or b is None:  # a cancelled entrant's game (article 20.3): no line
            continue
        best += min((a + x > mine) + (b + y > mine) for x, y in endings)
        worst += max((a + x >= mine) + (b + y >= mine) for x, y in endings)
    for eid, score in points.items():
        if eid not in seated:  # a result, a bye or not paired: their points are known
            best += score > mine
            worst += score >= mine
    return best, worst
