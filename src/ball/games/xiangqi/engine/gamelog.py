"""The arbiter's game log (seed §5 touch-move, §7 record keeping, §8 conduct, §9 fouls): a list
of entries, each with its time, side, article and reason, folded into the state that feeds the
result — fouls per side, warnings, the fouls the rules add by themselves (missed record moves,
7.1) and the loss they lead to (third foul, 4.1.8) or that the arbiter declares (4.1.x).

The numbers an organiser may change (fouls to lose, missed moves per foul, the relief time of
7.2) come from the rules TOML (`XiangqiRules`). Touch-move cases are decided with the engine:
`touch` says which moves the player is held to (5.1–5.5) and whether the touch is a foul
(9.1.5, 9.1.6). The log is plain data; `fold` is pure.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum

from .board import COLORS, NAMES, Color
from .ending import ARBITER_ARTICLES, Ending, arbiter_loss
from .errors import XiangqiError
from .game import Game
from .move import Move
from .position import Position
from .rules import XiangqiRules


class EntryKind(StrEnum):
    TOUCH = "touch"  # a touch-move case (5.1–5.5), with the foul it may carry
    FOUL = "foul"  # a foul given by the arbiter (9.1.x)
    MISSED = "missed"  # consecutive moves missing from the player's record (7.1, 7.2)
    WARNING = "warning"  # a warning (8.8)
    LOSS = "loss"  # a loss declared by the arbiter (4.1.x)


# Seed 9.1: what is a foul. 4.1.8 counts them; the third in a game loses it.
FOUL_ARTICLES: dict[str, str] = {
    "9.1.1": "questioned or distracted the opponent during the opponent's move",
    "9.1.2": "stopped or started the clock during the game",
    "9.1.3": "repeated a proposal the opponent had refused",
    "9.1.4": "claimed the natural-move limit and the check found it false",
    "9.1.5": "touched a piece that cannot move",
    "9.1.6": "touched an opponent's piece that none of the own pieces can capture",
    "9.1.7": "missed more consecutive moves in the record than allowed",
    "9.1.8": "broke the players' rules in a way that is not serious",
}


@dataclass(frozen=True, slots=True)
class LogEntry:
    time: int  # seconds since the start of the game
    side: Color
    kind: EntryKind
    article: str
    reason: str
    foul: str = ""  # the foul article this entry carries (FOUL entries, a fouling touch)
    count: int = 0  # MISSED: how many consecutive moves are missing
    remaining: int | None = None  # MISSED: the side's time left, seconds (7.2)
    by_rule: bool = False  # added by the fold (a foul for missed moves, the 4.1.8 loss)


@dataclass(frozen=True)
class LogState:
    """What the entries so far add up to."""

    fouls: dict[Color, int] = field(default_factory=lambda: dict.fromkeys(COLORS, 0))
    warnings: dict[Color, int] = field(default_factory=lambda: dict.fromkeys(COLORS, 0))
    entries: tuple[LogEntry, ...] = ()  # the arbiter's entries and the ones the rules added
    ending: Ending | None = None
    ended_at: int | None = None


# --- touch-move (seed §5) --------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Obligation:
    """The moves a player is held to after touching pieces, the article, and the foul (if
    any) the touch is."""

    moves: frozenset[Move]
    article: str
    reason: str
    foul: str = ""


def _moves(position: Position, frm: int | None = None, to: int | None = None) -> frozenset[Move]:
    return frozenset(
        m
        for m in position.legal_moves()
        if (frm is None or m.from_sq == frm) and (to is None or m.to_sq == to)
    )


def _first(
    position: Position, options: Sequence[tuple[frozenset[Move], str]], article: str, foul: str
) -> Obligation:
    # The seed's order of cases: the first one with a legal move binds the player; when none
    # has, the player moves freely and the touch is a foul.
    for moves, reason in options:
        if moves:
            return Obligation(moves, article, reason)
    free = frozenset(position.legal_moves())
    return Obligation(free, article, f"free move: {FOUL_ARTICLES[foul]}", foul)


def touch(position: Position, touched: Sequence[int], together: bool = False) -> Obligation:
    """The obligation after the side to move touched `touched` (one or two points, in the
    order touched; `together` when two were touched at once, 5.5)."""
    side = position.turn
    pieces = [position.piece_at(sq) for sq in touched]
    if not 1 <= len(touched) <= 2 or any(p is None for p in pieces):
        raise XiangqiError("a touch names one or two points that hold pieces")
    own = [sq for sq, p in zip(touched, pieces, strict=True) if p is not None and p.color is side]
    opp = [sq for sq in touched if sq not in own]
    if len(own) > 1 or len(opp) > 1:
        raise XiangqiError("seed §5 rules a touch of one own piece and/or one opposing piece")
    if not opp:
        mine = own[0]
        options = [(_moves(position, mine), f"must move {NAMES[mine]}")]
        return _first(position, options, "5.1", "9.1.5")
    target = opp[0]
    captures = _moves(position, to=target)
    if not own:
        return _first(position, [(captures, f"must capture on {NAMES[target]}")], "5.2", "9.1.6")
    mine = own[0]
    by_mine = _moves(position, mine, target)
    by_other = captures - by_mine
    mine_moves = _moves(position, mine)
    take = f"{NAMES[mine]} must capture {NAMES[target]}"
    other = f"another piece must capture {NAMES[target]}"
    move_it = f"must move {NAMES[mine]}"
    if touched[0] == mine and not together:  # 5.3: own piece first
        options = [(by_mine, take), (mine_moves, move_it), (by_other, other)]
        return _first(position, options, "5.3", "9.1.5")
    options = [(by_mine, take), (by_other, other), (mine_moves, move_it)]  # 5.4, 5.5
    return _first(position, options, "5.5" if together else "5.4", "9.1.5")


def touch_entry(
    time: int, position: Position, touched: Sequence[int], together: bool = False
) -> LogEntry:
    """The log entry for a touch: its article, the obligation as reason, a foul if any."""
    ob = touch(position, touched, together)
    return LogEntry(time, position.turn, EntryKind.TOUCH, ob.article, ob.reason, foul=ob.foul)


# --- the fold --------------------------------------------------------------------------------


def _add_foul(state: LogState, entry: LogEntry, rules: XiangqiRules) -> LogState:
    fouls = dict(state.fouls)
    fouls[entry.side] += 1
    state = replace(state, fouls=fouls)
    if fouls[entry.side] >= rules.fouls_to_lose:
        detail = f"foul {fouls[entry.side]} in this game ({entry.foul}: {entry.reason})"
        loss = LogEntry(entry.time, entry.side, EntryKind.LOSS, "4.1.8", detail, by_rule=True)
        ending = arbiter_loss(entry.side, "4.1.8", detail)
        state = replace(state, entries=state.entries + (loss,), ending=ending, ended_at=entry.time)
    return state


def _missed(state: LogState, entry: LogEntry, rules: XiangqiRules) -> LogState:
    relief = entry.remaining is not None and entry.remaining < rules.record_relief_seconds
    if relief:  # 7.2: under the relief time the player may stop recording
        return state
    for k in range(entry.count // rules.missed_moves_per_foul):
        if state.ending is not None:
            break
        n = (k + 1) * rules.missed_moves_per_foul
        reason = f"{n} consecutive moves missing from the record (7.1)"
        foul = LogEntry(
            entry.time, entry.side, EntryKind.FOUL, "7.1", reason, foul="9.1.7", by_rule=True
        )
        state = _add_foul(replace(state, entries=state.entries + (foul,)), foul, rules)
    return state


def _check(state: LogState, entry: LogEntry) -> None:
    if entry.time < 0:
        raise XiangqiError(f"log time {entry.time} is negative")
    if state.entries and entry.time < state.entries[-1].time:
        raise XiangqiError(f"log entry at {clock(entry.time)} is earlier than the one before")
    if state.ending is not None:
        raise XiangqiError(
            f"log entry at {clock(entry.time)}: the game already ended at "
            f"{clock(state.ended_at or 0)} ({state.ending.result}, {state.ending.detail})"
        )
    if entry.kind is EntryKind.FOUL and entry.foul not in FOUL_ARTICLES:
        raise XiangqiError(f"foul article {entry.foul!r} is not one of 9.1.1–9.1.8")
    if entry.kind is EntryKind.MISSED and entry.count < 1:
        raise XiangqiError("a missed-record entry counts at least one move")


def step(state: LogState, entry: LogEntry, rules: XiangqiRules | None = None) -> LogState:
    """The state after one more entry; XiangqiError if the entry cannot follow."""
    rules = rules or XiangqiRules()
    _check(state, entry)
    state = replace(state, entries=state.entries + (entry,))
    if entry.kind is EntryKind.WARNING:
        warnings = dict(state.warnings)
        warnings[entry.side] += 1
        return replace(state, warnings=warnings)
    if entry.kind is EntryKind.LOSS:
        ending = arbiter_loss(entry.side, entry.article, entry.reason)
        return replace(state, ending=ending, ended_at=entry.time)
    if entry.kind is EntryKind.MISSED:
        return _missed(state, entry, rules)
    if entry.foul:
        return _add_foul(state, entry, rules)
    return state


def fold(entries: Iterable[LogEntry], rules: XiangqiRules | None = None) -> LogState:
    """Fold the entries in order from an empty log."""
    state = LogState()
    for entry in entries:
        state = step(state, entry, rules)
    return state


def final_ending(game: Game, state: LogState, rules: XiangqiRules | None = None) -> Ending | None:
    """The game's ending: a loss from the log when there is one, else what the board says."""
    return state.ending if state.ending is not None else game.outcome(rules)


