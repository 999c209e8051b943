"""Every pairing proves itself (issue 35 §2): a round's stored tables checked against the
reference of its system, and the verdict kept with the round.

- A Swiss round: FIDE's Dutch checker (gacrux's `pairingchecker -c`, through `swiss`) on
  the event's TRF up to and including the round, so the pairing is judged from the
  stored rows, not from what the engine answered when it paired.
- A round robin round: its row of the FIDE Berger tables (`berger`).
- A knockout round: the bracket's draw (`knockout.pair_round` on the rounds before it);
  a stage's colours are a toss, so a match is compared without them, a replay with them.

What has no reference (team rounds, groups, a knockout round drawn by lots at the venue,
Mahjong sessions) gets the verdict "not checkable" and its reason, never a passed check.
A failed check keeps the round back from the players (`Round.published`).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from importlib import metadata
from types import SimpleNamespace
from typing import Any, cast

from sqlalchemy.orm import Session

from ball.games import pairs_players
from ball.tournament import berger, crosstable, knockout, swiss, trf
from ball.tournament.errors import TournamentError
from ball.tournament.models import Event, GroupStage, Round, TeamEvent
from ball.tournament.scoring import Scoring

NOT_CHECKABLE = "not checkable"
SWISS_BY = "FIDE Dutch checker"  # how a Swiss verdict's `by` starts (the version follows)
BERGER = "FIDE Berger tables (C.05 Annex 1)"
DRAW = "the knockout draw (bracket order)"
DRAWN_BY_LOTS = "drawing of lots"  # `knockout_draws.DRAWN`: a round paired by cards drawn
SHOWN = 6  # differences a failed verdict names before "and N more"


@dataclass(frozen=True)
class Verdict:
    """`ok` True: the pairing is the reference's; False: it is not (`detail` says where);
    None: nothing to check it against (`detail` says why)."""

    ok: bool | None
    by: str
    detail: str

    @property
    def failed(self) -> bool:
        return self.ok is False

    def as_dict(self) -> dict[str, Any]:
        """The CLI's `check` object: `ok` is true only for a passed check."""
        return {"ok": self.ok is True, "by": self.by, "detail": self.detail}


def reference(by: str) -> str:
    """What checked a verdict, as a key the pages and forms name in their language:
    `swiss`, `berger`, `draw`, or "" (nothing)."""
    if by.startswith(SWISS_BY):
        return "swiss"
    return {BERGER: "berger", DRAW: "draw"}.get(by, "")


def stored(rnd: Round) -> Verdict | None:
    """The round's stored verdict; None when it was never checked (an imported round)."""
    if not rnd.check_by:
        return None
    return Verdict(rnd.check_ok, rnd.check_by, rnd.check_detail)


def record(rnd: Round, verdict: Verdict) -> None:
    """Keep the verdict with the round; a failed check takes the round back from the
    players, a passed one leaves its state as it was (publishing it is the arbiter's)."""
    # A round that failed before and was published anyway by the arbiter (a logged
    # override) stays so while it fails the same way; a new failure takes it back.
    if verdict.failed and rnd.check_ok is not False:
        rnd.published = False
    rnd.check_ok = verdict.ok
    rnd.check_by = verdict.by[:200]
    rnd.check_detail = verdict.detail


def check(s: Session, ev: Event, rnd: Round) -> Verdict:
    """The verdict on `rnd`, a round of `ev` as stored now."""
    reason = _no_reference(s, ev, rnd)
    if reason:
        return Verdict(None, NOT_CHECKABLE, reason)
    broken = _broken(rnd)
    if ev.system == "swiss":
        by = f"{SWISS_BY} (gacrux pairingchecker {metadata.version('gacrux')})"
        return Verdict(False, by, broken) if broken else _swiss(ev, rnd, by)
    if ev.system in ("round-robin", "double-round-robin"):
        return Verdict(False, BERGER, broken) if broken else _berger(ev, rnd)
    return Verdict(False, DRAW, broken) if broken else _knockout(ev, rnd)


def _no_reference(s: Session, ev: Event, rnd: Round) -> str:
    if not pairs_players(ev.game):
        return "tables of four are seated, not paired by a system with a reference"
    if s.get(TeamEvent, ev.id) is not None:
        return "a team round: no checker of team pairings is at hand"
    if ev.system == "groups" or s.get(GroupStage, ev.id) is not None:
        return "a groups event: no checker of group and final rounds is at hand"
    if rnd.method == DRAWN_BY_LOTS:
        return "paired by a drawing of lots at the venue (its record is in the log)"
    if ev.system not in ("swiss", "round-robin", "double-round-robin", "knockout"):
        return f"no reference for the system {ev.system!r}"
    return ""


def _broken(rnd: Round) -> str:
    """What makes the stored round no pairing at all: an entrant on two tables, or
    paired with themselves."""
    seen = Counter(x for p in rnd.pairings for x in (p.a_id, p.b_id) if x is not None)
    twice = sorted(
        p.table
        for p in rnd.pairings
        if seen[p.a_id] > 1 or (p.b_id is not None and seen[p.b_id] > 1)
    )
    if twice:
        return f"round {rnd.number}: an entrant sits at more than one table ({_tables(twice)})"
    alone = [p.table for p in rnd.pairings if p.a_id == p.b_id]
    if alone:
        return f"round {rnd.number}: an entrant is paired with themselves ({_tables(alone)})"
    return ""


