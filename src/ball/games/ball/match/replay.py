"""Replaying a game record through the match and the engine.

Every action is checked by the engine and every match event by the match flow, so a record
that replays is a legal match; a corrupt or illegal record is refused with the line and
column of the first entry (or tag) that is wrong, and the reason.

`replay()` runs a whole record. A viewer that steps through a record one entry at a time
uses the same three steps: `start_match(record)`, then per half `begin_half(...)` (from the
second half on) and `replay_entry(match, entry)` for each entry.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from ball.games.ball.engine import (
    Game,
    IllegalAction,
    InvalidPosition,
    Ruleset,
    RulesetError,
    ruleset_by_name,
)
from ball.games.ball.match.flow import COACHES, HALVES, Match, MatchError
from ball.games.ball.match.record import Entry, GameRecord, HalfRecord, RecordError, parse

# The initial position (compact JSON, spec 18.2) of a game that did not start from the
# standard formation, as the simulator exports it.
POSITION_TAG = "Position"
# Tags checked against the replayed match when the record has them.
CHECKED_TAGS = ("Result", "Reason", "Forfeit", "CoachA", "CoachB", "Ruleset")
CHECKED_HALF_TAGS = ("ATK", "TD", "PB", "End", "Status")


@dataclass
class Replay:
    match: Match
    position: dict[str, Any] | None = None  # the position document at the requested point


def replay_text(text: str, **kwargs: Any) -> Replay:
    return replay(parse(text), **kwargs)


def replay(
    record: GameRecord,
    *,
    stop: tuple[int, int | None] | None = None,
    require_complete: bool = True,
    ruleset: Ruleset | None = None,
) -> Replay:
    """Replay `record`. With `stop=(half, turn)`, also capture the position at the start of
    that turn (before its first entry); `stop=(half, None)` captures the end of that half.
    Raises RecordError on the first fault."""
    match = start_match(record, ruleset)
    result = Replay(match)
    for half in record.halves:
        if half.number > HALVES:
            raise RecordError(_line_of(half), 1, f"a match has {HALVES} halves")
        if half.number != match.half.number:
            begin_half(match, half.number, half.entries)
        last_time = 0
        for entry in half.entries:
            if stop == (half.number, entry.turn) and result.position is None:
                result.position = match.game.to_json()
            if entry.time is not None:
                if entry.time < last_time:
                    raise _entry_error(entry, "[%time] goes backwards within the half")
                last_time = entry.time
            replay_entry(match, entry)
        if stop is not None and stop[0] == half.number and result.position is None:
            if stop[1] is not None and stop[1] != match.game.turn:
                raise RecordError(
                    _line_of(half), 1, f"half {half.number} has no turn {stop[1]} to show"
                )
            result.position = match.game.to_json()
        if not match.half_over and match.forfeited is None and require_complete:
            reason = "no touchdown, no end of the Final Drive, no forfeit"
            raise RecordError(*_end_of(half), f"half {half.number} is not over ({reason})")
    if require_complete and not match.is_over:
        raise RecordError(
            *_end_of(record.halves[-1]) if record.halves else (1, 1),
            "the record ends before the match does (half 2 missing, no forfeit)",
        )
    if stop is not None and result.position is None:
        raise RecordError(1, 1, f"the record has no half {stop[0]}")
    if match.is_over:
        _check_tags(record, match)
    return result


def start_match(record: GameRecord, ruleset: Ruleset | None) -> Match:
    """A match set up as the tags say; `ruleset` stands in for a ruleset the record names
    but that is neither shipped nor installed by the organiser. The `Ruleset` tag is a name,
    never a file (D-37)."""
    tags = record.tags
    name = tags.get("Ruleset", "standard")
    if ruleset is None:
        try:
            ruleset = ruleset_by_name(name)
        except RulesetError as exc:
            raise _tag_error(record, "Ruleset", str(exc)) from None
    start = None
    if POSITION_TAG in tags:
        try:
            start = Game.from_json(json.loads(tags[POSITION_TAG]), ruleset)
        except (json.JSONDecodeError, InvalidPosition) as exc:
            raise _tag_error(record, POSITION_TAG, f"tag {POSITION_TAG}: {exc}") from None
    first_half = start.half if start is not None else 1
    if record.halves and record.halves[0].number != first_half:
        raise RecordError(
            record.halves[0].line,
            1,
            f"the record begins with half {record.halves[0].number} but the game with "
            f"half {first_half}",
        )
    atk_first = tags.get(f"Half{first_half}ATK", "A")
    if atk_first not in COACHES:
        tag = f"Half{first_half}ATK"
        raise _tag_error(record, tag, f"{tag} must be A or B, not {atk_first!r}")
    names = {"A": tags.get("CoachA", "A"), "B": tags.get("CoachB", "B")}
    return Match(atk_first=atk_first, ruleset=ruleset, clock=None, names=names, start=start)


def begin_half(match: Match, number: int, entries: list[Entry]) -> None:
    try:
        match.next_half()
    except MatchError as exc:
        line = entries[0].line if entries else 1
        raise RecordError(line, 1, f"half {number} cannot begin: {exc}") from None


def replay_entry(match: Match, entry: Entry) -> None:
    game = match.game
    if match.forfeited is not None:
        raise _entry_error(entry, f"the match is already over: coach {match.forfeited} forfeited")
    if entry.turn != game.turn:
        raise _entry_error(
            entry, f"entry is numbered turn {entry.turn}, the game is at turn {game.turn}"
        )
    try:
        if entry.kind == "action":
            match.play(str(entry.action), by=entry.by, time=entry.time)
        elif entry.kind == "sanction":
            match.sanction(str(entry.coach), entry.step, entry.reason or "", time=entry.time)
        elif entry.kind == "forfeit":
            match.forfeit(str(entry.coach), entry.reason or "", time=entry.time)
        else:
            match.expire_half_timer(time=entry.time)
    except IllegalAction as exc:
        raise _entry_error(entry, f"illegal action {entry.action!r}: {exc}") from None
    except MatchError as exc:
        raise _entry_error(entry, str(exc)) from None
    match.annotate(entry.comment)


def _check_tags(record: GameRecord, match: Match) -> None:
    derived = match.result_tags()
    names = list(CHECKED_TAGS)
    names += [f"Half{n}{t}" for n in range(1, HALVES + 1) for t in CHECKED_HALF_TAGS]
    for name in names:
        if name in record.tags and record.tags[name] != derived.get(name, "-"):
            expected = derived.get(name, "(absent)")
            raise _tag_error(
                record,
                name,
                f"tag {name} says {record.tags[name]!r} but the replayed match gives {expected!r}",
            )


def _tag_error(record: GameRecord, name: str, reason: str) -> RecordError:
    line, column = record.tag_positions.get(name, (1, 1))
    return RecordError(line, column, reason)


def _entry_error(entry: Entry, reason: str) -> RecordError:
    return RecordError(entry.line, entry.column, reason)


def _line_of(half: HalfRecord) -> int:
    return half.line


def _end_of(half: HalfRecord) -> tuple[int, int]:
    if half.entries:
        last = half.entries[-1]
        return last.line, last.column
    return half.line, 1