# --- text form: one entry per line -----------------------------------------------------------

_CLOCK_RE = re.compile(r"(?:(\d+):)?(\d{1,2}):(\d{2})")


def clock(seconds: int) -> str:
    h, rest = divmod(seconds, 3600)
    return f"{h}:{rest // 60:02d}:{rest % 60:02d}"


def parse_clock(text: str) -> int:
    m = _CLOCK_RE.fullmatch(text)
    if not m or int(m[3]) > 59 or (m[1] is not None and int(m[2]) > 59):
        raise XiangqiError(f"'{text}' is not a time (H:MM:SS or MM:SS)")
    return int(m[1] or 0) * 3600 + int(m[2]) * 60 + int(m[3])


def entry_line(entry: LogEntry) -> str:
    """`0:12:30 red foul 9.1.2 stopped the clock`; missed moves: `missed 7.1 5 [0:02:40]`."""
    head = f"{clock(entry.time)} {entry.side} {entry.kind}"
    if entry.kind is EntryKind.FOUL:
        return f"{head} {entry.foul} {entry.reason}"
    if entry.kind is EntryKind.MISSED:
        left = "" if entry.remaining is None else f" [{clock(entry.remaining)}]"
        return f"{head} {entry.count}{left} {entry.reason}".rstrip()
    if entry.kind is EntryKind.TOUCH:
        return f"{head} {entry.article} {entry.foul or '-'} {entry.reason}"
    return f"{head} {entry.article} {entry.reason}"