def _tables(numbers: list[int]) -> str:
    return "tables " + ", ".join(map(str, numbers))


def _listed(items: list[str], sep: str = ", ") -> str:
    more = len(items) - SHOWN
    return sep.join(items[:SHOWN]) + (f"{sep}and {more} more" if more > 0 else "")


# ------------------------------------------------------------------------------ Swiss


def check_trf(ev: Event, number: int) -> str:
    """The event's TRF up to round `number` for the checker: start numbers, no ranks; a
    game of the round still without a result has the code `?` (TRF "to be played") and
    record 162 gives it no points, so the file's scores are the results entered."""
    lines = crosstable.build(ev, number)
    for line in lines.values():
        for c in line.cells:
            if c.round == number and c.opponent is not None and c.code == " ":
                c.code = "?"
    text = trf.write(
        name=ev.name,
        place=ev.place,
        date_start=ev.date_start,
        date_end=ev.date_end,
        system=ev.system,
        arbiter=ev.arbiter,
        rounds=max(ev.rounds or 0, number, 1),
        initial_colour=ev.initial_colour,
        scoring=Scoring.from_json(ev.scoring),
        lines=sorted(lines.values(), key=lambda x: x.number),
        ranks={},
        withdrawn=[e.number for e in ev.entrants if e.status == "withdrawn" and e.id in lines],
    )
    # gacrux's 162 reads a letter every nine columns; its `X` is the value of a `?` game.
    return "\n".join(
        line + "    X 0.0 " if line.startswith("162 ") else line for line in text.split("\n")
    )


def _swiss(ev: Event, rnd: Round, by: str) -> Verdict:
    total = max(ev.rounds or 0, rnd.number)
    try:
        found = swiss.check_dutch(check_trf(ev, rnd.number), rnd.number, total)
    except TournamentError as exc:
        return Verdict(False, by, f"round {rnd.number}: the checker refused the round: {exc}")
    if found.ok:
        tables = len(found.declared)
        return Verdict(True, by, f"round {rnd.number}: all {tables} pairs are the Dutch pairing")
    mine, theirs = set(found.declared), set(found.checker)

    def text(pairs: list[tuple[int, int]], other: set[tuple[int, int]]) -> list[str]:
        return [f"{w}–{b}" if b else f"{w} bye" for w, b in pairs if (w, b) not in other]

    return Verdict(
        False,
        by,
        f"round {rnd.number}: the Dutch pairing has "
        f"{_listed(text(found.checker, mine)) or 'no other pairs'}; the round has "
        f"{_listed(text(found.declared, theirs)) or 'no other pairs'} (pairing numbers, "
        "White first)",
    )


# ------------------------------------------------------------------------------ Berger


def _numbers(rnd: Round) -> list[tuple[int, int | None]]:
    return [(p.a.number, p.b.number if p.b is not None else None) for p in rnd.pairings]


def _pair_text(pair: tuple[int, int | None] | None) -> str:
    if pair is None:
        return "nothing"
    a, b = pair
    return f"{a}–{b}" if b is not None else f"{a} bye"


def _berger(ev: Event, rnd: Round) -> Verdict:
    cycles = 2 if ev.system == "double-round-robin" else 1
    n = sum(1 for e in ev.entrants if crosstable.in_field(ev, e))
    try:
        expected = berger.round_robin_round(n, rnd.number, cycles)
    except ValueError as exc:
        return Verdict(False, BERGER, f"round {rnd.number}: {exc}")
    return _compare(rnd, expected, _numbers(rnd), BERGER, "the Berger table")


def _compare(
    rnd: Round,
    expected: list[tuple[int, int | None]],
    actual: list[tuple[int, int | None]],
    by: str,
    reference: str,
) -> Verdict:
    wrong = []
    for table in range(1, max(len(expected), len(actual)) + 1):
        want = expected[table - 1] if table <= len(expected) else None
        have = actual[table - 1] if table <= len(actual) else None
        if want != have:
            wrong.append(
                f"table {table}: {reference} has {_pair_text(want)}, the round {_pair_text(have)}"
            )
    if wrong:
        return Verdict(False, by, f"round {rnd.number}: {_listed(wrong, '; ')} (pairing numbers)")
    return Verdict(True, by, f"round {rnd.number}: all {len(actual)} tables are {reference}'s")


# ------------------------------------------------------------------------------ knockout


def _knockout(ev: Event, rnd: Round) -> Verdict:
    before = [r for r in ev.rounds_ if r.number < rnd.number]
    view = cast(
        Event,
        SimpleNamespace(
            rounds_=before,
            entrants=ev.entrants,
            knockout_replays=ev.knockout_replays,
            system=ev.system,
            rounds=ev.rounds,
            draw_lots_seed=ev.draw_lots_seed,
        ),
    )
    try:
        tables, method = knockout.pair_round(view, rnd.number)
    except TournamentError as exc:
        return Verdict(False, DRAW, f"round {rnd.number}: the draw pairs no such round: {exc}")
    replay = method.startswith(knockout.REPLAY)

    def key(a: int, b: int | None) -> tuple[int, int | None]:
        # a stage's colours are tossed (13.4): the match, not who is named first
        return (a, b) if replay or b is None else (min(a, b), max(a, b))

    expected = [key(a.number, b.number if b is not None else None) for a, b, _ in tables]
    actual = [key(a, b) for a, b in _numbers(rnd)]
    return _compare(rnd, expected, actual, DRAW, "the draw")
