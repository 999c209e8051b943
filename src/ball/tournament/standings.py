"""Standings: points, then an ordered, organiser-chosen chain of tie-breaks.

Unplayed rounds follow the FIDE Tie-Break Regulations (C.07) of 2024 by default
(`fide-2024`), or their 2026 amendment (`fide-2026`):

* a *voluntarily unplayed round* (VUR) is a requested half- or zero-point bye, a forfeit
  loss or a round not paired (absent, withdrawn, late entry); pairing-allocated and
  full-point byes and forfeit wins are not VURs;
* an opponent's score for Buchholz-type tie-breaks is *adjusted*: the VURs after their last
  round that was not a VUR count as draws in a Swiss (as zero in a round robin);
* each of the entrant's own unplayed rounds counts as a game against a *dummy opponent* whose
  score equals the entrant's own (2026: capped by the forfeiting opponent's adjusted score,
  or by a draw in every round for a bye); in a round robin it counts zero;
* cut-1 drops a VUR's contribution first whenever there is one (even when a played round
  contributes less, as FIDE's checker does), else the lowest contribution.

Game tie-breaks (for BALL: touchdown difference, total SD, PBATK per touchdown) come from the
game plug-in; forfeits carry no PB figure (R-forfeit).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy.orm import Session, object_session

from ball.games import game
from ball.games.protocol import Figures, Game
from ball.tournament import crosstable, knockout, sanction_log
from ball.tournament.crosstable import Line
from ball.tournament.event_rows import EventData
from ball.tournament.models import Event
from ball.tournament.scoring import Scoring

RULES = {
    "fide-2024": "FIDE Tie-Break Regulations C.07 (2024), dummy opponent for unplayed rounds",
    "fide-2026": "FIDE Tie-Break Regulations C.07 (2024, amended 2026), capped dummy opponent",
}

# The 2026 amendment of the Tie-Break Regulations applies to events that start on or after
# this day (FIDE Council approval of 2 February 2026; the date gacrux's checker uses too).
RULES_2026_FROM = "2026-03-01"


def rules_for_date(date_start: str) -> str:
    """The tie-break rules in force for an event starting on `date_start` (YYYY-MM-DD); an
    undated event takes the rules in force now, the newest (as gacrux's checker does)."""
    if date_start and date_start < RULES_2026_FROM:
        return "fide-2024"
    return "fide-2026"


GENERIC_TIEBREAKS = {
    "direct-encounter": "rank inside the tied group by the games between its entrants (1 = best)",
    "buchholz": "sum of the opponents' adjusted scores",
    "buchholz-cut1": "Buchholz without the lowest contribution",
    "buchholz-median": "Buchholz without the lowest and the highest contribution",
    "sonneborn-berger": "sum of opponent's adjusted score times the points scored against them",
    "wins": "rounds scored as a win (forfeit wins and pairing-allocated byes included)",
    "won": "games won over the board",
    "progressive": "sum of the running score after each round",
    "koya": "points scored against opponents who made at least half the maximum",
}

DEFAULT_CHAIN = {
    "swiss": ["buchholz-cut1", "buchholz", "sonneborn-berger", "direct-encounter", "wins"],
    "round-robin": ["direct-encounter", "sonneborn-berger", "wins", "koya"],
    "double-round-robin": ["direct-encounter", "sonneborn-berger", "wins", "koya"],
    "knockout": ["wins"],
}

VUR_CODES = frozenset("HZ-")


def default_chain(system: str, plugin: Game) -> list[str]:
    """The tie-break chain of a new event: the system's, then the game's own; or the
    game's own chain for the system when its rules fix one (Xiangqi 15.1/15.2)."""
    if system == "groups":  # each group, and a round-robin final, is a round robin
        system = "round-robin"
    own = plugin.default_chains
    if own is not None and system in own:
        return list(own[system])
    return list(DEFAULT_CHAIN[system]) + list(plugin.tiebreaks)


@dataclass
class Standing:
    rank: int
    number: int
    entrant_id: int
    name: str
    points: float
    tiebreaks: dict[str, float | None] = field(default_factory=dict)
    # A knockout of mini-matches: each tie the entrant played (`ties.of_entrant`).
    ties: list[dict[str, Any]] | None = None

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "rank": self.rank,
            "name": self.name,
            "number": self.number,
            "points": self.points,
            "tiebreaks": dict(self.tiebreaks),
        }
        if self.ties is not None:
            out["ties"] = self.ties
        return out


def known_tiebreaks(plugin: Game) -> dict[str, str]:
    names = dict(GENERIC_TIEBREAKS)
    names.update({k: v.description for k, v in plugin.tiebreaks.items()})
    return names