def _color(text: str) -> Color:
    try:
        return Color(text)
    except ValueError:
        raise XiangqiError(f"side {text!r} is not red or black") from None


def _kind(text: str) -> EntryKind:
    try:
        return EntryKind(text)
    except ValueError:
        kinds = ", ".join(k.value for k in EntryKind)
        raise XiangqiError(f"entry kind {text!r} is not one of {kinds}") from None


def _parse_missed(time: int, side: Color, rest: str) -> LogEntry:
    m = re.fullmatch(r"(\d+)(?: \[([\d:]+)\])?(?: (.*))?", rest)
    if not m:
        raise XiangqiError("a missed entry is: COUNT [H:MM:SS left] reason")
    remaining = parse_clock(m[2]) if m[2] else None
    reason = m[3] or ""
    kind = EntryKind.MISSED
    return LogEntry(time, side, kind, "7.1", reason, count=int(m[1]), remaining=remaining)


def parse_entry(line: str) -> LogEntry:
    parts = line.split(None, 3)
    if len(parts) < 4:
        raise XiangqiError("an entry is: TIME SIDE KIND … reason")
    time, side, kind, rest = parse_clock(parts[0]), _color(parts[1]), _kind(parts[2]), parts[3]
    if kind is EntryKind.MISSED:
        return _parse_missed(time, side, rest)
    article, _, reason = rest.partition(" ")
    if kind is EntryKind.FOUL:
        return LogEntry(time, side, kind, article, reason, foul=article)
    if kind is EntryKind.TOUCH:
        foul, _, reason = reason.partition(" ")
        return LogEntry(time, side, kind, article, reason, foul="" if foul == "-" else foul)
    if kind is EntryKind.LOSS and article not in ARBITER_ARTICLES:
        raise XiangqiError(f"article {article!r} is not a loss the arbiter declares")
    return LogEntry(time, side, kind, article, reason)


def read_log(text: str, rules: XiangqiRules | None = None) -> LogState:
    """Read a log (one entry per line, `#` comments) and fold it; XiangqiError names the line."""
    state = LogState()
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        try:
            state = step(state, parse_entry(line), rules)
        except XiangqiError as exc:
            raise XiangqiError(f"log line {number}: {exc}") from None
    return state


def write_log(entries: Iterable[LogEntry]) -> str:
    """The text of the arbiter's entries (the ones the fold added are left out: reading the
    text back adds them again)."""
    return "".join(entry_line(e) + "\n" for e in entries if not e.by_rule)


__all__ = [
    "FOUL_ARTICLES",
    "EntryKind",
    "LogEntry",
    "LogState",
    "Obligation",
    "clock",
    "final_ending",
    "fold",
    "parse_clock",
    "parse_entry",
    "read_log",
    "step",
    "touch",
    "touch_entry",
    "write_log",
]
