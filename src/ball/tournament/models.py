"""Every table of the tournament: `tournament_*` (Alembic branch "tournament") and the
`desk_*` rows its arbiter use cases write (signals, half ends, sanctions, result versions).

Team events: `tournament_team*` (teams, members, line-ups, team matches).
Rows are plain records: the rules live in `service`, `pairing` and `standings`. Settings an
organiser may change (scoring, tie-break chain) are stored as JSON text on the event.
"""

from __future__ import annotations

import uuid
from typing import Any

from sqlalchemy import Boolean, Float, ForeignKey, Integer, String, Text, UniqueConstraint, event
from sqlalchemy.orm import Mapped, mapped_column, relationship

from ball.storage import Base
from ball.storage.text import FREE_TEXT_MAX
from ball.tournament.names import name_key

# A free-text column's limit, checked on every flush (`ball.storage.lengths`).
FREE_TEXT = {"max_chars": FREE_TEXT_MAX}


class EventRecord:
    """Columns every record of an event's happenings shares: its id, its event (deleted
    with it) and when it happened. `sort_order` keeps the columns where the tables always
    had them (id and event first, `at` after the record's own columns), so the schema and
    the migrations are unchanged."""

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True, sort_order=-2)
    event_id: Mapped[int] = mapped_column(
        ForeignKey("tournament_events.id", ondelete="CASCADE"), sort_order=-1
    )
    at: Mapped[float] = mapped_column(Float, sort_order=1)


class Event(Base):
    __tablename__ = "tournament_events"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    name: Mapped[str] = mapped_column(String(200))
    # `names.name_key(name)`, unique: two creations racing with the same name cannot both
    # commit. Set on insert by `_set_name_key`; NULL only for a duplicate an old database held.
    name_key: Mapped[str | None] = mapped_column(Text, nullable=True, unique=True)
    date_start: Mapped[str] = mapped_column(String(10), default="")
    date_end: Mapped[str] = mapped_column(String(10), default="")
    place: Mapped[str] = mapped_column(String(200), default="")
    game: Mapped[str] = mapped_column(String(40), default="ball")
    ruleset: Mapped[str] = mapped_column(String(80), default="standard")
    system: Mapped[str] = mapped_column(String(40))
    rounds: Mapped[int | None] = mapped_column(Integer, nullable=True)
    scoring: Mapped[str] = mapped_column(Text)  # JSON: win/draw/loss/bye points
    tiebreaks: Mapped[str] = mapped_column(Text)  # JSON list of tie-break names
    tiebreak_rules: Mapped[str] = mapped_column(String(40), default="fide-2024")
    arbiter: Mapped[str] = mapped_column(String(200), default="")
    draw_lots_seed: Mapped[int | None] = mapped_column(Integer, nullable=True)
    lots: Mapped[str] = mapped_column(Text, default="")  # JSON record of the draw
    initial_colour: Mapped[str] = mapped_column(String(6), default="white1")
    knockout_replays: Mapped[int] = mapped_column(Integer, default=1)
    late_entry_bye: Mapped[str] = mapped_column(String(8), default="zero")
    # A knockout tie as a mini-match (`minimatch.Policy`): games, extra games, lots|armageddon.
    games_per_tie: Mapped[int] = mapped_column(Integer, default=1)
    tie_extra_games: Mapped[int] = mapped_column(Integer, default=0)
    tie_break: Mapped[str] = mapped_column(String(12), default="lots")
    created_at: Mapped[float] = mapped_column(Float)
    # The event's identity across databases (tournament_0008_uid): `ball event export` writes
    # it and `ball event import` finds the event by it, whatever its id in either database.
    uid: Mapped[str] = mapped_column(String(32), unique=True, default=lambda: uuid.uuid4().hex)

    entrants: Mapped[list[Entrant]] = relationship(
        back_populates="event", cascade="all, delete-orphan", order_by="Entrant.registered"
    )
    rounds_: Mapped[list[Round]] = relationship(
        back_populates="event", cascade="all, delete-orphan", order_by="Round.number"
    )