class _Context:
    """Per-entrant figures the Buchholz family needs, computed once."""

    def __init__(
        self,
        lines: list[Line],
        scoring: Scoring,
        round_robin: bool,
        rules: str,
        sanctions: dict[int, list[str]] | None = None,
    ):
        self.sanctions = sanctions or {}
        self.lines = {x.number: x for x in lines}
        self.scoring = scoring
        self.rr = round_robin
        self.rules = rules
        self.rounds = max((len(x.cells) for x in lines), default=0)
        self.points = {n: x.points for n, x in self.lines.items()}
        self.adjusted = {n: self._adjusted(x) for n, x in self.lines.items()}
        # the Buchholz variants of a chain read the same contributions: made once per line
        self._contributions: dict[tuple[int, bool], tuple[tuple[bool, float, float], ...]] = {}
        # and the game's tie-breaks the same figures (entrant number -> its games' figures)
        self._figures: dict[int, list[Figures]] = {}

    def figures(self, line: Line) -> list[Figures]:
        """The figures of the line's rounds that have some, in round order."""
        found = self._figures.get(line.number)
        if found is None:
            found = self._figures[line.number] = [c.figures for c in line.cells if c.figures]
        return found

    def _adjusted(self, line: Line) -> float:
        last = max((c.round for c in line.cells if c.code not in VUR_CODES), default=0)
        fill = 0.0 if self.rr else self.scoring.draw
        return sum(
            c.points if (c.round <= last or c.opponent is not None) else fill for c in line.cells
        )

    def contributions(self, line: Line, sonneborn: bool) -> tuple[tuple[bool, float, float], ...]:
        """(is VUR, opponent score, tie-break value) per counted round (`_cut` works on its
        own copy)."""
        key = (line.number, sonneborn)
        if key not in self._contributions:
            self._contributions[key] = tuple(self._contributions_of(line, sonneborn))
        return self._contributions[key]

    def _contributions_of(self, line: Line, sonneborn: bool) -> list[tuple[bool, float, float]]:
        own = self.points[line.number]
        out = []
        for c in line.cells:
            # With pre-determined pairings (round robin) a forfeited game still counts
            # against that opponent; a round without an opponent counts nothing.
            counts_as_game = c.played or (self.rr and c.opponent is not None)
            if counts_as_game:
                # Both ways of counting as a game need an opponent (`Cell.played` checks it).
                assert c.opponent is not None
                score = self.adjusted[c.opponent]
            elif self.rr:
                continue
            else:
                score = own
                if self.rules == "fide-2026":
                    cap = (
                        self.adjusted[c.opponent]
                        if c.opponent is not None
                        else self.scoring.draw * self.rounds
                    )
                    score = min(score, cap)
            vur = c.code in VUR_CODES and not counts_as_game
            out.append((vur, score, score * c.points if sonneborn else score))
        return out


def _cut(values: Sequence[tuple[bool, float, float]], low: int, high: int) -> float:
    if not low and not high:  # nothing to cut: no copy (Buchholz, Sonneborn-Berger)
        return float(sum(v[2] for v in values))
    kept = list(values)  # the cuts remove from it
    # `min` gives the first of the lowest, as a stable sort's first element would
    for _ in range(min(low, len(kept))):
        lowest = min(kept, key=lambda v: (v[1], v[2]))
        vur = min(kept, key=lambda v: (not v[0], v[2], v[1]))
        if not vur[0] or lowest[2] > vur[2]:
            kept.remove(lowest)
        else:
            kept.remove(vur)
    for _ in range(min(high, len(kept))):
        kept.remove(min(kept, key=lambda v: (-v[1], -v[2])))
    return float(sum(v[2] for v in kept))


def _progressive(line: Line) -> float:
    running = total = 0.0
    for c in line.cells:
        running += c.points
        total += running
    return total


def _koya(ctx: _Context, line: Line) -> float:
    games = ctx.rounds
    if ctx.rr:
        n = len(ctx.lines)
        if n and ctx.rounds % n == 0:
            games -= ctx.rounds // n
    limit = 0.5 * ctx.scoring.win * games
    return sum(
        c.points for c in line.cells if c.opponent is not None and ctx.points[c.opponent] >= limit
    )


def _single(name: str, ctx: _Context, line: Line, plugin: Game) -> float | None:
    if name == "buchholz":
        return _cut(ctx.contributions(line, False), 0, 0)
    if name == "buchholz-cut1":
        return _cut(ctx.contributions(line, False), 1, 0)
    if name == "buchholz-median":
        return _cut(ctx.contributions(line, False), 1, 1)
    if name == "sonneborn-berger":
        return _cut(ctx.contributions(line, True), 0, 0)
    if name == "wins":
        return float(sum(1 for c in line.cells if c.code in "1+UF" and c.points == ctx.scoring.win))
    if name == "won":
        return float(sum(1 for c in line.cells if c.code == "1"))
    if name == "progressive":
        return _progressive(line)
    if name == "koya":
        return _koya(ctx, line)
    tb = plugin.tiebreaks[name]
    if tb.from_sanctions is not None:
        return tb.from_sanctions(ctx.sanctions.get(line.entrant_id, []))
    return tb.compute(ctx.figures(line))


