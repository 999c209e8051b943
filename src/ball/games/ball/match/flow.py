"""One match (spec 13–14): two halves between coach A and coach B.

The `Match` drives an engine `Game` per half and adds what the board does not know: who the
coaches are, the half timer and its Final Drive (D-20), the per-turn limit (D-21), the
release-phase time protocol (R-release), the sanction ladder (R-sanctions, D-19) and
forfeits (R-forfeit). Everything that happens is kept as record entries, so a played match
becomes a `.bgn` record and a record replays into the same match.

Time comes from an injected clock. With no clock the match is *untimed*: time events happen
only when called for (`expire_half_timer`), which is how records are replayed.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field, replace
from typing import Any

from ball.games.ball.engine import Event, Game, load_ruleset
from ball.games.ball.engine.state import ACTION
from ball.games.ball.match.record import Entry, GameRecord, HalfRecord
from ball.games.ball.match.result import Decision, decide
from ball.games.ball.match.timing import Clock, Timing
from ball.half_timer import (
    FinalDrive,
    half_timer_expiry,
    release_window_end,
    turn_limit_edge,
)
from ball.sanctions import LADDER, Ladder, Sanction, Step

COACHES = ("A", "B")
HALVES = 2
RESULT_TEXT = {"A": "1-0", "B": "0-1", None: "1/2-1/2"}


class MatchError(ValueError):
    """Something the match does not allow in its current state; the message says why."""


def other(coach: str) -> str:
    return COACHES[1] if coach == COACHES[0] else COACHES[0]


@dataclass
class Half:
    """One half: its game, who started as ATK (and so plays S), and how it ended."""

    number: int
    atk_first: str
    game: Game
    started_at: float | None
    entries: list[Entry] = field(default_factory=list)
    end: str | None = None  # "touchdown" | "time" | "forfeit"
    # The ATK side at the start of each turn after the first, by turn number: what a table
    # clock is told with each end of turn (two turns may end in one instant: a loss of
    # possession ending a turn, and a pending one ending the next at once, D-34).
    attack_at_turn: dict[int, str] = field(default_factory=dict)

    @property
    def research_only(self) -> bool:
        """An unfinished half (R-forfeit): kept for research, never a tournament figure."""
        return self.end == "forfeit"

    def coach_of(self, side: str) -> str:
        return self.atk_first if side == "S" else other(self.atk_first)

    def side_of(self, coach: str) -> str:
        return "S" if coach == self.atk_first else "N"


@dataclass
class _Release:
    since: float  # when the release phase began
    window: int = 0  # 0: the coach's extra time; 1: the opponent chooses (R-release)

    @property
    def stage(self) -> str:
        return RELEASE_STAGES[self.window]


RELEASE_STAGES = ("coach", "opponent")


class Match:
    def __init__(
        self,
        *,
        atk_first: str = "A",
        ruleset: Any = None,
        timing: Timing | None = None,
        clock: Clock | None = None,
        ladder: Ladder = LADDER,
        names: dict[str, str] | None = None,
        start: Game | None = None,
    ) -> None:
        """`start`: a position to begin from instead of the standard formation of half 1
        (a teaching position or a simulator game); its half number is kept."""
        if atk_first not in COACHES:
            raise MatchError(f"atk_first must be A or B, not {atk_first!r}")
        self.ruleset = ruleset if ruleset is not None else load_ruleset()
        self.timing = timing if timing is not None else Timing.from_ruleset(self.ruleset)
        self.clock = clock
        self.ladder = ladder
        self.names = dict(names) if names else {c: c for c in COACHES}
        self.halves: list[Half] = []
        self.forfeited: str | None = None
        self.sanctions: list[Sanction] = []
        self.level: dict[str, str | None] = {c: None for c in COACHES}
        # D-34: sanctions waiting for the offender's next turn / next possession, counted
        # (two losses of turn given in the opponent's turn take two turns)
        self._pending_turn_loss: dict[str, int] = {c: 0 for c in COACHES}
        self._pending_possession_loss: dict[str, int] = {c: 0 for c in COACHES}
        self._referee_next: str | None = None
        first = start.copy() if start is not None else Game.new(ruleset=self.ruleset, half=1)
        self.start_position = start.to_json() if start is not None else None
        self._start_half(atk_first, first)

    # ------------------------------------------------------------------ state views

    @property
    def half(self) -> Half:
        return self.halves[-1]

    @property
    def game(self) -> Game:
        return self.half.game

    @property
    def is_over(self) -> bool:
        return self.forfeited is not None or (
            self.half.number == HALVES and self.half.end is not None
        )

    @property
    def half_over(self) -> bool:
        return self.half.end is not None

    @property
    def turn_owner(self) -> str:
        """The side whose turn it is (the steal and recovery choices happen inside it)."""
        return self._turn_owner

    @property
    def in_final_drive(self) -> bool:
        return self._final_drive is not None and not self.half_over

    @property
    def release_stage(self) -> str | None:
        """None outside a release phase, else "coach" or "opponent" (R-release)."""
        return self._release.stage if self._release else None

    def annotate(self, comment: str | None) -> None:
        """Attach a comment to the last entry of the current half."""
        if comment and self.half.entries:
            self.half.entries[-1] = replace(self.half.entries[-1], comment=comment)

    def coach_to_move(self) -> str:
        """The coach who must answer now (the stealer during a steal decision)."""
        return self.half.coach_of(self.game.actor)

    def _now(self) -> float | None:
        return self.clock.now() if self.clock is not None else None

    def elapsed(self, at: float | None = None, given: int | None = None) -> int | None:
        """Whole seconds since the current half began; untimed, the `given` stamp (a
        replayed record's [%time])."""
        if self.clock is None or self.half.started_at is None:
            return given
        at = self.clock.now() if at is None else at
        return math.floor(at - self.half.started_at)

    # ------------------------------------------------------------------ halves

    def _start_half(self, atk_first: str, game: Game) -> None:
        now = self._now()
        self.halves.append(Half(game.half, atk_first, game, now))
        self._turn_owner = game.to_move
        self._window = now  # start of the current turn's action-phase time (D-21)
        self._overruns = 0  # turn-limit overruns in the current turn
        self._final_drive: FinalDrive[str] | None = None
        self._release: _Release | None = None

    def next_half(self) -> Half:
        """Start half 2: ends change, the other coach starts as ATK, PE and cards carry over."""
        if self.forfeited is not None:
            raise MatchError(f"the match is over: coach {self.forfeited} forfeited")
        if self.half.number >= HALVES:
            raise MatchError("a match has two halves")
        if not self.half_over:
            raise MatchError(f"half {self.half.number} is still being played")
        self._start_half(other(self.halves[0].atk_first), self.game.next_half())
        self._take_pending_turn_loss(self._turn_owner, self._now())
        self._take_pending_possession_loss(self._now())
        return self.half

    def _end_half(self, how: str) -> None:
        self.half.end = how
        self._release = None

    # ------------------------------------------------------------------ playing

    def play(self, action: str, *, by: str | None = None, time: int | None = None) -> list[Event]:
        """Apply one action for the coach to move (or, by="opponent", the opponent choosing
        a release option after the coach's release time ran out). Raises IllegalAction from
        the engine, MatchError when the match does not allow it."""
        self.tick()
        self._require_play()
        self._check_actor(by)
        action = " ".join(action.split())
        if by == "referee" and self.clock is None:
            expected = self._referee_next
            if Game.canonical(action) != expected:
                raise MatchError(f"the referee's resolution is {expected!r} here, not {action!r}")
        return self._apply(action, by, self._now(), time)

    def _apply(
        self, action: str, by: str | None, at: float | None, given: int | None
    ) -> list[Event]:
        turn = self.game.turn
        parsed = self.game.parse(action)
        events = self.game.apply(parsed)
        stamp = self.elapsed(at, given)
        # records keep the canonical spec-18.1 text, whatever case the coach typed
        self.half.entries.append(Entry(turn=turn, action=Game.canonical(action), by=by, time=stamp))
        self._after(events, at)
        return events

    def _require_play(self) -> None:
        if self.forfeited is not None:
            raise MatchError(f"the match is over: coach {self.forfeited} forfeited")
        if self.half_over:
            which = "the match is over" if self.is_over else f"half {self.half.number} is over"
            raise MatchError(f"{which} ({self.half.end})")

    def _check_actor(self, by: str | None) -> None:
        if by not in (None, "opponent", "referee"):
            raise MatchError(f"unknown actor {by!r}")
        if by is not None and self.game.phase != "release":
            raise MatchError(f"only release tasks are chosen by the {by}")
        if self.clock is None:
            # untimed (replay): the record says who chose; the referee's choice must be the
            # engine's deterministic resolution (R-release)
            if by == "referee":
                plan = self.game.copy().referee_release()
                if not plan:
                    raise MatchError("the referee has no release task to resolve")
                self._referee_next = plan[0]
            return
        stage = self.release_stage
        if stage == "opponent" and by != "opponent":
            raise MatchError("the release time is up: the opponent chooses the remaining releases")
        if by == "opponent" and stage != "opponent":
            raise MatchError("the opponent chooses only after the release time ran out")
        if by == "referee":
            raise MatchError("the referee's resolution is made by the match itself")

    def _after(self, events: list[Event], at: float | None) -> None:
        """Follow the engine: touchdown, new turns (Final Drive, pending sanctions), phases."""
        if self.game.is_over:
            self._end_half("touchdown")
            return
        for event in events:
            if event.kind == "turn" and event.side is not None:  # a turn event names its side
                self._new_turn(event.side, at)
                if self.half_over:
                    return
        if self.half_over:
            return
        if self.game.phase == "release":
            if self._release is None:
                self._release = _Release(at if at is not None else 0.0)
        else:
            self._release = None
        self._take_pending_possession_loss(at)

    def _new_turn(self, side: str, at: float | None) -> None:
        self.half.attack_at_turn[self.game.turn] = self.game.attack
        finished = self._turn_owner
        self._turn_owner = side
        self._window = at
        self._overruns = 0
        self._release = None
        drive = self._final_drive
        if drive is not None and drive.after_turn(finished, self.game.attack) != side:
            self._end_half("time")  # D-20: the Final Drive is over
            return
        self._take_pending_turn_loss(side, at)

    def _take_pending_turn_loss(self, side: str, at: float | None) -> None:
        coach = self.half.coach_of(side)
        if self._pending_turn_loss[coach]:
            self._pending_turn_loss[coach] -= 1
            self._lose_turn(at)

    def _take_pending_possession_loss(self, at: float | None) -> None:
        """D-34: a loss of ball possession bites only in the offender's own turn while it
        holds the ATK role (then D-19: reset, opponent ATK, no PB, its turn ends), so the
        other coach never loses a turn or the ball through the offender's sanction. Checked
        after every action and at every new turn; a pending steal decision is awaited."""
        if self.half_over or self.game.phase == "steal":
            return
        side = self._turn_owner
        coach = self.half.coach_of(side)
        if self._pending_possession_loss[coach] and self.game.attack == side:
            self._pending_possession_loss[coach] -= 1
            self._sanction_primitive(lambda: self.game.lose_possession(side), at)

    def _lose_turn(self, at: float | None) -> None:
        self._sanction_primitive(self.game.lose_turn, at)

    def _sanction_primitive(self, primitive: Any, at: float | None) -> None:
        """Run an engine sanction primitive and follow its events (its new turn included)."""
        self._after(primitive(), at)

    # ------------------------------------------------------------------ time

    def tick(self) -> None:
        """Apply every time event due by now, in the order they fell due."""
        if self.clock is None:
            return
        now = self.clock.now()
        while True:
            due = self._next_due()
            if due is None or due[0] > now:
                return
            at, handler = due
            handler(at)

    def next_time_event(self) -> float | None:
        """The instant, on the match's clock, of the next time event that falls due if
        nobody acts (half timer, release window, turn limit); None untimed or when none is."""
        due = self._next_due() if self.clock is not None else None
        return None if due is None else due[0]

    def time_reading(self) -> dict[str, Any]:
        """What BALL time shows now, in the table clock's words (its snapshot's `half_timer`
        and `turn`): half timer left, the Final Drive, the action-phase limit left (while it
        runs) and the release window with its time left."""
        if self.clock is None or self.half.started_at is None:
            raise MatchError("an untimed match shows no time")
        now, t, drive = self.clock.now(), self.timing, self._final_drive
        expiry = half_timer_expiry(self.half.started_at, t.half_seconds)
        reading: dict[str, Any] = {
            "half_left": max(0.0, expiry - now),
            "expired": drive is not None,
            "final_drive": None,
            "limit_left": None,
            "release": None,
        }
        if drive is not None:
            extra = drive.extra_turn_of
            reading["final_drive"] = {
                "turn_at_expiry": self.half.coach_of(drive.turn_at_expiry),
                "extra_turn_of": None if extra is None else self.half.coach_of(extra),
            }
        if self._window is not None and self._action_phase_running():
            reading["limit_left"] = t.turn_seconds - (now - self._window)
        if self._release is not None:
            end = release_window_end(t.release_windows, self._release.window)
            assert end is not None
            window = ("mover", "opponent")[self._release.window]
            reading["release"] = {"window": window, "left": self._release.since + end - now}
        return reading

    def _next_due(self) -> tuple[float, Any] | None:
        if self.is_over or self.half_over or self.half.started_at is None:
            return None
        t = self.timing
        candidates: list[tuple[float, Any]] = []
        if self._final_drive is None:
            expiry = half_timer_expiry(self.half.started_at, t.half_seconds)
            candidates.append((expiry, self.expire_half_timer))
        if self._release is not None:
            end = release_window_end(t.release_windows, self._release.window)
            assert end is not None  # the referee resolves at once after the last window
            candidates.append((self._release.since + end, self._release_timeout))
        elif t.overrun_sanctions and self._window is not None and self._action_phase_running():
            edge = turn_limit_edge(t.turn_seconds, self._overruns, every=t.turn_seconds)
            assert edge is not None
            candidates.append((self._window + edge, self._overrun))
        return min(candidates, key=lambda c: c[0]) if candidates else None

    def _action_phase_running(self) -> bool:
        """Whether the turn owner's action phase is running, the time D-21 limits. A steal
        decision inside it is the stealer's own thinking time and counts (as on the table
        clock): left out, the limit passed unseen and the overrun came after the decision,
        stamped earlier than it."""
        g = self.game
        if g.phase == "action":
            return g.to_move == self._turn_owner
        return g.phase == "steal" and g.actor == self._turn_owner and g.state.steal_resume == ACTION

    def expire_half_timer(self, at: float | None = None, time: int | None = None) -> None:
        """The half timer ran out (D-20): the Final Drive begins."""
        self._require_play()
        if self._final_drive is not None:
            raise MatchError("the half timer has already expired")
        entry = Entry(turn=self.game.turn, kind="final-drive", time=self.elapsed(at, time))
        self.half.entries.append(entry)
        self._final_drive = FinalDrive(self._turn_owner, expired_at=at)

    def _release_timeout(self, at: float) -> None:
        assert self._release is not None
        if self._release.window + 1 < len(RELEASE_STAGES):
            self._release.window += 1
            return
        # R-release: still unresolved; the referee ends the phase at once in a legal state.
        for action in self.game.copy().referee_release():
            self._apply(action, "referee", at, None)
            if self.half_over or self.game.phase != "release":
                break
        if self._release is not None and self.game.phase == "release":
            self._release = _Release(at)

    def _overrun(self, at: float) -> None:
        self._overruns += 1  # a coach who stays on gets a fresh window before the next step
        coach = self.half.coach_of(self._turn_owner)
        self.sanction(coach, reason="turn limit exceeded", at=at)

    # ------------------------------------------------------------------ sanctions, forfeit

    def sanction(
        self,
        coach: str,
        step: str | None = None,
        reason: str = "",
        at: float | None = None,
        time: int | None = None,
    ) -> Sanction:
        """Give `coach` the next step of the ladder (or the named step for a serious
        violation) and apply its effect on the game."""
        if coach not in COACHES:
            raise MatchError(f"coach must be A or B, not {coach!r}")
        if self.forfeited is not None:
            raise MatchError(f"the match is over: coach {self.forfeited} forfeited")
        chosen = self.ladder.after(self.level[coach]) if step is None else self._step(step)
        if chosen.effect == "lose-possession" and self.half_over:
            raise MatchError("loss of ball possession needs a half in play")
        if chosen.effect == "lose-turn" and self.is_over:
            raise MatchError("the match is over: there is no turn left to lose")
        if chosen.effect == "forfeit":
            self._require_unfinished()
        given = Sanction(
            coach, chosen.name, reason, self.half.number, self.game.turn, self.elapsed(at, time)
        )
        self.sanctions.append(given)
        self.half.entries.append(
            Entry(
                turn=given.turn,
                kind="sanction",
                coach=coach,
                step=chosen.name,
                reason=reason,
                time=given.time,
            )
        )
        names = self.ladder.names
        if self.level[coach] is None or names.index(chosen.name) > names.index(self.level[coach]):
            self.level[coach] = chosen.name
        self._sanction_effect(coach, chosen.effect, at)
        return given

    def _step(self, name: str) -> Step:
        try:
            return self.ladder.step(name)
        except ValueError as exc:
            raise MatchError(str(exc)) from None

    def _sanction_effect(self, coach: str, effect: str, at: float | None) -> None:
        if effect == "lose-turn":
            own_turn = self.half.coach_of(self._turn_owner) == coach and not self.half_over
            if own_turn:
                self._lose_turn(at)
            else:
                self._pending_turn_loss[coach] += 1  # applies at the start of their next turn
        elif effect == "lose-possession":
            # D-34: at once only if it is the offender's turn and it holds the ATK role;
            # otherwise it waits for the offender's next turn in possession.
            self._pending_possession_loss[coach] += 1
            self._take_pending_possession_loss(at)
        elif effect == "forfeit":
            self._forfeit(coach)

    def forfeit(
        self, coach: str, reason: str = "", at: float | None = None, time: int | None = None
    ) -> None:
        """Coach refuses or abandons the match: administrative 0-2 (R-forfeit)."""
        if coach not in COACHES:
            raise MatchError(f"coach must be A or B, not {coach!r}")
        if self.forfeited is not None:
            raise MatchError(f"the match is over: coach {self.forfeited} forfeited")
        self._require_unfinished()
        entry = Entry(
            turn=self.game.turn,
            kind="forfeit",
            coach=coach,
            reason=reason,
            time=self.elapsed(at, time),
        )
        self.half.entries.append(entry)
        self._forfeit(coach)

    def _require_unfinished(self) -> None:
        # D-35: a forfeit is a refused or abandoned half; once both halves are played to
        # their end the result stands on the board.
        if self.is_over:
            raise MatchError("the match is over: both halves were played, nothing to forfeit")

    def _forfeit(self, coach: str) -> None:
        self.forfeited = coach
        if not self.half_over:
            self._end_half("forfeit")

    # ------------------------------------------------------------------ result and record

    def sheet(self) -> dict[str, Any]:
        """The arbiter's score sheet of this match, PB from the engine's dual-entry counters."""
        halves = []
        for half in self.halves:
            g = half.game
            scorer = next((s for s in ("S", "N") if g.score[s]), None)
            halves.append(
                {
                    "atk_first": half.atk_first,
                    "td": half.coach_of(scorer) if scorer else None,
                    "end": half.end,
                    "pb": {
                        half.coach_of(s): {"atk": g.pb[s]["atk"], "def": g.pb[s]["def"]}
                        for s in ("S", "N")
                    },
                }
            )
        return {"coaches": list(COACHES), "halves": halves, "forfeit": self.forfeited}

    def decision(self) -> Decision:
        if not self.is_over:
            raise MatchError("the match is not over yet")
        return decide(self.sheet())

    def result_tags(self) -> dict[str, str]:
        """The tags a record derives from the match itself."""
        tags = {
            "CoachA": self.names["A"],
            "CoachB": self.names["B"],
            "Ruleset": str(getattr(self.ruleset, "name", "standard")),
        }
        if self.is_over:
            d = self.decision()
            tags["Result"] = RESULT_TEXT[d.winner]
            tags["Reason"] = d.reason
        else:
            tags["Result"] = "*"
        if self.forfeited is not None:
            tags["Forfeit"] = self.forfeited
        if self.start_position is not None:
            tags["Position"] = json.dumps(self.start_position, separators=(",", ":"))
        for half, raw in zip(self.halves, self.sheet()["halves"], strict=True):
            n = half.number
            pb = raw["pb"]
            tags[f"Half{n}ATK"] = half.atk_first
            tags[f"Half{n}TD"] = raw["td"] or "-"
            tags[f"Half{n}PB"] = " ".join(f"{pb[c]['atk']}/{pb[c]['def']}" for c in COACHES)
            tags[f"Half{n}End"] = half.end or "*"
            if half.research_only:
                tags[f"Half{n}Status"] = "research-only"
        return tags

    def record(self, tags: dict[str, str] | None = None) -> GameRecord:
        """The game record: the caller's tags (Event, Site, …) plus the derived ones."""
        merged = dict(tags or {})
        merged.update(self.result_tags())
        halves = [HalfRecord(h.number, list(h.entries)) for h in self.halves]
        return GameRecord(tags=merged, halves=halves)
