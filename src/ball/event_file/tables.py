"""Which tables an event file holds, how their rows are found and how they refer to each
other: the one description both the export (`ball.event_file.write`) and the import
(`ball.event_file.load`) read, so the two cannot disagree.

Every table of the toolbox that refers to an event (a foreign key chain to
`tournament_events`, or a plain column naming one) is either in `PARTS` or in `LEFT_OUT`
with the reason; tests/event_file/test_tables.py fails for a new such table in neither.

In the file, a row's own id and the ids it refers to are file-local numbers (1..n in the
order of the source's ids), never the database's: importing into another database gives
new ids, and exporting again gives the same file.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import Column, Table

import ball.clocks.models  # noqa: F401 - the clocks' tables on the shared metadata
import ball.tournament.models  # noqa: F401 - the tournament's tables
import ball.web.core.models  # noqa: F401 - the recorded Xiangqi games of the desk's tables
from ball.storage import Base

EVENTS = "tournament_events"
ENTRANTS = "tournament_entrants"

# The exported tables, parents before children (the import inserts in this order and the
# replacement of an event deletes in the reverse one).
PARTS: tuple[str, ...] = (
    EVENTS,
    ENTRANTS,
    "tournament_rounds",
    "tournament_pairings",
    "tournament_results",
    "tournament_tie_games",
    "desk_result_state",
    "tournament_lateness",
    "tournament_bye_requests",
    "tournament_corrections",
    "tournament_log",
    "desk_signals",
    "desk_half_ends",
    "desk_sanctions",
    "tournament_team_events",
    "tournament_teams",
    "tournament_team_members",
    "tournament_team_lineups",
    "tournament_team_matches",
    "tournament_group_stages",
    "tournament_default_times",
    "tournament_session_rules",
    "tournament_seats",
    "tournament_session_sheets",
    "desk_mahjong_drafts",
    "web_xiangqi_games",
    "clock_clocks",
    "clock_events",
)

# Tables of an event that the file leaves out, and why (the import leaves the target's own).
LEFT_OUT: dict[str, str] = {
    "desk_access": "the desk PIN's hash: a secret of the database it was set in",
    "desk_recovery": "the recovery code's hash: a secret of the database it was set in",
    "desk_sessions": "desk logins of that server, worthless elsewhere",
    "tournament_revisions": "a cache token, renewed by the import",
    "clock_snapshots": "a cache of the clock's log, rebuilt from the log (clock_events)",
    "desk_table_links": "the secret of the table links that server printed; the importing "
    "server makes its own when it prints",
    "desk_player_entries": "players' entries waiting for the desk on that server; what the "
    "desk accepted is a result (exported), and the log names who entered it",
    "desk_mahjong_seat_entries": "a Mahjong table's entry by its seats' links, waiting for "
    "the desk on that server; what the desk stored is the table's sheet (exported)",
    "desk_live_broadcasts": "that venue's broadcast switch: the importing server publishes "
    "its own live boards",
    "web_games": "the simulator's games, a BALL table's recorded match among them: they "
    "stay on the server of the table's device; the match's result is the event's",
}

# Columns that refer to an event without a foreign key (the clocks and the recorded games
# predate their link to events); in the file they are implied, as every event foreign key.
PLAIN_EVENT_REFS: frozenset[tuple[str, str]] = frozenset(
    {("clock_clocks", "event_id"), ("web_xiangqi_games", "desk_event")}
)

# Columns not written to the file, and what the import puts there instead.
#  - name_key: derived from the name (`ball.tournament.names.name_key`);
#  - uid: the file's `event_uid`;
#  - device_key, pin_hash: secrets of the database they were made in; the import gives each
#    table's clock and recorded game a fresh device key, and the clocks no PIN of their own
#    (the event's desk acts on them, with the PIN set on the importing server).
OMITTED: frozenset[tuple[str, str]] = frozenset(
    {
        (EVENTS, "name_key"),
        (EVENTS, "uid"),
        ("web_xiangqi_games", "device_key"),
        ("clock_clocks", "device_key"),
        ("clock_clocks", "pin_hash"),
    }
)

# Text columns holding JSON with entrant ids in it (nested lists of ids or nulls): the file
# holds file-local entrant numbers there too.
ENTRANT_IDS_IN_JSON: frozenset[tuple[str, str]] = frozenset(
    {("tournament_group_stages", "seating"), ("tournament_group_stages", "final_seats")}
)

# Text columns holding JSON (or "" where that means "none yet"): a file is refused when one
# holds anything else, which no page could read.
JSON_TEXT: frozenset[tuple[str, str]] = frozenset(
    {
        (EVENTS, "scoring"), (EVENTS, "tiebreaks"), (EVENTS, "lots"),
        ("tournament_rounds", "lots"),
        ("tournament_results", "sheet"), ("tournament_results", "decision"),
        ("tournament_tie_games", "sheet"), ("tournament_tie_games", "decision"),
        ("desk_result_state", "steals"),
        ("tournament_corrections", "before"), ("tournament_corrections", "after"),
        ("tournament_session_sheets", "sheet"), ("tournament_session_sheets", "scores"),
        ("tournament_session_sheets", "table_points"),
        ("desk_mahjong_drafts", "sheet"), ("desk_mahjong_drafts", "last_edit"),
        ("web_xiangqi_games", "moves"), ("web_xiangqi_games", "ending"),
        ("clock_clocks", "control"), ("clock_clocks", "players"),
        ("clock_events", "data"),
    }
)  # fmt: skip


@dataclass(frozen=True)
class Part:
    """One exported table as the file sees it."""

    table: Table
    own_id: Column | None  # the surrogate key `id` renumbered in the file, if any
    event_column: Column | None  # the column naming the event (implied in the file)
    refs: dict[str, str]  # column -> the exported table whose file-local id it holds
    parent: tuple[Column, str] | None  # without an event column: the reference to follow
    columns: tuple[Column, ...]  # the columns written to the file, in table order

    @property
    def name(self) -> str:
        return self.table.name


def table(name: str) -> Table:
    return Base.metadata.tables[name]


def names_event(column: Column) -> bool:
    """Whether a column holds an event's id (a foreign key to it, or a plain reference)."""
    table_name = column.table.name
    if (table_name, column.name) in PLAIN_EVENT_REFS:
        return True
    return any(fk.column.table.name == EVENTS for fk in column.foreign_keys)


def _part(name: str) -> Part:
    t = table(name)
    own = t.c.get("id")
    own_id = own if own is not None and own.primary_key and name != EVENTS else None
    event_column = next((c for c in t.columns if names_event(c)), None)
    refs: dict[str, str] = {}
    for c in t.columns:
        for fk in c.foreign_keys:
            target = fk.column.table.name
            if target != EVENTS and target in PARTS:
                refs[c.name] = target
    parent = None
    if event_column is None and name != EVENTS:
        first = next(c for c in t.columns if c.name in refs)
        parent = (first, refs[first.name])
    skip = {(name, "id")} if name == EVENTS else set()
    columns = tuple(
        c
        for c in t.columns
        if (name, c.name) not in OMITTED and (name, c.name) not in skip and c is not event_column
    )
    return Part(t, own_id, event_column, refs, parent, columns)


def parts() -> list[Part]:
    """Every exported table, parents first."""
    return [_part(name) for name in PARTS]