def _meetings(line: Line, round_robin: bool) -> list[tuple[int, float]]:
    """(opponent, points) of each round of `line` that is an encounter. A forfeited game is
    no encounter in a Swiss; with pre-determined pairings (round robin) it counts."""
    return [
        (c.opponent, c.points)
        for c in line.cells
        if c.opponent is not None and (c.played or (round_robin and not c.pending))
    ]


def _encounters(
    group: list[Line], meetings: dict[int, list[tuple[int, float]]], round_robin: bool, win: float
) -> dict[int, tuple[float, float]]:
    """(points among the group, most points still possible among it) per entrant, from each
    entrant's `meetings` (`_meetings`, read once for every sub-group of a tie).

    Points against one opponent met several times are averaged. In a Swiss an opponent of
    the group not met counts as a win still possible (FIDE 2024, 6.2).
    """
    members = {x.number for x in group}
    out = {}
    for line in group:
        per_opponent: dict[int, list[float]] = {}
        for opponent, points in meetings[line.number]:
            if opponent in members:
                per_opponent.setdefault(opponent, []).append(points)
        score = sum(sum(v) / len(v) for v in per_opponent.values())
        missing = 0 if round_robin else len(members) - 1 - len(per_opponent)
        out[line.number] = (score, score + missing * win)
    return out


def _direct_encounter_pass(
    group: list[Line], meetings: dict[int, list[tuple[int, float]]], round_robin: bool, win: float
) -> list[list[Line]]:
    """One pass of the direct-encounter rule: the group split into ordered sub-groups."""
    enc = _encounters(group, meetings, round_robin, win)
    if round_robin:
        ordered = sorted(group, key=lambda x: (-enc[x.number][0], x.number))
        parts = [[ordered[0]]]
        for line in ordered[1:]:
            if enc[line.number][0] == enc[parts[-1][-1].number][0]:
                parts[-1].append(line)
            else:
                parts.append([line])
        return parts
    # Not everyone has met: an entrant goes ahead of the rest only while their points
    # exceed what any entrant after them could still reach; the others stay tied.
    ordered = sorted(group, key=lambda x: (-enc[x.number][0], -enc[x.number][1], x.number))
    parts = [[ordered[0]]]
    for index in range(1, len(ordered)):
        best_rest = max(enc[x.number][1] for x in ordered[index:])
        if enc[ordered[index - 1].number][0] > best_rest and len(parts) == index:
            parts.append([ordered[index]])
        else:
            parts[-1].extend(ordered[index:])
            break
    return parts


def _direct_encounter(group: list[Line], round_robin: bool, win: float) -> dict[int, float]:
    """Rank inside the tied group by direct encounter (1 = best, equal ranks stay tied;
    0 for all when the encounters separate nobody), applied again to every sub-group still
    tied until nothing changes: the values gacrux's checker writes."""
    ranks: dict[int, float] = {}
    meetings = {x.number: _meetings(x, round_robin) for x in group}

    def rank(members: list[Line], base: int) -> None:
        parts = (
            _direct_encounter_pass(members, meetings, round_robin, win)
            if len(members) > 1
            else [members]
        )
        if len(parts) == 1:
            for x in members:
                ranks[x.number] = float(base)
            return
        position = base
        for part in parts:
            rank(part, position)
            position += len(part)

    rank(group, 1)
    if len(set(ranks.values())) == 1:
        return {x.number: 0.0 for x in group}  # the encounters separate nobody
    return ranks


def _sort_key(value: float | None, higher_is_better: bool) -> tuple[int, float]:
    if value is None:
        return (1, 0.0)
    return (0, -value if higher_is_better else value)