class Entrant(Base):
    __tablename__ = "tournament_entrants"
    __table_args__ = (
        UniqueConstraint("event_id", "name", name="uq_tournament_entrant_name"),
        UniqueConstraint("event_id", "registered", name="uq_tournament_entrant_registered"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("tournament_events.id", ondelete="CASCADE"))
    registered: Mapped[int] = mapped_column(Integer)  # registration order, 1..n
    number: Mapped[int] = mapped_column(Integer)  # pairing number
    name: Mapped[str] = mapped_column(String(200))
    club: Mapped[str] = mapped_column(String(200), default="")
    federation: Mapped[str] = mapped_column(String(3), default="")
    rating: Mapped[int | None] = mapped_column(Integer, nullable=True)
    status: Mapped[str] = mapped_column(String(12), default="active")  # active | withdrawn
    withdrawn_after: Mapped[int | None] = mapped_column(Integer, nullable=True)
    first_round: Mapped[int] = mapped_column(Integer, default=1)  # > 1: late entry

    event: Mapped[Event] = relationship(back_populates="entrants")


class Round(Base):
    __tablename__ = "tournament_rounds"
    __table_args__ = (UniqueConstraint("event_id", "number", name="uq_tournament_round"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("tournament_events.id", ondelete="CASCADE"))
    number: Mapped[int] = mapped_column(Integer)
    method: Mapped[str] = mapped_column(String(200), default="")  # who paired it and how
    paired_at: Mapped[float] = mapped_column(Float)
    lots: Mapped[str] = mapped_column(Text, default="")  # JSON: the drawing of lots that paired it
    # The pairing check (`pairing_check`): True passed, False failed, None not checked or
    # nothing to check against; what checked it and the checker's message.
    check_ok: Mapped[bool | None] = mapped_column(Boolean, nullable=True, default=None)
    check_by: Mapped[str] = mapped_column(String(200), default="")
    check_detail: Mapped[str] = mapped_column(Text, default="")
    # Whether players see the round (public pages, printed pairings): a failed check keeps
    # it back until the pairing is fixed or the arbiter publishes it with a logged reason.
    published: Mapped[bool] = mapped_column(Boolean, default=True)

    event: Mapped[Event] = relationship(back_populates="rounds_")
    pairings: Mapped[list[Pairing]] = relationship(
        back_populates="round", cascade="all, delete-orphan", order_by="Pairing.table"
    )


class Pairing(Base):
    """One table of a round: coach A (ATK in the first half, TRF White) against coach B, or a bye.

    A bye has `b_id` NULL and `bye` one of `pab` (pairing-allocated), `half` (requested
    half-point), `zero` (zero-point), `full` (full-point, arbiter's decision).
    """

    __tablename__ = "tournament_pairings"
    __table_args__ = (
        UniqueConstraint("round_id", "table", name="uq_tournament_pairing_table"),
        UniqueConstraint("round_id", "a_id", name="uq_tournament_pairing_a"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    round_id: Mapped[int] = mapped_column(ForeignKey("tournament_rounds.id", ondelete="CASCADE"))
    table: Mapped[int] = mapped_column(Integer)
    a_id: Mapped[int] = mapped_column(ForeignKey("tournament_entrants.id"))
    b_id: Mapped[int | None] = mapped_column(ForeignKey("tournament_entrants.id"), nullable=True)
    bye: Mapped[str | None] = mapped_column(String(8), nullable=True)
    manual: Mapped[bool] = mapped_column(Boolean, default=False)

    round: Mapped[Round] = relationship(back_populates="pairings")
    a: Mapped[Entrant] = relationship(foreign_keys=[a_id])
    b: Mapped[Entrant | None] = relationship(foreign_keys=[b_id])
    result: Mapped[Result | None] = relationship(
        back_populates="pairing", cascade="all, delete-orphan", uselist=False
    )
    tie_games: Mapped[list[TieGame]] = relationship(
        back_populates="pairing", cascade="all, delete-orphan", order_by="TieGame.game"
    )


class Result(Base):
    """The result of one table.

    `kind` is `sheet`, `forfeit` (`forfeit_by` A or B), `double-forfeit`, or `outcome`
    (imported from a TRF: who won, without a sheet).
    """

    __tablename__ = "tournament_results"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    pairing_id: Mapped[int] = mapped_column(
        ForeignKey("tournament_pairings.id", ondelete="CASCADE"), unique=True
    )
    kind: Mapped[str] = mapped_column(String(16))
    forfeit_by: Mapped[str | None] = mapped_column(String(1), nullable=True)
    sheet: Mapped[str] = mapped_column(Text, default="")  # the score sheet, JSON
    decision: Mapped[str] = mapped_column(Text, default="")  # the game's decision, JSON
    outcome: Mapped[str] = mapped_column(String(1))  # A, B, D (draw) or N (nobody: double forfeit)
    entered_at: Mapped[float] = mapped_column(Float)

    pairing: Mapped[Pairing] = relationship(back_populates="result")


class TieGame(Base):
    """One game of a knockout tie played as a mini-match (`minimatch`), or the drawing of
    lots that decided it (`kind` lots, the last row). `outcome` is from the tie's sides'
    view (A = the pairing's coach A), whoever had the first colour in that game; the
    pairing's `result` is written once the tie is decided."""

    __tablename__ = "tournament_tie_games"
    __table_args__ = (UniqueConstraint("pairing_id", "game", name="uq_tournament_tie_game"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    pairing_id: Mapped[int] = mapped_column(
        ForeignKey("tournament_pairings.id", ondelete="CASCADE")
    )
    game: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(16))  # sheet | forfeit | double-forfeit | lots
    forfeit_by: Mapped[str | None] = mapped_column(String(1), nullable=True)
    sheet: Mapped[str] = mapped_column(Text, default="")
    decision: Mapped[str] = mapped_column(Text, default="")
    outcome: Mapped[str] = mapped_column(String(1))  # A, B, D or N, the tie's sides
    entered_at: Mapped[float] = mapped_column(Float)

    pairing: Mapped[Pairing] = relationship(back_populates="tie_games")


class ResultCorrection(EventRecord, Base):
    """Audit trail: every corrected result keeps what it was and why it changed."""

    __tablename__ = "tournament_corrections"

    round_number: Mapped[int] = mapped_column(Integer)
    table: Mapped[int] = mapped_column(Integer)
    before: Mapped[str] = mapped_column(Text)
    after: Mapped[str] = mapped_column(Text)
    reason: Mapped[str] = mapped_column(Text, info=FREE_TEXT)


class ByeRequest(Base):
    """A bye asked for before a round is paired (`half` or `zero`); the pairing honours it."""

    __tablename__ = "tournament_bye_requests"
    __table_args__ = (
        UniqueConstraint("entrant_id", "round_number", name="uq_tournament_bye_request"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("tournament_events.id", ondelete="CASCADE"))
    entrant_id: Mapped[int] = mapped_column(
        ForeignKey("tournament_entrants.id", ondelete="CASCADE")
    )
    round_number: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(8))


class LogEntry(EventRecord, Base):
    """The arbiter's log: sanctions, signals, overrides, withdrawals; append-only."""

    __tablename__ = "tournament_log"

    kind: Mapped[str] = mapped_column(String(40))  # sanction | signal | override | withdrawal ...
    entrant_id: Mapped[int | None] = mapped_column(
        ForeignKey("tournament_entrants.id", ondelete="SET NULL"), nullable=True
    )
    round_number: Mapped[int | None] = mapped_column(Integer, nullable=True)
    table: Mapped[int | None] = mapped_column(Integer, nullable=True)
    detail: Mapped[str] = mapped_column(Text, default="", info=FREE_TEXT)


# ------------------------------------------------------------------ the desk's tables
# Written by the tournament's use cases (signals, half ends, sanctions, a table's result
# version); created by the desk's Alembic branch, hence the `desk_` names (kept, so no
# migration).


# A signal and a first-half end always have their round (and a half end its table); a
# sanction may be given away from any table, so there both are nullable.


class Signal(EventRecord, Base):
    __tablename__ = "desk_signals"
    __table_args__ = (
        UniqueConstraint("event_id", "round_number", "signal", name="uq_desk_signal"),
    )

    round_number: Mapped[int] = mapped_column(Integer)
    signal: Mapped[int] = mapped_column(Integer)  # 1 = first halves, 2 = second halves


class HalfEnd(EventRecord, Base):
    __tablename__ = "desk_half_ends"
    __table_args__ = (
        UniqueConstraint("event_id", "round_number", "table", name="uq_desk_half_end"),
    )

    round_number: Mapped[int] = mapped_column(Integer)
    table: Mapped[int] = mapped_column(Integer)
    source: Mapped[str] = mapped_column(String(16), sort_order=2)  # after `at`, as it was


class SanctionEntry(EventRecord, Base):
    __tablename__ = "desk_sanctions"

    entrant_id: Mapped[int] = mapped_column(
        ForeignKey("tournament_entrants.id", ondelete="CASCADE")
    )
    round_number: Mapped[int | None] = mapped_column(Integer, nullable=True)
    table: Mapped[int | None] = mapped_column(Integer, nullable=True)
    step: Mapped[str] = mapped_column(String(40))
    reason: Mapped[str] = mapped_column(Text, info=FREE_TEXT)


class ResultState(Base):
    """Per table: the version of its result (optimistic concurrency) and the steals noted."""

    __tablename__ = "desk_result_state"

    pairing_id: Mapped[int] = mapped_column(
        ForeignKey("tournament_pairings.id", ondelete="CASCADE"), primary_key=True
    )
    version: Mapped[int] = mapped_column(Integer, default=0)
    steals: Mapped[str] = mapped_column(Text, default="[]")
    updated_at: Mapped[float] = mapped_column(Float, default=0.0)


class TableLinkKey(Base):
    """An event's table links (issue 35 §1, `ball.tournament.table_links`): the secret each
    table's links are derived from (never a link itself), and whether results both sides
    confirmed are accepted without the desk's approval."""

    __tablename__ = "desk_table_links"

    event_id: Mapped[int] = mapped_column(
        ForeignKey("tournament_events.id", ondelete="CASCADE"), primary_key=True
    )
    secret: Mapped[str] = mapped_column(String(64))
    auto_accept: Mapped[bool] = mapped_column(Boolean, default=False)


class PlayerEntry(Base):
    """A table's result as its players entered it by their links: who entered it, the
    result document, and where it stands (entered, confirmed, disputed, accepted)."""

    __tablename__ = "desk_player_entries"

    pairing_id: Mapped[int] = mapped_column(
        ForeignKey("tournament_pairings.id", ondelete="CASCADE"), primary_key=True
    )
    side: Mapped[str] = mapped_column(String(1))  # A or B: who entered it
    document: Mapped[str] = mapped_column(Text, info=FREE_TEXT)  # {"sheet": ...} as JSON
    state: Mapped[str] = mapped_column(String(20))
    answered_by: Mapped[str] = mapped_column(String(10), default="")  # A, B, desk, auto
    at: Mapped[float] = mapped_column(Float)


class SeatEntry(Base):
    """A Mahjong table's session as one of its seats entered it by its link (issue 35 §1):
    which seat entered it, the sheet, and where it stands (the states of `PlayerEntry`;
    `answered_by` is the seat that confirmed or disputed it, or who stored it)."""

    __tablename__ = "desk_mahjong_seat_entries"

    round_id: Mapped[int] = mapped_column(
        ForeignKey("tournament_rounds.id", ondelete="CASCADE"), primary_key=True
    )
    table: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[str] = mapped_column(String(1))  # E, S, W or N: who entered it
    document: Mapped[str] = mapped_column(Text, info=FREE_TEXT)  # {"sheet": ..., "form": ...}
    state: Mapped[str] = mapped_column(String(20))
    answered_by: Mapped[str] = mapped_column(String(10), default="")  # a wind, desk, auto
    at: Mapped[float] = mapped_column(Float)


class MahjongDraft(Base):
    """A Mahjong table's sheet as the desk enters it, hand by hand (issue 18): saved after
    every hand or ruling, with a version for the 409 of two saves at once. Closing the table
    copies it into `tournament_session_sheets`; the draft stays for corrections."""

    __tablename__ = "desk_mahjong_drafts"

    round_id: Mapped[int] = mapped_column(
        ForeignKey("tournament_rounds.id", ondelete="CASCADE"), primary_key=True
    )
    table: Mapped[int] = mapped_column(Integer, primary_key=True)
    sheet: Mapped[str] = mapped_column(Text)  # JSON: seats, hands, penalties, time_penalties
    version: Mapped[int] = mapped_column(Integer, default=0)
    last_edit: Mapped[str] = mapped_column(Text, default="")  # JSON: the change that made it
    updated_at: Mapped[float] = mapped_column(Float, default=0.0)


@event.listens_for(Event, "before_insert")
def _set_name_key(_mapper: Any, _connection: Any, target: Event) -> None:
    target.name_key = name_key(target.name)


# ------------------------------------------------------------------ team events (issue 17)
# Migration tournament_0005_t; the rules are in `teams` and `team_service`.

TEAM_EVENT_FK = "tournament_events.id"
TEAM_FK = "tournament_teams.id"
ENTRANT_FK = "tournament_entrants.id"


class TeamEvent(Base):
    __tablename__ = "tournament_team_events"

    event_id: Mapped[int] = mapped_column(
        ForeignKey(TEAM_EVENT_FK, ondelete="CASCADE"), primary_key=True
    )
    boards: Mapped[int] = mapped_column(Integer)
    ranking: Mapped[str] = mapped_column(String(8), default="15.3")  # 15.3 | 15.4 | 15.5


class Team(Base):
    __tablename__ = "tournament_teams"
    __table_args__ = (UniqueConstraint("event_id", "name", name="uq_tournament_team_name"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    event_id: Mapped[int] = mapped_column(ForeignKey(TEAM_EVENT_FK, ondelete="CASCADE"))
    name: Mapped[str] = mapped_column(String(200))
    registered: Mapped[int] = mapped_column(Integer)
    members: Mapped[list[TeamMember]] = relationship(
        cascade="all, delete-orphan", order_by="TeamMember.position"
    )


class TeamMember(Base):
    __tablename__ = "tournament_team_members"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    team_id: Mapped[int] = mapped_column(ForeignKey(TEAM_FK, ondelete="CASCADE"))
    entrant_id: Mapped[int] = mapped_column(ForeignKey(ENTRANT_FK, ondelete="CASCADE"), unique=True)
    position: Mapped[int] = mapped_column(Integer)  # registration order inside the team


class TeamLineup(Base):
    __tablename__ = "tournament_team_lineups"
    __table_args__ = (
        UniqueConstraint("team_id", "round_number", "board", name="uq_tournament_lineup"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    team_id: Mapped[int] = mapped_column(ForeignKey(TEAM_FK, ondelete="CASCADE"))
    round_number: Mapped[int] = mapped_column(Integer)
    board: Mapped[int] = mapped_column(Integer)
    entrant_id: Mapped[int] = mapped_column(ForeignKey(ENTRANT_FK, ondelete="CASCADE"))


class TeamMatch(Base):
    __tablename__ = "tournament_team_matches"
    __table_args__ = (
        UniqueConstraint("event_id", "round_number", "match", name="uq_tournament_match"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    event_id: Mapped[int] = mapped_column(ForeignKey(TEAM_EVENT_FK, ondelete="CASCADE"))
    round_number: Mapped[int] = mapped_column(Integer)
    match: Mapped[int] = mapped_column(Integer)
    first_id: Mapped[int] = mapped_column(ForeignKey(TEAM_FK, ondelete="CASCADE"))
    second_id: Mapped[int | None] = mapped_column(
        ForeignKey(TEAM_FK, ondelete="CASCADE"), nullable=True
    )


# ------------------------------------------------------------------ Mahjong (issue 18)
# Tables of four: a Mahjong event's settings, the seats of each session (a `Round`) and each
# table's session sheet; created by `tournament_0004_mj`. Used by Mahjong's use cases
# (`ball.games.mahjong.tournament`).


class SessionRules(Base):
    """A Mahjong event's own settings (one row per event)."""

    __tablename__ = "tournament_session_rules"

    event_id: Mapped[int] = mapped_column(
        ForeignKey("tournament_events.id", ondelete="CASCADE"), primary_key=True
    )
    hands_per_session: Mapped[int] = mapped_column(Integer, default=16)
    method: Mapped[str] = mapped_column(String(12), default="balanced")  # later sessions


class Seat(Base):
    """One seat (E, S, W, N) of one table in one session."""

    __tablename__ = "tournament_seats"
    __table_args__ = (
        UniqueConstraint("round_id", "table", "seat", name="uq_tournament_seat"),
        UniqueConstraint("round_id", "entrant_id", name="uq_tournament_seat_entrant"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    round_id: Mapped[int] = mapped_column(ForeignKey("tournament_rounds.id", ondelete="CASCADE"))
    table: Mapped[int] = mapped_column(Integer)
    seat: Mapped[str] = mapped_column(String(1))
    entrant_id: Mapped[int] = mapped_column(
        ForeignKey("tournament_entrants.id", ondelete="CASCADE")
    )


class SessionSheet(Base):
    """A table's session sheet and the figures decided from it (seat order E S W N)."""

    __tablename__ = "tournament_session_sheets"
    __table_args__ = (UniqueConstraint("round_id", "table", name="uq_tournament_session_sheet"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    round_id: Mapped[int] = mapped_column(ForeignKey("tournament_rounds.id", ondelete="CASCADE"))
    table: Mapped[int] = mapped_column(Integer)
    sheet: Mapped[str] = mapped_column(Text)  # the sheet as entered, JSON
    scores: Mapped[str] = mapped_column(Text)  # JSON [E, S, W, N] session scores
    table_points: Mapped[str] = mapped_column(Text)  # JSON ["4", "3/2", ...] exact fractions
    entered_at: Mapped[float] = mapped_column(Float)


# ---------------------------------------------------------------------- groups, lateness
#
# Issue 17: seeded groups then a final stage (`groups`, `group_service`) and the lateness
# rules of seed 004 articles 21-22 (`lateness`, `lateness_service`).


class GroupStage(Base):
    """An event run as seeded groups then a final (`--system groups`)."""

    __tablename__ = "tournament_group_stages"

    event_id: Mapped[int] = mapped_column(
        ForeignKey(TEAM_EVENT_FK, ondelete="CASCADE"), primary_key=True
    )
    groups: Mapped[int] = mapped_column(Integer)
    cycles: Mapped[int] = mapped_column(Integer, default=1)
    final: Mapped[str] = mapped_column(String(16), default="knockout")
    qualifiers: Mapped[int] = mapped_column(Integer, default=2)
    carry: Mapped[bool] = mapped_column(Boolean, default=False)
    # JSON, set at round 1: the groups as lists of entrant ids, seat order.
    seating: Mapped[str] = mapped_column(Text, default="")
    group_rounds: Mapped[int | None] = mapped_column(Integer, nullable=True)
    # JSON, set when the final is first paired: its seats (a bracket's slots, null = empty).
    final_seats: Mapped[str] = mapped_column(Text, default="")
    final_start: Mapped[int | None] = mapped_column(Integer, nullable=True)


class DefaultTime(Base):
    """The event's default time (21.1): minutes after the start a player may still arrive."""

    __tablename__ = "tournament_default_times"

    event_id: Mapped[int] = mapped_column(
        ForeignKey(TEAM_EVENT_FK, ondelete="CASCADE"), primary_key=True
    )
    minutes: Mapped[int] = mapped_column(Integer)


class Lateness(Base):
    """Who arrived late at a table and by how many minutes (None: not at all; -1: never
    came), with the ruling applied (21.1-21.4)."""

    __tablename__ = "tournament_lateness"

    pairing_id: Mapped[int] = mapped_column(
        ForeignKey("tournament_pairings.id", ondelete="CASCADE"), primary_key=True
    )
    a_minutes: Mapped[int | None] = mapped_column(Integer, nullable=True)
    b_minutes: Mapped[int | None] = mapped_column(Integer, nullable=True)
    ruling: Mapped[str] = mapped_column(Text, default="", info=FREE_TEXT)


class EventRevision(Base):
    """The event's revision token (`ball.tournament.revisions`): renewed by every write to the
    event's rows, read by the caches of what is derived from the event."""

    __tablename__ = "tournament_revisions"

    event_id: Mapped[int] = mapped_column(
        ForeignKey("tournament_events.id", ondelete="CASCADE"), primary_key=True
    )
    token: Mapped[str] = mapped_column(String(32))
