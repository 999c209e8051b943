"""Each entrant's round-by-round record, the one view that standings and the TRF share.

Every round that has been paired gives every entrant one `Cell`: the opponent (pairing
number) and colour of a game, or a bye/absence, with its TRF result code:
`1 = 0` (win, draw, loss over the board), `+ -` (forfeit won/lost; a double forfeit is `-`
for both), `U` pairing-allocated bye, `H` requested half-point bye, `F` full-point bye,
`Z` zero-point bye or not paired (withdrawn, late entry, absent), blank = not yet played,
or, with no opponent, not paired in a knockout (waiting for a replay, or out).

A round robin entrant whose results article 20.3 cancels (`withdrawal_event.cancelled`) has
no line, and each game against them is a round their opponent was not paired (`Z`, E-20).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import cast

from ball.games import game
from ball.games.protocol import Figures, Game
from ball.tournament import stored_json, withdrawal_event
from ball.tournament.event_rows import EntrantData, EventData, PairingData
from ball.tournament.scoring import Scoring

BYE_CODES = {"pab": "U", "half": "H", "full": "F", "zero": "Z"}


@dataclass
class Cell:
    round: int
    opponent: int | None = None  # pairing number
    colour: str = "-"  # w (coach A), b (coach B), - (no game)
    code: str = " "
    points: float = 0.0
    figures: Figures | None = None  # game figures when a result with figures exists

    @property
    def played(self) -> bool:
        """A game over the board (forfeits and byes are unplayed rounds)."""
        return self.opponent is not None and self.code in "1=0"

    @property
    def pending(self) -> bool:
        return self.code == " "


@dataclass
class Line:
    number: int
    entrant_id: int
    name: str
    rating: int | None
    federation: str
    cells: list[Cell] = field(default_factory=list)

    @property
    def points(self) -> float:
        return sum(c.points for c in self.cells)


def in_field(event: EventData, entrant: EntrantData) -> bool:
    """Whether the entrant is part of the event's table. An entrant of a round robin or a
    knockout who withdrew before round 1 was paired is not: the Berger tables and the bracket
    are drawn for the others (no forfeits handed to every opponent), and they are in neither
    the standings nor the TRF. A Swiss keeps everyone (withdrawn entrants are just not paired)."""
    return not (
        event.system != "swiss" and entrant.status == "withdrawn" and not entrant.withdrawn_after
    )


def outcome_codes(pairing: PairingData) -> tuple[str, str]:
    """TRF codes for coach A and coach B of a pairing with a game."""
    result = pairing.result
    if result is None:
        return " ", " "
    if result.kind == "double-forfeit":
        return "-", "-"
    if result.kind == "forfeit":
        return ("-", "+") if result.forfeit_by == "A" else ("+", "-")
    return {"A": ("1", "0"), "B": ("0", "1"), "D": ("=", "=")}[result.outcome]


def result_figures(event: EventData, pairing: PairingData) -> dict[str, Figures]:
    return _figures(game(event.game), pairing)


def _figures(plugin: Game, pairing: PairingData) -> dict[str, Figures]:
    result = pairing.result
    if result is None:
        return {}
    if result.kind == "double-forfeit":
        return plugin.double_forfeit()
    if result.kind == "forfeit":
        return plugin.forfeit("B" if result.forfeit_by == "A" else "A")
    if result.kind in ("sheet", "outcome") and result.decision:
        # The stored decision is the one `table_result.make_result` wrote (or a TRF
        # import's, from BALL's XXF record): its "figures" are the game's
        # `dict[str, Figures]`.
        return cast(dict[str, Figures], stored_json.loads(result.decision).get("figures", {}))
    return {}


def build(event: EventData, upto: int | None = None) -> dict[int, Line]:
    """Lines keyed by entrant id, covering rounds 1..upto (default: every paired round)."""
    scoring = Scoring.from_json(event.scoring)
    points = scoring.by_code()  # one table for every cell (issue 15: 6,000 cells)
    plugin = game(event.game)
    rounds = [r for r in event.rounds_ if upto is None or r.number <= upto]
    gone = withdrawal_event.cancelled_ids(event)
    field_ = [e for e in event.entrants if in_field(event, e) and e.id not in gone]
    lines = {e.id: Line(e.number, e.id, e.name, e.rating, e.federation) for e in field_}
    numbers = {e.id: e.number for e in field_}
    for rnd in rounds:
        seen: set[int] = set()
        for p in rnd.pairings:
            if p.a_id in gone or p.b_id in gone:
                continue  # a cancelled game: the opponent was not paired (below)
            if p.b_id is None:
                code = BYE_CODES[p.bye or "pab"]
                lines[p.a_id].cells.append(Cell(rnd.number, None, "-", code, points[code]))
                seen.add(p.a_id)
                continue
            code_a, code_b = outcome_codes(p)
            figs = _figures(plugin, p)
            for eid, opp, colour, code, side in (
                (p.a_id, p.b_id, "w", code_a, "A"),
                (p.b_id, p.a_id, "b", code_b, "B"),
            ):
                lines[eid].cells.append(
                    Cell(rnd.number, numbers[opp], colour, code, points[code], figs.get(side))
                )
                seen.add(eid)
        for e in field_:
            if e.id not in seen:
                code = (
                    "H" if (rnd.number < e.first_round and event.late_entry_bye == "half") else "Z"
                )
                if event.system in ("knockout", "groups"):
                    # waiting for a replay, out, or not in the final: not paired, no bye
                    code = " "
                lines[e.id].cells.append(Cell(rnd.number, None, "-", code, points[code]))
    return lines