def compute(
    lines: list[Line],
    scoring: Scoring,
    chain: list[str],
    plugin: Game,
    *,
    round_robin: bool = False,
    rules: str = "fide-2024",
    reach: dict[int, int] | None = None,
    sanctions: dict[int, list[str]] | None = None,
) -> list[Standing]:
    """Rank entrants: points, then `chain` in order; entrants still tied share a rank.
    `sanctions` (entrant id -> steps given) feeds a game's sanction tie-break (Xiangqi 18.4).

    `reach` (entrant id -> stage reached, a knockout's; see `knockout.stages_reached`)
    ranks by the stage instead: entrants out in the same stage share a rank, and the chain
    is computed and shown but separates nobody."""
    ctx = _Context(lines, scoring, round_robin, rules, sanctions)
    values: dict[int, dict[str, float | None]] = {x.number: {} for x in lines}
    direction: dict[str, bool] = {}
    for name in chain:
        direction[name] = (
            plugin.tiebreaks[name].higher_is_better
            if name in plugin.tiebreaks
            else name != "direct-encounter"  # a rank: lower is better
        )
        if name == "direct-encounter":
            continue
        for line in lines:
            values[line.number][name] = _single(name, ctx, line, plugin)

    groups: list[list[Line]] = [sorted(lines, key=lambda x: (-ctx.points[x.number], x.number))]
    if reach is not None:
        groups = _split(groups, lambda x: reach.get(x.entrant_id, 0), True)
    else:
        groups = _split(groups, lambda x: ctx.points[x.number], True)
    for name in chain:
        if name == "direct-encounter":
            for group in groups:
                de = (
                    _direct_encounter(group, round_robin, scoring.win)
                    if len(group) > 1
                    else {group[0].number: 0.0}
                )
                for number, value in de.items():
                    values[number][name] = value
        if reach is None:

            def key_of(x: Line, n: str = name) -> float | None:
                return values[x.number][n]

            groups = _split(groups, key_of, direction[name])

    standings: list[Standing] = []
    rank = 1
    for group in groups:
        for line in sorted(group, key=lambda x: x.number):
            standings.append(
                Standing(
                    rank,
                    line.number,
                    line.entrant_id,
                    line.name,
                    ctx.points[line.number],
                    {name: values[line.number][name] for name in chain},
                )
            )
        rank += len(group)
    return standings


def _split(
    groups: list[list[Line]], value: Callable[[Line], float | None], higher: bool
) -> list[list[Line]]:
    out: list[list[Line]] = []
    for group in groups:
        if len(group) <= 1:
            if group:  # an event with no entrants yet has one empty group
                out.append(group)
            continue
        ordered = sorted(group, key=lambda x: (_sort_key(value(x), higher), x.number))
        current = [ordered[0]]
        for line in ordered[1:]:
            if value(line) == value(current[-1]):
                current.append(line)
            else:
                out.append(current)
                current = [line]
        out.append(current)
    return out


def complete_rounds(ev: EventData) -> int:
    """The last round of the unbroken run of paired rounds that have every result in (0:
    none yet). A round still being played is not part of the standings at all: scored, each
    table without a result would be an unplayed round against a dummy opponent (C.07), and
    its entrants' Buchholz would move before a game is over."""
    done = 0
    for r in ev.rounds_:
        if any(p.b_id is not None and p.result is None for p in r.pairings):
            break
        done = r.number
    return done


def after_round(ev: EventData, upto: int | None) -> int:
    """The round standings asked for after round `upto` (None: the latest) are after: the
    last complete round, or `upto` when it is earlier. Every view of the standings (CLI,
    desk, public pages, projector, print, TRF, team and group tables) goes through it."""
    done = complete_rounds(ev)
    return done if upto is None else min(upto, done)


def in_progress(ev: EventData) -> int | None:
    """The paired round that is not counted yet because a table has no result (None when
    every paired round counts): what the pages say beside the standings."""
    done = complete_rounds(ev)
    return done + 1 if len(ev.rounds_) > done else None


def of_event(ev: EventData, upto: int | None, session: Session | None = None) -> list[Standing]:
    """The ranking of a stored event after round `after_round(ev, upto)` (`upto` None: the
    last complete round), by its scoring, tie-break chain and rules, with the tie-breaks of
    the game it names. `session` reads the sanction log (default: the ORM event's own
    session)."""
    upto = after_round(ev, upto)
    lines = crosstable.build(ev, upto)
    return compute(
        sorted(lines.values(), key=lambda x: x.number),
        Scoring.from_json(ev.scoring),
        json.loads(ev.tiebreaks),
        game(ev.game),
        round_robin=ev.system in ("round-robin", "double-round-robin"),
        rules=ev.tiebreak_rules,
        reach=knockout.reach(ev, upto),
        sanctions=_sanctions(ev, upto, session),
    )


def _sanctions(ev: EventData, upto: int | None, session: Session | None) -> dict[int, list[str]]:
    """Steps of the event's sanction log per entrant (given in rounds 1..upto, or outside
    any round), for a game whose tie-breaks rank by them (Xiangqi 18.4)."""
    if not any(tb.from_sanctions for tb in game(ev.game).tiebreaks.values()):
        return {}
    if session is None and isinstance(ev, Event):
        session = object_session(ev)
    if session is None:
        return {}
    out: dict[int, list[str]] = {}
    for entry in sanction_log.event_log(session, ev.id):
        if upto is None or entry.round_number is None or entry.round_number <= upto:
            out.setdefault(entry.entrant_id, []).append(entry.step)
    return out
